import { closeSync, openSync, writeSync } from 'node:fs';
import { endianness } from 'node:os';
import { gzipSync } from 'node:zlib';
import { PIN_ARCHIVE, type LeafEntry, type PinLeavesInfo } from '../pins/archive-format.ts';
import type { ByteStore } from './byte-store.ts';
import type { IdStore } from './id-store.ts';

/**
 * The pin tiler's section of the bubbles' pins (`PinLeavesInfo` says what it holds): the pin table
 * is written first (`writeTable`, while the grouping's worker groups the first zooms), then each
 * range's order as the worker hands it over (`addRange`, with the range's first zoom), turned from
 * the pins' numbers as read into their numbers along the tiles. Per pin it keeps one number (its
 * place along the tiles), and no order after it is written.
 */
export class BubbleLeavesWriter {
  private readonly fd: number;
  private at = 0;
  private orders = -1;
  private closed = false;
  private readonly ranges: [number, number][] = [];
  /** Each pin's number in the table (its place along the tiles), by its number as read. */
  private placeOf: Uint32Array | undefined;

  constructor(path: string) {
    if (endianness() !== 'LE') throw new Error("the bubbles' pins are written on little-endian machines only");
    this.fd = openSync(path, 'w');
  }

  /** Writes the pin table: the pins along the tiles (`alongTiles`: the pin at each place), each with its id, title and look. */
  writeTable(alongTiles: Uint32Array, ids: IdStore, titles: ByteStore, looks: Uint16Array): void {
    const count = alongTiles.length;
    const perBlock = PIN_ARCHIVE.pinsPerLeafBlock;
    const blocks = Math.ceil(count / perBlock);
    const offsets = new Float64Array(blocks + 1);
    this.placeOf = new Uint32Array(count);
    this.at = offsets.byteLength;
    for (let b = 0; b < blocks; b++) {
      const entries: LeafEntry[] = [];
      for (let k = b * perBlock; k < Math.min(count, (b + 1) * perBlock); k++) {
        const pin = alongTiles[k]!;
        this.placeOf[pin] = k;
        entries.push([ids.id(pin), titles.text(pin), looks[pin]!]);
      }
      offsets[b] = this.at;
      // Level 4, as the search index: a block is read a few at a time, so bytes matter less than the tiler's time.
      this.append(gzipSync(JSON.stringify(entries), { level: 4 }));
    }
    offsets[blocks] = this.at;
    writeSync(this.fd, new Uint8Array(offsets.buffer), 0, offsets.byteLength, 0);
    this.orders = this.at;
  }

  /** Writes the order of a range of zooms (`zooms`: its first and last), the pins by their numbers as read; `order` is used up. */
  addRange(zooms: [number, number], order: Uint32Array): void {
    const placeOf = this.placeOf;
    if (!placeOf) throw new Error("the bubbles' pin table is written before the orders");
    for (let k = 0; k < order.length; k++) order[k] = placeOf[order[k]!]!;
    this.ranges.push(zooms);
    this.append(new Uint8Array(order.buffer, order.byteOffset, order.byteLength));
  }

  /** Closes the file; where the orders are and the section's length. */
  finish(): PinLeavesInfo {
    this.close();
    return { ranges: this.ranges, orders: this.orders, length: this.at };
  }

  /** Closes the file (once; after an error too). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.placeOf = undefined;
    closeSync(this.fd);
  }

  private append(bytes: Uint8Array): void {
    writeSync(this.fd, bytes, 0, bytes.length, this.at);
    this.at += bytes.length;
  }
}
