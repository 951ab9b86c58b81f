import type { PinSearchInfo } from '../pins/archive-format.ts';
import {
  ARCHIVE_SEARCH,
  archiveHits,
  blockSpan,
  lookupWord,
  topsBlockOf,
  wordsToLookUp,
  type ArchiveHitOptions,
  type SearchBlock,
  type SearchDirectory,
  type TopsBlock,
  type WordLookup,
} from '../pins/archive-search.ts';
import { searchWords } from '../pins/search.ts';
import type { ArchivePinSearch, ArchiveSearchResult } from '../pins/types.ts';
import { ArchiveSectionError, SECTION_LIMITS, inflateJson, readPiece } from './archive-sections.ts';

/** Reads `length` bytes at `offset` of the archive (a range request). */
export type ReadBytes = (offset: number, length: number) => Promise<ArrayBuffer>;

/** Blocks kept decoded: the blocks of the words typed lately (a few each), so a keystroke mostly reads one. */
const CACHE_BLOCKS = 64;

/**
 * The search of a pre-tiled archive in the page (`ArchivePinSearch`; what the index holds:
 * `src/pins/archive-search.ts`): its directory read once (`prepare`, when the search box first
 * gets focus), then per keystroke the blocks of the query's rarest word (one range request for a
 * run of blocks, none when they were read for an earlier keystroke) and, for an index that also
 * searches fields, those of any other word a candidate's title lacks. Blocks are kept decoded,
 * the last `CACHE_BLOCKS`.
 */
export class ArchiveSearch implements ArchivePinSearch {
  readonly fields: readonly string[];
  private directory: Promise<SearchDirectory> | undefined;
  private readonly blocks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly read: ReadBytes,
    /** Where the index starts in the archive. */
    private readonly at: number,
    private readonly info: PinSearchInfo,
    private readonly categoryOf: (look: number) => string | undefined,
    /** The archive's URL, for messages. */
    private readonly href: string,
  ) {
    this.fields = info.fields;
  }

  prepare(): void {
    this.directoryRead().catch(() => {}); // told at the search that needs it
  }

  async search(query: string, limit: number, hidden: ReadonlySet<string>): Promise<ArchiveSearchResult> {
    const words = searchWords(query);
    if (words.length === 0) return { hits: [], total: 0, exact: true };
    const directory = await this.directoryRead();
    const options: ArchiveHitOptions = { fields: this.fields, categoryOf: this.categoryOf, hidden, limit };
    const word = lookupWord(words, directory.words);
    const lookups = new Map<string, WordLookup>([[word, await this.lookUp(directory, word)]]);
    const others = wordsToLookUp(words, word, lookups.get(word)!, options);
    for (const [other, lookup] of await Promise.all(others.map(async (other) => [other, await this.lookUp(directory, other)] as const))) lookups.set(other, lookup);
    return archiveHits(query, word, lookups, options);
  }

  private directoryRead(): Promise<SearchDirectory> {
    if (!this.directory) {
      const [offset, length] = this.info.directory;
      this.directory = this.decode<SearchDirectory>(this.piece(offset, length, SECTION_LIMITS.searchDirectory, 'its directory'), SECTION_LIMITS.searchDirectory, 'its directory').then((directory) => {
        const fits = (offsets: unknown, names: unknown) =>
          Array.isArray(names) &&
          Array.isArray(offsets) &&
          offsets.length === names.length + 1 &&
          offsets.every((at, k) => typeof at === 'number' && at >= 0 && at <= offset && (k === 0 || at >= (offsets[k - 1] as number)));
        if (!fits(directory?.offsets, directory?.words) || !fits(directory.topOffsets, directory.tops)) {
          throw this.damaged('its directory does not list its blocks');
        }
        return directory;
      });
      // A failed read is tried again at the next search.
      this.directory.catch(() => (this.directory = undefined));
    }
    return this.directory;
  }

  /** The section's bytes `offset` to `offset + length` (from its start), checked against its declared length and `limit`. */
  private piece(offset: number, length: number, limit: number, what: string): Promise<ArrayBuffer> {
    return readPiece(this.read, this.at + offset, length, { from: this.at, to: this.at + this.info.length, limit }, this.href, 'search index', what);
  }

  private damaged(detail: string): ArchiveSectionError {
    return new ArchiveSectionError(this.href, 'search index', detail);
  }

  /** The postings of the pins with a word that begins with `word`: its blocks, or a common prefix's best pins. */
  private async lookUp(directory: SearchDirectory, word: string): Promise<WordLookup> {
    const [first, last] = blockSpan(directory.words, word);
    if (last < first) return { postings: [], complete: true, total: 0 };
    if (last - first + 1 <= ARCHIVE_SEARCH.maxBlocks) {
      const blocks = await this.blocksOf<SearchBlock>('words', directory.offsets, first, last);
      const postings = blocks.flatMap((block) => block.flatMap(([w, found]) => (w.startsWith(word) ? found : [])));
      return { postings, complete: true, total: new Set(postings.map((posting) => posting[1])).size };
    }
    const block = topsBlockOf(directory.tops, word);
    const entry = block < 0 ? undefined : (await this.blocksOf<TopsBlock>('tops', directory.topOffsets, block, block))[0]!.find(([prefix]) => prefix === word);
    if (!entry) throw this.damaged(`it lacks the pins of the common prefix "${word}"`);
    return { postings: entry[2], complete: false, total: entry[1] };
  }

  /**
   * Blocks `first` to `last` of a kind, decoded: those not kept are read with one range request
   * (from the first to the last of them).
   */
  private async blocksOf<T>(kind: 'words' | 'tops', offsets: readonly number[], first: number, last: number): Promise<T[]> {
    const key = (b: number) => `${kind} ${b}`;
    const missing: number[] = [];
    for (let b = first; b <= last; b++) if (!this.blocks.has(key(b))) missing.push(b);
    if (missing.length > 0) {
      const from = missing[0]!;
      const to = missing.at(-1)!;
      const run = this.piece(offsets[from]!, offsets[to + 1]! - offsets[from]!, SECTION_LIMITS.searchBlock * (to - from + 1), `its ${kind} blocks ${from} to ${to}`);
      for (let b = from; b <= to; b++) {
        if (this.blocks.has(key(b))) continue;
        const start = offsets[b]! - offsets[from]!;
        const block = this.decode<T>(run.then((bytes) => bytes.slice(start, start + offsets[b + 1]! - offsets[b]!)), SECTION_LIMITS.searchBlock, `its ${kind} block ${b}`);
        this.blocks.set(key(b), block);
        block.catch(() => this.blocks.delete(key(b)));
      }
    }
    const blocks: Promise<unknown>[] = [];
    for (let b = first; b <= last; b++) {
      const block = this.blocks.get(key(b))!;
      // Most recently used last: the oldest goes first when the cache is full.
      this.blocks.delete(key(b));
      this.blocks.set(key(b), block);
      blocks.push(block);
    }
    while (this.blocks.size > Math.max(CACHE_BLOCKS, last - first + 1)) this.blocks.delete(this.blocks.keys().next().value!);
    return (await Promise.all(blocks)) as T[];
  }

  /** Gzipped JSON, decoded within `limit` bytes; a part that is not, or is over it, is an `ArchiveSectionError` naming it. */
  private async decode<T>(bytes: Promise<ArrayBuffer>, limit: number, what: string): Promise<T> {
    return (await inflateJson(await bytes, limit, this.href, 'search index', what)) as T;
  }
}
