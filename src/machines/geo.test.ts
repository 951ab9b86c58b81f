import { describe, expect, it } from 'vitest';
import { accuracyBounds, normalizeBearing } from './geo.ts';

describe('accuracyBounds', () => {
  it('spans 360·accuracy/40075017 degrees of latitude, divided by cos(lat) in longitude, on each side', () => {
    const [[west, south], [east, north]] = accuracyBounds({ lng: 20, lat: 10, accuracy: 700 });
    expect(south).toBeCloseTo(10 - 0.006288207, 9);
    expect(north).toBeCloseTo(10 + 0.006288207, 9);
    expect(west).toBeCloseTo(20 - 0.006385213, 9);
    expect(east).toBeCloseTo(20 + 0.006385213, 9);
  });

  it('doubles the longitude span at latitude 60', () => {
    const [[west, south], [east, north]] = accuracyBounds({ lng: -3, lat: 60, accuracy: 50 });
    expect(north - south).toBeCloseTo(2 * 0.000449157639, 9);
    expect(east - west).toBeCloseTo(2 * 0.000898315277, 9);
  });

  it('collapses to the point itself for a perfect reading', () => {
    expect(accuracyBounds({ lng: 5, lat: 45, accuracy: 0 })).toEqual([
      [5, 45],
      [5, 45],
    ]);
  });
});

describe('normalizeBearing', () => {
  it.each([
    [0, 0],
    [6.5, 6.5],
    [-6.5, -6.5],
    [180, 180],
    [-180, 180],
    [355, -5],
    [365, 5],
    [-370, -10],
  ])('reads %d as %d', (bearing, expected) => {
    expect(normalizeBearing(bearing)).toBeCloseTo(expected, 9);
  });
});
