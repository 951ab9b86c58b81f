import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, rmSync, writeSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * A writer of PMTiles v3 archives (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md)
 * for the pin tiler: tiles are added in increasing tile id order (zoom by zoom, each zoom along
 * the Hilbert curve: `zxyToTileId` of the `pmtiles` package), their bytes go to a temporary file
 * at once, and only four numbers per tile stay in memory (typed arrays). `finish` writes the
 * header, the root directory, the metadata, the leaf directories and then the tile data, so the
 * archive is "clustered". Directories and metadata are gzip-compressed (level 9, the metadata's
 * keys sorted); the tiles are stored as given (the caller says how they are compressed).
 * Identical input gives identical bytes. With `dedupe`, identical tiles are stored once and
 * consecutive tile ids with the same bytes share one entry (a run): for small pyramids such as
 * the basemap fixture (`scripts/pmtiles-writer.ts` builds on this writer), as it keeps a hash per
 * distinct tile.
 *
 * Written for Pinmap because the well-kept writers it could use cannot take tiles one by one
 * from JavaScript with metadata of its own (see README, "Pre-tiled pins"); its output is read
 * back with the `pmtiles` reader in `pmtiles-writer.test.ts`.
 */

/** The header's compression codes (spec: 0 unknown, 1 none, 2 gzip, 3 brotli, 4 zstd). */
export const COMPRESSION = { none: 1, gzip: 2 } as const;
/** The header's tile type codes (1: Mapbox Vector Tiles). */
export const TILE_TYPE = { mvt: 1, png: 2, jpeg: 3, webp: 4, avif: 5 } as const;

/** gzip with fixed settings (no file name, no time stamp, level 9 unless told), so the same input gives the same bytes. */
export const gzipFixed = (data: Uint8Array | string, level = 9): Buffer => gzipSync(data, { level });

/** JSON with object keys sorted, so the same metadata always gives the same bytes. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

export const HEADER_BYTES = 127;
/** The root directory must fit in the first 16 KiB together with the header. */
const ROOT_MAX_BYTES = 16384 - HEADER_BYTES;

/** What the header says about the archive's tiles, besides where things are. */
export interface ArchiveInfo {
  tileCompression: number;
  tileType: number;
  minZoom: number;
  maxZoom: number;
  /** [west, south, east, north] in degrees. */
  bounds: [number, number, number, number];
  /** [longitude, latitude, zoom]. */
  center: [number, number, number];
}

/** Entries per chunk of a `Column`. */
const CHUNK = 1 << 20;

/**
 * A column of numbers that grows a chunk at a time: never copied, and never more than one
 * chunk larger than it needs (a doubling array of 37.6M tile ids held room for 67M, and both
 * copies while it grew).
 */
class Column<T extends Float64Array | Uint32Array> {
  private readonly chunks: T[] = [];

  constructor(private readonly make: (n: number) => T) {}

  get(i: number): number {
    return this.chunks[Math.floor(i / CHUNK)]![i % CHUNK]!;
  }

  set(i: number, value: number): void {
    const chunk = Math.floor(i / CHUNK);
    while (this.chunks.length <= chunk) this.chunks.push(this.make(CHUNK));
    this.chunks[chunk]![i % CHUNK] = value;
  }
}

/**
 * A growable set of directory entries in typed arrays: tile id and length, and, when `full`, the
 * offset and run length too (else every entry's data follows the previous one's and runs are 1:
 * 12 bytes a tile instead of 24, for the tens of millions of tiles of 10M pins).
 */
class Entries {
  private readonly tileIds = new Column((n) => new Float64Array(n));
  private readonly lengths = new Column((n) => new Uint32Array(n));
  private readonly offsets: Column<Float64Array> | undefined;
  private readonly runLengths: Column<Uint32Array> | undefined;
  count = 0;

  constructor(readonly full: boolean) {
    if (full) {
      this.offsets = new Column((n) => new Float64Array(n));
      this.runLengths = new Column((n) => new Uint32Array(n));
    }
  }

