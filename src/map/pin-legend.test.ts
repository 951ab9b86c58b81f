import { describe, expect, it } from 'vitest';
import type { Pin } from './pin-data.ts';
import { legendEntries } from './pin-legend.ts';

const pin = (id: string, category?: string): Pin => ({ id, title: id, description: '', lngLat: [0, 0], options: {}, ...(category ? { category } : {}) });

describe('legendEntries', () => {
  it("lists the styles' categories in order, then the pins' other categories, with counts", () => {
    const styles = { capital: { markerColor: '#C62828' }, museum: { markerColor: '#000' }, city: {} };
    const pins = [pin('a', 'city'), pin('b', 'capital'), pin('c', 'city'), pin('d', 'bakery'), pin('e')];
    expect(legendEntries(pins, styles)).toEqual([
      { category: 'capital', options: { markerColor: '#C62828' }, count: 1 },
      { category: 'museum', options: { markerColor: '#000' }, count: 0 },
      { category: 'city', options: {}, count: 2 },
      { category: 'bakery', options: {}, count: 1 },
    ]);
  });

  it('is empty for pins without categories', () => {
    expect(legendEntries([pin('a')], {})).toEqual([]);
  });
});
