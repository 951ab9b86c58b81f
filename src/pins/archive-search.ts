import { comparePins, firstLine, foldText, rankOf, searchWords } from './search.ts';
import type { ArchiveSearchResult, Pin, PinSummary } from './types.ts';

/**
 * The search index of a pre-tiled pin archive (format version 3, README "Pre-tiled pins"): what
 * the pin tiler writes (`src/tiler/search-index.ts`) and the page reads with a few range requests
 * per keystroke (`src/map/pin-archive-search.ts`), and the rules both share. Pure, so both sides
 * are unit tested in Node.
 *
 * Every distinct word of each pin's title and searched fields (`searchWords`, the words the
 * inline search matches too) is one posting: the word, which of the pin's texts have it
 * (`POSTING_BITS`), and what a result shows of the pin (id, title, look, the description's first
 * line). The postings are sorted by word, then by how well a one-word query would match (the
 * title's first word, another word of the title, a field), then by title, and cut into blocks
 * (`SearchBlock`) of about `blockBytes` each, gzipped one by one. The words that begin with a
 * query's word are then a run of the postings: one range request for its blocks, found from the
 * directory (`SearchDirectory`: each block's first word, read once). A word of the query that
 * begins the words of more than `maxBlocks` blocks (a common one, "a" of a million pins) is not
 * read so: the index keeps, for each such prefix, its `topPins` best pins and how many pins it
 * has (`TopsBlock`), one more run of blocks found from the same directory.
 */
export const ARCHIVE_SEARCH = {
  /** About this many bytes of postings (JSON) go into one block before it is gzipped. */
  blockBytes: 32 * 1024,
  /** A prefix whose words fill more blocks than this is common: its best pins are kept apart. */
  maxBlocks: 4,
  /** How many pins the index keeps of each common prefix. */
  topPins: 64,
  /** The most characters of a title a posting keeps (as the tiles' names for pins). */
  titleLength: 200,
  /** The most characters of the description's first line a posting keeps (what a result shows). */
  lineLength: 120,
  /** The most fields searched besides the title (each is a bit of a posting's `bits`). */
  maxFields: 28,
} as const;

/** A posting's `bits`: the word is the title's first word, another word of the title, or (`fieldBit`) in a searched field. */
export const POSTING_BITS = { titleFirst: 1, inTitle: 2 } as const;
/** The bit of a posting that says its word is in searched field `index` (of `PinSearchInfo.fields`). */
export const fieldBit = (index: number): number => 1 << (2 + index);

/** One word's posting of one pin: which texts have the word, and what a result shows of the pin. */
export type SearchPosting = [bits: number, id: string, title: string, look: number, line: string];
/** A block of the index: words in order, each with its postings (a word of many pins may go on in the next block). */
export type SearchBlock = [word: string, postings: SearchPosting[]][];
/** A block of common prefixes, in order: each with how many pins have a word that begins with it, and its best pins. */
export type TopsBlock = [prefix: string, total: number, postings: SearchPosting[]][];

/**
 * Where the blocks are: `words[b]` is the first word of block b, which spans `offsets[b]` to
 * `offsets[b + 1]` (bytes from the index's start); `tops` and `topOffsets` likewise for the
 * blocks of common prefixes (`tops[b]` the first prefix of tops block b).
 */
export interface SearchDirectory {
  words: string[];
  offsets: number[];
  tops: string[];
  topOffsets: number[];
}

/** Everything that begins with `prefix` sorts at or after it and before this. */
const prefixEnd = (prefix: string): string => `${prefix}\uffff`;

/** The last index whose item is below `value` in a sorted list (-1 if none). */
function lastBelow(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low - 1;
}

/**
 * The blocks that may hold words beginning with `prefix`, `[first, last]` (none when last <
 * first), from the blocks' first words: a block holds the words from its first up to the next
 * block's first (a word of many pins may fill several).
 */
export function blockSpan(firstWords: readonly string[], prefix: string): [number, number] {
  return [Math.max(0, lastBelow(firstWords, prefix)), lastBelow(firstWords, prefixEnd(prefix))];
}

