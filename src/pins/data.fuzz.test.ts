import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzParameters, fuzzTimeout } from '../testing/fuzz.testing.ts';
import { parseCsvPins } from './csv.ts';
import { parsePins, PinDataError } from './data.ts';

/**
 * Fuzz: random GeoJSON, from well-formed pins to features with every member wrong, and random
 * CSV rows. `parsePins` (`parseCsvPins`) either refuses the whole file with a `PinDataError`
 * naming what is wrong, or gives the pins it can show and names each feature (row) it skipped;
 * nothing else is ever thrown.
 */

const anything = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(NaN, Infinity, -0, '__proto__', 'constructor', null));
const coordinate = fc.oneof(fc.double({ min: -200, max: 200 }), anything);
const feature = fc.record(
  {
    type: fc.oneof(fc.constant('Feature'), anything),
    id: fc.oneof(fc.string(), fc.integer(), anything),
    geometry: fc.oneof(fc.record({ type: fc.oneof(fc.constant('Point'), anything), coordinates: fc.oneof(fc.tuple(coordinate, coordinate), anything) }), anything),
    properties: fc.oneof(
      fc.record(
        { title: fc.oneof(fc.string({ maxLength: 40 }), anything), description: anything, url: fc.oneof(fc.webUrl(), anything), category: anything, pin: anything },
        { requiredKeys: [] },
      ),
      anything,
    ),
  },
  { requiredKeys: [] },
);
const collection = fc.oneof(
  fc.record({ type: fc.oneof(fc.constant('FeatureCollection'), anything), features: fc.oneof(fc.array(feature, { maxLength: 12 }), anything), pinStyles: fc.oneof(anything, fc.constant(undefined)) }, { requiredKeys: ['type'] }),
  anything,
);

describe('fuzz: random GeoJSON', () => {
  it('gives the pins it can show and names what it skipped, or refuses the file with a named error', () => {
    fc.assert(
      fc.property(collection, (input) => {
        let set;
        try {
          set = parsePins(input);
        } catch (error) {
          expect(error).toBeInstanceOf(PinDataError);
          expect((error as Error).message.length).toBeGreaterThan(10);
          return;
        }
        const given = Array.isArray((input as { features?: unknown }).features) ? (input as { features: unknown[] }).features.length : 0;
        expect(set.pins.length + set.skipped.length).toBe(given);
        for (const skipped of set.skipped) expect(JSON.stringify(skipped).length).toBeGreaterThan(10);
        for (const pin of set.pins) {
          expect(Number.isFinite(pin.lngLat[0]) && Number.isFinite(pin.lngLat[1])).toBe(true);
          expect(typeof pin.title).toBe('string');
        }
      }),
      fuzzParameters(300),
    );
  }, fuzzTimeout(20000));
});

/** A CSV cell: numbers, coordinates out of range, quotes, delimiters and line breaks inside. */
const cell = fc.oneof(fc.double({ min: -200, max: 200 }).map(String), fc.string({ maxLength: 12 }), fc.constantFrom('"', '""', ',', ';', '\t', '\n', '\r\n', 'NaN', '', '=1+1', '<b>x</b>'));
const csvFile = fc
  .tuple(
    fc.constantFrom('id,title,lat,lng', 'name;latitude;longitude;description', 'title\tlon\tlat', 'a,b', ''),
    fc.array(fc.array(cell, { maxLength: 5 }), { maxLength: 10 }),
    fc.constantFrom(',', ';', '\t'),
  )
  .map(([header, rows, delimiter]) => [header, ...rows.map((row) => row.map((value) => (/[",;\t\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)).join(delimiter))].join('\n'));

describe('fuzz: random CSV rows', () => {
  it('give the pins they can, with every skipped row named, or a PinDataError; never anything else', () => {
    fc.assert(
      fc.property(csvFile, (text) => {
        let set;
        try {
          set = parseCsvPins(text);
        } catch (error) {
          expect(error, String(error)).toBeInstanceOf(PinDataError);
          expect((error as Error).message.length).toBeGreaterThan(10);
          return;
        }
        for (const skipped of set.skipped) expect(JSON.stringify(skipped).length).toBeGreaterThan(10);
        for (const pin of set.pins) expect(Number.isFinite(pin.lngLat[0]) && Number.isFinite(pin.lngLat[1])).toBe(true);
      }),
      fuzzParameters(300),
    );
  }, fuzzTimeout(20000));
});
