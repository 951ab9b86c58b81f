import type { StyleSpecification } from 'maplibre-gl';

/**
 * MapLibre needs absolute URLs inside a style; ours (and many a site owner's) are written
 * relative to the style file so the folder can be served from anywhere. This turns every
 * relative tile, source, sprite, glyph and font URL into an absolute one against the style's own
 * URL. URLs with a scheme (https:, …) are left as they are; a `pmtiles://` URL has its archive
 * URL resolved.
 */
export function resolveStyleUrls(style: StyleSpecification, styleUrl: string): StyleSpecification {
  const resolve = (url: string): string => resolveTemplate(url, styleUrl);
  const sources = Object.fromEntries(
    Object.entries(style.sources ?? {}).map(([id, source]) => {
      const next: Record<string, unknown> = { ...source };
      if ('url' in source && typeof source.url === 'string') next.url = resolve(source.url);
      if ('tiles' in source && Array.isArray(source.tiles)) next.tiles = source.tiles.map(resolve);
      if ('data' in source && typeof source.data === 'string') next.data = resolve(source.data);
      return [id, next];
    }),
  ) as StyleSpecification['sources'];

  const next: StyleSpecification = { ...style, sources };
  if (typeof style.glyphs === 'string') next.glyphs = resolve(style.glyphs);
  if (typeof style.sprite === 'string') next.sprite = resolve(style.sprite);
  else if (Array.isArray(style.sprite)) next.sprite = style.sprite.map((s) => ({ ...s, url: resolve(s.url) }));
  if (style['font-faces']) {
    next['font-faces'] = Object.fromEntries(
      Object.entries(style['font-faces']).map(([name, faces]) => [
        name,
        (Array.isArray(faces) ? faces : [faces]).map((face) =>
          typeof face === 'string' ? resolve(face) : { ...face, url: resolve(face.url) },
        ),
      ]),
    ) as StyleSpecification['font-faces'];
  }
  return next;
}

/** The scheme of a PMTiles archive URL: `pmtiles://<archive URL>`. */
const PMTILES_SCHEME = 'pmtiles://';

/**
 * Resolves one URL, keeping `{z}`-style template tokens readable rather than percent-encoded.
 * A PMTiles URL keeps its scheme and has the archive's URL after it resolved:
 * `pmtiles://basemap.pmtiles` next to the style becomes `pmtiles://https://host/…/basemap.pmtiles`.
 */
export function resolveTemplate(url: string, base: string): string {
  if (url.startsWith(PMTILES_SCHEME)) return PMTILES_SCHEME + resolveTemplate(url.slice(PMTILES_SCHEME.length), base);
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return url;
  return new URL(url, base).href.replace(/%7B/gi, '{').replace(/%7D/gi, '}');
}
