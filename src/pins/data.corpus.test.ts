import { describe, expect, it } from 'vitest';
import { generatePins } from '../../scripts/synthetic-pins.ts';
import { describePinSet, parsePins } from './data.ts';
import type { Pin } from './types.ts';
import { feature } from '../testing/pin-features.testing.ts';

/**
 * The corpus of bad pin data (PRODUCT.md, "Pin icon": a bad value on one pin falls back with a
 * warning, the other pins still show). Bad features are skipped, each with a reason that names
 * it (`feature <index> ("<id>"): …`); features with a bad optional value still show, with a
 * warning; every good feature becomes a pin, whatever is mixed in around it.
 */

type Feature = Record<string, unknown>;

/** A good Point feature; `properties` are merged into its title, `overrides` replace its members. */
const point: (id: unknown, properties?: Record<string, unknown>, overrides?: Record<string, unknown>) => Feature = feature;
const at = (id: string, coordinates: unknown) => point(id, {}, { geometry: { type: 'Point', coordinates } });
const geometry = (id: string, value: unknown) => point(id, {}, { geometry: value });
const collection = (features: unknown[]) => ({ type: 'FeatureCollection', features });

/** A megabyte of text, to show that a huge value is neither a problem nor quoted back whole. */
const MEGABYTE = 'x'.repeat(1 << 20);

/**
 * The good features every bad one is mixed with. The first two are the ones the duplicates
 * repeat: `pin-0` (as in the synthetic sets) and `pin-1`.
 */
const LEADING_GOOD = [point('pin-0'), point('pin-1')];

