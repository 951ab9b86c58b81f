import { closeSync, openSync, writeSync } from 'node:fs';
import { endianness } from 'node:os';
import { gzipSync } from 'node:zlib';
import type { PinSearchInfo } from '../pins/archive-format.ts';
import { ARCHIVE_SEARCH, POSTING_BITS, fieldBit, isCommon, postingRecord, type SearchDirectory } from '../pins/archive-search.ts';
import { fieldText, foldText, foldedWords, searchWords } from '../pins/search.ts';
import type { Pin } from '../pins/types.ts';
import { ByteStore } from './byte-store.ts';
import { Growable } from './growable.ts';

/**
 * The pin tiler's search index (`src/pins/archive-search.ts` says what it holds): each pin's words
 * are noted as it is read (`add`), as numbers in typed arrays (a word's number, its bits, and
 * where each pin's postings start) and what a result shows of it as bytes; `write` then sorts the
 * postings (one native sort of 64-bit keys: the word's place among the words, the posting's
 * class, the pin's place in title order) and writes the blocks, the common prefixes' best pins and
 * the directory. What stays per pin is its record's bytes and a few numbers; per distinct word,
 * the word (a string, in a map).
 */
export class SearchIndexWriter {
  /** Each distinct word's number, and the words by number. */
  private readonly wordIds = new Map<string, number>();
  private readonly words: string[] = [];
  /** Each posting's word and bits, pin by pin; `firstPosting[pin]` is where a pin's start. */
  private readonly postingWord = new Growable((n) => new Uint32Array(n));
  private readonly postingBits = new Growable((n) => new Uint32Array(n));
  private readonly firstPosting = new Growable((n) => new Uint32Array(n));
  /** Each pin's record, the JSON of `postingRecord` without its brackets. */
  private readonly records = new ByteStore();
  /** Each pin's place in title order, roughly: its title's first five characters (`orderKey`). */
  private readonly orderHigh = new Growable((n) => new Uint32Array(n));
  private readonly orderLow = new Growable((n) => new Uint16Array(n));

  /** `fields`: the pin properties searched besides the title, in the order their bits are numbered. */
  constructor(readonly fields: readonly string[]) {
    if (fields.length > ARCHIVE_SEARCH.maxFields) throw new RangeError(`at most ${ARCHIVE_SEARCH.maxFields} search fields (got ${fields.length})`);
  }

  /** How many pins were added. */
  get count(): number {
    return this.firstPosting.length;
  }

  /** Notes the next pin's words (pins are added in the archive's order) and what a result shows of it. */
  add(pin: Pin, look: number): void {
    const first = this.postingWord.length;
    this.firstPosting.push(first);
    const title = foldText(pin.title);
    foldedWords(title).forEach((word, i) => this.addPosting(first, word, i === 0 ? POSTING_BITS.titleFirst : POSTING_BITS.inTitle));
    this.fields.forEach((name, k) => {
      for (const word of searchWords(fieldText(pin, name))) this.addPosting(first, word, fieldBit(k));
    });
    this.records.add(JSON.stringify(postingRecord(pin, look)).slice(1, -1));
    const [high, low] = orderKey(title);
    this.orderHigh.push(high);
    this.orderLow.push(low);
  }

  /** Notes `word` with `bits` for the pin whose postings start at `first`: a new posting, or more bits of its own. */
  private addPosting(first: number, word: string, bits: number): void {
    let id = this.wordIds.get(word);
    if (id === undefined) {
      id = this.words.length;
      this.wordIds.set(word, id);
      this.words.push(word);
    }
    for (let e = first; e < this.postingWord.length; e++) {
      if (this.postingWord.array[e] !== id) continue;
      this.postingBits.array[e]! |= bits;
      return;
    }
    this.postingWord.push(id);
    this.postingBits.push(bits);
  }

