import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { fromVectorTileJs, type VectorTileFeatureLike } from '@maplibre/vt-pbf';
import { PbfReader } from 'pbf';
import { PIN_ARCHIVE, tileExtent } from './archive-format.ts';

/**
 * The tiles a pin archive of version 5 leaves out (`PinArchiveMetadata.cutFrom`), cut from the
 * nearest tile above them that it has: the page answers the map's request for such a tile with
 * `pinTileOrCut`, and the tiler's tests read archives the same way.
 */

/** A tile's zoom, column and row. */
export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

/** Reads one tile of the archive: its bytes (uncompressed), or `undefined` where the archive has none. */
export type ReadTile = (z: number, x: number, y: number) => Promise<Uint8Array | undefined>;

/**
 * Tile `z/x/y` of a pin archive whose tiles above `cutFrom` may be left out: the archive's own
 * tile, else `cutFromAbove`.
 */
export async function pinTileOrCut(read: ReadTile, z: number, x: number, y: number, cutFrom: number): Promise<Uint8Array | undefined> {
  return (await read(z, x, y)) ?? cutFromAbove(read, z, x, y, cutFrom);
}

/**
 * Tile `z/x/y`, which the archive lacks, as the nearest tile above it the archive has (down to
 * `cutFrom`) cut to it, or `undefined` (no pin there, or `z` is not above `cutFrom`). The tiles
 * above are asked for together.
 */
export async function cutFromAbove(read: ReadTile, z: number, x: number, y: number, cutFrom: number): Promise<Uint8Array | undefined> {
  if (z <= cutFrom) return undefined;
  const above = Array.from({ length: z - cutFrom }, (_, k) => ({ z: z - 1 - k, x: x >> (k + 1), y: y >> (k + 1) }));
  const tiles = await Promise.all(above.map((tile) => read(tile.z, tile.x, tile.y)));
  const nearest = tiles.findIndex((bytes) => bytes !== undefined);
  return nearest < 0 ? undefined : cutPinTile(tiles[nearest]!, above[nearest]!, { z, x, y }, cutFrom);
}

/**
 * The pins and bubbles of tile `from`'s `pins` layer that lie in its descendant `to`, as a tile of
 * `to` with the grid of `tileExtent(to.z, cutFrom)`, in the same order and with the same
 * properties. A feature on the edge between two of `to`'s siblings goes to one of them, as
 * `from`'s grid places it. Throws where `bytes` is not a vector tile.
 */
export function cutPinTile(bytes: Uint8Array, from: TileAddress, to: TileAddress, cutFrom: number): Uint8Array {
  const layer = new VectorTile(new PbfReader(bytes)).layers[PIN_ARCHIVE.layer];
  if (!layer) return new Uint8Array();
  const across = 2 ** (to.z - from.z);
  const column = to.x - from.x * across;
  const row = to.y - from.y * across;
  const extent = tileExtent(to.z, cutFrom);
  // One unit of `to`'s grid is this many of `from`'s (1 where both are finer than zoom 16's grid).
  const units = layer.extent / across / extent;
  const place = (coordinate: number) => Math.min(across - 1, Math.max(0, Math.floor((coordinate * across) / layer.extent)));
  const kept: VectorTileFeatureLike[] = [];
  for (let i = 0; i < layer.length; i++) {
    const feature: VectorTileFeature = layer.feature(i);
    const point = feature.loadGeometry()[0]?.[0];
    if (!point || place(point.x) !== column || place(point.y) !== row) continue;
    // The decoded point, moved to `to`'s grid.
    point.x = Math.round((point.x - (column * layer.extent) / across) / units);
    point.y = Math.round((point.y - (row * layer.extent) / across) / units);
    kept.push({ type: 1, id: feature.id, properties: feature.properties as VectorTileFeatureLike['properties'], extent, loadGeometry: () => [[point]] });
  }
  if (kept.length === 0) return new Uint8Array();
  return fromVectorTileJs({ layers: { [PIN_ARCHIVE.layer]: { version: layer.version, name: layer.name, extent, length: kept.length, feature: (i) => kept[i]! } } });
}
