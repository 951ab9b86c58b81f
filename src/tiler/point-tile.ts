import { PbfWriter as Pbf } from 'pbf';

/**
 * A Mapbox Vector Tile (spec 2.1) of one layer of points, written straight from numbers with
 * `pbf`: what the pin tiler needs, without building GeoJSON, cutting it with geojson-vt and
 * wrapping it again for vt-pbf for every tile. Positions are placed and rounded exactly as
 * geojson-vt does (`tilePoint`), so the tiles draw the pins where a GeoJSON source would.
 *
 * Each feature's properties are numbers, booleans or strings; strings may also be given as their
 * value messages, already written (`writeStringValue`: a pin's id and title, which the tiler writes
 * once and copies into every tile of the pin). Keys are the layer's fixed list (`keys`), written
 * only up to the last one a tile uses; values are shared within a tile where equal.
 */
export class PointTileWriter {
  private readonly pbf = new Pbf();
  // The tile so far, in columns reused from tile to tile (counts, not lengths, say what is in use).
  /** Features: x, y, and where each one's tags start in `tags`. */
  private features = 0;
  private xs = new Int32Array(64);
  private ys = new Int32Array(64);
  private tagStarts = new Uint32Array(64);
  /** Key and value index pairs. */
  private tagCount = 0;
  private tags = new Uint32Array(256);
  /** Values numbered so far. */
  private valueCount = 0;
  /**
   * The values' messages, in the order of their numbers, as runs of bytes: run r is
   * `runSource[r][runStart[r]..runEnd[r])`, or of `own` where its source is null.
   */
  private runs = 0;
  private readonly runSource: (Uint8Array | null)[] = [];
  private runStart = new Uint32Array(64);
  private runEnd = new Uint32Array(64);
  /** The messages of values given as numbers, booleans or strings, written as they come (each once per tile). */
  private readonly own = new Pbf();
  private readonly shared = new Map<number | boolean | string, number>();
  private maxKey = -1;

  /** The layer's version, name and extent, encoded once: every tile starts its layer with them. */
  private readonly head: Uint8Array;
  /** Each key's field, encoded once. */
  private readonly keyFields: Uint8Array[];

  /** `name`: the layer's name; `keys`: every property name, in the order `property` refers to them. */
  constructor(name: string, keys: readonly string[], extent: number) {
    const head = new Pbf();
    head.writeVarintField(15, 2);
    head.writeStringField(1, name);
    head.writeVarintField(5, extent);
    this.head = head.finish().slice();
    this.keyFields = keys.map((key) => {
      const field = new Pbf();
      field.writeStringField(3, key);
      return field.finish().slice();
    });
  }

  /** Starts a point feature at tile position (x, y) (see `tilePoint`). */
  point(x: number, y: number): void {
    if (this.features === this.xs.length) {
      this.xs = grown(this.xs);
      this.ys = grown(this.ys);
      this.tagStarts = grown(this.tagStarts);
    }
    this.xs[this.features] = x;
    this.ys[this.features] = y;
    this.tagStarts[this.features++] = this.tagCount;
  }

