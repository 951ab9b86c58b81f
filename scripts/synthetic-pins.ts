import type { Feature, FeatureCollection, Point } from 'geojson';
import { PIN_CATEGORIES, PIN_CATEGORY_STYLES } from './pin-categories.ts';

/**
 * Synthetic pin sets for benchmarks and load tests (1k, 10k, 100k pins): deterministic for a
 * given count and seed, spread over the whole world (latitudes -80..80), with one pin in ten
 * within a degree of the 180° meridian on either side. Ids are unique (`pin-0`, `pin-1`, …) and
 * categories cycle through the default set's, whose styles the collection carries as `pinStyles`.
 * Free of Node APIs, so a browser page can import it too.
 */

/** Pin properties as `parsePins` reads them. */
export interface SyntheticPinProperties {
  title: string;
  description: string;
  url: string;
  category: string;
}

/** mulberry32: a small, fast, seeded pseudo-random generator returning numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round5 = (value: number): number => {
  const r = Math.round(value * 1e5) / 1e5;
  return r === 0 ? 0 : r;
};

/** `count` synthetic pins as a GeoJSON FeatureCollection (with `pinStyles`), the same for the same `seed`. */
export function generatePins(count: number, seed = 1): FeatureCollection<Point, SyntheticPinProperties> & { pinStyles: typeof PIN_CATEGORY_STYLES } {
  checkCount(count);
  const features: Feature<Point, SyntheticPinProperties>[] = new Array(count);
  let i = 0;
  for (const feature of syntheticPins(count, seed)) features[i++] = feature;
  return { type: 'FeatureCollection', pinStyles: PIN_CATEGORY_STYLES, features };
}

/**
 * The features of `generatePins(count, seed)`, one at a time, so a file of millions of pins can be
 * written without holding them all (the pin tiler's benchmark).
 */
export function* syntheticPins(count: number, seed = 1): Generator<Feature<Point, SyntheticPinProperties>> {
  checkCount(count);
  const random = seededRandom(seed);
  for (let i = 0; i < count; i++) {
    // One in ten sits within a degree of the 180° meridian, on either side of it.
    const lng = i % 10 === 0 ? (random() < 0.5 ? 179 + random() : -180 + random()) : random() * 360 - 180;
    const lat = random() * 160 - 80;
    const category = PIN_CATEGORIES[i % PIN_CATEGORIES.length] ?? 'city';
    yield {
      type: 'Feature',
      id: `pin-${i}`,
      geometry: { type: 'Point', coordinates: [round5(lng), round5(lat)] },
      properties: {
        title: `Pin ${i + 1}`,
        description: `Synthetic pin ${i + 1} of ${count} (${category})`,
        url: `https://example.com/pins/${i}`,
        category,
      },
    };
  }
}

/**
 * The pins of `syntheticPins(count, seed)` (the same ids, titles and categories) placed as a
 * country's addresses are instead of spread over the world: in 500 towns and cities (a few big,
 * most small), each pin a few metres to a few kilometres from its town's centre (most near it),
 * streets of houses 10 m apart, and one pin in ten in a block of flats (up to 20 at one address).
 * Bubbles are left at every zoom up to the last the grouping has. `towns: 1` and a `townSize` (the
 * greatest distance from its centre, in degrees) make one city of them.
 */
export function* clumpedSyntheticPins(count: number, seed = 1, options: { towns?: number; townSize?: number } = {}): Generator<Feature<Point, SyntheticPinProperties>> {
  const random = seededRandom(seed + 1000);
  const towns = Array.from({ length: options.towns ?? 500 }, () => ({ lng: -10 + random() * 40, lat: 36 + random() * 24, size: 0.002 + 0.1 * random() ** 4, weight: random() ** 6 }));
  if (options.townSize !== undefined) for (const town of towns) town.size = options.townSize;
  const total = towns.reduce((sum, town) => sum + town.weight, 0);
  let lng = 0;
  let lat = 0;
  let flats = 0;
  let street = 0;
  for (const feature of syntheticPins(count, seed)) {
    if (flats > 0) {
      flats--;
    } else if (street > 0) {
      street--;
      lng += 0.00013;
    } else {
      let pick = random() * total;
      const town = towns.find((t) => (pick -= t.weight) <= 0) ?? towns[0]!;
      const r = town.size * random() ** 2;
      const angle = random() * 2 * Math.PI;
      lng = town.lng + r * Math.cos(angle);
      lat = town.lat + r * Math.sin(angle);
      const kind = random();
      if (kind < 0.1) flats = 1 + Math.floor(random() * 19);
      else if (kind < 0.4) street = 2 + Math.floor(random() * 20);
    }
    yield { ...feature, geometry: { type: 'Point', coordinates: [round5(lng), round5(lat)] } };
  }
}

/** The header of synthetic pins as CSV (`csvLine`). */
export const CSV_HEADER = 'id,title,lat,lng,category,description,url';

/** One synthetic pin as a line of CSV under `CSV_HEADER` (the same pin a CSV file of the set holds). */
export function csvLine(feature: Feature<Point, SyntheticPinProperties>): string {
  const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  const { title, category, description, url } = feature.properties;
  const [lng, lat] = feature.geometry.coordinates;
  return [String(feature.id), title, String(lat), String(lng), category, description, url].map(cell).join(',');
}

function checkCount(count: number): void {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a whole number of 0 or more (got ${count})`);
}
