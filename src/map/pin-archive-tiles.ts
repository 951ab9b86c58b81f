import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import type { RequestTransformFunction } from 'maplibre-gl';
import { PIN_ARCHIVE } from '../pins/archive-format.ts';
import { pinFromTile } from './pin-archive.ts';
import type { PinArchive, Pin } from '../pins/types.ts';
import { ArchiveError, loadFromArchive } from './pmtiles.ts';
import { reasonOf } from '../config/errors.ts';
import { tilesCovering, type Bbox } from './tile-cover.ts';

/** A bubble or a lone pin of a pre-tiled archive, as a tile of it gives it. */
export type TiledGroup =
  | { kind: 'cluster'; key: string; count: number; lngLat: [number, number]; expansionZoom: number; properties: Readonly<Record<string, unknown>> }
  | { kind: 'pin'; key: string; pin: Pin };

export { tilesCovering, type Bbox } from './tile-cover.ts';

/** Tiles kept decoded; the view and its surroundings need a few dozen. */
const CACHE_TILES = 256;

/**
 * A pre-tiled pin archive read in the page, tile by tile, for a map that draws its pins itself
 * (the hybrid view's Leaflet markers): the bubbles and lone pins of a whole zoom in an area, from
 * the archive's tiles at that zoom (at zooms above the archive's last, from its last tiles, where
 * every pin stands alone). The tiles are read through the `pmtiles://` protocol's reader
 * (`pmtiles.ts`: range requests, the token rule through `transform`, named faults) and decoded
 * here. A tile that cannot be read is one console warning and is asked for again next time; when
 * the archive itself is at fault (truncated, not compressed as its header says, refused by its
 * server, a tile that is not a vector tile: not a passing server error or a lost network), the
 * reason goes to `onUnreadable`, once per reason, for a notice in the page.
 */
export class PinArchiveTiles {
  private readonly cache = new Map<string, Promise<TiledGroup[]>>();
  private readonly warned = new Set<string>();
  private readonly reported = new Set<string>();

  constructor(
    private readonly archive: PinArchive,
    private readonly transform: RequestTransformFunction | undefined,
    /** Told the archive's URL (without `pmtiles://`) and what is wrong with it, once per reason. */
    private readonly onUnreadable?: (url: string, reason: string) => void,
  ) {}

  /** The tile zoom that holds a map zoom's groups: up to the archive's last zoom (`PIN_ARCHIVE.maxZoom` when it was made; older archives stop lower). */
  tileZoom(zoom: number): number {
    return Math.min(this.archive.source.maxzoom, Math.max(0, Math.floor(zoom)));
  }

  /**
   * The groups at the whole zoom of `zoom` whose tiles touch `bbox`, each once (a tile also holds
   * the features near its edges), in the tiles' order. Longitudes are the archive's (-180..180).
   */
  async groupsAt(zoom: number, bbox: Bbox): Promise<TiledGroup[]> {
    const z = this.tileZoom(zoom);
    const tiles = await Promise.all(tilesCovering(z, bbox).map(([x, y]) => this.tile(z, x, y)));
    const seen = new Set<string>();
    const groups: TiledGroup[] = [];
    for (const tile of tiles) {
      for (const group of tile) {
        if (seen.has(group.key)) continue;
        seen.add(group.key);
        groups.push(group);
      }
    }
    return groups;
  }

