import L from 'leaflet';
import { fetchBytes } from '../request-path.ts';
import { MAP_RESOURCE_LIMIT } from '../map-requests.ts';
import type { TokenRule } from '../request-transform.ts';

/**
 * A raster layer of the hybrid view under the token rule: a layer on the provider's origin gets
 * the token like every other request there (PRODUCT.md, "Calls to the maps provider"), a layer
 * on any other origin never does.
 *
 * Either way each tile of a layer that carries the token is fetched through the request path (the
 * abort when Leaflet lets the tile go) and shown from a `data:` URL, which the page's policy allows
 * for images (`img-src`), so the token is in no attribute of the page (an image's `src` would show
 * it to anything that reads the page, and keep it in saved pages):
 * - the token as the `access_token` parameter: the fetched URL carries it (a redirect is followed);
 * - the token as a header: an image element cannot send one; the fetch does, and no redirect is
 *   followed.
 */
export function tokenTileLayer(template: string, rule: TokenRule, options: L.TileLayerOptions): L.TileLayer {
  if (!rule.token || !rule.providerOrigin || originOfTemplate(template) !== rule.providerOrigin) return L.tileLayer(template, options);
  const carried: TokenCarried = rule.header ? { headers: { [rule.header]: /^authorization$/i.test(rule.header) ? `Bearer ${rule.token}` : rule.token } } : { query: rule.token };
  return new (FetchedTileLayer as unknown as new (template: string, options: L.TileLayerOptions) => L.TileLayer)(template, { ...options, tokenCarried: carried } as L.TileLayerOptions);
}

/** How a fetched tile carries the token: in its headers, or as the `access_token` parameter. */
type TokenCarried = { headers: Record<string, string> } | { query: string };

/** The origin of a tile URL template (its `{z}`, `{x}` and `{y}` are no part of it). */
function originOfTemplate(template: string): string | undefined {
  try {
    return new URL(template.replace(/\{[a-z]+\}/gi, '0')).origin;
  } catch {
    return undefined;
  }
}

/** The template with `access_token=<token>` in its query (kept as it is when it names one). */
function withQueryToken(template: string, token: string): string {
  if (/[?&]access_token=/.test(template)) return template;
  const [path, fragment] = template.split('#', 2) as [string, string | undefined];
  const joined = `${path}${path.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}`;
  return fragment === undefined ? joined : `${joined}#${fragment}`;
}

/** Leaflet's tile callbacks, which it keeps on the prototype without declaring them. */
type TileCallbacks = {
  _tileOnLoad(done: L.DoneCallback, tile: HTMLImageElement): void;
  _tileOnError(done: L.DoneCallback, tile: HTMLImageElement, error: Error): void;
  reloadTile(tile: HTMLImageElement): void;
};

/** The fetch under way for each tile image, so Leaflet's letting go of a tile aborts it. */
const pending = new WeakMap<HTMLImageElement, AbortController>();

/** A tile layer whose images are fetched with the token and shown from `data:` URLs (see `tokenTileLayer`). */
const FetchedTileLayer = L.TileLayer.extend({
  initialize(this: L.TileLayer, url: string, options: L.TileLayerOptions) {
    (L.TileLayer.prototype as unknown as { initialize(url: string, options: L.TileLayerOptions): void }).initialize.call(this, url, options);
    this.on('tileunload', (event: L.TileEvent) => pending.get(event.tile as HTMLImageElement)?.abort());
  },

  createTile(this: L.TileLayer & TileCallbacks, coords: L.Coords, done: L.DoneCallback): HTMLElement {
    const tile = document.createElement('img');
    tile.alt = '';
    tile.setAttribute('role', 'presentation');
    L.DomEvent.on(tile, 'load', () => this._tileOnLoad(done, tile));
    L.DomEvent.on(tile, 'error', () => this._tileOnError(done, tile, new Error(`the tile ${tile.dataset.pinmapTile ?? ''} could not be loaded`)));
    tile.dataset.pinmapTile = this.getTileUrl(coords);
    this.reloadTile(tile);
    return tile;
  },

  /** Fetches the tile's image (again): also what the raster retry calls for a tile that failed. */
  reloadTile(this: L.TileLayer, tile: HTMLImageElement): void {
    const url = tile.dataset.pinmapTile;
    if (!url) return;
    pending.get(tile)?.abort();
    const controller = new AbortController();
    pending.set(tile, controller);
    // The tile's own URL (`data-pinmap-tile`) is without the token; the fetch carries it.
    const carried = (this.options as { tokenCarried: TokenCarried }).tokenCarried;
    const request = 'query' in carried ? { url: withQueryToken(url, carried.query), headers: {} } : { url, headers: carried.headers };
    fetchBytes(request.url, { headers: request.headers, signal: controller.signal, maxBytes: MAP_RESOURCE_LIMIT })
      .then(({ bytes, response }) => dataUrlOf(bytes, response.headers.get('Content-Type') ?? 'image/png'))
      .then(
        (source) => {
          if (!controller.signal.aborted) tile.src = source;
        },
        () => {
          if (!controller.signal.aborted) tile.dispatchEvent(new Event('error'));
        },
      );
  },
});

/** The bytes as a `data:` URL of `type`. */
function dataUrlOf(bytes: Uint8Array, type: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('the tile could not be read'));
    reader.readAsDataURL(new Blob([bytes as BlobPart], { type }));
  });
}