  /** Sets property `keys[key]` of the feature last started; equal values are stored once per tile. */
  property(key: number, value: number | boolean | string): void {
    let index = this.shared.get(value);
    if (index === undefined) {
      const own = this.own;
      const start = own.pos;
      if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
        // A count, a look or an id: the value message's length is known without writing it first.
        own.writeTag(4, 2);
        own.writeVarint(1 + varintLength(value));
        own.writeVarintField(5, value);
      } else own.writeMessage(4, writeValue, value);
      index = this.valueCount++;
      this.run(null, start, own.pos);
      this.shared.set(value, index);
    }
    this.tag(key, index);
  }

  /**
   * Sets properties `keys[key]`, `keys[key + 1]` … (`count` of them) of the feature last started
   * to values given as their messages, one after another in `bytes[start..end)` (see
   * `writeStringValue`; not shared: each is a pin's own id or title). The bytes are read at `finish`.
   */
  encodedProperties(key: number, count: number, bytes: Uint8Array, start: number, end: number): void {
    for (let k = 0; k < count; k++) this.tag(key + k, this.valueCount++);
    this.run(bytes, start, end);
  }

  /** Adds value messages `source[start..end)` (of `own` when null), joined to the last run where they follow it. */
  private run(source: Uint8Array | null, start: number, end: number): void {
    const last = this.runs - 1;
    if (last >= 0 && this.runSource[last] === source && this.runEnd[last] === start) {
      this.runEnd[last] = end;
      return;
    }
    if (this.runs === this.runStart.length) {
      this.runStart = grown(this.runStart);
      this.runEnd = grown(this.runEnd);
    }
    this.runSource[this.runs] = source;
    this.runStart[this.runs] = start;
    this.runEnd[this.runs++] = end;
  }

  private tag(key: number, value: number): void {
    if (this.tagCount + 2 > this.tags.length) this.tags = grown(this.tags);
    this.tags[this.tagCount++] = key;
    this.tags[this.tagCount++] = value;
    if (key > this.maxKey) this.maxKey = key;
  }

  /** How many features the tile has so far. */
  get length(): number {
    return this.features;
  }

  /** The tile's bytes (valid until the next `finish`), and a fresh start for the next tile. */
  finish(): Uint8Array {
    const pbf = this.pbf;
    // Reused: `finish` of the last tile set its length to that tile's; the buffer is all there.
    pbf.pos = 0;
    pbf.length = pbf.buf.length;
    pbf.writeMessage(3, writeLayer, this);
    const bytes = pbf.finish();
    this.features = 0;
    this.tagCount = 0;
    this.valueCount = 0;
    // The sources stay referenced until overwritten: views of the tiler's byte store.
    this.runs = 0;
    this.own.pos = 0;
    this.own.length = this.own.buf.length;
    if (this.shared.size > 0) this.shared.clear();
    this.maxKey = -1;
    return bytes;
  }

  /** @internal */
  writeLayerTo(pbf: Pbf): void {
    writeRaw(pbf, this.head, 0, this.head.length);
    for (let f = 0; f < this.features; f++) {
      const from = this.tagStarts[f]!;
      const to = f + 1 < this.features ? this.tagStarts[f + 1]! : this.tagCount;
      const zx = zigzag(this.xs[f]!);
      const zy = zigzag(this.ys[f]!);
      let tagBytes = 0;
      for (let t = from; t < to; t++) tagBytes += varintLength(this.tags[t]!);
      const geometryBytes = 1 + varintLength(zx) + varintLength(zy);
      // Tags (field 2), the type (field 3: POINT), the geometry (field 4: MoveTo, one point).
      const length = 1 + varintLength(tagBytes) + tagBytes + 2 + 1 + varintLength(geometryBytes) + geometryBytes;
      pbf.realloc(1 + varintLength(length) + length);
      const buf = pbf.buf;
      let at = pbf.pos;
      buf[at++] = 0x12; // field 2 (a feature), length-delimited
      at = writeVarintAt(buf, at, length);
      buf[at++] = 0x12;
      at = writeVarintAt(buf, at, tagBytes);
      for (let t = from; t < to; t++) at = writeVarintAt(buf, at, this.tags[t]!);
      buf[at++] = 0x18;
      buf[at++] = 1;
      buf[at++] = 0x22;
      at = writeVarintAt(buf, at, geometryBytes);
      buf[at++] = 9;
      at = writeVarintAt(buf, at, zx);
      at = writeVarintAt(buf, at, zy);
      pbf.pos = at;
    }
    for (let k = 0; k <= this.maxKey; k++) writeRaw(pbf, this.keyFields[k]!, 0, this.keyFields[k]!.length);
    for (let r = 0; r < this.runs; r++) writeRaw(pbf, this.runSource[r] ?? this.own.buf, this.runStart[r]!, this.runEnd[r]!);
  }
}

function writeLayer(tile: PointTileWriter, pbf: Pbf): void {
  tile.writeLayerTo(pbf);
}

