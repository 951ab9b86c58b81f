import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzParameters, fuzzTimeout } from '../testing/fuzz.testing.ts';
import { ConfigError, safeParseConfig } from './schema.ts';

/**
 * Fuzz: random configs, from any JSON to objects of the real option names with values of every
 * kind. `safeParseConfig` never throws, and a config it refuses names each option it refuses
 * (a dotted path) with a message in words.
 */

const OPTIONS = [
  'style', 'accessToken', 'providerOrigin', 'accessTokenHeader', 'view', 'center', 'zoom', 'bearing', 'pitch', 'minZoom', 'maxZoom', 'minPitch', 'maxPitch',
  'styleTimeout', 'pinsTimeout', 'maxPinBytes', 'addressPins', 'addressConfig', 'pins', 'pinStyles', 'domPinLimit', 'openPin', 'controls', 'units', 'locale', 'rasterLayers',
  'vectorLayer', 'theme', 'darkStyle', 'hiddenCategories', 'searchFields', '__proto__', 'constructor',
];

/** Values of every kind, hostile strings and numbers among them. */
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('pmtiles://', 'javascript:alert(1)', 'https://', ' https://x.test/a', 'data:,x', '\u0000', '__proto__', NaN, Infinity, -0, 1e308, [], {}, null),
  fc.webUrl(),
  fc.double(),
);

const config = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.dictionary(fc.constantFrom(...OPTIONS), value, { maxKeys: 6 }));

describe('fuzz: random configs', () => {
  it('are accepted, or refused with every problem naming its option in words; never thrown', () => {
    fc.assert(
      fc.property(config, (input) => {
        const result = safeParseConfig(input);
        if (result.ok) return;
        expect(result.error).toBeInstanceOf(ConfigError);
        expect(result.error.problems.length).toBeGreaterThan(0);
        for (const problem of result.error.problems) {
          expect(problem.option.length, 'the option named').toBeGreaterThan(0);
          expect(problem.message.length).toBeGreaterThan(7);
        }
      }),
      fuzzParameters(300),
    );
  }, fuzzTimeout(20000));
});