  /** Writes the index to `path` (a file of its own); returns where its directory is and its length. */
  write(path: string): Omit<PinSearchInfo, 'fields'> {
    if (endianness() !== 'LE') throw new Error('the search index is written on little-endian machines only');
    const count = this.count;
    if (count >= 2 ** 30) throw new RangeError(`the search index takes fewer than ${2 ** 30} pins`);
    this.firstPosting.push(this.postingWord.length);
    const sortedWords = this.words.slice().sort();
    const idOfRank = Uint32Array.from(sortedWords, (word) => this.wordIds.get(word)!);
    const rankOfId = new Uint32Array(sortedWords.length);
    idOfRank.forEach((id, rank) => (rankOfId[id] = rank));
    const { pinAt, rankOf } = this.titleOrder();
    const keys = this.sortedPostings(rankOfId, rankOf);

    const fd = openSync(path, 'w');
    try {
      let at = 0;
      const append = (text: string): number => {
        // Level 4: a block is read a few at a time, so bytes matter less than the tiler's time.
        const bytes = gzipSync(text, { level: 4 });
        writeSync(fd, bytes, 0, bytes.length, at);
        at += bytes.length;
        return at;
      };
      const halves = new Uint32Array(keys.buffer);
      const bitsOf = (pin: number, wordId: number): number => {
        for (let e = this.firstPosting.array[pin]!; e < this.firstPosting.array[pin + 1]!; e++) if (this.postingWord.array[e] === wordId) return this.postingBits.array[e]!;
        throw new Error(`pin ${pin} has no posting of word ${wordId}`);
      };
      const postingText = (e: number): string => {
        const pin = pinAt[halves[2 * e]! & PIN_RANK_MASK]!;
        return `[${bitsOf(pin, idOfRank[halves[2 * e + 1]!]!)},${this.records.text(pin)}]`;
      };

      // The blocks: words in order, each with its postings, cut where a block has its bytes.
      const directory: SearchDirectory = { words: [], offsets: [0], tops: [], topOffsets: [] };
      /** Where each word's postings start among the sorted ones (and, last, their number). */
      const wordStart = new Uint32Array(sortedWords.length + 1);
      let groups: string[] = [];
      let postings: string[] = [];
      let bytes = 0;
      let word = -1;
      const closeWord = () => {
        if (postings.length > 0) groups.push(`[${JSON.stringify(sortedWords[word])},[${postings.join(',')}]]`);
        postings = [];
      };
      const closeBlock = () => {
        closeWord();
        if (groups.length === 0) return;
        directory.offsets.push(append(`[${groups.join(',')}]`));
        groups = [];
        bytes = 0;
      };
      for (let e = 0; e < keys.length; e++) {
        const rank = halves[2 * e + 1]!;
        if (bytes >= ARCHIVE_SEARCH.blockBytes) closeBlock();
        if (rank !== word) {
          closeWord();
          for (let r = word + 1; r <= rank; r++) wordStart[r] = e;
          word = rank;
        }
        if (postings.length === 0) {
          if (groups.length === 0) directory.words.push(sortedWords[rank]!);
          bytes += sortedWords[rank]!.length + 8;
        }
        const text = postingText(e);
        postings.push(text);
        bytes += text.length + 1;
      }
      closeBlock();
      for (let r = word + 1; r <= sortedWords.length; r++) wordStart[r] = keys.length;

      // The common prefixes' best pins, in the prefixes' order, cut into blocks likewise.
      let tops: string[] = [];
      let topBytes = 0;
      const closeTops = () => {
        if (tops.length === 0) return;
        directory.topOffsets.push(append(`[${tops.join(',')}]`));
        tops = [];
        topBytes = 0;
      };
      directory.topOffsets.push(at);
      const best = new BestPins(count, halves, pinAt);
      for (const [prefix, from, to] of commonPrefixes(sortedWords, directory.words)) {
        if (topBytes >= ARCHIVE_SEARCH.blockBytes) closeTops();
        if (tops.length === 0) directory.tops.push(prefix);
        const { total, entries } = best.of(wordStart, from, to);
        const text = `[${JSON.stringify(prefix)},${total},[${entries.map(postingText).join(',')}]]`;
        tops.push(text);
        topBytes += text.length + 1;
      }
      closeTops();

      const directoryAt = at;
      append(JSON.stringify(directory));
      return { length: at, directory: [directoryAt, at - directoryAt] };
    } finally {
      closeSync(fd);
    }
  }

  /** The pins in title order (roughly: by `orderKey`, then as they came), and each pin's place in it. */
  private titleOrder(): { pinAt: Uint32Array; rankOf: Uint32Array } {
    const count = this.count;
    // Five characters of key and the pin's number in 24 bits; past 2^24 pins, four characters.
    const small = count <= 2 ** 24;
    const keys = new BigUint64Array(count);
    const halves = new Uint32Array(keys.buffer);
    for (let pin = 0; pin < count; pin++) {
      halves[2 * pin + 1] = this.orderHigh.array[pin]!;
      halves[2 * pin] = small ? ((this.orderLow.array[pin]! << 24) | pin) >>> 0 : pin;
    }
    keys.sort();
    const pinAt = new Uint32Array(count);
    const rankOf = new Uint32Array(count);
    for (let rank = 0; rank < count; rank++) {
      const pin = small ? halves[2 * rank]! & 0xffffff : halves[2 * rank]!;
      pinAt[rank] = pin;
      rankOf[pin] = rank;
    }
    return { pinAt, rankOf };
  }

  /**
   * The postings as sorted 64-bit keys: the word's rank (high half), then the posting's class (the
   * title's first word, another word of the title, a field) and the pin's place in title order.
   */
  private sortedPostings(rankOfId: Uint32Array, rankOf: Uint32Array): BigUint64Array {
    const keys = new BigUint64Array(this.postingWord.length);
    const halves = new Uint32Array(keys.buffer);
    for (let pin = 0; pin < this.count; pin++) {
      for (let e = this.firstPosting.array[pin]!; e < this.firstPosting.array[pin + 1]!; e++) {
        const bits = this.postingBits.array[e]!;
        const postingClass = bits & POSTING_BITS.titleFirst ? 0 : bits & POSTING_BITS.inTitle ? 1 : 2;
        halves[2 * e + 1] = rankOfId[this.postingWord.array[e]!]!;
        halves[2 * e] = ((postingClass << 30) | rankOf[pin]!) >>> 0;
      }
    }
    keys.sort();
    return keys;
  }
}