/** Whether `prefix` is common: its words fill more than `maxBlocks` blocks. */
export function isCommon(firstWords: readonly string[], prefix: string): boolean {
  const [first, last] = blockSpan(firstWords, prefix);
  return last - first + 1 > ARCHIVE_SEARCH.maxBlocks;
}

/** The tops block that holds `prefix`, if any could (the last whose first prefix is not after it). */
export function topsBlockOf(firstPrefixes: readonly string[], prefix: string): number {
  return lastBelow(firstPrefixes, `${prefix}\u0000`);
}

/** `text` cut to `length` characters (not within a surrogate pair), with an ellipsis when cut. */
function cut(text: string, length: number): string {
  if (text.length <= length) return text;
  const head = text.slice(0, length - 1);
  return `${/[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head}…`;
}

/** What a posting keeps of a pin, after its bits: id, title, look and the description's first line (each cut). */
export function postingRecord(pin: Pick<Pin, 'id' | 'title' | 'description'>, look: number): [string, string, number, string] {
  return [pin.id, cut(pin.title, ARCHIVE_SEARCH.titleLength), look, cut(firstLine(pin.description), ARCHIVE_SEARCH.lineLength)];
}

/** The postings the index gives for one word of a query: the pins with a word that begins with it. */
export interface WordLookup {
  postings: readonly SearchPosting[];
  /** Every such pin is there; else (a common prefix) only the best `topPins`. */
  complete: boolean;
  /** How many pins have such a word (for a common prefix, as the index counted them). */
  total: number;
}

/** What `archiveHits` needs besides the lookups: the archive's searched fields, its looks' categories, and what is hidden. */
export interface ArchiveHitOptions {
  fields: readonly string[];
  categoryOf: (look: number) => string | undefined;
  hidden: ReadonlySet<string>;
  limit: number;
}

/**
 * The word of a query to look up first (its postings are the candidates): the one whose words fill
 * the fewest blocks, the longest of those.
 */
export function lookupWord(words: readonly string[], firstWords: readonly string[]): string {
  const blocks = (word: string) => {
    const [first, last] = blockSpan(firstWords, word);
    return last - first + 1;
  };
  return words.reduce((best, word) => {
    const difference = blocks(word) - blocks(best);
    return difference < 0 || (difference === 0 && word.length > best.length) ? word : best;
  });
}

/** What a posting's texts are to the search: its folded title, and the words of its title and of its description's first line. */
interface PostingTexts {
  title: string;
  titleWords: string[];
  lineWords: string[];
}

/** Each posting's texts, worked out once (the page keeps the blocks it read, and their postings with them). */
const textsOfPosting = new WeakMap<SearchPosting, PostingTexts>();

function textsOf(posting: SearchPosting): PostingTexts {
  let texts = textsOfPosting.get(posting);
  if (!texts) {
    texts = { title: foldText(posting[2]), titleWords: searchWords(posting[2]), lineWords: searchWords(posting[4]) };
    textsOfPosting.set(posting, texts);
  }
  return texts;
}

/** One candidate: its posting, whether its description is searched, and its bits per query word found in the index. */
interface Candidate {
  posting: SearchPosting;
  texts: PostingTexts;
  /** The description is searched: a word of its first line counts. */
  lineSearched: boolean;
  bits: Map<string, number>;
}

/**
 * The candidates of a query: the pins of its lookup word's postings, without hidden categories,
 * each once (a pin with two words beginning with it has two postings), with their folded titles.
 */
function candidatesOf(word: string, lookup: WordLookup, options: ArchiveHitOptions): Map<string, Candidate> {
  const candidates = new Map<string, Candidate>();
  for (const posting of lookup.postings) {
    const id = posting[1];
    const known = candidates.get(id);
    if (known) {
      known.bits.set(word, (known.bits.get(word) ?? 0) | posting[0]);
      continue;
    }
    const category = options.categoryOf(posting[3]);
    if (category !== undefined && options.hidden.has(category)) continue;
    candidates.set(id, { posting, texts: textsOf(posting), lineSearched: options.fields.includes('description'), bits: new Map([[word, posting[0]]]) });
  }
  return candidates;
}

