/**
 * A small note over the map: about its pins (some could not be shown), or, as an alert, about
 * pins that could not be loaded (with a retry) or a part of the map that could not start (WebGL
 * in the hybrid view). It never blocks the map: it sits at the top, is announced, and can be
 * dismissed.
 */
export function PinNotice({ text, dismissLabel, onDismiss, alert = false, retryLabel, onRetry }: {
  text: string;
  dismissLabel: string;
  onDismiss: () => void;
  alert?: boolean;
  retryLabel?: string;
  onRetry?: () => void;
}) {
  return (
    <div className={alert ? 'pinmap-notice pinmap-notice-alert' : 'pinmap-notice'} role={alert ? 'alert' : 'status'}>
      <span className="pinmap-notice-text">{text}</span>
      {onRetry && (
        <button type="button" className="pinmap-notice-retry" onClick={onRetry}>
          {retryLabel}
        </button>
      )}
      <button type="button" className="pinmap-notice-dismiss" aria-label={dismissLabel} title={dismissLabel} onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
