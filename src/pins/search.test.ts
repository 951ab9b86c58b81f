import { describe, expect, it } from 'vitest';
import type { Pin } from './types.ts';
import { createPinSearch, firstLine, foldText, pinsInView, sortedPins } from './search.ts';
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
    expect(search.search('e', 2).hits).toHaveLength(2);
    expect(search.search('e', 2).total).toBe(4);
  });

  it('leaves out hidden categories', () => {
    expect(createPinSearch(pins, [], new Set(['hotel'])).search('zurich', 10).hits.map((h) => h.pin.id)).toEqual(['zh']);
  });
});
