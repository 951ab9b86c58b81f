import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePins } from '../src/pins/data.ts';
import {
  DEFAULT_OUT_FILE,
  MAX_OTHER_CITIES_PER_COUNTRY,
  MEGACITY_POPULATION,
  MIN_OTHER_CITY_POPULATION,
  PINS_ATTRIBUTION,
  buildCityPins,
  categoryOf,
  formatPopulation,
  selectCities,
  serialisePins,
  slug,
} from './generate-pins.ts';
import { PIN_CATEGORIES } from './pin-categories.ts';

const require = createRequire(import.meta.url);
const fontAwesome = path.dirname(require.resolve('@fortawesome/fontawesome-free/package.json'));
const fontAwesomeCss = readFileSync(path.join(fontAwesome, 'css/all.css'), 'utf8');

/** True when Font Awesome Free's CSS defines `.fa-<name>` as a glyph and the free solid set has its SVG. */
const isSolidGlyph = (name: string): boolean =>
  new RegExp(`^\\.fa-${name}\\s*\\{\\s*--fa:`, 'm').test(fontAwesomeCss) && existsSync(path.join(fontAwesome, 'svgs/solid', `${name}.svg`));

const committedText = readFileSync(DEFAULT_OUT_FILE, 'utf8');
const committed = JSON.parse(committedText) as ReturnType<typeof buildCityPins>;

describe('default pin set (fixtures/pins/cities.geojson)', () => {
  it('is up to date: regenerating it gives the same text (else run `npm run fixtures:pins`)', () => {
    expect(serialisePins(buildCityPins())).toBe(committedText);
  });

  it('has at least 200 pins and stays under 200 KB', () => {
    expect(committed.features.length).toBeGreaterThanOrEqual(200);
    expect(statSync(DEFAULT_OUT_FILE).size).toBeLessThan(200 * 1024);
  });

  it('parses with nothing skipped and no warnings, and carries its attribution', () => {
    const set = parsePins(committed);
    expect(set.skipped).toEqual([]);
    expect(set.warnings).toEqual([]);
    expect(set.pins).toHaveLength(committed.features.length);
    expect(set.attribution).toBe(PINS_ATTRIBUTION);
    expect(PINS_ATTRIBUTION).toMatch(/GeoNames.*CC BY 4\.0/);
  });

  it('uses at least 4 categories, each styled with its own Font Awesome Free solid glyph and colour, one the default colour', () => {
    const used = [...new Set(committed.features.map((f) => f.properties.category))].sort();
    expect(used.length).toBeGreaterThanOrEqual(4);
    expect(used).toEqual([...PIN_CATEGORIES].sort());
    const styles = used.map((category) => committed.pinStyles[category]);
    const glyphs: string[] = [];
    for (const style of styles) {
      const classes = style?.iconClasses?.split(/\s+/) ?? [];
      expect(classes).toContain('fa-solid');
      const glyph = classes.find((c) => c !== 'fa-solid')?.replace(/^fa-/, '') ?? '';
      expect(isSolidGlyph(glyph), `fa-${glyph}`).toBe(true);
      glyphs.push(glyph);
    }
    expect(new Set(glyphs).size).toBe(used.length);
    const colours = styles.map((style) => style?.markerColor?.toUpperCase());
    expect(new Set(colours).size).toBe(used.length);
    // PRODUCT.md: the default marker colour.
    expect(colours).toContain('#3FB1CE');
  });

  it('knows a glyph that Font Awesome does not have when it sees one', () => {
    expect(isSolidGlyph('city')).toBe(true);
    expect(isSolidGlyph('no-such-glyph')).toBe(false);
  });

  it('has unique slug ids, titles, descriptions and GeoNames links', () => {
    const ids = committed.features.map((f) => String(f.id));
    expect(new Set(ids).size).toBe(ids.length);
    for (const feature of committed.features) {
      expect(String(feature.id)).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(feature.properties.title.trim()).not.toBe('');
      expect(feature.properties.description).toMatch(/^(Capital of|Regional capital in|City in) \S/);
      expect(feature.properties.url).toMatch(/^https:\/\/www\.geonames\.org\/\d+$/);
    }
    const paris = committed.features.find((f) => f.id === 'paris-fr');
    expect(paris?.properties).toMatchObject({ title: 'Paris', category: 'capital', description: expect.stringMatching(/^Capital of France · population \d/) });
  });

  it('spreads over the world: every 60° band of longitude and both hemispheres', () => {
    const bands = new Array<number>(6).fill(0);
    let south = 0;
    for (const feature of committed.features) {
      const [lng = 0, lat = 0] = feature.geometry.coordinates;
      bands[Math.min(5, Math.floor((lng + 180) / 60))]! += 1;
      if (lat < 0) south += 1;
    }
    for (const count of bands) expect(count).toBeGreaterThanOrEqual(5);
    expect(south).toBeGreaterThanOrEqual(50);
  });
});

describe('generator helpers', () => {
  it('slug makes ASCII ids', () => {
    expect(slug('São Paulo')).toBe('sao-paulo');
    expect(slug('Xi’an')).toBe('xi-an');
    expect(slug('  Ürümqi ')).toBe('urumqi');
    expect(slug('東京')).toBe('');
  });

  it('formatPopulation', () => {
    expect(formatPopulation(2_138_551)).toBe('2.1 million');
    expect(formatPopulation(7_000_000)).toBe('7 million');
    expect(formatPopulation(22_315_474)).toBe('22.3 million');
    expect(formatPopulation(56_340)).toBe('56,340');
    expect(formatPopulation(999)).toBe('999');
  });

  it('categoryOf: megacity before capital before regional capital', () => {
    expect(categoryOf({ featureCode: 'PPLC', population: MEGACITY_POPULATION })).toBe('megacity');
    expect(categoryOf({ featureCode: 'PPLA', population: MEGACITY_POPULATION + 1 })).toBe('megacity');
    expect(categoryOf({ featureCode: 'PPLC', population: 10 })).toBe('capital');
    expect(categoryOf({ featureCode: 'PPLA', population: 5_000_000 })).toBe('regional-capital');
    expect(categoryOf({ featureCode: 'PPLA2', population: 5_000_000 })).toBe('city');
  });

  it('selectCities keeps every capital and megacity, and caps the other large cities per country', () => {
    let id = 0;
    const city = (country: string, population: number, featureCode = 'PPL', name = `Place ${id + 1}`) => ({
      cityId: ++id,
      name,
      country,
      featureCode,
      population,
      loc: { type: 'Point' as const, coordinates: [0, 0] as [number, number] },
    });
    const small = city('AA', 1_000, 'PPLC');
    const mega = city('BB', MEGACITY_POPULATION, 'PPLA2');
    const others = Array.from({ length: MAX_OTHER_CITIES_PER_COUNTRY + 2 }, (_, i) => city('BB', MIN_OTHER_CITY_POPULATION + i));
    const tooSmall = city('CC', MIN_OTHER_CITY_POPULATION - 1);
    const section = city('CC', 5_000_000, 'PPLX');
    const unnamed = city('CC', 5_000_000, 'PPL', ' ');
    const chosen = selectCities([small, tooSmall, section, unnamed, ...others, mega]);
    expect(chosen.map((c) => c.cityId)).toEqual([mega.cityId, ...others.slice(-MAX_OTHER_CITIES_PER_COUNTRY).reverse().map((c) => c.cityId), small.cityId]);
  });
});
