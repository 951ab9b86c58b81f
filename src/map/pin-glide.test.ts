import { describe, expect, it, vi } from 'vitest';
import { PinGlides, between, glideLength } from './pin-glide.ts';

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

describe('PinGlides', () => {
  it('steps every glide in one animation frame, each to its place of the frame, the last at its end', () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    vi.stubGlobal('cancelAnimationFrame', () => {});
    vi.spyOn(performance, 'now').mockReturnValue(1000);
    try {
      const glides = new PinGlides(300);
      const steps: [string, number, number][] = [];
      for (const id of ['a', 'b', 'c']) glides.move(id, [0, 0], [10, 0], 100, ([lng, lat]) => steps.push([id, lng, lat]));
      expect(frames).toHaveLength(1);
      frames.shift()!(1050);
      expect(steps.map(([id]) => id)).toEqual(['a', 'b', 'c']);
      expect(steps[0]![1]).toBeCloseTo(10 * (1 - 0.5 ** 3));
      expect(glides.placeOf('b')![0]).toBeCloseTo(8.75);
      // One frame asked for the next step of all three.
      expect(frames).toHaveLength(1);
      glides.stop('b');
      steps.length = 0;
      frames.shift()!(1100);
      expect(steps).toEqual([
        ['a', 10, 0],
        ['c', 10, 0],
      ]);
      expect(glides.has('a') || glides.has('c')).toBe(false);
      expect(frames).toHaveLength(0);
    } finally {
      vi.unstubAllGlobals();
      vi.restoreAllMocks();
    }
  });
});
