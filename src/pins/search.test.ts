import { describe, expect, it } from 'vitest';
import type { Pin } from './types.ts';
import { createPinSearch, firstLine, foldText, pinsInView, searchWords, sortedPins } from './search.ts';
import { boxContains } from './filter.ts';

const pin = (id: string, title: string, extra: Partial<Pin> = {}): Pin => ({ id, title, description: '', lngLat: [0, 0], options: {}, ...extra });

describe('sortedPins', () => {
  it('orders by title as people read it, then by id, and keeps the set as it was', () => {
    const pins = [pin('b', 'Pin 10'), pin('a', 'pin 2'), pin('d', 'Zürich'), pin('c', 'Pin 10'), pin('e', 'Aarau')];
    expect(sortedPins(pins).map((p) => p.id)).toEqual(['e', 'a', 'b', 'c', 'd']);
    expect(pins.map((p) => p.id)).toEqual(['b', 'a', 'd', 'c', 'e']);
    expect(sortedPins(pins)).toBe(sortedPins(pins));
  });
});

describe('pinsInView', () => {
  const pins = [
    pin('far', 'Far', { lngLat: [50, 50] }),
    pin('bar', 'Bar', { lngLat: [1, 1], category: 'bar' }),
    pin('cafe', 'Cafe', { lngLat: [2, 2], category: 'cafe' }),
    pin('across', 'Across', { lngLat: [-179, 0] }),
  ];

  it('lists the pins in the box, in order, without hidden categories', () => {
    const contains = (lngLat: [number, number]) => boxContains([-5, -5, 5, 5], lngLat);
    expect(pinsInView(pins, contains, new Set()).map((p) => p.id)).toEqual(['bar', 'cafe']);
    expect(pinsInView(pins, contains, new Set(['cafe'])).map((p) => p.id)).toEqual(['bar']);
    expect(pinsInView(pins, (lngLat) => boxContains([170, -5, 190, 5], lngLat), new Set()).map((p) => p.id)).toEqual(['across']);
  });
});

describe('foldText and firstLine', () => {
  it('ignores case and diacritics', () => {
    expect(foldText('Zürich')).toBe('zurich');
    expect(foldText('  São   Paulo ')).toBe('sao paulo');
    expect(foldText('Straße')).toBe('strasse');
    expect(foldText('ÉCOLE')).toBe('ecole');
  });

  it('splits a text into its distinct folded words at anything but letters and digits, as the search and the archive index both match them', () => {
    expect(searchWords('  Zürich  Hauptbahnhof zürich ')).toEqual(['zurich', 'hauptbahnhof']);
    expect(searchWords('Straße ﬁve')).toEqual(['strasse', 'five']);
    expect(searchWords(' ')).toEqual([]);
    expect(searchWords("Musée d'Orsay (7e), Paris-Nord")).toEqual(['musee', 'd', 'orsay', '7e', 'paris', 'nord']);
    expect(searchWords('Hauptstraße 1-49')).toEqual(['hauptstrasse', '1', '49']);
    expect(searchWords('ÆRØ, Ærøskøbing')).toEqual(['ærø', 'ærøskøbing']);
    expect(searchWords('12/3 12')).toEqual(['12', '3']);
    expect(searchWords('ÉCOLE')).toEqual(searchWords('école'));
  });

  it('takes the first line of a description', () => {
    expect(firstLine('Capital of France\nPopulation 2.1 million')).toBe('Capital of France');
    expect(firstLine('')).toBe('');
  });
});

describe('createPinSearch', () => {
  const pins = [
    pin('zh', 'Zürich', { description: 'Largest city of Switzerland', category: 'city' }),
    pin('bern', 'Bern', { description: 'Capital of Switzerland', category: 'capital', fields: { canton: 'Bern' } }),
    pin('gr', 'Grand Zurich Hotel', { description: 'A hotel', category: 'hotel' }),
    pin('wi', 'Winterthur', { description: 'Near Zurich', category: 'city', fields: { canton: 'Zürich' } }),
  ];

  it('finds a title ignoring case and diacritics, best match first', () => {
    const { hits, total } = createPinSearch(pins, []).search('zurich', 10);
    expect(hits.map((h) => h.pin.id)).toEqual(['zh', 'gr']);
    expect(total).toBe(2);
  });

  it('looks in the fields the config names, after the title matches', () => {
    const search = createPinSearch(pins, ['description', 'canton']);
    expect(search.search('ZÜRICH', 10).hits.map((h) => [h.pin.id, h.field])).toEqual([
      ['zh', 'title'],
      ['gr', 'title'],
      ['wi', 'description'],
    ]);
    expect(search.search('switzerland capital', 10).hits.map((h) => h.pin.id)).toEqual(['bern']);
  });

  it('needs every word, finds nothing for a blank query, and stops at the limit', () => {
    const search = createPinSearch(pins, ['description']);
    expect(search.search('zurich hotel', 10).hits.map((h) => h.pin.id)).toEqual(['gr']);
    expect(search.search('   ', 10)).toEqual({ hits: [], total: 0 });
    expect(search.search('c', 1).hits).toHaveLength(1);
    expect(search.search('c', 1).total).toBe(2);
  });

  it('finds a pin when each word of the query begins a word of its text, split as the text is ("1-49" is 1 and 49)', () => {
    const streets = [
      pin('a', 'Hauptstraße 1-49'),
      pin('b', 'Hauptstrasse 112'),
      pin('c', 'Bahnhofweg 12b'),
      pin('d', 'Rue 12, Genève', { description: 'Lot 2012' }),
      pin('e', 'Rue 49, apt 1'),
    ];
    const search = createPinSearch(streets, ['description']);
    const ids = (query: string) => search.search(query, 10).hits.map((h) => h.pin.id).sort();
    expect(ids('12')).toEqual(['c', 'd']);
    expect(ids('1-49')).toEqual(['a', 'e']);
    expect(ids('1 49')).toEqual(ids('1-49'));
    expect(ids('HAUPTSTRASSE')).toEqual(['a', 'b']);
    expect(ids('geneve')).toEqual(['d']);
    expect(ids('ss')).toEqual([]);
    expect(ids('201')).toEqual(['d']);
    expect(search.search('201', 10).hits[0]!.field).toBe('description');
  });

  it('leaves out hidden categories', () => {
    expect(createPinSearch(pins, [], new Set(['hotel'])).search('zurich', 10).hits.map((h) => h.pin.id)).toEqual(['zh']);
  });
});
