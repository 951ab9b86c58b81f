import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { tileIdToZxy, zxyToTileId } from 'pmtiles';
import { CLUSTER_MAX_ZOOM } from '../map/constants.ts';
import {
  PIN_ARCHIVE,
  pinBucket,
  type PinArchiveMetadata,
  type PinIndexInfo,
  type PinLook,
} from '../map/pin-archive-format.ts';
import { PinChecker, PinDataError, assertFeatureCollection, readCollectionMembers, type IdRegistry, type SkippedFeature } from '../map/pin-data.ts';
import { abbreviate } from '../map/pin-markers.ts';
import type { PinOptions } from '../map/pin-options.ts';
import { COMPRESSION, PmtilesWriter, TILE_TYPE } from './pmtiles-writer.ts';
import { PointTileWriter, tilePoint } from './point-tile.ts';
import { Growable } from './growable.ts';
import { readFeatureCollection } from './read-geojson.ts';
import { GroupsInWorker, NOT_ALONE, tileOf, type Bubbles } from './zoom-groups.ts';

/**
 * The pin tiler (`pinmap-tile-pins`, README "Pre-tiled pins"): a GeoJSON FeatureCollection of any
 * size in, one PMTiles archive of the pins' vector tiles and their pin index out (`PIN_ARCHIVE`).
 *
 * 1. The file is read a feature at a time (`readFeatureCollection`, each cut out of the byte stream
 *    and given to `JSON.parse`); each feature is checked by
 *    the browser's own `PinChecker`; a good pin leaves its coordinates and look in typed arrays,
 *    its id and title as bytes (`IdStore`, which also finds duplicate ids) and its popup fields as one
 *    JSON line in a temporary file (`RecordSpill`): no object or string per pin stays.
 * 2. The pins are grouped by the browser's own `PinGrouping`, one range of zooms at a time (as the
 *    page does), so bubbles, counts and splits are those of the inline pins; each zoom's groups
 *    are read a box at a time (`groupsAt`), in a worker thread a zoom ahead of the tiles being written
 *    (`GroupsInWorker`, `zoom-groups.ts`).
 * 3. Each zoom's bubbles and lone pins are written tile by tile, in tile id order, by
 *    `PointTileWriter` (positions round exactly as a GeoJSON source's do) to `PmtilesWriter`.
 *    Tiles are left uncompressed: most hold a pin or two, which gzip makes longer.
 * 4. The pin index (every pin's place and popup fields, in buckets by id) follows the tile data.
 */

/** Tile ids of this zoom start here: the Hilbert curve of each zoom follows the previous zooms'. */
const firstTileId = (zoom: number): number => zxyToTileId(zoom, 0, 0);
/** The zoom pins are sorted at, along its Hilbert curve: the tiles of every lower zoom are runs of it. */
const SORT_ZOOM = PIN_ARCHIVE.maxZoom;

export interface TilePinsOptions {
  /** Archive name in its metadata. */
  name?: string;
  /** How many reasons for skipped features and warnings to keep in the result (all are counted). */
  keep?: number;
  /** Told of every skipped feature. */
  onSkipped?: (skipped: SkippedFeature) => void;
  /** Told what is being done, for a progress line. */
  onProgress?: (message: string) => void;
  /** About how many pins a part of the pin index holds in memory while it is written (default 250,000); the output is the same. */
  indexPartPins?: number;
}

export interface TilePinsResult {
  pins: number;
  features: number;
  skipped: SkippedFeature[];
  skippedCount: number;
  warnings: string[];
  warningCount: number;
  tiles: number;
  bytes: number;
  looks: number;
}

/** Thrown when the input cannot be tiled at all; the message says why. */
export class TilePinsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TilePinsError';
  }
}


