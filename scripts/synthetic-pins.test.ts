import { describe, expect, it } from 'vitest';
import { parsePins } from '../src/pins/data.ts';
import { PIN_CATEGORIES } from './pin-categories.ts';
import { generatePins, seededRandom } from './synthetic-pins.ts';

describe('synthetic pins for benchmarks', () => {
  it('are the same for the same count and seed, and differ for another seed', () => {
    expect(generatePins(200, 7)).toEqual(generatePins(200, 7));
    expect(generatePins(200, 8).features.map((f) => f.geometry.coordinates)).not.toEqual(generatePins(200, 7).features.map((f) => f.geometry.coordinates));
    expect(seededRandom(1)()).toBe(seededRandom(1)());
  });

  it('make the count asked for, with unique ids and cycling categories', () => {
    const { features } = generatePins(10_000, 1);
    expect(features).toHaveLength(10_000);
    expect(new Set(features.map((f) => f.id)).size).toBe(10_000);
    expect(features.slice(0, PIN_CATEGORIES.length * 2).map((f) => f.properties.category)).toEqual([...PIN_CATEGORIES, ...PIN_CATEGORIES]);
    expect(generatePins(0).features).toEqual([]);
    expect(() => generatePins(-1)).toThrow(RangeError);
    expect(() => generatePins(1.5)).toThrow('count must be a whole number');
  });

  it('spread over the world, with pins on both sides of the 180° meridian', () => {
    const coordinates = generatePins(10_000, 3).features.map((f) => f.geometry.coordinates);
    const lngs = coordinates.map(([lng = 0]) => lng);
    const lats = coordinates.map(([, lat = 0]) => lat);
    expect(lngs.filter((lng) => lng > 179).length).toBeGreaterThan(300);
    expect(lngs.filter((lng) => lng < -179).length).toBeGreaterThan(300);
    for (let band = -180; band < 180; band += 60) expect(lngs.filter((lng) => lng >= band && lng < band + 60).length).toBeGreaterThan(1000);
    expect(lats.filter((lat) => lat < 0).length).toBeGreaterThan(4000);
    expect(lats.filter((lat) => lat > 0).length).toBeGreaterThan(4000);
    expect(Math.max(...lngs.map(Math.abs))).toBeLessThanOrEqual(180);
    expect(Math.max(...lats.map(Math.abs))).toBeLessThanOrEqual(80);
  });

  it('parse with nothing skipped and no warnings', () => {
    const set = parsePins(generatePins(5_000, 9));
    expect(set.pins).toHaveLength(5_000);
    expect(set.skipped).toEqual([]);
    expect(set.warnings).toEqual([]);
    expect(set.pins[1]?.options.iconClasses).toMatch(/^fa-solid fa-/);
  });
});
