import { PbfWriter as Pbf } from 'pbf';

/**
 * A Mapbox Vector Tile (spec 2.1) of one layer of points, written straight from numbers with
 * `pbf`: what the pin tiler needs, without building GeoJSON, cutting it with geojson-vt and
 * wrapping it again for vt-pbf for every tile. Positions are placed and rounded exactly as
 * geojson-vt does (`tilePoint`), so the tiles draw the pins where a GeoJSON source would.
 *
 * Each feature's properties are numbers, booleans or strings; a string may also be given as its
 * UTF-8 bytes (a pin's id, kept as bytes by the tiler). Keys are the layer's fixed list (`keys`),
 * written only up to the last one a tile uses; values are shared within a tile where equal.
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
  /** Values: a value given as bytes is its array, with where in it they start and end. */
  private valueCount = 0;
  private readonly values: (number | boolean | string | Uint8Array)[] = [];
  private byteStarts = new Uint32Array(64);
  private byteEnds = new Uint32Array(64);
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
      index = this.value(value, 0, 0);
      this.shared.set(value, index);
    }
    this.tag(key, index);
  }

  /**
   * Sets a string property given as UTF-8 bytes, `bytes[start..end)` (not shared: each is a pin's
   * own id or title). The bytes are read at `finish`.
   */
  bytesProperty(key: number, bytes: Uint8Array, start = 0, end = bytes.length): void {
    this.tag(key, this.value(bytes, start, end));
  }

  private value(value: number | boolean | string | Uint8Array, start: number, end: number): number {
    if (this.valueCount === this.byteStarts.length) {
      this.byteStarts = grown(this.byteStarts);
      this.byteEnds = grown(this.byteEnds);
    }
    this.values[this.valueCount] = value;
    this.byteStarts[this.valueCount] = start;
    this.byteEnds[this.valueCount] = end;
    return this.valueCount++;
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
    // The values stay referenced until overwritten: strings, and views of the tiler's byte store.
    this.valueCount = 0;
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
      const bytesAt = pbf.pos;
      pbf.writeTag(2, 2);
      // A feature's length fits one byte unless it has many tags: reserve one and move if not.
      pbf.pos++;
      const start = pbf.pos;
      pbf.writeTag(2, 2);
      let tagBytes = 0;
      for (let t = from; t < to; t++) tagBytes += varintLength(this.tags[t]!);
      pbf.writeVarint(tagBytes);
      for (let t = from; t < to; t++) pbf.writeVarint(this.tags[t]!);
      pbf.writeVarintField(3, 1); // POINT
      const x = this.xs[f]!;
      const y = this.ys[f]!;
      const zx = zigzag(x);
      const zy = zigzag(y);
      pbf.writeTag(4, 2);
      pbf.writeVarint(1 + varintLength(zx) + varintLength(zy));
      pbf.writeVarint(9); // MoveTo, one point
      pbf.writeVarint(zx);
      pbf.writeVarint(zy);
      const length = pbf.pos - start;
      if (length >= 0x80) {
        // Make room for a longer length prefix.
        const extra = varintLength(length) - 1;
        pbf.realloc(extra);
        pbf.buf.copyWithin(start + extra, start, start + length);
        pbf.pos = bytesAt + 1;
        pbf.writeVarint(length);
        pbf.pos = start + extra + length;
      } else {
        pbf.buf[bytesAt + 1] = length;
      }
    }
    for (let k = 0; k <= this.maxKey; k++) writeRaw(pbf, this.keyFields[k]!, 0, this.keyFields[k]!.length);
    for (let v = 0; v < this.valueCount; v++) {
      const value = this.values[v]!;
      if (value instanceof Uint8Array) writeBytesValue(pbf, value, this.byteStarts[v]!, this.byteEnds[v]!);
      else if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
        // A count, a look or an id: the value message's length is known without writing it first.
        pbf.writeTag(4, 2);
        pbf.writeVarint(1 + varintLength(value));
        pbf.writeVarintField(5, value);
      } else pbf.writeMessage(4, writeValue, value);
    }
  }
}

function writeLayer(tile: PointTileWriter, pbf: Pbf): void {
  tile.writeLayerTo(pbf);
}

/** A value message holding a string as its UTF-8 bytes, `bytes[start..end)`. */
function writeBytesValue(pbf: Pbf, bytes: Uint8Array, start: number, end: number): void {
  const length = end - start;
  pbf.writeTag(4, 2);
  pbf.writeVarint(1 + varintLength(length) + length);
  pbf.writeTag(1, 2);
  pbf.writeVarint(length);
  writeRaw(pbf, bytes, start, end);
}

/** `bytes[start..end)` as they are. */
function writeRaw(pbf: Pbf, bytes: Uint8Array, start: number, end: number): void {
  pbf.realloc(end - start);
  // Byte by byte: an id, a title or a key is a few bytes, fewer than a typed array's set pays for.
  const buf = pbf.buf;
  let at = pbf.pos;
  for (let k = start; k < end; k++) buf[at++] = bytes[k]!;
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

const zigzag = (n: number): number => (n << 1) ^ (n >> 31);

function varintLength(value: number): number {
  let bytes = 1;
  for (let v = value; v >= 0x80; v = Math.floor(v / 0x80)) bytes++;
  return bytes;
}

/** Where a longitude and latitude are drawn in tile (z, x, y) of `extent` units: geojson-vt's projection and rounding. */
export function tilePoint(lng: number, lat: number, z: number, x: number, y: number, extent: number): [number, number] {
  const sin = Math.sin((lat * Math.PI) / 180);
  const my = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  const z2 = 2 ** z;
  return [Math.round(extent * ((lng / 360 + 0.5) * z2 - x)), Math.round(extent * ((my < 0 ? 0 : my > 1 ? 1 : my) * z2 - y))];
}