/** `[what, feature, fragment of the reason]`: each must be skipped with a reason naming it. */
const BAD_FEATURES: readonly (readonly [what: string, feature: unknown, reason: string])[] = [
  // Not a Feature object.
  ['null', null, 'must be a GeoJSON Feature object (got null)'],
  ['undefined', undefined, 'must be a GeoJSON Feature object (got nothing)'],
  ['a string', 'Paris', 'must be a GeoJSON Feature object (got the string "Paris")'],
  ['a number', 42, 'must be a GeoJSON Feature object (got the number 42)'],
  ['an array', [2.35, 48.85], 'must be a GeoJSON Feature object (got an array)'],
  ['type "feature" in lower case', point('lower', {}, { type: 'feature' }), 'type must be "Feature" (got the string "feature")'],
  ['a bare Point geometry', { type: 'Point', coordinates: [2.35, 48.85] }, 'type must be "Feature" (got the string "Point")'],
  ['no type', point('untyped', {}, { type: undefined }), 'type must be "Feature" (got nothing)'],
  ['a FeatureCollection inside', { type: 'FeatureCollection', features: [] }, 'type must be "Feature"'],

  // Ids.
  ['no id anywhere', point(undefined), 'has no id (a pin needs an `id` or `properties.id`, a string or a number)'],
  ['a null id and no properties.id', point(null), 'has no id'],
  ['an empty id', point(''), 'id must not be empty'],
  ['a blank id', point(' \t\n'), 'id must not be empty'],
  ['a NaN id', point(Number.NaN), 'id must be a string or a finite number (got the number NaN)'],
  ['an infinite id', point(Number.POSITIVE_INFINITY), 'id must be a string or a finite number (got the number Infinity)'],
  ['a boolean id', point(true), 'id must be a string or a number (got true)'],
  ['an object id', point({ id: 'paris' }), 'id must be a string or a number (got an object)'],
  ['an array id', point(['paris']), 'id must be a string or a number (got an array)'],
  ['a BigInt id', point(10n), 'id must be a string or a number (got a bigint)'],
  ['a boolean properties.id', point(undefined, { id: false }), 'properties.id must be a string or a number (got false)'],
  ['a duplicate id', point('pin-0', { title: 'Second' }), 'duplicate id "pin-0" (feature 0 has it and is shown)'],
  ['a duplicate properties.id', point(undefined, { id: 'pin-1' }), 'duplicate id "pin-1" (feature 1 has it and is shown)'],

  // Geometry.
  ['a null geometry', geometry('g-null', null), 'has no geometry (a pin needs a Point)'],
  ['no geometry', geometry('g-none', undefined), 'has no geometry (a pin needs a Point)'],
  ['a WKT geometry', geometry('g-wkt', 'POINT(2.35 48.85)'), 'geometry must be a GeoJSON Point (got the string "POINT(2.35 48.85)")'],
  ['a geometry that is an array', geometry('g-array', [2.35, 48.85]), 'geometry must be a GeoJSON Point (got an array)'],
  ['a geometry without a type', geometry('g-untyped', { coordinates: [2.35, 48.85] }), 'geometry must be a GeoJSON Point (its type is nothing)'],
  ['a "point" in lower case', geometry('g-lower', { type: 'point', coordinates: [2.35, 48.85] }), 'geometry is a point, not a Point'],
  ['a LineString', geometry('g-line', { type: 'LineString', coordinates: [[0, 0], [1, 1]] }), 'geometry is a LineString, not a Point'],
  ['a Polygon', geometry('g-poly', { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] }), 'geometry is a Polygon, not a Point'],
  ['a MultiPoint', geometry('g-multi', { type: 'MultiPoint', coordinates: [[2.35, 48.85]] }), 'geometry is a MultiPoint, not a Point'],
  ['a GeometryCollection', geometry('g-coll', { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [0, 0] }] }), 'geometry is a GeometryCollection, not a Point'],
  ['no coordinates', geometry('c-none', { type: 'Point' }), 'coordinates must be [longitude, latitude] (got nothing)'],
  ['coordinates as one string', at('c-string', '2.35,48.85'), 'coordinates must be [longitude, latitude] (got the string "2.35,48.85")'],
  ['coordinates as an object', at('c-object', { lng: 2.35, lat: 48.85 }), 'coordinates must be [longitude, latitude] (got an object)'],
  ['empty coordinates', at('c-empty', []), '(got 0 values)'],
  ['one coordinate', at('c-one', [2.35]), '(got 1 value)'],
  ['four coordinates', at('c-four', [2.35, 48.85, 35, 1]), '(got 4 values)'],
  ['MultiPoint coordinates in a Point', at('c-nested', [[2.35, 48.85]]), 'coordinates must be [longitude, latitude] or [longitude, latitude, altitude] (got 1 value)'],
  ['coordinates as strings', at('c-strings', ['2.35', '48.85']), 'longitude must be a finite number (got the string "2.35")'],
  ['a string latitude', at('c-lat-string', [2.35, '48.85']), 'latitude must be a finite number (got the string "48.85")'],
  ['a null longitude', at('c-lng-null', [null, 48.85]), 'longitude must be a finite number (got null)'],
  ['a missing longitude', at('c-sparse', [undefined, 48.85]), 'longitude must be a finite number (got nothing)'],
  ['a NaN longitude', at('c-nan', [Number.NaN, 48.85]), 'longitude must be a finite number (got the number NaN)'],
  ['an infinite longitude', at('c-inf', [Number.POSITIVE_INFINITY, 0]), 'longitude must be a finite number (got the number Infinity)'],
  ['a -Infinity latitude', at('c-lat-inf', [0, Number.NEGATIVE_INFINITY]), 'latitude must be a finite number (got the number -Infinity)'],
  ['latitude 91', at('c-91', [2.35, 91]), 'latitude 91 is outside -90..90'],
  ['latitude -90.0001', at('c-south', [2.35, -90.0001]), 'latitude -90.0001 is outside -90..90'],
  ['latitude 1e9', at('c-huge', [2.35, 1e9]), 'latitude 1000000000 is outside -90..90'],
  ['lng and lat swapped past 90', at('c-swapped', [48.85, 120.5]), 'latitude 120.5 is outside -90..90'],
  ['a string altitude', at('c-alt', [2.35, 48.85, 'high']), 'altitude must be a finite number when given (got the string "high")'],
  ['a NaN altitude', at('c-alt-nan', [2.35, 48.85, Number.NaN]), 'altitude must be a finite number when given (got the number NaN)'],
  ['a megabyte longitude string', at('c-mega', [MEGABYTE, 0]), `longitude must be a finite number (got the string "${'x'.repeat(80)}…")`],

  // Properties.
  ['null properties', point('p-null', {}, { properties: null }), 'has no properties (a pin needs properties.title)'],
  ['no properties', point('p-none', {}, { properties: undefined }), 'has no properties (a pin needs properties.title)'],
  ['properties that are an array', point('p-array', {}, { properties: ['Paris'] }), 'properties must be an object (got an array)'],
  ['properties that are a string', point('p-string', {}, { properties: 'Paris' }), 'properties must be an object (got the string "Paris")'],
  ['no title', point('t-none', { title: undefined }), 'has no properties.title'],
  ['a null title', point('t-null', { title: null }), 'has no properties.title'],
  ['a numeric title', point('t-number', { title: 42 }), 'properties.title must be a string (got the number 42)'],
  ['a title that is an array', point('t-array', { title: ['Paris'] }), 'properties.title must be a string (got an array)'],
  ['a title that is an object', point('t-object', { title: { en: 'Paris' } }), 'properties.title must be a string (got an object)'],
  ['an empty title', point('t-empty', { title: '' }), 'properties.title must not be empty'],
  ['a blank title', point('t-blank', { title: ' \n\t\u00a0' }), 'properties.title must not be empty'],
  ['a numeric description', point('d-number', { description: 3 }), 'properties.description must be a string (got the number 3)'],
  ['a description that is an object', point('d-object', { description: { text: 'x' } }), 'properties.description must be a string (got an object)'],
  ['a url that is an object', point('u-object', { url: { href: 'https://example.com' } }), 'properties.url must be a string (got an object)'],
  ['a numeric url', point('u-number', { url: 42 }), 'properties.url must be a string (got the number 42)'],
  ['a boolean category', point('k-bool', { category: true }), 'properties.category must be a string (got true)'],
  ['a category that is an array', point('k-array', { category: ['city'] }), 'properties.category must be a string (got an array)'],
];

