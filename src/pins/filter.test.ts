import { describe, expect, it } from 'vitest';
import type { Pin } from './types.ts';
import { boxContains, isShown, nearestCopy, visibleMask } from './filter.ts';

const pin = (id: string, category?: string): Pin => ({ id, title: id, description: '', lngLat: [0, 0], options: {}, ...(category ? { category } : {}) });

describe('isShown and visibleMask', () => {
  const pins = [pin('a', 'cafe'), pin('b', 'bar'), pin('c'), pin('d', 'cafe')];

  it('hides the pins of hidden categories and keeps pins without a category', () => {
    expect(pins.map((p) => isShown(p, new Set(['cafe'])))).toEqual([false, true, true, false]);
    expect([...visibleMask(pins, new Set(['cafe']))!]).toEqual([0, 1, 1, 0]);
  });

  it('needs no mask when every pin shows', () => {
    expect(visibleMask(pins, new Set())).toBeUndefined();
    expect(visibleMask(pins, new Set(['museum']))).toBeUndefined();
  });
});

describe('boxContains', () => {
  it('tests latitude and longitude', () => {
    expect(boxContains([-10, -10, 10, 10], [5, 5])).toBe(true);
    expect(boxContains([-10, -10, 10, 10], [5, 11])).toBe(false);
    expect(boxContains([-10, -10, 10, 10], [11, 5])).toBe(false);
    expect(boxContains([-10, -10, 10, 10], [-10, -10])).toBe(true);
  });

  it('finds points on the other copy of the world across the 180° meridian', () => {
    expect(boxContains([170, -10, 190, 10], [-175, 0])).toBe(true);
    expect(boxContains([-190, -10, -170, 10], [175, 0])).toBe(true);
    expect(boxContains([170, -10, 190, 10], [-165, 0])).toBe(false);
    expect(boxContains([170, -10, 190, 10], [165, 0])).toBe(false);
  });

  it('holds every longitude in a box a world wide', () => {
    expect(boxContains([-200, -80, 200, 80], [123, 0])).toBe(true);
  });
});

describe('nearestCopy', () => {
  it('keeps a longitude on the copy of the world in view', () => {
    expect(nearestCopy(10, 0)).toBe(10);
    expect(nearestCopy(10, 350)).toBe(370);
    expect(nearestCopy(170, -170)).toBe(-190);
    expect(nearestCopy(-170, 175)).toBe(190);
  });
});
