/**
 * A small note over the map that the embedded basemap has no streets and the commands that give
 * it streets (`pinmap streets`, then `pinmap serve --streets`): said once per page past the
 * basemap's detail (`useBasemapNote`), in the strip above the pins that the camera keeps free of
 * them when it opens on them (`FIT_PINS.padding.top`). Once the map is drawn (`fading`) it fades
 * out by itself after a few seconds (not while the pointer or focus is on it); its close button
 * takes it away at once. The text's parts between backticks are shown as code.
 */
export function BasemapNote({ text, dismissLabel, fading, onDone }: { text: string; dismissLabel: string; fading: boolean; onDone: () => void }) {
  return (
    <div className="pinmap-notice pinmap-basemap-note" role="status" data-fading={fading || undefined} onAnimationEnd={onDone}>
      <span className="pinmap-notice-text">{text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</span>
      <button type="button" className="pinmap-notice-dismiss" aria-label={dismissLabel} title={dismissLabel} onClick={onDone}>
        ×
      </button>
    </div>
  );
}

/**
 * The name the note gives the pin file in its commands: the last part of the config's `pins` URL
 * when it is a GeoJSON or CSV file, else `places.csv`.
 */
export function pinFileName(pins: unknown): string {
  if (typeof pins !== 'string' || pins.startsWith('pmtiles://')) return 'places.csv';
  let name: string;
  try {
    name = decodeURIComponent(new URL(pins, 'http://localhost/').pathname.split('/').pop() ?? '');
  } catch {
    return 'places.csv';
  }
  return /^[\w.-]+\.(csv|tsv|txt|geojson|json)$/i.test(name) ? name : 'places.csv';
}
