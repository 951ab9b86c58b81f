/**
 * A small note that the embedded basemap has no streets and the commands that give it streets
 * (`pinmap streets`, then `pinmap serve --streets`): said once per page past the basemap's detail
 * (`useBasemapNote`), in a strip of its own at the top of the map's box, above the map and never
 * over it or a pin (`useNoteStrip`). It fades out by itself after a few seconds (not while the
 * pointer or focus is on it); its close button takes it away at once (`gone`: its strip stays,
 * empty, until the map is at rest). The text's parts between backticks are shown as code.
 */
export function BasemapNote({ text, dismissLabel, gone, onDone, stripRef }: { text: string; dismissLabel: string; gone: boolean; onDone: () => void; stripRef: (element: HTMLDivElement | null) => void }) {
  return (
    <div className="pinmap-basemap-note" role="status" data-gone={gone || undefined} onAnimationEnd={onDone}>
      <div className="pinmap-basemap-note-body" ref={stripRef}>
        <span className="pinmap-notice-text">{text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</span>
        <button type="button" className="pinmap-notice-dismiss" aria-label={dismissLabel} title={dismissLabel} onClick={onDone}>
          ×
        </button>
      </div>
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
