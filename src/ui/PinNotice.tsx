/**
 * A small note over the map about its pins (some could not be shown, or none could be loaded).
 * It never blocks the map: it sits at the top, is announced politely, and can be dismissed.
 */
export function PinNotice({ text, dismissLabel, onDismiss }: { text: string; dismissLabel: string; onDismiss: () => void }) {
  return (
    <div className="pinmap-notice" role="status">
      <span className="pinmap-notice-text">{text}</span>
      <button type="button" className="pinmap-notice-dismiss" aria-label={dismissLabel} title={dismissLabel} onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
