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
 * Layout (the order the format recommends): the 127-byte header, the root directory, the JSON
 * metadata, the leaf directories, then the tile data in tile-id order (clustered). Identical
 * tiles are stored once; consecutive tile ids with the same content share one entry (a run).
 * Directories and metadata are gzip-compressed; tiles are gzip-compressed unless
 * `tileCompression` says `none`. The output is deterministic: the same tiles and metadata give
 * the same bytes (gzip with a fixed level and no timestamp, sorted entries, stable JSON).
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { zxyToTileId } from 'pmtiles';

/** PMTiles tile types (header byte 99). */
export const TILE_TYPE = { mvt: 1, png: 2, jpeg: 3, webp: 4, avif: 5 } as const;
/** PMTiles compression codes (header bytes 97 and 98). */
export const COMPRESSION = { none: 1, gzip: 2 } as const;

export const HEADER_BYTES = 127;
/** The reader fetches the first 16 KiB at once: the header and root directory must fit in it. */
const FIRST_FETCH_BYTES = 16_384;

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

/** A directory entry: a tile id, a run of that many ids with the same bytes, where the bytes are. */
export interface DirectoryEntry {
  tileId: number;
  offset: number;
  length: number;
  runLength: number;
}

/** gzip with fixed settings: no file name, no time stamp, level 9. */
const gzip = (data: Uint8Array): Buffer => gzipSync(data, { level: 9 });

/** Appends `value` (a non-negative integer up to 2^53) as an unsigned LEB128 varint. */
function pushVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/**
 * A directory as the format writes it (before compression): the entry count, then the tile ids
 * as deltas, the run lengths, the lengths, and the offsets (0 where an entry directly follows the
 * previous one, else offset + 1).
 */
export function serializeDirectory(entries: DirectoryEntry[]): Uint8Array {
  const out: number[] = [];
  pushVarint(out, entries.length);
  let lastId = 0;
  for (const entry of entries) {
    pushVarint(out, entry.tileId - lastId);
    lastId = entry.tileId;
  }
  for (const entry of entries) pushVarint(out, entry.runLength);
  for (const entry of entries) pushVarint(out, entry.length);
  entries.forEach((entry, i) => {
    const previous = entries[i - 1];
    pushVarint(out, previous && entry.offset === previous.offset + previous.length ? 0 : entry.offset + 1);
  });
  return Uint8Array.from(out);
}

/**
 * The root directory and the leaf directories: everything in the root if it fits in the first
 * fetch, else leaves of `leafSize` entries (doubled until the root of leaf pointers fits).
 */
function buildDirectories(entries: DirectoryEntry[]): { root: Buffer; leaves: Buffer } {
  const root = gzip(serializeDirectory(entries));
  if (root.length <= FIRST_FETCH_BYTES - HEADER_BYTES) return { root, leaves: Buffer.alloc(0) };
  for (let leafSize = 4096; ; leafSize *= 2) {
    const pointers: DirectoryEntry[] = [];
    const leafBuffers: Buffer[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += leafSize) {
      const chunk = entries.slice(i, i + leafSize);
      const leaf = gzip(serializeDirectory(chunk));
      pointers.push({ tileId: chunk[0]!.tileId, offset, length: leaf.length, runLength: 0 });
      leafBuffers.push(leaf);
      offset += leaf.length;
    }
    const rootOfLeaves = gzip(serializeDirectory(pointers));
    if (rootOfLeaves.length <= FIRST_FETCH_BYTES - HEADER_BYTES) return { root: rootOfLeaves, leaves: Buffer.concat(leafBuffers) };
  }
}

/** JSON with object keys sorted, so the same metadata always gives the same bytes. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** Writes a little-endian unsigned 64-bit integer (values up to 2^53). */
function writeUint64(view: DataView, at: number, value: number): void {
  view.setUint32(at, value % 2 ** 32, true);
  view.setUint32(at + 4, Math.floor(value / 2 ** 32), true);
}

/** Degrees as the header stores them: signed 32-bit integers of 1e-7 degrees. */
const e7 = (degrees: number): number => Math.round(degrees * 1e7);

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

  const entries: DirectoryEntry[] = [];
  const chunks: Buffer[] = [];
  /** Where each distinct tile content already is in the tile data. */
  const seen = new Map<string, { offset: number; length: number }>();
  let dataLength = 0;
  for (const id of [...byId.keys()].sort((a, b) => a - b)) {
    const data = byId.get(id)!;
    const stored = compressTiles ? gzip(data) : Buffer.from(data);
    const hash = createHash('sha256').update(stored).digest('hex');
    const last = entries[entries.length - 1];
    const known = seen.get(hash);
    if (known && last && last.tileId + last.runLength === id && last.offset === known.offset && last.length === known.length) {
      last.runLength++;
      continue;
    }
    if (known) {
      entries.push({ tileId: id, offset: known.offset, length: known.length, runLength: 1 });
      continue;
    }
    const place = { offset: dataLength, length: stored.length };
    seen.set(hash, place);
    entries.push({ tileId: id, ...place, runLength: 1 });
    chunks.push(stored);
    dataLength += stored.length;
  }

  const { root, leaves } = buildDirectories(entries);
  const metadata = gzip(Buffer.from(stableJson(options.metadata), 'utf8'));

  const header = Buffer.alloc(HEADER_BYTES);
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  header.write('PMTiles', 0, 'ascii');
  header[7] = 3;
  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + root.length;
  const leavesOffset = metadataOffset + metadata.length;
  const dataOffset = leavesOffset + leaves.length;
  writeUint64(view, 8, rootOffset);
  writeUint64(view, 16, root.length);
  writeUint64(view, 24, metadataOffset);
  writeUint64(view, 32, metadata.length);
  writeUint64(view, 40, leavesOffset);
  writeUint64(view, 48, leaves.length);
  writeUint64(view, 56, dataOffset);
  writeUint64(view, 64, dataLength);
  writeUint64(view, 72, byId.size);
  writeUint64(view, 80, entries.length);
  writeUint64(view, 88, seen.size);
  header[96] = 1; // clustered
  header[97] = COMPRESSION.gzip;
  header[98] = compressTiles ? COMPRESSION.gzip : COMPRESSION.none;
  header[99] = TILE_TYPE[options.tileType];
  header[100] = minZoom;
  header[101] = maxZoom;
  const [west, south, east, north] = options.bounds;
  view.setInt32(102, e7(west), true);
  view.setInt32(106, e7(south), true);
  view.setInt32(110, e7(east), true);
  view.setInt32(114, e7(north), true);
  const [lon, lat, zoom] = options.center;
  header[118] = zoom;
  view.setInt32(119, e7(lon), true);
  view.setInt32(123, e7(lat), true);

  return Buffer.concat([header, root, metadata, leaves, ...chunks]);
}