/** Strings as UTF-8 bytes in large buffers (off the JavaScript heap, no string per pin), by number. */
class ByteStore {
  private static readonly CHUNK = 16 * 1024 * 1024;
  private readonly chunks: Buffer[] = [];
  private used = ByteStore.CHUNK;
  private readonly chunkOf = new Growable((n) => new Uint16Array(n));
  /** Strings stored. */
  get count(): number {
    return this.chunkOf.length;
  }
  private readonly startOf = new Growable((n) => new Uint32Array(n));
  private readonly lengthOf = new Growable((n) => new Uint32Array(n));

  /** Adds `text` as string number `count - 1`. */
  add(text: string): void {
    const length = Buffer.byteLength(text);
    this.last(length).write(text, this.used, 'utf8');
    this.stored(length);
  }

  /** Adds `bytes` (UTF-8) as string number `count - 1`. */
  addBytes(bytes: Uint8Array): void {
    this.last(bytes.length).set(bytes, this.used);
    this.stored(bytes.length);
  }

  /** String `i` as UTF-8 bytes (a view into the store). */
  bytes(i: number): Buffer {
    const start = this.startOf.array[i]!;
    return this.chunks[this.chunkOf.array[i]!]!.subarray(start, start + this.lengthOf.array[i]!);
  }

  /** Sets property `key` of the feature `tile` last started to string `i`, as its bytes. */
  addTo(tile: PointTileWriter, key: number, i: number): void {
    const start = this.startOf.array[i]!;
    tile.bytesProperty(key, this.chunks[this.chunkOf.array[i]!]!, start, start + this.lengthOf.array[i]!);
  }

  /** String `i`. */
  text(i: number): string {
    const start = this.startOf.array[i]!;
    return this.chunks[this.chunkOf.array[i]!]!.toString('utf8', start, start + this.lengthOf.array[i]!);
  }

  /** The chunk `length` more bytes go into, at `used` (a new one when the last is full). */
  private last(length: number): Buffer {
    if (this.used + length > (this.chunks.at(-1)?.length ?? 0)) {
      this.chunks.push(Buffer.allocUnsafe(Math.max(ByteStore.CHUNK, length)));
      this.used = 0;
    }
    return this.chunks.at(-1)!;
  }

  /** Lets go of the room not used (once nothing more is added). */
  trim(): void {
    for (const column of [this.chunkOf, this.startOf, this.lengthOf]) column.trim();
    const last = this.chunks.at(-1);
    if (last) this.chunks[this.chunks.length - 1] = Buffer.from(last.subarray(0, this.used));
  }

  private stored(length: number): void {
    this.chunkOf.push(this.chunks.length - 1);
    this.startOf.push(this.used);
    this.lengthOf.push(length);
    this.used += length;
  }
}

/**
 * The pins' ids as UTF-8 bytes (a `ByteStore`), and the `IdRegistry` the checker finds
 * duplicates with: an open-addressing hash table of pin numbers. A pin's number is its place in
 * the order ids were registered (the order of the pins).
 */
class IdStore implements IdRegistry {
  private readonly store = new ByteStore();
  private hashOf = new Growable((n) => new Uint32Array(n));
  private featureOf = new Growable((n) => new Float64Array(n));
  /** Pin number + 1 at each slot, 0 for an empty slot. */
  private table = new Uint32Array(1 << 16);

  get count(): number {
    return this.store.count;
  }

  get(id: string): number | undefined {
    const bytes = Buffer.from(id, 'utf8');
    const mask = this.table.length - 1;
    for (let slot = hashBytes(bytes) & mask; ; slot = (slot + 1) & mask) {
      const pin = this.table[slot]!;
      if (pin === 0) return undefined;
      if (this.bytes(pin - 1).equals(bytes)) return this.featureOf.array[pin - 1];
    }
  }

  set(id: string, index: number): void {
    const bytes = Buffer.from(id, 'utf8');
    this.store.addBytes(bytes);
    this.hashOf.push(hashBytes(bytes));
    this.featureOf.push(index);
    if (this.count * 2 > this.table.length) this.grow();
    else this.place(this.count - 1);
  }

  /** Pin `pin`'s id as UTF-8 bytes (a view into the store). */
  bytes(pin: number): Buffer {
    return this.store.bytes(pin);
  }

