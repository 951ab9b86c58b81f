import { describe, expectTypeOf, test } from 'vitest';
import type { ConfigSchemaInput, ConfigSchemaOutput } from './schema.ts';
import type { PinmapConfig, PinmapConfigInput, PinOptions, PinOptionsInput } from './types.ts';
import type { PinOptionsSchemaInput, PinOptionsSchemaOutput } from './pin-options.ts';

/**
 * The documented config types (what an editor shows the library's users) against the zod
 * schema's (what validates): an option added to, removed from or changed in one and not the other
 * fails the type check (`npm run typecheck`, which also checks this file).
 */
describe('the documented config types', () => {
  test('PinmapConfigInput is what the schema accepts', () => {
    // Every option but `pins`, which is typed so that any GeoJSON FeatureCollection type fits
    // (readonly features, no index signature: PinCollectionInput), looser than the schema's type.
    expectTypeOf<Omit<PinmapConfigInput, 'pins'>>().toEqualTypeOf<Omit<ConfigSchemaInput, 'pins'>>();
  });
  test('PinmapConfig is what the schema gives back', () => {
    expectTypeOf<PinmapConfig>().toEqualTypeOf<ConfigSchemaOutput>();
  });
  test('the pin options are the pin schema’s', () => {
    expectTypeOf<PinOptionsInput>().toEqualTypeOf<PinOptionsSchemaInput>();
    expectTypeOf<PinOptions>().toEqualTypeOf<PinOptionsSchemaOutput>();
  });
});
