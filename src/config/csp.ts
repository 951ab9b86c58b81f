/**
 * The Content Security Policy the app is served with (`vite preview`, so `npm start`), and the
 * one the browser tests hold it to. Site owners who serve `dist/` themselves send the same header
 * from their server, adapted as README.md ("Content Security Policy") says.
 *
 * What each source is for:
 * - scripts and workers only from the app's own origin: no inline script, no `eval`, no `blob:`
 *   (MapLibre's worker and the pin index's are bundled files started by URL; see
 *   src/map/maplibre-map.ts and src/pins/grouping/pin-index.ts);
 * - styles only from the app's own style sheets (MapLibre, Leaflet and React set element styles
 *   through the CSSOM, which CSP allows);
 * - `connect-src`: the app's origin, and any https origin, for a `?config=` that points the map
 *   at a provider's style, tiles, glyphs and sprites (fetched by MapLibre, in its worker too);
 * - `img-src`: the app's origin, https raster tiles (the hybrid view's layers are images), and
 *   `data:` for the pin images the GPU renderer draws from the pin's SVG and for the blank image
 *   Leaflet puts in a tile it lets go;
 * - `font-src`: the app's fonts, and https fonts a provider's style declares in `font-faces`.
 */
export const CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'worker-src': ["'self'"],
  // Browsers without worker-src take workers from child-src; frames have their own, below.
  'child-src': ["'self'"],
  'frame-src': ["'none'"],
  'style-src': ["'self'"],
  'connect-src': ["'self'", 'https:'],
  'img-src': ["'self'", 'data:', 'https:'],
  'font-src': ["'self'", 'https:'],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'self'"],
};

/** A policy's directives as the value of a `Content-Security-Policy` header. */
export function serializeCsp(directives: Readonly<Record<string, readonly string[]>>): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

/** The app's policy, as the header's value. */
export const CONTENT_SECURITY_POLICY = serializeCsp(CSP_DIRECTIVES);

/**
 * The policy for a page that embeds the library (dist/lib): the app's own. The library's style
 * sheet names its fonts (Font Awesome, Noto Sans) as files beside it (dist/lib/assets), not as
 * `data:` URLs, and its workers are files too, so nothing needs more than `'self'`.
 */
export const LIBRARY_CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = CSP_DIRECTIVES;

/** The library's policy, as the header's value. */
export const LIBRARY_CONTENT_SECURITY_POLICY = serializeCsp(LIBRARY_CSP_DIRECTIVES);