  /** Sets property `key` of the feature `tile` last started to pin `pin`'s id. */
  addTo(tile: PointTileWriter, key: number, pin: number): void {
    this.store.addTo(tile, key, pin);
  }

  /** Pin `pin`'s id. */
  id(pin: number): string {
    return this.store.text(pin);
  }

  /** The duplicates are known: the table and what it is made from go, the ids stay. */
  dropTable(): void {
    this.table = new Uint32Array(0);
    this.hashOf = new Growable((n) => new Uint32Array(n));
    this.featureOf = new Growable((n) => new Float64Array(n));
    this.store.trim();
  }

  private place(pin: number): void {
    const mask = this.table.length - 1;
    let slot = this.hashOf.array[pin]! & mask;
    while (this.table[slot] !== 0) slot = (slot + 1) & mask;
    this.table[slot] = pin + 1;
  }

  private grow(): void {
    this.table = new Uint32Array(this.table.length * 2);
    for (let pin = 0; pin < this.count; pin++) this.place(pin);
  }
}

/** FNV-1a of a few bytes: where an id goes in `IdStore`'s table. */
function hashBytes(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}

/**
 * A temporary file written through a buffer, appended to only, then read back; `remove` closes
 * and deletes it (once).
 */
class ScratchFile {
  readonly fd: number;
  private readonly buffer: Buffer;
  private buffered = 0;
  private written = 0;
  private removed = false;

  constructor(
    private readonly path: string,
    bufferBytes: number,
  ) {
    this.fd = openSync(path, 'w+');
    this.buffer = Buffer.allocUnsafe(bufferBytes);
  }

  /** Appends `length` bytes, which `fill` writes into `target` from `at`. */
  append(length: number, fill: (target: Buffer, at: number) => void): void {
    if (this.buffered + length > this.buffer.length) this.flush();
    if (length > this.buffer.length) {
      const own = Buffer.allocUnsafe(length);
      fill(own, 0);
      writeSync(this.fd, own, 0, length, this.written);
      this.written += length;
      return;
    }
    fill(this.buffer, this.buffered);
    this.buffered += length;
  }

  /** Bytes appended so far, all of them in the file. */
  size(): number {
    this.flush();
    return this.written;
  }

  remove(): void {
    if (this.removed) return;
    this.removed = true;
    closeSync(this.fd);
    rmSync(this.path, { force: true });
  }

  private flush(): void {
    writeSync(this.fd, this.buffer, 0, this.buffered, this.written);
    this.written += this.buffered;
    this.buffered = 0;
  }
}

/**
 * Each pin's popup fields, one JSON line per pin in the pins' order, in a temporary file (not in
 * memory): read back once, in order, to write the pin index.
 */
class RecordSpill {
  private readonly file: ScratchFile;
  readonly lengths = new Growable((n) => new Uint32Array(n));

  constructor(path: string) {
    this.file = new ScratchFile(path, 4 * 1024 * 1024);
  }

  add(text: string): void {
    const length = Buffer.byteLength(text);
    this.file.append(length, (target, at) => target.write(text, at, 'utf8'));
    this.lengths.push(length);
  }

  /** Calls `each(pin, text)` for every record, in order, reading the file a few MB at a time. */
  forEach(each: (pin: number, text: string) => void): void {
    this.file.size(); // all in the file
    const lengths = this.lengths.view();
    let chunk = Buffer.allocUnsafe(8 * 1024 * 1024);
    let have = 0;
    let at = 0;
    let read = 0;
    for (let pin = 0; pin < lengths.length; pin++) {
      const length = lengths[pin]!;
      if (at + length > have) {
        chunk.copy(chunk, 0, at, have);
        have -= at;
        at = 0;
        if (length > chunk.length) {
          const bigger = Buffer.allocUnsafe(length);
          chunk.copy(bigger, 0, 0, have);
          chunk = bigger;
        }
        while (have < length) {
          const got = readSync(this.file.fd, chunk, have, chunk.length - have, read);
          if (got === 0) throw new Error('the temporary file of pin records ended early');
          have += got;
          read += got;
        }
      }
      each(pin, chunk.toString('utf8', at, at + length));
      at += length;
    }
  }

