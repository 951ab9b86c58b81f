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

/** How well a pin matches, best first: its title starts with the query, a word of the title does, the title holds it, another field does. */
const enum Rank {
  TitleStart,
  WordStart,
  InTitle,
  InField,
}
const RANKS = 4;

/**
 * How well a pin matches, as a number (0 best: `Rank`): `title` is its folded title, `inTitle`
 * whether every word of the query is in it, `head` the query's first word.
 */
export function rankOf(title: string, inTitle: boolean, head: string): number {
  return !inTitle ? Rank.InField : title.startsWith(head) ? Rank.TitleStart : title.includes(` ${head}`) ? Rank.WordStart : Rank.InTitle;
}

export type { PinSummary, SearchHit };

/** What `createPinSearch` gives: `search(query, limit)`, best matches first, then in the panels' order. */
export interface PinSearch {
  /** Up to `limit` pins matching every word of `query` (a blank query finds nothing); `total` counts every match. */
  search(query: string, limit: number): { hits: SearchHit[]; total: number };
}

/**
 * A search over a pin set: its titles and the fields `fields` names (`description`, `category`,
 * `url`, or properties kept with the pins as `Pin.fields`), folded once (`foldText`) when made.
 * Each query is one pass over the folded texts, in the panels' order, so equal matches stay in
 * that order and nothing is sorted per keystroke. Hidden categories are left out.
 */
export function createPinSearch(pins: readonly Pin[], fields: readonly string[], hidden: ReadonlySet<string> = new Set()): PinSearch {
  const sorted = sortedPins(pins).filter((pin) => isShown(pin, hidden));
  const titles = sorted.map((pin) => foldText(pin.title));
  const others = fields.filter((name) => name !== 'title');
  const extra = sorted.map((pin) => others.map((name) => foldText(fieldText(pin, name))));
  // Everything searched of a pin in one string (the fields apart, so no word spans two), so a pin
  // that does not match costs one look per word.
  const whole = others.length === 0 ? titles : sorted.map((_, i) => [titles[i]!, ...extra[i]!].join('\n'));

  return {
    search(query, limit) {
      const words = foldText(query).split(' ').filter((word) => word !== '');
      if (words.length === 0) return { hits: [], total: 0 };
      const buckets: SearchHit[][] = Array.from({ length: RANKS }, () => []);
      const [head] = words;
      let total = 0;
      for (let i = 0; i < sorted.length; i++) {
        // Every word must be somewhere: in the title or in a named field.
        const text = whole[i]!;
        let all = true;
        for (const word of words) {
          if (!text.includes(word)) {
            all = false;
            break;
          }
        }
        if (!all) continue;
        total++;
        const title = titles[i]!;
        const texts = extra[i]!;
        const inTitle = words.every((word) => title.includes(word));
        const rank = rankOf(title, inTitle, head!);
        const bucket = buckets[rank]!;
        // Only the first `limit` of each rank can be shown.
        if (bucket.length < limit) bucket.push({ pin: sorted[i]!, field: inTitle ? 'title' : others[texts.findIndex((text) => words.some((w) => text.includes(w)))] ?? 'title' });
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
