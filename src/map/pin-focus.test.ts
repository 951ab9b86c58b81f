import { describe, expect, it } from 'vitest';
import { ROW_PX, compareReading, moveOfKey, nearestTo, nextFocus, readingOrderOf, rowOf, splitInto } from './pin-focus.ts';

/**
 * A grid of points as a map might show them (y down):
 *
 *      a(100,10)          b(300,20)
 *   c(50,100)   d(200,110)          e(400,90)
 *                   f(210,300)
 */
const points = [
  { x: 100, y: 10 }, // a 0
  { x: 300, y: 20 }, // b 1
  { x: 50, y: 100 }, // c 2
  { x: 200, y: 110 }, // d 3
  { x: 400, y: 90 }, // e 4
  { x: 210, y: 300 }, // f 5
];
const [a, b, c, d, e, f] = [0, 1, 2, 3, 4, 5];

describe('reading order', () => {
  it('reads rows of ROW_PX from the top, each from left to right', () => {
    expect(ROW_PX).toBe(64);
    expect(rowOf({ x: 0, y: 63 })).toBe(0);
    expect(rowOf({ x: 0, y: 64 })).toBe(1);
    expect(readingOrderOf(points)).toEqual([a, b, c, d, e, f]);
  });

  it('puts a point a little higher but further right after one in the same row', () => {
    expect(compareReading({ x: 10, y: 60 }, { x: 20, y: 1 })).toBeLessThan(0);
    expect(compareReading({ x: 10, y: 70 }, { x: 20, y: 1 })).toBeGreaterThan(0);
  });

  it('keeps the given order for points at one place', () => {
    expect(readingOrderOf([{ x: 5, y: 5 }, { x: 5, y: 5 }, { x: 1, y: 5 }])).toEqual([2, 0, 1]);
  });
});

describe('nextFocus', () => {
  it('goes with the arrows to the nearest point that way, those within 45° first', () => {
    expect(nextFocus(points, d, 'right')).toBe(e);
    expect(nextFocus(points, d, 'left')).toBe(c);
    expect(nextFocus(points, d, 'down')).toBe(f);
    // a is nearer than b above d, but b (100 px right, 90 up) is further off the line.
    expect(nextFocus(points, d, 'up')).toBe(a);
    expect(nextFocus(points, a, 'right')).toBe(b);
    expect(nextFocus(points, f, 'up')).toBe(d);
  });

  it('takes a point beyond 45° when none is within it, and stays at the edge', () => {
    // Nothing within 45° right of b; e is below-right (100 right, 70 down): within. From c, left: none.
    expect(nextFocus(points, b, 'right')).toBe(e);
    expect(nextFocus(points, c, 'left')).toBeUndefined();
    expect(nextFocus(points, f, 'down')).toBeUndefined();
    const wide = [{ x: 0, y: 0 }, { x: 10, y: 100 }];
    expect(nextFocus(wide, 0, 'right')).toBe(1);
  });

  it('goes Home and End to the first and last in reading order', () => {
    expect(nextFocus(points, d, 'first')).toBe(a);
    expect(nextFocus(points, d, 'last')).toBe(f);
  });

  it('goes a row up or down with Page Up and Page Down, to the point nearest across', () => {
    expect(nextFocus(points, a, 'rowDown')).toBe(c);
    expect(nextFocus(points, b, 'rowDown')).toBe(d);
    expect(nextFocus(points, d, 'rowDown')).toBe(f);
    expect(nextFocus(points, f, 'rowUp')).toBe(d);
    expect(nextFocus(points, e, 'rowUp')).toBe(b);
    expect(nextFocus(points, a, 'rowUp')).toBeUndefined();
    expect(nextFocus(points, f, 'rowDown')).toBeUndefined();
  });

  it('has nowhere to go without points', () => {
    expect(nextFocus([], 0, 'first')).toBeUndefined();
    expect(nextFocus(points, 9, 'right')).toBeUndefined();
  });
});

describe('keys', () => {
  it('maps the arrows, Home, End, Page Up and Page Down, and nothing else', () => {
    expect(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown'].map(moveOfKey)).toEqual(['left', 'right', 'up', 'down', 'first', 'last', 'rowUp', 'rowDown']);
    expect(moveOfKey('Enter')).toBeUndefined();
    expect(moveOfKey('Tab')).toBeUndefined();
  });
});

describe('nearestTo and splitInto', () => {
  it('finds the nearest point', () => {
    expect(nearestTo(points, { x: 390, y: 100 })).toBe(e);
    expect(nearestTo([], { x: 0, y: 0 })).toBeUndefined();
  });

  it('gives the points near where a bubble stands in reading order, else the nearest alone', () => {
    expect(splitInto(points, { x: 150, y: 60 }, 120)).toEqual([a, c, d]);
    expect(splitInto(points, { x: 600, y: 600 }, 50)).toEqual([f]);
    expect(splitInto([], { x: 0, y: 0 }, 50)).toEqual([]);
  });
});