  close(): void {
    this.file.remove();
  }
}

/** A pin's popup fields in the spill: title, description, url, category. */
type PinRecord = [title: string, description: string, url: string | null, category: string | null];


/** The longitude a tile places a point at: 180 and -180 are one meridian, drawn at -180 (see `tileOf`). */
const tileLng = (lng: number): number => (lng === 180 ? -180 : lng);

/** Reads, checks, groups and tiles the pins of `input` into the archive at `output`. */
export async function tilePins(input: Readable, output: string, options: TilePinsOptions = {}): Promise<TilePinsResult> {
  const progress = options.onProgress ?? (() => {});
  const keep = options.keep ?? 20;
  // Directories of millions of tiles: at gzip level 6 the 23 MB of directories of 1M pins take 1.2 s instead of 5.1 s at 9, for 0.6% more bytes.
  const writer = new PmtilesWriter({ level: 6 });
  try {
    return await tileInto(writer, input, output, options, progress, keep);
  } catch (error) {
    if (!writer.finishedOrFailed) writer.abandon();
    throw error;
  }
}

async function tileInto(writer: PmtilesWriter, input: Readable, output: string, options: TilePinsOptions, progress: (message: string) => void, keep: number): Promise<TilePinsResult> {
  const lngLats = new Growable((n) => new Float64Array(n));
  const lookOf = new Growable((n) => new Uint16Array(n));
  const ids = new IdStore();
  /** Each pin's title (its name for the keyboard and screen readers, in the tiles). */
  const titles = new ByteStore();
  const records = new RecordSpill(writer.scratchPath('records.jsonl'));
  const lookIds = new Map<string, number>();
  const looks: PinLook[] = [];
  let checker: PinChecker | undefined;

  progress('reading and checking the pins');
  const read = await readFeatureCollection(input, (feature, index, members) => {
    // The file's pinStyles, when they come before the features (as they usually do), give the
    // pins their category's style in warnings; either way the archive carries them for the page.
    checker ??= new PinChecker(readCollectionMembers(members).pinStyles, ids, keep, options.onSkipped);
    const checked = checker.check(feature, index);
    if (!checked) return;
    const { pin, own } = checked;
    const lookKey = JSON.stringify([pin.category ?? null, own ?? null]);
    let look = lookIds.get(lookKey);
    if (look === undefined) {
      look = looks.length;
      if (look >= PIN_ARCHIVE.maxLooks) {
        throw new TilePinsError(
          `feature ${index}: more than ${PIN_ARCHIVE.maxLooks} distinct pin looks (category and own pin options); give pins of one look a category and its style in pinStyles`,
        );
      }
      lookIds.set(lookKey, look);
      looks.push({ ...(pin.category === undefined ? {} : { category: pin.category }), ...(own === undefined ? {} : { pin: own }) });
    }
    lngLats.push(pin.lngLat[0]);
    lngLats.push(pin.lngLat[1]);
    lookOf.push(look);
    titles.add(pin.title);
    const record: PinRecord = [pin.title, pin.description, pin.url ?? null, pin.category ?? null];
    records.add(JSON.stringify(record));
  });
  ids.dropTable();
  titles.trim();
  lookOf.trim();

  if (read.topWas !== undefined) throw new TilePinsError(`pins must be a GeoJSON FeatureCollection (got ${read.topWas})`);
  try {
    assertFeatureCollection(read.members);
  } catch (error) {
    throw new TilePinsError((error as Error).message);
  }
  if (!read.hasFeatureArray) {
    throw new TilePinsError(`pins must be a GeoJSON FeatureCollection whose "features" is an array (got ${read.featuresWere ?? 'nothing'})`);
  }
  const members = readCollectionMembers(read.members);
  const warnings = [...members.warnings, ...(checker?.warnings ?? [])].slice(0, keep);
  const warningCount = members.warnings.length + (checker?.warningCount ?? 0);

  // Shared with the grouping's worker thread, not copied.
  const coordinates = new Float64Array(new SharedArrayBuffer(lngLats.length * Float64Array.BYTES_PER_ELEMENT));
  coordinates.set(lngLats.view());
  lngLats.array = new Float64Array(0);
  const count = coordinates.length / 2;
  progress(`${count.toLocaleString('en-US')} ${count === 1 ? 'pin' : 'pins'}; sorting them along the tiles`);

  const { place, order } = hilbertOrder(coordinates);

  /** Bit z: the pin stands alone at zoom z. */
  const alone = new Uint16Array(count);

  let west = 180;
  let south = 90;
  let east = -180;
  let north = -90;
  for (let i = 0; i < count; i++) {
    const lng = coordinates[2 * i]!;
    const lat = coordinates[2 * i + 1]!;
    west = Math.min(west, lng);
    east = Math.max(east, lng);
    south = Math.min(south, lat);
    north = Math.max(north, lat);
  }

  // The next zoom is grouped in a worker thread while this one's tiles are written.
  const groups = new GroupsInWorker(coordinates, PIN_ARCHIVE.maxZoom);
  try {
    for (let zoom = 0; zoom <= PIN_ARCHIVE.maxZoom; zoom++) {
      progress(`zoom ${zoom}: grouping`);
      const { bubbles, rank } = await groups.take(zoom);
      const bit = 1 << zoom;
      for (let i = 0; i < count; i++) if (rank[i] !== NOT_ALONE) alone[i]! |= bit;
      progress(`zoom ${zoom}: ${bubbles.count.toLocaleString('en-US')} ${bubbles.count === 1 ? 'bubble' : 'bubbles'}; writing tiles`);
      writeZoom(writer, zoom, bubbles, { coordinates, ids, titles, looks: lookOf.array, order, place, alone, rank });
    }
  } finally {
    await groups.close();
  }

  progress('writing the pin index');
  const buckets = Math.max(1, Math.ceil(count / PIN_ARCHIVE.pinsPerBucket));
  const indexPath = writer.scratchPath('pin-index.bin');
  const indexLength = writePinIndex(indexPath, buckets, { coordinates, ids, looks: lookOf.array, alone, records }, options.indexPartPins ?? INDEX_PINS_PER_PART);
  records.close();

  progress('writing the archive');
  const metadata = archiveMetadata(options.name ?? 'pins', count, members, looks, { buckets, length: indexLength }, categoryCounts(members.pinStyles, looks, lookOf.view()));
  const hasPins = count > 0;
  const written = writer.finish(
    output,
    {
      // Uncompressed: a tile is mostly a pin or two, which gzip makes longer, not shorter (and it cost most of the time).
      tileCompression: COMPRESSION.none,
      tileType: TILE_TYPE.mvt,
      minZoom: 0,
      maxZoom: PIN_ARCHIVE.maxZoom,
      bounds: hasPins ? [west, south, east, north] : [-180, -85, 180, 85],
      center: hasPins ? [(west + east) / 2, (south + north) / 2, 0] : [0, 0, 0],
    },
    metadata,
    indexPath,
  );
  return {
    pins: count,
    features: read.featureCount,
    skipped: checker?.skipped ?? [],
    skippedCount: checker?.skippedCount ?? 0,
    warnings,
    warningCount,
    tiles: written.tiles,
    bytes: written.bytes,
    looks: looks.length,
  };
}

