import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { pinBucket } from '../pins/archive-format.ts';
import { Growable } from './growable.ts';

/**
 * The pin tiler's pin index (`PinIndexInfo`): each pin's popup fields spilled to a temporary file
 * as the pins are read (`RecordSpill`), and the index written from them in parts
 * (`writePinIndex`), in the grouping's worker thread once every zoom is grouped.
 */

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
 * memory): read back once, in order, to write the pin index (`forEachRecord`, in any thread).
 */
export class RecordSpill {
  private readonly file: ScratchFile;
  private readonly lengths = new Growable<Uint32Array>((n) => new Uint32Array(new SharedArrayBuffer(n * 4)));

  constructor(private readonly path: string) {
    this.file = new ScratchFile(path, 4 * 1024 * 1024);
  }

  add(text: string): void {
    const length = Buffer.byteLength(text);
    this.file.append(length, (target, at) => target.write(text, at, 'utf8'));
    this.lengths.push(length);
  }

  /** Every record is in the file: where it is and each record's length (in shared memory). */
  spilled(): SpilledRecords {
    this.file.size();
    this.lengths.trim();
    return { path: this.path, lengths: this.lengths.view() };
  }

  close(): void {
    this.file.remove();
  }
}

/** A `RecordSpill`'s file and its records' lengths. */
export interface SpilledRecords {
  path: string;
  lengths: Uint32Array;
}

/** Calls `each(pin, text)` for every spilled record, in order, reading the file a few MB at a time. */
export function forEachRecord(records: SpilledRecords, each: (pin: number, text: string) => void): void {
  const fd = openSync(records.path, 'r');
  try {
    const lengths = records.lengths;
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
          const got = readSync(fd, chunk, have, chunk.length - have, read);
          if (got === 0) throw new Error('the temporary file of pin records ended early');
          have += got;
          read += got;
        }
      }
      each(pin, chunk.toString('utf8', at, at + length));
      at += length;
    }
  } finally {
    closeSync(fd);
  }
}

/** What the pin index is made of: each pin's place, id, look, the zooms it stands alone at (bit z for zoom z), and popup fields. */
export interface PinIndexInput {
  coordinates: Float64Array;
  ids: { id(pin: number): string };
  looks: Uint16Array;
  alone: Uint32Array;
  records: SpilledRecords;
}

/**
 * Writes the pin index (see `PinIndexInfo`) to `path`; returns its length. Memory stays about the
 * same whatever the number of pins: the buckets are split into parts of about `partPins` pins; one read of the spilled records writes each pin's entry (as bytes,
 * after its bucket and length) to its part's temporary file, and then each part is read back on
 * its own, its entries ordered by bucket (in pin order within a bucket), and its buckets gzipped
 * into the index.
 */
export function writePinIndex(path: string, buckets: number, pins: PinIndexInput, partPins: number): number {
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
    forEachRecord(pins.records, (i, text) => {
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
export const INDEX_PINS_PER_PART = 250_000;

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
