import { describe, expect, it } from 'vitest';
import { TAB_ROW_PX, readingOrder } from './dom-pins.ts';

describe('readingOrder (the Tab order of DOM pins and bubbles)', () => {
  const order = (points: [number, number][], zoom: number) =>
    points
      .map((lngLat, index) => ({ index, key: readingOrder(lngLat, zoom) }))
      .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2])
      .map((entry) => entry.index);

  it('reads rows of TAB_ROW_PX on the map from north to south, each from west to east', () => {
    // At zoom 0 the world is 512 px high: the equator is at 256 px, the start of row 4.
    expect(TAB_ROW_PX).toBe(64);
    expect(readingOrder([10, 0], 0)[0]).toBe(4);
    expect(readingOrder([10, 1], 0)[0]).toBe(3);
    // Zoom 4 over Europe: Paris and Munich (less than a degree apart in latitude: about 25 px at this zoom) are one row; London a row north.
    const paris: [number, number] = [2.35, 48.86];
    const munich: [number, number] = [11.58, 48.14];
    const london: [number, number] = [-0.13, 51.51];
    const madrid: [number, number] = [-3.7, 40.42];
    expect(readingOrder(paris, 4)[0]).toBe(readingOrder(munich, 4)[0]);
    expect(order([madrid, munich, paris, london], 4)).toEqual([3, 2, 1, 0]);
    // Closer in, Paris and Munich are rows apart: the northern one first, whatever their longitudes.
    expect(order([munich, paris], 9)).toEqual([1, 0]);
  });

  it('orders points of one place (a pin on a bubble) north first, and stays finite at the poles', () => {
    expect(order([[5, 10], [5, 10.001]], 3)).toEqual([1, 0]);
    for (const lat of [90, -90]) expect(readingOrder([0, lat], 6).every(Number.isFinite)).toBe(true);
  });
});