/**
 * Each pin's place along the Hilbert curve of the highest zoom, and the pins in that order:
 * sorted once, read in that order at every zoom. (The sort's keys go when it returns.)
 */
function hilbertOrder(coordinates: Float64Array): { place: Uint32Array; order: Uint32Array } {
  const count = coordinates.length / 2;
  const sortBase = firstTileId(SORT_ZOOM);
  const place = new Uint32Array(count);
  const keyed = new BigUint64Array(count);
  for (let i = 0; i < count; i++) {
    const [x, y] = tileOf(coordinates[2 * i]!, coordinates[2 * i + 1]!, SORT_ZOOM);
    place[i] = zxyToTileId(SORT_ZOOM, x, y) - sortBase;
    keyed[i] = (BigInt(place[i]!) << 32n) | BigInt(i);
  }
  keyed.sort();
  const order = new Uint32Array(count);
  for (let k = 0; k < count; k++) order[k] = Number(keyed[k]! & 0xffffffffn);
  return { place, order };
}



/** What `writeZoom` and `writePinIndex` read of the pins. */
interface PinColumns {
  coordinates: Float64Array;
  ids: IdStore;
  titles: ByteStore;
  looks: Uint16Array;
  order: Uint32Array;
  place: Uint32Array;
  alone: Uint16Array;
  rank: Uint32Array;
}

