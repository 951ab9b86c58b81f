import type { Pin, PinSummary, SearchHit } from './types.ts';
import { isShown } from './filter.ts';

/**
 * What the pin list and the search box read from a pin set, without a map: the set in a stable
 * order (by title, then id), the pins of it in view, and a search over the pins' text that
 * ignores case and diacritics. Pure and synchronous, so it is unit tested in Node and timed in
 * the browser by `npm run bench:search`.
 */

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** The order of both panels: by title as people read it ("Pin 2" before "Pin 10", case ignored), then by id. */
export function comparePins(a: Pick<Pin, 'title' | 'id'>, b: Pick<Pin, 'title' | 'id'>): number {
  return collator.compare(a.title, b.title) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

const sortedSets = new WeakMap<readonly Pin[], readonly Pin[]>();

/** The set sorted by `comparePins`; sorted once per set (on the first call), then kept with it. */
export function sortedPins(pins: readonly Pin[]): readonly Pin[] {
  let sorted = sortedSets.get(pins);
  if (!sorted) {
    sorted = [...pins].sort(comparePins);
    sortedSets.set(pins, sorted);
  }
  return sorted;
}

/**
 * The pins that show (no hidden category) and that `contains` finds in view, in the panels'
 * order. One pass over the sorted set: nothing is sorted again as the view changes.
 */
export function pinsInView(pins: readonly Pin[], contains: (lngLat: [number, number]) => boolean, hidden: ReadonlySet<string>): Pin[] {
  const found: Pin[] = [];
  for (const pin of sortedPins(pins)) if (isShown(pin, hidden) && contains(pin.lngLat)) found.push(pin);
  return found;
}

/** The first line of a pin's popup text below its title (its description's), for a list entry. */
export function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return (end < 0 ? text : text.slice(0, end)).trim();
}

/** Whether a text is all ASCII (which folding leaves as it is but for case and spaces). */
export const isAscii = (text: string): boolean => /^\p{ASCII}*$/u.test(text);

/**
 * Text as the search compares it: lower case, without diacritics ("Zürich" → "zurich",
 * "Ærø" → "ærø", "ß" → "ss"), compatibility forms folded ("ﬁ" → "fi"), runs of white space as one space.
 */
