import { describe, expect, it } from 'vitest';
import type { Pin } from './types.ts';
import { legendEntries, uncategorisedCount } from './legend.ts';

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

  it('takes the counts of a pre-tiled archive, in its order, instead of counting the pins; an unknown count stays unknown, a styled category it lacks follows with none', () => {
    const styles = { capital: { markerColor: '#C62828' }, museum: { markerColor: '#000' } };
    const counted = [
      { category: 'capital', count: 1 },
      { category: 'city', count: 3 },
      { category: 'bakery', count: undefined },
    ];
    expect(legendEntries([pin('a', 'city')], styles, counted)).toEqual([
      { category: 'capital', options: { markerColor: '#C62828' }, count: 1 },
      { category: 'city', options: {}, count: 3 },
      { category: 'bakery', options: {}, count: undefined },
      { category: 'museum', options: { markerColor: '#000' }, count: 0 },
    ]);
  });

  it('is empty for pins without categories', () => {
    expect(legendEntries([pin('a')], {})).toEqual([]);
  });

  it('counts the pins without a category, for their own line', () => {
    expect(uncategorisedCount([pin('a'), pin('b', 'city'), pin('c')])).toBe(2);
    expect(uncategorisedCount([pin('b', 'city')])).toBe(0);
  });

  it("counts an archive's pins without a category from its pin count, as the same pins inline: all of them when it has no categories", () => {
    const inline = Array.from({ length: 5 }, (_, i) => pin(`p${i}`));
    expect(uncategorisedCount([], [], 5)).toBe(uncategorisedCount(inline));
    expect(uncategorisedCount([], [], 5)).toBe(5);
    expect(uncategorisedCount([], [{ category: 'city', count: 3 }, { category: 'park', count: 0 }], 5)).toBe(2);
    expect(uncategorisedCount([], [{ category: 'city', count: 5 }], 5)).toBe(0);
    // Not known: the archive's pin count not given, or a category's count (an archive made before the counts).
    expect(uncategorisedCount([], [{ category: 'city', count: 3 }])).toBeUndefined();
    expect(uncategorisedCount([], [{ category: 'city', count: undefined }], 5)).toBeUndefined();
  });
});