/** The `pins` layer's property names; `PointTileWriter` refers to them by their place here. */
const KEYS = ['id', 'title', 'look', 'cluster', 'cluster_id', 'point_count', 'point_count_abbreviated', 'expansion_zoom'] as const;
const KEY = Object.fromEntries(KEYS.map((key, i) => [key, i])) as Record<(typeof KEYS)[number], number>;

/** Cuts one zoom's bubbles and lone pins into tiles and adds them to the archive in tile id order. */
function writeZoom(writer: PmtilesWriter, zoom: number, bubbles: Bubbles, pins: PinColumns): void {
  const base = firstTileId(zoom);
  const shift = 4 ** (SORT_ZOOM - zoom);
  const everyPin = zoom > CLUSTER_MAX_ZOOM;
  const bit = 1 << zoom;
  const bubbleTiles = new Float64Array(bubbles.count);
  for (let k = 0; k < bubbles.count; k++) {
    const [x, y] = tileOf(bubbles.lng[k]!, bubbles.lat[k]!, zoom);
    bubbleTiles[k] = zxyToTileId(zoom, x, y) - base;
  }
  const bubbleOrder = Uint32Array.from({ length: bubbles.count }, (_, k) => k).sort((a, b) => bubbleTiles[a]! - bubbleTiles[b]! || a - b);
  const tile = new PointTileWriter(PIN_ARCHIVE.layer, KEYS, PIN_ARCHIVE.extent);
  const here: number[] = [];

  let p = 0; // next pin in `order`
  let b = 0; // next bubble in `bubbleOrder`
  const nextPin = () => {
    while (p < pins.order.length && !everyPin && !(pins.alone[pins.order[p]!]! & bit)) p++;
    return p < pins.order.length ? Math.floor(pins.place[pins.order[p]!]! / shift) : Infinity;
  };
  for (;;) {
    const pinTile = nextPin();
    const bubbleTile = b < bubbleOrder.length ? bubbleTiles[bubbleOrder[b]!]! : Infinity;
    const t = Math.min(pinTile, bubbleTile);
    if (t === Infinity) break;
    const [, x, y] = tileIdToZxy(base + t);
    while (b < bubbleOrder.length && bubbleTiles[bubbleOrder[b]!] === t) {
      const k = bubbleOrder[b++]!;
      const [px, py] = tilePoint(tileLng(bubbles.lng[k]!), bubbles.lat[k]!, zoom, x, y, PIN_ARCHIVE.extent);
      const count = bubbles.points[k]!;
      tile.point(px, py);
      tile.property(KEY.cluster, true);
      tile.property(KEY.cluster_id, bubbles.id[k]!);
      tile.property(KEY.point_count, count);
      tile.property(KEY.point_count_abbreviated, abbreviate(count));
      tile.property(KEY.expansion_zoom, bubbles.expansion[k]!);
    }
    here.length = 0;
    while (nextPin() === t) here.push(pins.order[p++]!);
    if (here.length > 1) here.sort((a, c) => pins.rank[a]! - pins.rank[c]!);
    for (const i of here) {
      const [px, py] = tilePoint(tileLng(pins.coordinates[2 * i]!), pins.coordinates[2 * i + 1]!, zoom, x, y, PIN_ARCHIVE.extent);
      tile.point(px, py);
      pins.ids.addTo(tile, KEY.id, i);
      pins.titles.addTo(tile, KEY.title, i);
      tile.property(KEY.look, pins.looks[i]!);
    }
    writer.addTile(base + t, tile.finish());
  }
}