  private tile(z: number, x: number, y: number): Promise<TiledGroup[]> {
    const key = `${z}/${x}/${y}`;
    const cached = this.cache.get(key);
    if (cached) {
      // Most recently used last: the oldest goes first when the cache is full.
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    const loading = this.read(z, x, y).catch((error: unknown) => {
      this.cache.delete(key);
      if (!this.warned.has(key)) {
        this.warned.add(key);
        console.warn(`Pinmap: the pin tile ${key} of ${this.archive.url} could not be read; it is asked for again when the map moves (${reasonOf(error)}${error instanceof PinTileError ? `: ${reasonOf(error.cause)}` : ''})`);
      }
      const fault = error instanceof ArchiveError && !error.transient ? error.message : error instanceof PinTileError ? error.message : undefined;
      if (fault !== undefined && !this.reported.has(fault)) {
        this.reported.add(fault);
        this.onUnreadable?.(this.archive.url.slice('pmtiles://'.length), fault);
      }
      return [];
    });
    this.cache.set(key, loading);
    if (this.cache.size > CACHE_TILES) this.cache.delete(this.cache.keys().next().value!);
    return loading;
  }

  private async read(z: number, x: number, y: number): Promise<TiledGroup[]> {
    const url = `${this.archive.url}/${z}/${x}/${y}`;
    // MapLibre's resource type of a tile ('Tile'; its enum is declared const, so named by value).
    const params = (await this.transform?.(url, 'Tile' as Parameters<RequestTransformFunction>[1])) ?? { url };
    const { data } = await loadFromArchive({ ...params, type: 'arrayBuffer' }, new AbortController());
    const bytes = data instanceof Uint8Array ? data : data ? new Uint8Array(data as ArrayBuffer) : new Uint8Array();
    if (bytes.byteLength === 0) return [];
    try {
      return this.decode(bytes, z, x, y);
    } catch (error) {
      throw new PinTileError('its pin tiles are not vector tiles', { cause: error });
    }
  }

  private decode(bytes: Uint8Array, z: number, x: number, y: number): TiledGroup[] {
    const layer = new VectorTile(new PbfReader(bytes)).layers[PIN_ARCHIVE.layer];
    if (!layer) return [];
    const groups: TiledGroup[] = [];
    const size = 2 ** z;
    for (let i = 0; i < layer.length; i++) {
      const feature = layer.feature(i);
      const point = feature.loadGeometry()[0]?.[0];
      if (!point) continue;
      const lngLat = toLngLat((x + point.x / layer.extent) / size, (y + point.y / layer.extent) / size);
      const properties = feature.properties as Record<string, unknown>;
      if (properties.cluster === true) {
        const count = Number(properties.point_count);
        // A bubble must say how many pins it holds (a damaged tile may not): else it is left out.
        if (!Number.isSafeInteger(count) || count < 0 || !lngLat.every(Number.isFinite)) {
          const problem = `a bubble in ${this.archive.url} has no pin count`;
          if (!this.warned.has(problem)) {
            this.warned.add(problem);
            console.warn(`Pinmap: ${problem}; it is not shown`);
          }
          continue;
        }
        const expansionZoom = Number(properties.expansion_zoom);
        groups.push({ kind: 'cluster', key: `cluster:${String(properties.cluster_id)}`, count, lngLat, expansionZoom: Number.isFinite(expansionZoom) ? expansionZoom : z + 1, properties });
        continue;
      }
      const pin = pinFromTile(properties, lngLat, this.archive);
      if (typeof pin === 'string') {
        if (!this.warned.has(pin)) {
          this.warned.add(pin);
          console.warn(`Pinmap: ${pin}; it cannot be opened`);
        }
        continue;
      }
      groups.push({ kind: 'pin', key: `pin:${pin.id}`, pin });
    }
    return groups;
  }
}

/**
 * A tile of the archive that arrived but is not a vector tile: the archive is damaged. One reason
 * for all its tiles (one notice); the console warning names the tile and the decoder's complaint.
 */
class PinTileError extends Error {
  override name = 'PinTileError';
}

/** A point in world coordinates (0..1 across and down the Web Mercator square) as longitude and latitude. */
function toLngLat(worldX: number, worldY: number): [number, number] {
  const lng = worldX * 360 - 180;
  const lat = (360 / Math.PI) * Math.atan(Math.exp((1 - 2 * worldY) * Math.PI)) - 90;
  return [lng, lat];
}