/** `[what, feature, what the pin has, fragment of its warning]`: each must show. */
const GOOD_FEATURES: readonly (readonly [what: string, feature: Feature, pin: Partial<Pin>, warning?: string])[] = [
  ['a plain pin', point('good'), { id: 'good', title: 'Pin good', description: '', lngLat: [2.35, 48.85] }],
  ['a numeric id', point(7), { id: '7' }],
  ['an id in properties', point(undefined, { id: 'from-properties' }), { id: 'from-properties' }],
  ['an altitude', at('altitude', [10, 20, 300]), { id: 'altitude', lngLat: [10, 20] }],
  ['the poles and the 180° meridian', at('corner', [180, -90]), { lngLat: [180, -90] }],
  ['longitude 181, wrapped to -179 as the map shows it', at('lng-181', [181, 10]), { id: 'lng-181', lngLat: [-179, 10] }],
  ['longitude -540, wrapped', at('lng-540', [-540, 10]), { lngLat: [-180, 10] }],
  ['a megabyte title, kept whole', point('mega', { title: MEGABYTE }), { id: 'mega', title: MEGABYTE }],
  ['markup in the title, kept as text', point('markup', { title: '<img src=x onerror=alert(1)>' }), { title: '<img src=x onerror=alert(1)>' }],
  ['null optional properties', point('nulls', { description: null, url: null, category: null, pin: null }), { description: '', options: {} }],
  ['an http(s) url', point('https', { url: 'https://example.com/a' }), { url: 'https://example.com/a' }],
  ['a javascript: url, dropped', point('js', { url: 'javascript:alert(1)' }), { url: undefined }, 'properties.url "javascript:alert(1)" is not an http(s) URL'],
  ['a data: url, dropped', point('data', { url: 'data:text/html,<script>alert(1)</script>' }), { url: undefined }, 'is not an http(s) URL'],
  ['a relative url, dropped', point('relative', { url: '/pins/relative' }), { url: undefined }, 'is not an http(s) URL'],
  ['a bad pin colour, dropped', point('colour', { pin: { markerColor: 'not-a-colour', iconSize: 20 } }), { options: { iconSize: 20 } }, 'pin.markerColor must be a CSS colour'],
  ['pin options that are not an object', point('options', { pin: 'red' }), { options: {} }, 'pin must be an object of pin options'],
  ['an unknown pin option', point('glyph', { pin: { glyph: 'x' } }), { options: {} }, 'pin.glyph is not a pin option'],
  ['foreign members', point('foreign', { population: 2_100_000 }, { bbox: [0, 0, 1, 1], crs: 'EPSG:4326' }), { id: 'foreign' }],
];

/** What is wrong with how a bad feature at `index` was reported, or undefined when it is right. */
function misreported(set: ReturnType<typeof parsePins>, index: number, reason: string): string | undefined {
  const found = set.skipped.filter((s) => s.index === index);
  if (found.length !== 1) return `feature ${index} was ${found.length === 0 ? 'not skipped' : 'skipped twice'}`;
  const skipped = found[0];
  if (!skipped) return 'unreachable';
  const name = skipped.id === undefined ? `feature ${index}: ` : `feature ${index} (${JSON.stringify(skipped.id)}): `;
  if (!skipped.reason.startsWith(name)) return `the reason does not name the feature: ${skipped.reason}`;
  if (!skipped.reason.includes(reason)) return `the reason does not say "${reason}": ${skipped.reason}`;
  if (skipped.reason.length > 300) return `the reason is ${skipped.reason.length} characters long`;
  return undefined;
}

