import { PIN_ARCHIVE, type LeafEntry, type PinLeavesInfo } from '../pins/archive-format.ts';
import type { ReadBytes } from './pin-archive-search.ts';
import { ArchiveSectionError, SECTION_LIMITS, inflateJson, readPiece } from './archive-sections.ts';

/** Blocks of the pin table kept decoded: a bubble listed again, or one beside it, reads none. */
const CACHE_BLOCKS = 256;
/**
 * Blocks of the pin table read with one range request when no more than this many unneeded
 * blocks lie between them (a few KB each): one longer request is quicker than two.
 */
const BLOCK_GAP = 8;

/**
 * A bubble's pins read from a pre-tiled archive (format version 4; the section is described at
 * `PinLeavesInfo`): the bubble's run of its range's order (one range request), the offsets of the
 * pin table's blocks those pins are in (one), and the blocks themselves, neighbours read together
 * (a request per run of nearby blocks). Decoded blocks are kept, the last `CACHE_BLOCKS`.
 */
export class ArchiveBubbleLeaves {
  private readonly blocks = new Map<number, Promise<LeafEntry[]>>();

  constructor(
    private readonly read: ReadBytes,
    /** Where the section starts in the archive. */
    private readonly at: number,
    private readonly info: PinLeavesInfo,
    /** How many pins the archive holds. */
    private readonly count: number,
    /** The archive's URL, for messages. */
    private readonly href: string,
  ) {}

  /**
   * The first `limit` pins (id, title, look) of the bubble shown at `zoom` whose run starts at
   * `first` (its `first` property) and holds `points` pins (its `point_count`), in the run's order.
   */
  async pins(zoom: number, first: number, points: number, limit: number): Promise<LeafEntry[]> {
    const range = this.info.ranges.findIndex(([from, to]) => zoom >= from && zoom <= to);
    if (range < 0 || !Number.isInteger(first) || first < 0 || !(points >= 1) || first + points > this.count) {
      throw this.damaged(`no bubble at zoom ${zoom} holds the pins ${first} to ${first + points - 1}`);
    }
    const length = Math.min(points, limit);
    const { orders, ranges } = this.info;
    const table = (Math.ceil(this.count / PIN_ARCHIVE.pinsPerLeafBlock) + 1) * 8;
    if (!(orders >= table) || orders + ranges.length * this.count * 4 > this.info.length) throw this.damaged(`its orders at ${orders} do not fit its ${this.info.length} bytes`);
    const orderBytes = await this.piece(orders + (range * this.count + first) * 4, length * 4, length * 4, `the order of zooms ${ranges[range]!.join(' to ')}`);
    const view = new DataView(orderBytes);
    const numbers = Array.from({ length }, (_, k) => view.getUint32(4 * k, true));
    for (const number of numbers) if (number >= this.count) throw this.damaged(`pin ${number} of ${this.count}`);
    const perBlock = PIN_ARCHIVE.pinsPerLeafBlock;
    const blocks = await this.blocksOf([...new Set(numbers.map((number) => Math.floor(number / perBlock)))].sort((a, b) => a - b));
    return numbers.map((number) => {
      const entry = blocks.get(Math.floor(number / perBlock))?.[number % perBlock];
      if (!Array.isArray(entry) || typeof entry[0] !== 'string') throw this.damaged(`pin ${number} is not in its block`);
      return entry;
    });
  }

  /** The blocks numbered `wanted` (in order), decoded: those not kept read a run of nearby ones at a time. */
  private async blocksOf(wanted: number[]): Promise<Map<number, LeafEntry[]>> {
    const missing = wanted.filter((block) => !this.blocks.has(block));
    if (missing.length > 0) {
      const span = (missing.at(-1)! - missing[0]! + 2) * 8;
      const offsetsBytes = await this.piece(missing[0]! * 8, span, span, `the offsets of blocks ${missing[0]!} to ${missing.at(-1)!}`);
      const offsets = new DataView(offsetsBytes);
      const offsetOf = (block: number) => offsets.getFloat64((block - missing[0]!) * 8, true);
      for (let block = missing[0]!; block <= missing.at(-1)!; block++) {
        if (!(offsetOf(block + 1) > offsetOf(block))) throw this.damaged(`block ${block} spans ${offsetOf(block)} to ${offsetOf(block + 1)}`);
      }
      for (let i = 0; i < missing.length; ) {
        let j = i;
        while (j + 1 < missing.length && missing[j + 1]! - missing[j]! <= BLOCK_GAP + 1) j++;
        const from = missing[i]!;
        const run = this.piece(offsetOf(from), offsetOf(missing[j]! + 1) - offsetOf(from), SECTION_LIMITS.leafBlock * (missing[j]! - from + 1), `blocks ${from} to ${missing[j]!}`);
        for (const block of missing.slice(i, j + 1)) {
          const start = offsetOf(block) - offsetOf(from);
          const decoded = this.decode(run.then((bytes) => bytes.slice(start, start + offsetOf(block + 1) - offsetOf(block))), block);
          this.blocks.set(block, decoded);
          decoded.catch(() => this.blocks.delete(block));
        }
        i = j + 1;
      }
    }
    const found = new Map<number, LeafEntry[]>();
    for (const block of wanted) {
      const entries = this.blocks.get(block)!;
      // Most recently used last: the oldest goes first when the cache is full.
      this.blocks.delete(block);
      this.blocks.set(block, entries);
      found.set(block, await entries);
    }
    while (this.blocks.size > Math.max(CACHE_BLOCKS, wanted.length)) this.blocks.delete(this.blocks.keys().next().value!);
    return found;
  }

  /** The section's bytes `offset` to `offset + length` (from its start): its pin table within its orders, checked against its declared length and `limit`. */
  private piece(offset: number, length: number, limit: number, what: string): Promise<ArrayBuffer> {
    return readPiece(this.read, this.at + offset, length, { from: this.at, to: this.at + this.info.length, limit }, this.href, "bubbles' pins", what);
  }

  private damaged(detail: string): ArchiveSectionError {
    return new ArchiveSectionError(this.href, "bubbles' pins", detail);
  }

  /** A gzipped JSON block of the pin table, decoded within `SECTION_LIMITS.leafBlock`; one that is not, or is over it, is an `ArchiveSectionError` naming it. */
  private async decode(bytes: Promise<ArrayBuffer>, block: number): Promise<LeafEntry[]> {
    const entries = await inflateJson(await bytes, SECTION_LIMITS.leafBlock, this.href, "bubbles' pins", `block ${block}`);
    if (!Array.isArray(entries)) throw this.damaged(`block ${block} is not a list`);
    return entries as LeafEntry[];
  }
}
