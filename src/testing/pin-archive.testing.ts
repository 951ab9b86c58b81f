import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { once } from 'node:events';
import { createGzip, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, vi } from 'vitest';
import { openPinArchive } from '../map/pin-archive.ts';
import { forgetArchiveReader } from '../map/pmtiles.ts';
import type { PMTiles } from 'pmtiles';
import { PIN_ARCHIVE, type PinArchiveMetadata } from '../pins/archive-format.ts';
import { pinTileOrCut } from '../pins/archive-cut.ts';
import type { PinArchive } from '../pins/types.ts';
import { tilePins, type TilePinsOptions } from '../tiler/tile-pins.ts';

/**
 * Pin archives for the tests of the page's archive reading: made by the pin tiler from a pin
 * collection, and served by a stand-in for `fetch` that answers range requests from their bytes,
 * as a static host does. Only tests import this file.
 */

/** The archive `pinmap-tile-pins` makes of `collection` (a GeoJSON FeatureCollection). */
export async function tileCollection(collection: unknown, options: TilePinsOptions = {}): Promise<Buffer> {
  const folder = mkdtempSync(join(tmpdir(), 'pinmap-archive-testing-'));
  try {
    const path = join(folder, 'pins.pmtiles');
    await tilePins(Readable.from([JSON.stringify(collection)]), path, { name: 'pins', ...options });
    return readFileSync(path);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A range request the stand-in answered: its first byte and its length. */
/** Each archive's metadata, read once. */
const metadataOf = new WeakMap<PMTiles, Promise<{ pinmap: PinArchiveMetadata }>>();

/**
 * Tile `z/x/y` of a pin archive as the page reads it: the archive's own, or (version 5) cut from
 * the nearest tile above it the archive has (`pinTileOrCut`); undefined for none.
 */
export async function pinArchiveTile(archive: PMTiles, z: number, x: number, y: number): Promise<Uint8Array | undefined> {
  let metadata = metadataOf.get(archive);
  if (!metadata) metadataOf.set(archive, (metadata = archive.getMetadata() as Promise<{ pinmap: PinArchiveMetadata }>));
  const { pinmap } = await metadata;
  const read = async (tz: number, tx: number, ty: number) => {
    const tile = await archive.getZxy(tz, tx, ty);
    return tile && new Uint8Array(tile.data);
  };
  return pinmap.cutFrom === undefined ? read(z, x, y) : pinTileOrCut(read, z, x, y, pinmap.cutFrom);
}

export interface ServedRange {
  url: string;
  offset: number;
  length: number;
}

/**
 * A `fetch` that answers range requests for the archives in `files` (URL → bytes) as a static host
 * does (206 and Content-Range), and 404 for any other URL; `served` lists each request answered.
 */
export function rangeFetch(files: Record<string, Buffer>): { fetch: typeof fetch; served: ServedRange[] } {
  const served: ServedRange[] = [];
  const answer = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = String(input instanceof Request ? input.url : input);
    const bytes = files[url];
    if (!bytes) return new Response('not found', { status: 404 });
    const headers = new Headers(init?.headers);
    const range = /^bytes=(\d+)-(\d+)$/.exec(headers.get('range') ?? '');
    if (!range) return new Response(new Uint8Array(bytes), { status: 200 });
    const from = Number(range[1]);
    const end = Math.min(Number(range[2]), bytes.length - 1);
    served.push({ url, offset: from, length: end - from + 1 });
    return new Response(new Uint8Array(bytes.subarray(from, end + 1)), { status: 206, headers: { 'Content-Range': `bytes ${from}-${end}/${bytes.length}` } });
  };
  return { fetch: answer as typeof fetch, served };
}

/** Archives opened by `openServedArchive`, each at a URL of its own. */
let opened = 0;

/**
 * Opens `bytes` as the page opens a pin archive, at a URL of its own under `host` (the page keeps
 * one reader per URL; it is forgotten after the test), with `fetch` stubbed by `rangeFetch`: the
 * archive, and the range requests served for it so far.
 */
export async function openServedArchive(bytes: Buffer, host: string): Promise<{ archive: PinArchive; served: ServedRange[] }> {
  const url = `${host}/pins-${++opened}.pmtiles`;
  const fake = rangeFetch({ [url]: bytes });
  vi.stubGlobal('fetch', fake.fetch);
  afterEach(() => forgetArchiveReader(url));
  return { archive: await openPinArchive(`pmtiles://${url}`, {}, `${host}/`), served: fake.served };
}

/**
 * `bytes` (an archive `pinmap-tile-pins` made) with its `pinmap` metadata changed by `change`:
 * written where it was when it fits there, else after the archive's end (the header's offset and
 * length, bytes 24..40, say where); nothing else moves. For archives as an older tiler or another
 * tool made them.
 */
export function withMetadata(bytes: Buffer, change: (pinmap: Record<string, unknown>) => void): Buffer {
  const at = Number(bytes.readBigUInt64LE(24));
  const length = Number(bytes.readBigUInt64LE(32));
  const metadata = JSON.parse(gunzipSync(bytes.subarray(at, at + length)).toString('utf8')) as { pinmap: Record<string, unknown> };
  change(metadata.pinmap);
  const changed = gzipSync(JSON.stringify(metadata), { level: 9 });
  const fits = changed.length <= length;
  const copy = fits ? Buffer.from(bytes) : Buffer.concat([bytes, changed]);
  if (fits) changed.copy(copy, at);
  else copy.writeBigUInt64LE(BigInt(bytes.length), 24);
  copy.writeBigUInt64LE(BigInt(changed.length), 32);
  return copy;
}

/** The `pinmap` member of the metadata of `bytes` (an archive `pinmap-tile-pins` made). */
export function pinmapOf(bytes: Buffer): Record<string, unknown> & { index: { buckets: number; length: number }; search: { length: number; directory: [number, number] }; leaves: { orders: number; length: number }; count: number } {
  const at = Number(bytes.readBigUInt64LE(24));
  const length = Number(bytes.readBigUInt64LE(32));
  return (JSON.parse(gunzipSync(bytes.subarray(at, at + length)).toString('utf8')) as { pinmap: ReturnType<typeof pinmapOf> }).pinmap;
}

/** Where the sections after the tiles start in `bytes`: the pin index, the search index, the bubbles' pins (see `src/pins/archive-format.ts`). */
export function sectionsOf(bytes: Buffer): { index: number; search: number; leaves: number } {
  const pinmap = pinmapOf(bytes);
  const index = Number(bytes.readBigUInt64LE(56)) + Number(bytes.readBigUInt64LE(64));
  return { index, search: index + pinmap.index.length, leaves: index + pinmap.index.length + pinmap.search.length };
}

/** `bytes` with `length` bytes at `at` replaced by `data` (the rest moved along). */
function spliced(bytes: Buffer, at: number, length: number, data: Buffer): Buffer {
  return Buffer.concat([bytes.subarray(0, at), data, bytes.subarray(at + length)]);
}

/** Adds `delta` to the little-endian float64 offsets of a table at `at`, numbers `from` to `to`. */
function shiftTable(bytes: Buffer, at: number, from: number, to: number, delta: number): void {
  for (let k = from; k <= to; k++) bytes.writeDoubleLE(bytes.readDoubleLE(at + k * 8) + delta, at + k * 8);
}

/**
 * `bytes` with bucket `bucket` of its pin index replaced by `data` (a gzip bomb, say), the offsets
 * of the buckets after it and the index's declared length moved to match: a damage only the
 * bucket's contents show.
 */
export function withIndexBucket(bytes: Buffer, bucket: number, data: Buffer): Buffer {
  const { index } = sectionsOf(bytes);
  const { buckets } = pinmapOf(bytes).index;
  const start = bytes.readDoubleLE(index + bucket * 8);
  const end = bytes.readDoubleLE(index + bucket * 8 + 8);
  const delta = data.length - (end - start);
  const copy = spliced(bytes, index + start, end - start, data);
  shiftTable(copy, index, bucket + 1, buckets, delta);
  return withMetadata(copy, (pinmap) => ((pinmap.index as { length: number }).length += delta));
}

/** `bytes` with the search index's directory (the section's last part) replaced by `data`, its declared lengths to match. */
export function withSearchDirectory(bytes: Buffer, data: Buffer): Buffer {
  const { search } = sectionsOf(bytes);
  const [offset, length] = pinmapOf(bytes).search.directory;
  const copy = spliced(bytes, search + offset, length, data);
  return withMetadata(copy, (pinmap) => {
    const info = pinmap.search as { length: number; directory: [number, number] };
    info.length += data.length - length;
    info.directory = [offset, data.length];
  });
}

/** `bytes` with words block `block` of the search index replaced by `data`, its directory's offsets and the declared lengths to match. */
export function withSearchBlock(bytes: Buffer, block: number, data: Buffer): Buffer {
  const { search } = sectionsOf(bytes);
  const [offset, length] = pinmapOf(bytes).search.directory;
  const directory = JSON.parse(gunzipSync(bytes.subarray(search + offset, search + offset + length)).toString('utf8')) as { offsets: number[]; topOffsets: number[] };
  const start = directory.offsets[block]!;
  const delta = data.length - (directory.offsets[block + 1]! - start);
  directory.offsets = directory.offsets.map((at) => (at > start ? at + delta : at));
  directory.topOffsets = directory.topOffsets.map((at) => (at > start ? at + delta : at));
  const written = gzipSync(JSON.stringify(directory));
  const blocks = spliced(bytes.subarray(search, search + offset), start, directory.offsets[block + 1]! - delta - start, data);
  const copy = Buffer.concat([bytes.subarray(0, search), blocks, written, bytes.subarray(search + offset + length)]);
  return withMetadata(copy, (pinmap) => {
    const info = pinmap.search as { length: number; directory: [number, number] };
    info.length = blocks.length + written.length;
    info.directory = [blocks.length, written.length];
  });
}

/** `bytes` with block `block` of the bubbles' pin table replaced by `data`, the offsets after it, its orders and its declared length to match. */
export function withLeafBlock(bytes: Buffer, block: number, data: Buffer): Buffer {
  const { leaves } = sectionsOf(bytes);
  const blocks = Math.ceil(pinmapOf(bytes).count / PIN_ARCHIVE.pinsPerLeafBlock);
  const start = bytes.readDoubleLE(leaves + block * 8);
  const end = bytes.readDoubleLE(leaves + block * 8 + 8);
  const delta = data.length - (end - start);
  const copy = spliced(bytes, leaves + start, end - start, data);
  shiftTable(copy, leaves, block + 1, blocks, delta);
  return withMetadata(copy, (pinmap) => {
    const info = pinmap.leaves as { orders: number; length: number };
    info.orders += delta;
    info.length += delta;
  });
}

/** Gzip of `megabytes` MB of zeros: a small file that inflates without end, as a gzip bomb does (about 1 KB per MB). */
export async function gzipBomb(megabytes: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const zeros = Buffer.alloc(1_000_000);
  for (let k = 0; k < megabytes; k++) if (!gzip.write(zeros)) await once(gzip, 'drain');
  gzip.end();
  await once(gzip, 'end');
  return Buffer.concat(out);
}

/** The PMTiles pieces a header places (its offset and length fields, header bytes 8–71), in the file's order. */
const REGIONS = { 'root directory': 8, metadata: 24, 'leaf directories': 40, tiles: 56 } as const;
export type PmtilesRegion = keyof typeof REGIONS;

/** Where each piece of `bytes` lies, as its header says: `[from, to)`. */
export function regionsOf(bytes: Buffer): Record<PmtilesRegion | 'header', [number, number]> {
  const at = (field: number): [number, number] => [Number(bytes.readBigUInt64LE(field)), Number(bytes.readBigUInt64LE(field)) + Number(bytes.readBigUInt64LE(field + 8))];
  return { header: [0, 127], 'root directory': at(8), metadata: at(24), 'leaf directories': at(40), tiles: at(56) };
}

/**
 * `bytes` with the piece `region` replaced by `data`: the header's offsets of the pieces after it
 * moved and its length set to match (the sections after the tiles move with them), nothing else.
 */
export function withRegion(bytes: Buffer, region: PmtilesRegion, data: Buffer): Buffer {
  const [from, to] = regionsOf(bytes)[region];
  const copy = spliced(bytes, from, to - from, data);
  const delta = data.length - (to - from);
  for (const field of Object.values(REGIONS)) {
    const offset = Number(copy.readBigUInt64LE(field));
    if (field !== REGIONS[region] && offset >= to) copy.writeBigUInt64LE(BigInt(offset + delta), field);
  }
  copy.writeBigUInt64LE(BigInt(data.length), REGIONS[region] + 8);
  return copy;
}

/** A gzipped PMTiles directory of `entries` (run length 0: a leaf directory's entry). */
export function directoryOf(entries: { tileId: number; runLength: number; length: number; offset: number }[]): Buffer {
  const out: number[] = [];
  const varint = (value: number) => {
    for (; value >= 0x80; value = Math.floor(value / 0x80)) out.push((value % 0x80) | 0x80);
    out.push(value);
  };
  varint(entries.length);
  let last = 0;
  for (const entry of entries) {
    varint(entry.tileId - last);
    last = entry.tileId;
  }
  for (const entry of entries) varint(entry.runLength);
  for (const entry of entries) varint(entry.length);
  for (const entry of entries) varint(entry.offset + 1);
  return gzipSync(Buffer.from(out));
}

/** `bytes` whose leaf directories are `data` (a gzip bomb, say), one leaf that every tile's lookup reads. */
export function withLeafDirectory(bytes: Buffer, data: Buffer): Buffer {
  const leaves = withRegion(bytes, 'leaf directories', data);
  return withRegion(leaves, 'root directory', directoryOf([{ tileId: 0, runLength: 0, length: data.length, offset: 0 }]));
}

/**
 * `bytes` whose tile 0/0/0 is `data` (a gzip bomb, say), added after the other tiles, and whose
 * header says its tiles are gzipped (the pin tiler's are not): the only tile its root directory names.
 */
export function withTile(bytes: Buffer, data: Buffer): Buffer {
  const [from, to] = regionsOf(bytes).tiles;
  const copy = spliced(bytes, to, 0, data);
  copy.writeBigUInt64LE(BigInt(to - from + data.length), 64);
  copy[98] = 2;
  return withRegion(copy, 'root directory', directoryOf([{ tileId: 0, runLength: 1, length: data.length, offset: to - from }]));
}

/**
 * The most memory (heap and array buffers) `work` took above what was in use when it started,
 * sampled every 2 ms as it ran.
 */
export async function peakMemory(work: () => Promise<unknown>): Promise<number> {
  const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const before = used();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, used())), 2);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, used()) - before;
}