  push(tileId: number, offset: number, length: number): void {
    this.tileIds.set(this.count, tileId);
    this.lengths.set(this.count, length);
    this.offsets?.set(this.count, offset);
    this.runLengths?.set(this.count, 1);
    this.count++;
  }

  tileId(i: number): number {
    return this.tileIds.get(i);
  }

  length(i: number): number {
    return this.lengths.get(i);
  }

  /** Where entry `i`'s data is; undefined when entries keep no offsets (each follows the one before). */
  offset(i: number): number | undefined {
    return this.offsets?.get(i);
  }

  run(i: number): number {
    return this.runLengths ? this.runLengths.get(i) : 1;
  }

  /** One more tile id in the last entry's run. */
  extendLast(): void {
    this.runLengths!.set(this.count - 1, this.run(this.count - 1) + 1);
  }
}

/** Bytes written as unsigned LEB128 varints (as the spec's directories use, numbers up to 2^53) into a growing buffer. */
class VarintBytes {
  private bytes = Buffer.allocUnsafe(1 << 16);
  length = 0;

  push(value: number): void {
    if (this.length + 8 > this.bytes.length) {
      const next = Buffer.allocUnsafe(this.bytes.length * 2);
      this.bytes.copy(next, 0, 0, this.length);
      this.bytes = next;
    }
    let v = value;
    while (v >= 0x80) {
      this.bytes[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.bytes[this.length++] = v;
  }

  view(): Buffer {
    return this.bytes.subarray(0, this.length);
  }
}

/** The most deflate can shrink data (1032:1): a directory longer than this times the root's room cannot fit it. */
const DEFLATE_MAX_RATIO = 1032;

/**
 * One directory (entries `from` to `to`, exclusive), serialised as the spec says and gzipped.
 * `startOffset`: where entry `from`'s data starts (entries without offsets of their own follow on).
 */
function directoryBytes(entries: Entries, from: number, to: number, startOffset: number, runOf: (i: number) => number, level: number): Buffer {
  const out = new VarintBytes();
  out.push(to - from);
  let last = 0;
  for (let i = from; i < to; i++) {
    out.push(entries.tileId(i) - last);
    last = entries.tileId(i);
  }
  for (let i = from; i < to; i++) out.push(runOf(i));
  for (let i = from; i < to; i++) out.push(entries.length(i));
  for (let i = from; i < to; i++) {
    // 0: this entry's data follows the previous entry's; else the offset + 1.
    const offset = entries.offset(i);
    if (offset === undefined) out.push(i === from ? startOffset + 1 : 0);
    else out.push(i > from && offset === entries.offset(i - 1)! + entries.length(i - 1) ? 0 : offset + 1);
  }
  return gzipFixed(out.view(), level);
}

/** Writers with a temporary file still open, so a stopped command can remove their files. */
const openWriters = new Set<PmtilesWriter>();

/** Removes the temporary files of every writer not yet finished (the command was stopped). */
export function abandonOpenWriters(): void {
  for (const writer of [...openWriters]) writer.abandon();
}

export class PmtilesWriter {
  private readonly folder: string;
  private readonly dataPath: string;
  private readonly fd: number;
  private readonly entries: Entries;
  private dataLength = 0;
  private lastTileId = -1;
  private finished = false;
  /** Tile ids addressed (runs counted in full) and tile contents stored. */
  private addressed = 0;
  private contents = 0;
  /** With `dedupe`: where each distinct tile's bytes are, by their hash. */
  private readonly seen: Map<string, { offset: number; length: number }> | undefined;

  /** gzip level of the directories and metadata. */
  private readonly level: number;

  /** The most bytes the root directory may take before the entries go to leaf directories. */
  private readonly rootBytes: number;

  /**
   * `dedupe`: store identical tiles once (keeps a hash per distinct tile: for small pyramids);
   * `level`: gzip level of the directories and metadata (default 9: smallest; millions of
   * entries take seconds at 9, a quarter of that at 6); `rootBytes`: the most the root directory
   * takes (at most and by default what the spec allows with the header: tests make it small to
   * have leaf directories in a small archive).
   */
  constructor(options: { dedupe?: boolean; level?: number; rootBytes?: number } = {}) {
    this.rootBytes = Math.min(ROOT_MAX_BYTES, options.rootBytes ?? ROOT_MAX_BYTES);
    this.seen = options.dedupe ? new Map() : undefined;
    this.entries = new Entries(options.dedupe === true);
    this.level = options.level ?? 9;
    this.folder = mkdtempSync(join(tmpdir(), 'pinmap-pmtiles-'));
    this.dataPath = join(this.folder, 'tiles.bin');
    this.fd = openSync(this.dataPath, 'w+');
    openWriters.add(this);
  }

  /** A path in the writer's temporary folder (removed with it) for a caller's own scratch file. */
  scratchPath(name: string): string {
    return join(this.folder, name);
  }

  /** Adds one tile's bytes (already compressed as the header will say); tile ids must increase. */
  addTile(tileId: number, data: Uint8Array): void {
    if (this.finished) throw new Error('the archive is already finished');
    if (!(tileId > this.lastTileId)) throw new Error(`tiles must be added in increasing tile id order (${tileId} after ${this.lastTileId})`);
    if (data.length === 0) throw new Error(`tile ${tileId} is empty`);
    this.lastTileId = tileId;
    this.addressed++;
    if (this.seen) {
      const hash = createHash('sha256').update(data).digest('hex');
      const known = this.seen.get(hash);
      if (known) {
        const entries = this.entries;
        const last = entries.count - 1;
        if (entries.tileId(last) + entries.run(last) === tileId && entries.offset(last) === known.offset && entries.length(last) === known.length) entries.extendLast();
        else entries.push(tileId, known.offset, known.length);
        return;
      }
      this.seen.set(hash, { offset: this.dataLength, length: data.length });
    }
    this.contents++;
    if (this.pendingLength + data.length > this.pending.length) this.flush();
    if (data.length > this.pending.length) writeSync(this.fd, data, 0, data.length, this.dataLength);
    else {
      this.pending.set(data, this.pendingLength);
      this.pendingLength += data.length;
    }
    this.entries.push(tileId, this.dataLength, data.length);
    this.dataLength += data.length;
  }

  /** Tiles not yet written to the temporary file: written a few MB at a time, not one call per tile. */
  private readonly pending = Buffer.allocUnsafe(4 * 1024 * 1024);
  private pendingLength = 0;

  private flush(): void {
    if (this.pendingLength === 0) return;
    writeSync(this.fd, this.pending, 0, this.pendingLength, this.dataLength - this.pendingLength);
    this.pendingLength = 0;
  }

  /** How many tiles were added so far. */
  get tileCount(): number {
    return this.entries.count;
  }

  /** Whether `finish` or `abandon` was called. */
  get finishedOrFailed(): boolean {
    return this.finished;
  }

  /** Gives up: removes the temporary file; nothing is written. */
  abandon(): void {
    if (this.finished) return;
    this.finished = true;
    openWriters.delete(this);
    closeSync(this.fd);
    rmSync(this.folder, { recursive: true, force: true });
  }

  /**
   * Writes the archive to `path` with `metadata` (JSON) and removes the temporary files. The
   * bytes of the file `after` (or files, one after another), if given, follow the tile data
   * (sections of the caller's own, found from the header's tile data offset and length; readers
   * of the tiles skip them).
   */
  finish(path: string, info: ArchiveInfo, metadata: unknown, after?: string | readonly string[]): { bytes: number; tiles: number } {
    if (this.finished) throw new Error('the archive is already finished');
    this.finished = true;
    openWriters.delete(this);
    try {
      this.flush();
      return this.write(path, info, metadata, after);
    } finally {
      closeSync(this.fd);
      rmSync(this.folder, { recursive: true, force: true });
    }
  }

  private write(path: string, info: ArchiveInfo, metadata: unknown, after: string | readonly string[] | undefined): { bytes: number; tiles: number } {
    const entries = this.entries;
    const count = entries.count;
    const runOf = (i: number) => entries.run(i);

    // The root holds every entry if it fits (never when even deflate's best could not make it
    // fit: each entry is at least 4 bytes); else it points at leaf directories of `leafSize` entries.
    const level = this.level;
    let root = count * 4 <= this.rootBytes * DEFLATE_MAX_RATIO ? directoryBytes(entries, 0, count, 0, runOf, level) : undefined;
    let leaves: Buffer[] = [];
    if (!root || root.length > this.rootBytes) {
      for (let leafSize = 4096; ; leafSize *= 2) {
        leaves = [];
        const pointers = new Entries(true);
        let leafOffset = 0;
        // Where each leaf's first tile's data starts, for entries without offsets of their own.
        let dataAt = 0;
        for (let from = 0; from < count; from += leafSize) {
          const to = Math.min(count, from + leafSize);
          const leaf = directoryBytes(entries, from, to, dataAt, runOf, level);
          for (let i = from; i < to; i++) dataAt += entries.length(i);
          pointers.push(entries.tileId(from), leafOffset, leaf.length);
          leafOffset += leaf.length;
          leaves.push(leaf);
        }
        // A leaf pointer has run length 0.
        root = directoryBytes(pointers, 0, pointers.count, 0, () => 0, level);
        if (root.length <= this.rootBytes) break;
      }
    }
    const meta = gzipFixed(Buffer.from(stableJson(metadata), 'utf8'), level);
    const leafLength = leaves.reduce((sum, leaf) => sum + leaf.length, 0);

    const rootOffset = HEADER_BYTES;
    const metaOffset = rootOffset + root.length;
    const leafOffset = metaOffset + meta.length;
    const dataOffset = leafOffset + leafLength;

    const header = Buffer.alloc(HEADER_BYTES);
    header.write('PMTiles', 0, 'ascii');
    header.writeUInt8(3, 7);
    const u64 = (value: number, at: number) => header.writeBigUInt64LE(BigInt(value), at);
    u64(rootOffset, 8);
    u64(root.length, 16);
    u64(metaOffset, 24);
    u64(meta.length, 32);
    u64(leafOffset, 40);
    u64(leafLength, 48);
    u64(dataOffset, 56);
    u64(this.dataLength, 64);
    u64(this.addressed, 72); // addressed tiles
    u64(count, 80); // tile entries
    u64(this.contents, 88); // tile contents
    header.writeUInt8(1, 96); // clustered
    header.writeUInt8(COMPRESSION.gzip, 97); // internal compression
    header.writeUInt8(info.tileCompression, 98);
    header.writeUInt8(info.tileType, 99);
    header.writeUInt8(info.minZoom, 100);
    header.writeUInt8(info.maxZoom, 101);
    const e7 = (degrees: number) => Math.round(degrees * 1e7);
    header.writeInt32LE(e7(info.bounds[0]), 102);
    header.writeInt32LE(e7(info.bounds[1]), 106);
    header.writeInt32LE(e7(info.bounds[2]), 110);
    header.writeInt32LE(e7(info.bounds[3]), 114);
    header.writeUInt8(info.center[2], 118);
    header.writeInt32LE(e7(info.center[0]), 119);
    header.writeInt32LE(e7(info.center[1]), 123);

    const out = openSync(path, 'w');
    try {
      let at = 0;
      for (const part of [header, root, meta, ...leaves]) {
        writeSync(out, part, 0, part.length, at);
        at += part.length;
      }
      // The tile data, copied from the temporary file in pieces.
      const piece = Buffer.alloc(8 * 1024 * 1024);
      const copy = (fd: number, length: number) => {
        for (let done = 0; done < length; ) {
          const read = readSync(fd, piece, 0, Math.min(piece.length, length - done), done);
          if (read === 0) throw new Error('a temporary file of the archive ended early');
          writeSync(out, piece, 0, read, at);
          at += read;
          done += read;
        }
      };
      copy(this.fd, this.dataLength);
      for (const section of after === undefined ? [] : typeof after === 'string' ? [after] : after) {
        const fd = openSync(section, 'r');
        try {
          copy(fd, fstatSync(fd).size);
        } finally {
          closeSync(fd);
        }
      }
      return { bytes: at, tiles: this.addressed };
    } finally {
      closeSync(out);
    }
  }
}