export function foldText(text: string): string {
  // ASCII has no diacritics nor compatibility forms: the same result, several times faster (the pin tiler folds every title).
  if (isAscii(text)) return text.toLowerCase().replace(/\s+/g, ' ').trim();
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The words of a text as the search matches them, inline and in a pin archive's index alike: its
 * distinct words, folded (`foldText`: case, diacritics and compatibility forms ignored) and split
 * at every character that is not a letter or a digit ("d'Orsay (7e)" → d, orsay, 7e; "1-49" → 1,
 * 49). A query is split the same way, and a pin matches when each word of the query begins a word
 * of its title or of a searched field ("12" finds "Hauptstraße 12" and "12b", not "112").
 */
export function searchWords(text: string): string[] {
  return foldedWords(foldText(text));
}

/** `searchWords` of a text already folded (`foldText`). */
export function foldedWords(folded: string): string[] {
  // Folded ASCII is lower case: its letters and digits are a-z and 0-9 (the faster split).
  const parts = isAscii(folded) ? folded.split(/[^a-z0-9]+/) : folded.split(/[^\p{L}\p{N}]+/u);
  const words: string[] = [];
  for (const part of parts) if (part !== '' && !words.includes(part)) words.push(part);
  return words;
}

/** How well a pin matches, best first: its title starts with the query, a word of the title does (after a space), another word of the title does, another field does. */
const enum Rank {
  TitleStart,
  WordStart,
  InTitle,
  InField,
}
const RANKS = 4;

/**
 * How well a pin matches, as a number (0 best: `Rank`): `title` is its folded title, `inTitle`
 * whether every word of the query begins a word of it, `head` the query's first word.
 */
export function rankOf(title: string, inTitle: boolean, head: string): number {
  return !inTitle ? Rank.InField : title.startsWith(head) ? Rank.TitleStart : title.includes(` ${head}`) ? Rank.WordStart : Rank.InTitle;
}

export type { PinSummary, SearchHit };

/** What `createPinSearch` gives: `search(query, limit)`, best matches first, then in the panels' order. */
export interface PinSearch {
  /** Up to `limit` pins of which every word of `query` begins a word (a blank query finds nothing); `total` counts every match. */
  search(query: string, limit: number): { hits: SearchHit[]; total: number };
}

/** A text's words (`searchWords`) as one string, a space between each (`beginsAWord` looks in it). */
const joinWords = (words: readonly string[]): string => words.join(' ');

/**
 * Whether `word` begins a word of `words` (words joined by spaces, `joinWords`): it is there at
 * the start or after a space. Looked for as itself, which the engine finds fast, then checked.
 */
function beginsAWord(words: string, word: string): boolean {
  for (let at = words.indexOf(word); at >= 0; at = words.indexOf(word, at + 1)) if (at === 0 || words.charCodeAt(at - 1) === SPACE) return true;
  return false;
}
const SPACE = 0x20;

/**
 * A search over a pin set: its titles and the fields `fields` names (`description`, `category`,
 * `url`, or properties kept with the pins as `Pin.fields`), split into words (`searchWords`) once
 * when made. A pin matches when each word of the query begins a word of its title or of a field,
 * the rule of a pin archive's search index (`src/pins/archive-search.ts`), so both find the same
 * pins. Each query is one pass over the pins' words, in the panels' order, so equal matches stay
 * in that order and nothing is sorted per keystroke. Hidden categories are left out.
 */
export function createPinSearch(pins: readonly Pin[], fields: readonly string[], hidden: ReadonlySet<string> = new Set()): PinSearch {
  const sorted = sortedPins(pins).filter((pin) => isShown(pin, hidden));
  const titles = sorted.map((pin) => foldText(pin.title));
  const titleWords = titles.map((title) => joinWords(foldedWords(title)));
  const others = fields.filter((name) => name !== 'title');
  const extra = sorted.map((pin) => others.map((name) => joinWords(searchWords(fieldText(pin, name)))));
  // Everything searched of a pin in one string, so a pin that does not match costs one look per word.
  const whole = others.length === 0 ? titleWords : sorted.map((_, i) => [titleWords[i]!, ...extra[i]!].join(' '));

  return {
    search(query, limit) {
      const words = searchWords(query);
      if (words.length === 0) return { hits: [], total: 0 };
      const buckets: SearchHit[][] = Array.from({ length: RANKS }, () => []);
      const [head] = words;
      let total = 0;
      for (let i = 0; i < sorted.length; i++) {
        // Every word must begin a word somewhere: in the title or in a named field.
        const text = whole[i]!;
        let all = true;
        for (const word of words) {
          if (!beginsAWord(text, word)) {
            all = false;
            break;
          }
        }
        if (!all) continue;
        total++;
        const inTitle = words.every((word) => beginsAWord(titleWords[i]!, word));
        const rank = rankOf(titles[i]!, inTitle, head!);
        const bucket = buckets[rank]!;
        // Only the first `limit` of each rank can be shown.
        if (bucket.length < limit) {
          const texts = extra[i]!;
          bucket.push({ pin: sorted[i]!, field: inTitle ? 'title' : others[texts.findIndex((text) => words.some((w) => beginsAWord(text, w)))] ?? 'title' });
        }
      }
      return { hits: buckets.flat().slice(0, limit), total };
    },
  };
}

/** A pin's text under a field name: its own fields by name, else what `parsePins` kept. */
export function fieldText(pin: Pin, name: string): string {
  switch (name) {
    case 'description':
      return pin.description;
    case 'category':
      return pin.category ?? '';
    case 'url':
      return pin.url ?? '';
    case 'id':
      return pin.id;
    default:
      return pin.fields?.[name] ?? '';
  }
}