/** Whether `word` begins one of `words`. */
const beginsOneOf = (words: readonly string[], word: string): boolean => words.some((w) => w.startsWith(word));
/** Whether a word begins a word of a candidate's title. */
const inTitle = (candidate: Candidate, word: string): boolean => beginsOneOf(candidate.texts.titleWords, word);
/** Whether a word begins a word of the title or, when the description is searched, of its first line: known without the index. */
const inPosting = (candidate: Candidate, word: string): boolean => inTitle(candidate, word) || (candidate.lineSearched && beginsOneOf(candidate.texts.lineWords, word));

/**
 * The other words of a query that must be looked up too: those that begin no word of some
 * candidate's title (or searched description's first line); they may begin a word of its fields.
 * An index of titles only needs none.
 */
export function wordsToLookUp(words: readonly string[], word: string, lookup: WordLookup, options: ArchiveHitOptions): string[] {
  if (options.fields.length === 0) return [];
  const candidates = [...candidatesOf(word, lookup, options).values()];
  return words.filter((other) => other !== word && candidates.some((candidate) => !inPosting(candidate, other)));
}

/**
 * The hits of a query from its lookups (`lookups` holds its lookup word's, `word`, and those of
 * `wordsToLookUp`), as the inline search ranks them (`rankOf`): a pin matches when each word of
 * the query begins a word of its title or of a searched field (the inline search's rule too).
 * Best first, then in the panels' order; `total` counts every match.
 */
export function archiveHits(query: string, word: string, lookups: ReadonlyMap<string, WordLookup>, options: ArchiveHitOptions): ArchiveSearchResult {
  const words = searchWords(query);
  if (words.length === 0) return { hits: [], total: 0, exact: true };
  const lookup = lookups.get(word);
  if (!lookup) return { hits: [], total: 0, exact: false };
  const candidates = candidatesOf(word, lookup, options);
  let exact = lookup.complete;
  /** Each other word's postings by pin id: its bits there. */
  const byId = new Map<string, Map<string, number>>();
  for (const [other, found] of lookups) {
    if (other === word) continue;
    const bits = new Map<string, number>();
    for (const [b, id] of found.postings) bits.set(id, (bits.get(id) ?? 0) | b);
    byId.set(other, bits);
  }

  const matched: { summary: PinSummary; rank: number; field: string }[] = [];
  for (const candidate of candidates.values()) {
    const [, id, title, look, line] = candidate.posting;
    let all = true;
    for (const other of words) {
      if (other === word || inTitle(candidate, other)) continue;
      const bits = byId.get(other)?.get(id) ?? (inPosting(candidate, other) ? fieldBit(options.fields.indexOf('description')) : undefined);
      if (bits === undefined) {
        // In none of its texts a posting holds, nor among the word's postings (all of them, or a common word's best only).
        const found = lookups.get(other);
        if (options.fields.length > 0 && !found?.complete) exact = false;
        all = false;
        break;
      }
      candidate.bits.set(other, bits);
    }
    if (!all) continue;
    const allInTitle = words.every((w) => inTitle(candidate, w));
    const category = options.categoryOf(look);
    const summary: PinSummary = { id, title, description: line, ...(category === undefined ? {} : { category }) };
    matched.push({ summary, rank: rankOf(candidate.texts.title, allInTitle, words[0]!), field: allInTitle ? 'title' : fieldOf(candidate.bits, options.fields) });
  }
  matched.sort((a, b) => a.rank - b.rank || comparePins(a.summary, b.summary));
  const hits = matched.slice(0, options.limit).map(({ summary, field }) => ({ pin: summary, field }));
  // A common word alone (nothing hidden): the index counted its pins.
  if (!lookup.complete && words.length === 1 && options.hidden.size === 0) return { hits, total: lookup.total, exact: true };
  return { hits, total: matched.length, exact };
}

/** The first searched field (in the archive's order) where a word of the query begins a word. */
function fieldOf(bits: ReadonlyMap<string, number>, fields: readonly string[]): string {
  let all = 0;
  for (const b of bits.values()) all |= b;
  const index = fields.findIndex((_, k) => (all & fieldBit(k)) !== 0);
  return fields[index] ?? 'title';
}
