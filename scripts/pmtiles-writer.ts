/**
 * Writes PMTiles version 3 archives (one file holding a whole tile pyramid, read with HTTP range
 * requests) for the fixture generators.
 *
 * Why our own: the `@versatiles/versatiles-rs` bindings are the well-kept writer, but their
 * native binary needs glibc 2.38 and does not load on our machines (Debian 12 has 2.36); the
 * `pmtiles` package only reads. So this is a small writer, checked by
 * `scripts/pmtiles-writer.test.ts`, which reads every archive it writes back with the `pmtiles`
 * reader and compares every tile, the header and the metadata.
 *
 * The archive itself is written by the pin tiler's streaming writer (`src/tiler/pmtiles-writer.ts`,
 * with `dedupe`): the header, the root directory, the JSON metadata (keys sorted), the leaf
 * directories, then the tile data in tile-id order (clustered). Identical tiles are stored once;
 * consecutive tile ids with the same content share one entry (a run). Directories and metadata
 * are gzip-compressed; tiles are gzip-compressed unless `tileCompression` says `none`. The output
 * is deterministic: the same tiles and metadata give the same bytes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zxyToTileId } from 'pmtiles';
import { COMPRESSION, gzipFixed, PmtilesWriter, TILE_TYPE } from '../src/tiler/pmtiles-writer.ts';

export { COMPRESSION, HEADER_BYTES, TILE_TYPE } from '../src/tiler/pmtiles-writer.ts';

export interface PmtilesTile {
  z: number;
  x: number;
  y: number;
  /** The tile as it should reach the map (uncompressed; the writer compresses it). */
  data: Uint8Array;
}

export interface PmtilesOptions {
  tileType: keyof typeof TILE_TYPE;
  tileCompression?: 'gzip' | 'none';
  /** [west, south, east, north] in degrees. */
  bounds: [number, number, number, number];
  /** [lon, lat, zoom]: the view a viewer opens at. */
  center: [number, number, number];
  /** The JSON metadata (for vector tiles it should list `vector_layers`). */
  metadata: Record<string, unknown>;
}

/** Builds a whole PMTiles v3 archive from `tiles` (any order; one tile per z/x/y). */
export function writePmtiles(tiles: Iterable<PmtilesTile>, options: PmtilesOptions): Buffer {
  const compressTiles = (options.tileCompression ?? 'gzip') === 'gzip';
  const byId = new Map<number, Uint8Array>();
  let minZoom = Infinity;
  let maxZoom = -Infinity;
  for (const tile of tiles) {
    const id = zxyToTileId(tile.z, tile.x, tile.y);
    if (byId.has(id)) throw new Error(`tile ${tile.z}/${tile.x}/${tile.y} is given twice`);
    byId.set(id, tile.data);
    minZoom = Math.min(minZoom, tile.z);
    maxZoom = Math.max(maxZoom, tile.z);
  }
  if (byId.size === 0) throw new Error('an archive needs at least one tile');

  const writer = new PmtilesWriter({ dedupe: true });
  const folder = mkdtempSync(join(tmpdir(), 'pinmap-pmtiles-'));
  try {
    for (const id of [...byId.keys()].sort((a, b) => a - b)) {
      const data = byId.get(id)!;
      writer.addTile(id, compressTiles ? gzipFixed(data) : data);
    }
    const path = join(folder, 'archive.pmtiles');
    writer.finish(
      path,
      {
        tileCompression: compressTiles ? COMPRESSION.gzip : COMPRESSION.none,
        tileType: TILE_TYPE[options.tileType],
        minZoom,
        maxZoom,
        bounds: options.bounds,
        center: options.center,
      },
      options.metadata,
    );
    return readFileSync(path);
  } finally {
    if (!writer.finishedOrFailed) writer.abandon();
    rmSync(folder, { recursive: true, force: true });
  }
}
