import { describe, expect, it } from 'vitest';
import { pinBounds } from './bounds.ts';
import type { Pin } from './types.ts';

const at = (lng: number, lat: number, category?: string): Pin => ({ id: `${lng},${lat}`, title: 'x', description: '', lngLat: [lng, lat], options: {}, ...(category ? { category } : {}) });

describe('pinBounds', () => {
  it('is the box of the pins, and nothing for no pins', () => {
    expect(pinBounds([at(2.35, 48.85), at(-0.12, 51.5), at(13.4, 52.5)])).toEqual([
      [-0.12, 48.85],
      [13.4, 52.5],
    ]);
    expect(pinBounds([at(5, 6)])).toEqual([
      [5, 6],
      [5, 6],
    ]);
    expect(pinBounds([])).toBeUndefined();
  });

  it('crosses the antimeridian when that box is narrower: 170°E and 170°W make a box 20° wide', () => {
    const box = pinBounds([at(170, -10), at(-170, 10), at(178, 0)]);
    expect(box).toEqual([
      [170, -10],
      [190, 10],
    ]);
    expect(box![1][0] - box![0][0]).toBe(20);
  });

  it('leaves out the widest stretch without pins, wherever it is', () => {
    expect(pinBounds([at(-100, 0), at(0, 0), at(100, 0)])).toEqual([
      [-100, 0],
      [100, 0],
    ]);
    // From 0 east to 190 (170°W) is 190°; from 170°W east to 170°E would be 340°.
    expect(pinBounds([at(-170, 0), at(0, 0), at(170, 0)])).toEqual([
      [0, 0],
      [190, 0],
    ]);
  });

  it('leaves out the pins of hidden categories', () => {
    expect(pinBounds([at(1, 1, 'a'), at(50, 50, 'b'), at(2, 2)], new Set(['b']))).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(pinBounds([at(1, 1, 'a')], new Set(['a']))).toBeUndefined();
  });
});
