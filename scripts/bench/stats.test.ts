import { describe, expect, it } from 'vitest';
import { deltas, median, percentile } from './stats.ts';

describe('bench statistics', () => {
  it('takes percentiles by the nearest-rank method', () => {
    const values = [50, 10, 40, 20, 30];
    expect(percentile(values, 50)).toBe(30);
    expect(percentile(values, 95)).toBe(50);
    expect(percentile(values, 0)).toBe(10);
    expect(percentile([], 50)).toBeNaN();
  });

  it('takes the median, the mean of the middle two for an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('turns timestamps into intervals', () => {
    expect(deltas([0, 16, 50, 66])).toEqual([16, 34, 16]);
    expect(deltas([5])).toEqual([]);
  });
});
