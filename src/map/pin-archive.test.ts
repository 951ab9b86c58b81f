import { describe, expect, it } from 'vitest';
import { archiveCategories } from './pin-archive.ts';

describe('archiveCategories', () => {
  const looks = [{ category: 'city' }, {}, { category: 'capital' }, { category: 'city', pin: { label: '1' } }];

  it("gives the metadata's counts, in its order", () => {
    expect(archiveCategories({ looks, categories: [['city', 12], ['capital', 3]] })).toEqual([
      { category: 'city', count: 12 },
      { category: 'capital', count: 3 },
    ]);
  });

  it('gives the categories of the looks, each once, counts unknown, for an archive made before the counts were kept', () => {
    expect(archiveCategories({ looks })).toEqual([
      { category: 'city', count: undefined },
      { category: 'capital', count: undefined },
    ]);
  });
});