/**
 * Writes the pin index (see `PinIndexInfo`) to `path`; returns its length. Memory stays about the
 * same whatever the number of pins: the buckets are split into parts of about `partPins` pins; one read of the spilled records writes each pin's entry (as bytes,
 * after its bucket and length) to its part's temporary file, and then each part is read back on
 * its own, its entries ordered by bucket (in pin order within a bucket), and its buckets gzipped
 * into the index.
 */
function writePinIndex(path: string, buckets: number, pins: Pick<PinColumns, 'coordinates' | 'ids' | 'looks' | 'alone'> & { records: RecordSpill }, partPins: number): number {
  const count = pins.coordinates.length / 2;
  const bucketOf = new Uint32Array(count);
  const perBucket = new Uint32Array(buckets);
  for (let i = 0; i < count; i++) perBucket[(bucketOf[i] = pinBucket(pins.ids.id(i), buckets))]!++;

  // Parts: runs of whole buckets of about `partPins` pins each.
  const partStarts = [0];
  for (let bucket = 0, inPart = 0; bucket < buckets; bucket++) {
    if (inPart > 0 && inPart + perBucket[bucket]! > partPins) {
      partStarts.push(bucket);
      inPart = 0;
    }
    inPart += perBucket[bucket]!;
  }
  const partOfBucket = new Uint16Array(buckets);
  partStarts.forEach((start, part) => partOfBucket.fill(part, start));
  const parts = partStarts.map((start, part) => new PartFile(`${path}.part${part}`, start));

  const tableBytes = (buckets + 1) * 8;
  const table = Buffer.alloc(tableBytes);
  const fd = openSync(path, 'w');
  try {
    pins.records.forEach((i, text) => {
      // The record is [title, description, url, category]: the entry puts id, place and alone-zooms before it and the look after.
      const head = JSON.stringify([pins.ids.id(i), pins.coordinates[2 * i], pins.coordinates[2 * i + 1], pins.alone[i]]);
      parts[partOfBucket[bucketOf[i]!]!]!.add(bucketOf[i]!, `${head.slice(0, -1)},${text.slice(1, -1)},${pins.looks[i]}]`);
    });
    let at = tableBytes;
    parts.forEach((part, p) => {
      const end = partStarts[p + 1] ?? buckets;
      for (const [bucket, entries] of part.buckets(end)) {
        table.writeDoubleLE(at, bucket * 8);
        const bytes = gzipSync(entries);
        writeSync(fd, bytes, 0, bytes.length, at);
        at += bytes.length;
      }
      part.remove();
    });
    table.writeDoubleLE(at, buckets * 8);
    writeSync(fd, table, 0, tableBytes, 0);
    return at;
  } finally {
    for (const part of parts) part.remove();
    closeSync(fd);
  }
}

/** About how many pins' index entries one part of `writePinIndex` holds in memory. */
const INDEX_PINS_PER_PART = 250_000;

/**
 * One part of the pin index while it is written: its entries in a temporary file, each its
 * bucket (uint32), its length (uint32) and its JSON bytes, in the order they came.
 */
class PartFile {
  private readonly file: ScratchFile;

  constructor(
    path: string,
    private readonly firstBucket: number,
  ) {
    this.file = new ScratchFile(path, 256 * 1024);
  }

  add(bucket: number, entry: string): void {
    const length = Buffer.byteLength(entry);
    this.file.append(8 + length, (target, at) => {
      target.writeUInt32LE(bucket, at);
      target.writeUInt32LE(length, at + 4);
      target.write(entry, at + 8, 'utf8');
    });
  }

