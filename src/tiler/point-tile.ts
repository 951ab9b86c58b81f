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
  /** Per feature: x, y, and where its tags start in `tags`. */
  private xs: number[] = [];
  private ys: number[] = [];
  private tagStarts: number[] = [];
  private tags: number[] = [];
  private values: (number | boolean | string | Uint8Array)[] = [];
  /** For each value given as bytes, where in its array they start and end (0 for other values). */
  private byteStarts: number[] = [];
  private byteEnds: number[] = [];
  private readonly shared = new Map<number | boolean | string, number>();
  private maxKey = -1;

  /** `name`: the layer's name; `keys`: every property name, in the order `property` refers to them. */
  constructor(
    private readonly name: string,
    private readonly keys: readonly string[],
    private readonly extent: number,
  ) {}

  /** Starts a point feature at tile position (x, y) (see `tilePoint`). */
  point(x: number, y: number): void {
    this.xs.push(x);
    this.ys.push(y);
    this.tagStarts.push(this.tags.length);
  }

  /** Sets property `keys[key]` of the feature last started; equal values are stored once per tile. */
  property(key: number, value: number | boolean | string): void {
    let index = this.shared.get(value);
    if (index === undefined || typeof this.values[index] !== typeof value) {
      index = this.values.length;
      this.values.push(value);
      this.byteStarts.push(0);
      this.byteEnds.push(0);
      this.shared.set(value, index);
    }
    this.tag(key, index);
  }

  /**
   * Sets a string property given as UTF-8 bytes, `bytes[start..end)` (not shared: each is a pin's
   * own id or title). The bytes are read at `finish`.
   */
  bytesProperty(key: number, bytes: Uint8Array, start = 0, end = bytes.length): void {
    this.tag(key, this.values.length);
    this.values.push(bytes);
    this.byteStarts.push(start);
    this.byteEnds.push(end);
  }

  private tag(key: number, value: number): void {
    this.tags.push(key, value);
    if (key > this.maxKey) this.maxKey = key;
  }

  /** How many features the tile has so far. */
  get length(): number {
    return this.xs.length;
  }

  /** The tile's bytes (valid until the next `finish`), and a fresh start for the next tile. */
  finish(): Uint8Array {
    const pbf = this.pbf;
    // Reused: `finish` of the last tile set its length to that tile's; the buffer is all there.
    pbf.pos = 0;
    pbf.length = pbf.buf.length;
    pbf.writeMessage(3, writeLayer, this);
    const bytes = pbf.finish();
    this.xs = [];
    this.ys = [];
    this.tagStarts = [];
    this.tags = [];
    this.values = [];
    this.byteStarts = [];
    this.byteEnds = [];
    this.shared.clear();
    this.maxKey = -1;
    return bytes;
  }

  /** @internal */
  writeLayerTo(pbf: Pbf): void {
    pbf.writeVarintField(15, 2);
    pbf.writeStringField(1, this.name);
    pbf.writeVarintField(5, this.extent);
    for (let f = 0; f < this.xs.length; f++) {
      const from = this.tagStarts[f]!;
      const to = f + 1 < this.tagStarts.length ? this.tagStarts[f + 1]! : this.tags.length;
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
    for (let k = 0; k <= this.maxKey; k++) pbf.writeStringField(3, this.keys[k]!);
    for (let v = 0; v < this.values.length; v++) {
      const value = this.values[v]!;
      if (value instanceof Uint8Array) writeBytesValue(pbf, value, this.byteStarts[v]!, this.byteEnds[v]!);
      else pbf.writeMessage(4, writeValue, value);
    }
  }
}

function writeLayer(tile: PointTileWriter, pbf: Pbf): void {
  tile.writeLayerTo(pbf);
}

/** A value message holding a string as its UTF-8 bytes, `bytes[start..end)`, copied in one go. */
function writeBytesValue(pbf: Pbf, bytes: Uint8Array, start: number, end: number): void {
  const length = end - start;
  pbf.writeTag(4, 2);
  pbf.writeVarint(1 + varintLength(length) + length);
  pbf.writeTag(1, 2);
  pbf.writeVarint(length);
  pbf.realloc(length);
  pbf.buf.set(bytes.subarray(start, end), pbf.pos);
  pbf.pos += length;
}

function writeValue(value: number | boolean | string, pbf: Pbf): void {
  if (typeof value === 'string') pbf.writeStringField(1, value);
  else if (typeof value === 'boolean') pbf.writeBooleanField(7, value);
  else if (!Number.isInteger(value)) pbf.writeDoubleField(3, value);
  else if (value < 0) pbf.writeSVarintField(6, value);
  else pbf.writeVarintField(5, value);
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