/** The low 30 bits of a sorted posting's low half: its pin's place in title order. */
const PIN_RANK_MASK = 0x3fffffff;

/** Characters of a title's key (`orderKey`). */
const KEY_LENGTH = 5;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

/**
 * A pin's rough place in title order, from its folded title (`foldText`): the first five
 * characters (8 bits each, from 0 to 255) of it with each run of digits as its length and then the
 * digits, leading zeros left out ("Pin 9" before "Pin 10", as the panels' numeric order has it),
 * in a 32-bit and an 8-bit number. Only the best pins of common prefixes are chosen by it; the page
 * orders the results it shows by title itself.
 */
export function orderKey(folded: string): [high: number, low: number] {
  const key: number[] = [];
  for (let i = 0; i < folded.length && key.length < KEY_LENGTH; ) {
    const code = folded.charCodeAt(i);
    if (code < DIGIT_0 || code > DIGIT_9) {
      key.push(Math.min(code, 255));
      i++;
      continue;
    }
    let end = i;
    while (end < folded.length && folded.charCodeAt(end) >= DIGIT_0 && folded.charCodeAt(end) <= DIGIT_9) end++;
    while (i < end - 1 && folded.charCodeAt(i) === DIGIT_0) i++;
    key.push(DIGIT_0 + Math.min(end - i, 9));
    for (; i < end && key.length < KEY_LENGTH; i++) key.push(folded.charCodeAt(i));
    i = end;
  }
  const at = (k: number) => key[k] ?? 0;
  return [((at(0) << 24) | (at(1) << 16) | (at(2) << 8) | at(3)) >>> 0, at(4)];
}

/**
 * The prefixes of the sorted words whose words fill more than `maxBlocks` blocks (`isCommon`), in
 * order (a prefix before the longer ones it begins), each with the range of words it begins
 * (`[prefix, from, to)`). Only the words a common prefix begins are looked at for longer ones.
 */
export function* commonPrefixes(sortedWords: readonly string[], firstWords: readonly string[]): Generator<[string, number, number]> {
  function* visit(prefix: string, from: number, to: number): Generator<[string, number, number]> {
    if (prefix !== '') {
      if (!isCommon(firstWords, prefix)) return;
      yield [prefix, from, to];
    }
    let i = from;
    if (sortedWords[i] === prefix) i++;
    while (i < to) {
      const next = String.fromCodePoint(sortedWords[i]!.codePointAt(prefix.length)!);
      const child = prefix + next;
      // The first word at or past everything `child` begins.
      let low = i;
      let high = to;
      const end = `${child}\uffff`;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (sortedWords[mid]! < end) low = mid + 1;
        else high = mid;
      }
      yield* visit(child, i, low);
      i = low;
    }
  }
  yield* visit('', 0, sortedWords.length);
}

/**
 * The best pins of a run of words (a common prefix's): the first `topPins` distinct pins by class
 * and title order among their postings, and how many distinct pins they have.
 */
class BestPins {
  /** The prefix each pin was last counted for. */
  private readonly stamp: Uint32Array;
  private run = 0;

  constructor(
    count: number,
    /** The sorted postings' halves (see `sortedPostings`). */
    private readonly halves: Uint32Array,
    private readonly pinAt: Uint32Array,
  ) {
    this.stamp = new Uint32Array(count);
  }

  /** Of the words `from` to `to` (exclusive; `wordStart` says where each one's postings start): their best postings and pin count. */
  of(wordStart: Uint32Array, from: number, to: number): { total: number; entries: number[] } {
    const { halves, stamp } = this;
    const run = ++this.run;
    let total = 0;
    for (let e = wordStart[from]!; e < wordStart[to]!; e++) {
      const pin = halves[2 * e]! & PIN_RANK_MASK;
      if (stamp[pin] !== run) {
        stamp[pin] = run;
        total++;
      }
    }
    // Each word's postings are in order: only the first `topPins` of each can be among the best.
    const chosen: number[] = [];
    for (let word = from; word < to; word++) {
      const end = Math.min(wordStart[word + 1]!, wordStart[word]! + ARCHIVE_SEARCH.topPins);
      for (let e = wordStart[word]!; e < end; e++) chosen.push(e);
    }
    chosen.sort((a, b) => halves[2 * a]! - halves[2 * b]! || a - b);
    const seen = new Set<number>();
    const entries: number[] = [];
    for (const e of chosen) {
      const pin = this.pinAt[halves[2 * e]! & PIN_RANK_MASK]!;
      if (seen.has(pin)) continue;
      seen.add(pin);
      entries.push(e);
      if (entries.length === ARCHIVE_SEARCH.topPins) break;
    }
    return { total, entries };
  }
}