describe('pin corpus: each bad feature is skipped with a reason naming it, the good ones around it show', () => {
  it.each(BAD_FEATURES)('%s', (_what, bad, reason) => {
    const set = parsePins(collection([...LEADING_GOOD, bad, point('after')]));
    expect(set.pins.map((p) => p.id)).toEqual(['pin-0', 'pin-1', 'after']);
    expect(set.skipped).toHaveLength(1);
    expect(misreported(set, 2, reason)).toBeUndefined();
  });
});

describe('pin corpus: odd but usable features show, a bad optional value with a warning naming the pin', () => {
  it.each(GOOD_FEATURES.map(([what, good, expected, warning]) => ({ what, good, expected, warning })))('$what', ({ good, expected, warning }) => {
    const set = parsePins(collection([...LEADING_GOOD, good]));
    expect(set.skipped).toEqual([]);
    expect(set.pins).toHaveLength(3);
    const pin = set.pins[2];
    expect(pin).toMatchObject(Object.fromEntries(Object.entries(expected).filter(([, v]) => v !== undefined)));
    for (const [key, value] of Object.entries(expected)) if (value === undefined) expect(pin).not.toHaveProperty(key);
    if (warning === undefined) expect(set.warnings).toEqual([]);
    else expect(set.warnings).toEqual([expect.stringMatching(new RegExp(`^pin ${JSON.stringify(pin?.id)}: .*${escapeRegExp(warning)}`))]);
  });
});

describe('pin corpus: all mixed together', () => {
  it('shows every good feature and reports every bad one, and says how many', () => {
    // good, bad, good, bad, …, then the odd good ones; the duplicates' originals lead.
    const features: unknown[] = [...LEADING_GOOD];
    const badAt: [index: number, reason: string][] = [];
    const goodIds = LEADING_GOOD.map((f) => String(f.id));
    BAD_FEATURES.forEach(([, bad, reason], k) => {
      features.push(point(`between-${k}`));
      goodIds.push(`between-${k}`);
      badAt.push([features.length, reason]);
      features.push(bad);
    });
    for (const [, good, expected] of GOOD_FEATURES) {
      features.push(good);
      goodIds.push(expected.id ?? String(good.id));
    }

    const set = parsePins(collection(features));
    expect(set.pins.map((p) => p.id)).toEqual(goodIds);
    expect(set.skipped.map((s) => s.index)).toEqual(badAt.map(([index]) => index));
    const reported = badAt.filter(([index, reason]) => misreported(set, index, reason) === undefined);
    const warned = GOOD_FEATURES.filter(([, , , warning]) => warning !== undefined).length;
    console.log(
      `pin corpus: ${features.length} features, ${goodIds.length} good (${warned} of them with a warning) all shown, ` +
        `${BAD_FEATURES.length} bad, ${reported.length} reported with a reason naming the feature`,
    );
    expect(BAD_FEATURES.length).toBeGreaterThanOrEqual(40);
    expect(reported).toHaveLength(BAD_FEATURES.length);
    expect(set.warnings).toHaveLength(warned);
  });

  it('loads 100,000 pins of which 5% are bad: 95,000 show, 5,000 are reported', () => {
    const pins = generatePins(100_000, 5);
    const features = pins.features as unknown[];
    const badAt = new Map<number, string>();
    for (let index = 19, k = 0; index < features.length; index += 20, k++) {
      const [, bad, reason] = BAD_FEATURES[k % BAD_FEATURES.length] ?? [];
      features[index] = bad;
      badAt.set(index, reason ?? '');
    }

    const started = performance.now();
    const set = parsePins(pins);
    const took = performance.now() - started;

    const shown = new Set(set.pins.map((p) => p.id));
    const goodMissing = features.filter((f, index) => !badAt.has(index) && !shown.has(String((f as Feature).id))).length;
    const reported = set.skipped.filter((s) => badAt.has(s.index) && misreported(set, s.index, badAt.get(s.index) ?? '') === undefined).length;
    console.log(
      `pin corpus, 100k: ${features.length.toLocaleString('en-US')} features, ${set.pins.length.toLocaleString('en-US')} shown, ` +
        `${set.skipped.length.toLocaleString('en-US')} reported (${reported.toLocaleString('en-US')} with the right reason), parsed in ${Math.round(took)} ms`,
    );
    expect(set.pins).toHaveLength(95_000);
    expect(goodMissing).toBe(0);
    expect(set.skipped).toHaveLength(5_000);
    expect(reported).toBe(5_000);
    expect(describePinSet(set).notice).toBe('5,000 pins could not be shown');
    expect(describePinSet(set).console).toContain('  … and 4995 more');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
