import { describe, expect, it } from 'vitest';
import { accuracyCircleDiameter, metresAcrossAtEquator, metresPerPixelAt, nextScaleUnit, roundForScale, scaleBar, type ScaleUnit } from './scale.ts';

describe('scaleBar at latitude 0 (CONTROLS.md examples)', () => {
  it.each<[number, ScaleUnit, string, string]>([
    [0, 'metric', '5000 km', '63.95'],
    [0, 'imperial', '3000 mi', '61.75'],
    [0, 'nautical', '3000 nm', '71.06'],
    [10, 'metric', '5 km', '65.49'],
    [10, 'imperial', '3 mi', '63.23'],
    [10, 'nautical', '3 nm', '72.77'],
    [15, 'metric', '200 m', '83.82'],
    [15, 'imperial', '500 ft', '63.87'],
    [15, 'nautical', '0.1 nm', '77.62'],
  ])('zoom %d, %s → %s, %s px wide', (zoom, unit, text, width) => {
    const bar = scaleBar(metresAcrossAtEquator(zoom), unit);
    expect(`${bar.value} ${bar.unit}`).toBe(text);
    expect(bar.width.toFixed(2)).toBe(width);
    expect(bar.width).toBeLessThanOrEqual(100);
  });
});

describe('roundForScale', () => {
  it.each([
    [7818.6, 5000],
    [999.9, 500],
    [1, 1],
    [2.9, 2],
    [10, 10],
    [0.1349, 0.1],
    [0.0273, 0.02],
    [0.0652, 0.06],
    [0.3, 0.3],
    [0.29, 0.2],
  ])('%d → %d', (raw, rounded) => {
    expect(roundForScale(raw)).toBe(rounded);
  });
});

describe('scaleBar boundaries and bad input', () => {
  it('stays within the maximum width below one unit, where MapLibre rounds up past it', () => {
    const bar = scaleBar(0.3724 * 1852, 'nautical');
    expect(bar.value).toBe(0.3);
    expect(bar.width).toBeLessThanOrEqual(100);
  });

  it('switches from m to km at 1000 m and from ft to mi above 5280 ft', () => {
    expect(scaleBar(999, 'metric').unit).toBe('m');
    expect(scaleBar(1000, 'metric').unit).toBe('km');
    expect(scaleBar(5280 / 3.2808, 'imperial').unit).toBe('ft');
    expect(scaleBar(5281 / 3.2808, 'imperial').unit).toBe('mi');
  });

  it('refuses distances that are not positive numbers and unknown units, with a message', () => {
    expect(() => scaleBar(0, 'metric')).toThrow(/positive number of metres \(got 0\)/);
    expect(() => scaleBar(Number.NaN, 'metric')).toThrow(/got NaN/);
    expect(() => scaleBar(100, 'furlongs' as ScaleUnit)).toThrow(/unknown unit "furlongs"/);
    expect(() => scaleBar(100, 'metric', -5)).toThrow(/maxWidth/);
  });

  it('cycles metric → imperial → nautical → metric', () => {
    expect([nextScaleUnit('metric'), nextScaleUnit('imperial'), nextScaleUnit('nautical')]).toEqual(['imperial', 'nautical', 'metric']);
  });
});

describe('accuracy circle', () => {
  it('is 74.48 px wide for 700 m at latitude 10, zoom 12, and 18.62 px at zoom 10 (CONTROLS.md)', () => {
    expect(accuracyCircleDiameter(700, metresPerPixelAt(10, 12)).toFixed(2)).toBe('74.48');
    expect(accuracyCircleDiameter(700, metresPerPixelAt(10, 10)).toFixed(2)).toBe('18.62');
  });

  it('refuses a negative accuracy or a non-positive scale', () => {
    expect(() => accuracyCircleDiameter(-1, 10)).toThrow(/accuracy/);
    expect(() => accuracyCircleDiameter(10, 0)).toThrow(/metres per pixel/);
  });
});