  /**
   * The part's buckets from its first up to `end` (exclusive), each as the JSON array of its
   * entries (in the order they were added), read back from the file at once.
   */
  *buckets(end: number): Generator<[bucket: number, entries: Buffer]> {
    const data = Buffer.allocUnsafe(this.file.size());
    for (let read = 0; read < data.length; ) {
      const got = readSync(this.file.fd, data, read, data.length - read, read);
      if (got === 0) throw new Error('the temporary file of the pin index ended early');
      read += got;
    }
    // A counting sort of the entries by bucket, stable: where each starts and how long it is.
    const span = end - this.firstBucket;
    const firstOf = new Uint32Array(span + 1);
    let entries = 0;
    for (let at = 0; at < data.length; at += 8 + data.readUInt32LE(at + 4)) {
      firstOf[data.readUInt32LE(at) - this.firstBucket + 1]!++;
      entries++;
    }
    for (let b = 0; b < span; b++) firstOf[b + 1]! += firstOf[b]!;
    const next = firstOf.slice(0, span);
    const starts = new Float64Array(entries);
    for (let at = 0; at < data.length; at += 8 + data.readUInt32LE(at + 4)) starts[next[data.readUInt32LE(at) - this.firstBucket]!++] = at;
    for (let b = 0; b < span; b++) {
      const pieces: Buffer[] = [OPEN];
      for (let k = firstOf[b]!; k < firstOf[b + 1]!; k++) {
        const at = starts[k]!;
        if (k > firstOf[b]!) pieces.push(COMMA);
        pieces.push(data.subarray(at + 8, at + 8 + data.readUInt32LE(at + 4)));
      }
      pieces.push(CLOSE);
      yield [this.firstBucket + b, Buffer.concat(pieces)];
    }
  }

  /** Closes and deletes the file (once). */
  remove(): void {
    this.file.remove();
  }
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * How many pins each category has (`PinArchiveMetadata.categories`): the file's styled categories
 * first, in its order, then the others, counted by look (the looks are in the order their first
 * pin came, so their categories are in the order they first appear).
 */
function categoryCounts(pinStyles: Record<string, PinOptions>, looks: readonly PinLook[], lookOf: Uint16Array): [string, number][] {
  const perLook = new Float64Array(looks.length);
  for (const look of lookOf) perLook[look]!++;
  const counts = new Map<string, number>(Object.keys(pinStyles).map((category) => [category, 0]));
  looks.forEach((look, i) => {
    if (look.category !== undefined) counts.set(look.category, (counts.get(look.category) ?? 0) + perLook[i]!);
  });
  return [...counts];
}

/** The archive's JSON metadata: TileJSON-like fields for any reader, and `pinmap` for the page. */
function archiveMetadata(
  name: string,
  count: number,
  members: { attribution?: string; pinStyles: Record<string, PinOptions> },
  looks: PinLook[],
  index: PinIndexInfo,
  categories: [string, number][],
): object {
  const pinmap: PinArchiveMetadata = { version: PIN_ARCHIVE.version, count, pinStyles: members.pinStyles, looks, index, categories };
  if (members.attribution !== undefined) pinmap.attribution = members.attribution;
  return {
    name,
    format: 'pbf',
    description: `${count.toLocaleString('en-US')} pins, grouped per zoom, made by pinmap-tile-pins`,
    ...(members.attribution === undefined ? {} : { attribution: members.attribution }),
    vector_layers: [
      {
        id: PIN_ARCHIVE.layer,
        minzoom: 0,
        maxzoom: PIN_ARCHIVE.maxZoom,
        fields: {
          id: 'String',
          title: 'String',
          look: 'Number',
          cluster: 'Boolean',
          cluster_id: 'Number',
          point_count: 'Number',
          point_count_abbreviated: 'String',
          expansion_zoom: 'Number',
        },
      },
    ],
    pinmap,
  };
}

export { PinDataError };
