import { Growable } from './growable.ts';
import type { PointTileWriter } from './point-tile.ts';

/** A `ByteStore`'s memory, shared: its chunks of bytes, and where each string is. */
export interface ByteStoreColumns {
  chunks: Uint8Array[];
  chunkOf: Uint16Array;
  startOf: Uint32Array;
  lengthOf: Uint32Array;
}

/**
 * Strings as UTF-8 bytes in large buffers (off the JavaScript heap, no string per pin), by number.
 * Everything is in shared memory, so another thread can read the strings (`columns`, `fromColumns`)
 * without a copy.
 */
export class ByteStore {
  private static readonly CHUNK = 16 * 1024 * 1024;
  private readonly chunks: Buffer[] = [];
  private used = ByteStore.CHUNK;
  private readonly chunkOf = new Growable<Uint16Array>((n) => new Uint16Array(new SharedArrayBuffer(n * 2)));
  /** Strings stored. */
  get count(): number {
    return this.chunkOf.length;
  }
  private readonly startOf = new Growable<Uint32Array>((n) => new Uint32Array(new SharedArrayBuffer(n * 4)));
  private readonly lengthOf = new Growable<Uint32Array>((n) => new Uint32Array(new SharedArrayBuffer(n * 4)));

  /** The store's memory, for `fromColumns` in another thread (after `trim`: nothing more is added). */
  columns(): ByteStoreColumns {
    return { chunks: this.chunks, chunkOf: this.chunkOf.view(), startOf: this.startOf.view(), lengthOf: this.lengthOf.view() };
  }

  /** A store reading the strings of another's `columns` (in this thread or another). */
  static fromColumns(columns: ByteStoreColumns): ByteStore {
    const store = new ByteStore();
    // Buffers over the same shared memory (a Buffer sent to another thread arrives as a Uint8Array).
    for (const chunk of columns.chunks) store.chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    store.chunkOf.array = columns.chunkOf;
    store.chunkOf.length = columns.chunkOf.length;
    store.startOf.array = columns.startOf;
    store.startOf.length = columns.startOf.length;
    store.lengthOf.array = columns.lengthOf;
    store.lengthOf.length = columns.lengthOf.length;
    return store;
  }

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

  /** Sets `count` properties from `key` of the feature `tile` last started to the value messages that string `i` holds (`PointTileWriter.encodedProperties`). */
  addTo(tile: PointTileWriter, key: number, count: number, i: number): void {
    const start = this.startOf.array[i]!;
    tile.encodedProperties(key, count, this.chunks[this.chunkOf.array[i]!]!, start, start + this.lengthOf.array[i]!);
  }

  /** String `i`. */
  text(i: number): string {
    const start = this.startOf.array[i]!;
    return this.chunks[this.chunkOf.array[i]!]!.toString('utf8', start, start + this.lengthOf.array[i]!);
  }

  /** The chunk `length` more bytes go into, at `used` (a new one when the last is full). */
  private last(length: number): Buffer {
    if (this.used + length > (this.chunks.at(-1)?.length ?? 0)) {
      this.chunks.push(Buffer.from(new SharedArrayBuffer(Math.max(ByteStore.CHUNK, length))));
      this.used = 0;
    }
    return this.chunks.at(-1)!;
  }

  /** Lets go of the room not used (once nothing more is added). */
  trim(): void {
    for (const column of [this.chunkOf, this.startOf, this.lengthOf]) column.trim();
    const last = this.chunks.at(-1);
    if (last) {
      const trimmed = Buffer.from(new SharedArrayBuffer(this.used));
      last.copy(trimmed, 0, 0, this.used);
      this.chunks[this.chunks.length - 1] = trimmed;
    }
  }

  private stored(length: number): void {
    this.chunkOf.push(this.chunks.length - 1);
    this.startOf.push(this.used);
    this.lengthOf.push(length);
    this.used += length;
  }
}
