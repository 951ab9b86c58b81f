import { describe, expect, it } from 'vitest';
import { between, glideLength } from './pin-glide.ts';

describe('glideLength', () => {
  it('is the configured time, shorter when updates come faster, and a jump under reduced motion', () => {
    expect(glideLength(300, undefined, false)).toBe(300);
    expect(glideLength(300, 1000, false)).toBe(300);
    expect(glideLength(300, 120, false)).toBe(120);
    expect(glideLength(300, 120, true)).toBe(0);
    expect(glideLength(0, undefined, false)).toBe(0);
  });
});

describe('between', () => {
  it('goes the short way round the world', () => {
    expect(between([10, 0], [20, 10], 0.5)).toEqual([15, 5]);
    expect(between([170, 0], [-170, 0], 0.5)).toEqual([180, 0]);
    expect(between([-170, 0], [170, 0], 0.25)).toEqual([-175, 0]);
  });
});