/** How many bytes a value message (a layer's field 4) holding a string of `length` UTF-8 bytes takes. */
export const stringValueLength = (length: number): number => 2 + varintLength(1 + varintLength(length) + length) + varintLength(length) + length;

/** Writes a value message holding the string `bytes[start..end)` (UTF-8) into `out` at `at`; returns where it ends. */
export function writeStringValue(out: Uint8Array, at: number, bytes: Uint8Array, start: number, end: number): number {
  const length = end - start;
  let to = at;
  out[to++] = 0x22; // field 4, length-delimited
  to = writeVarintAt(out, to, 1 + varintLength(length) + length);
  out[to++] = 0x0a; // field 1 (string), length-delimited
  to = writeVarintAt(out, to, length);
  out.set(bytes.subarray(start, end), to);
  return to + length;
}

/** Writes `value` (0 to 2 ** 53) as a varint into `out` at `at`; returns where it ends. */
function writeVarintAt(out: Uint8Array, at: number, value: number): number {
  let to = at;
  let v = value;
  if (v < 0x80000000) {
    // Most are: bit operations, not division.
    for (; v >= 0x80; v >>>= 7) out[to++] = (v & 0x7f) | 0x80;
  } else for (; v >= 0x80; v = Math.floor(v / 0x80)) out[to++] = (v % 0x80) | 0x80;
  out[to++] = v;
  return to;
}

/** `bytes[start..end)` as they are. */
function writeRaw(pbf: Pbf, bytes: Uint8Array, start: number, end: number): void {
  pbf.realloc(end - start);
  const buf = pbf.buf;
  let at = pbf.pos;
  // Byte by byte when short (a key, a look): fewer than a typed array's set pays for.
  if (end - start > 32) {
    buf.set(bytes.subarray(start, end), at);
    at += end - start;
  } else for (let k = start; k < end; k++) buf[at++] = bytes[k]!;
  pbf.pos = at;
}

function writeValue(value: number | boolean | string, pbf: Pbf): void {
  if (typeof value === 'string') pbf.writeStringField(1, value);
  else if (typeof value === 'boolean') pbf.writeBooleanField(7, value);
  else if (!Number.isInteger(value)) pbf.writeDoubleField(3, value);
  else if (value < 0) pbf.writeSVarintField(6, value);
  else pbf.writeVarintField(5, value);
}

/** A column twice as long, with what it held. */
function grown<T extends Int32Array | Uint32Array>(column: T): T {
  const next = new (column.constructor as new (length: number) => T)(column.length * 2);
  next.set(column);
  return next;
}

/** A 32-bit integer zigzag-encoded, as an unsigned number. */
const zigzag = (n: number): number => ((n << 1) ^ (n >> 31)) >>> 0;

function varintLength(value: number): number {
  if (value < 0x80) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x200000) return 3;
  let bytes = 4;
  for (let v = value; v >= 0x10000000; v = Math.floor(v / 0x80)) bytes++;
  return bytes;
}

/** Where a latitude is from north (0) to south (1) of the world, clamped: geojson-vt's projection. */
export function mercatorY(lat: number): number {
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  return y < 0 ? 0 : y > 1 ? 1 : y;
}

/** Where `world` (a longitude's `lng / 360 + 0.5`, or `mercatorY`) is drawn in a tile whose column (or row) is `tile`, of `scale` (2 ** zoom) tiles across: geojson-vt's rounding. */
export const tileCoordinate = (world: number, scale: number, tile: number, extent: number): number => Math.round(extent * (world * scale - tile));

/** Where a longitude and latitude are drawn in tile (z, x, y) of `extent` units: geojson-vt's projection and rounding. */
export function tilePoint(lng: number, lat: number, z: number, x: number, y: number, extent: number): [number, number] {
  const scale = 2 ** z;
  return [tileCoordinate(lng / 360 + 0.5, scale, x, extent), tileCoordinate(mercatorY(lat), scale, y, extent)];
}
