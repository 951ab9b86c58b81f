/**
 * A small note over the map that the embedded basemap has no streets and how to get them: said
 * once per page past the basemap's detail (`useBasemapNote`). Once the map is drawn (`fading`) it
 * fades out by itself after a few seconds (not while the pointer or focus is on it); its close
 * button takes it away at once.
 */
export function BasemapNote({ text, dismissLabel, fading, onDone }: { text: string; dismissLabel: string; fading: boolean; onDone: () => void }) {
  return (
    <div className="pinmap-notice pinmap-basemap-note" role="status" data-fading={fading || undefined} onAnimationEnd={onDone}>
      <span className="pinmap-notice-text">{text}</span>
      <button type="button" className="pinmap-notice-dismiss" aria-label={dismissLabel} title={dismissLabel} onClick={onDone}>
        ×
      </button>
    </div>
  );
}
