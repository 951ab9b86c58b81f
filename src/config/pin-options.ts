import { Color } from '@maplibre/maplibre-gl-style-spec';
import { z } from './zod.ts';

/**
 * Pin icon options (PRODUCT.md, "Pin icon", plus scale, label and shadow). Every field is
 * optional; `resolvePinStyle` in pins/icon.ts fills in the defaults. Site config validates them
 * with this schema (a bad value is an error naming the field); pin data validates each field on
 * its own (a bad value falls back to the default with a warning).
 */

/** zod 4's number() already refuses NaN and ±Infinity. */
export const finite = (what: string) => z.number({ error: `must be a finite number (${what})` });

/** Colours are read by MapLibre's own parser, so a pin and a style accept the same values. */
export function isCssColour(value: string): boolean {
  return Color.parse(value) !== undefined;
}

export const cssColour = z
  .string({ error: 'must be a CSS colour string' })
  .check(z.refine(isCssColour, { error: 'must be a CSS colour such as #3FB1CE, rgb(…), hsl(…) or a colour name' }));

/**
 * SVG path data and nothing else: commands, numbers, separators. Anything that could end the
 * attribute or start markup (quotes, angle brackets, ampersands) is refused.
 */
const PATH_DATA = /^[\s,]*[Mm][MmZzLlHhVvCcSsQqTtAa0-9eE.+\-\s,]*$/;

/** Whether `value` reads as SVG path data (it must start with a move-to). */
export function isSvgPathData(value: string): boolean {
  return PATH_DATA.test(value) && /\d/.test(value);
}

/** Smallest and largest `scale` of a pin (1 = 32 × 52 px). */
export const PIN_SCALE_RANGE = [0.5, 3] as const;
/** Longest `label` drawn in a pin's head, in characters. */
export const PIN_LABEL_MAX_LENGTH = 3;

export const pinOptionsShape = {
  iconClasses: z.string({ error: 'must be a string of CSS classes' }),
  iconColor: cssColour,
  iconSize: finite('px').check(z.gte(0, { error: 'must be 0 or more (px)' })),
  iconXOffset: finite('px'),
  iconYOffset: finite('px'),
  markerColor: cssColour,
  markerFillOpacity: finite('0..1').check(z.gte(0, { error: 'must be between 0 and 1' }), z.lte(1, { error: 'must be between 0 and 1' })),
  markerStrokeColor: cssColour,
  markerStrokeWidth: finite('px').check(z.gte(0, { error: 'must be 0 or more (px)' })),
  markerPath: z
    .string({ error: 'must be SVG path data' })
    .check(z.refine(isSvgPathData, { error: 'must be SVG path data (a move-to, then commands and numbers only)' })),
  popupAnchor: z.tuple([finite('px'), finite('px')], { error: 'must be [x, y] in px' }),
  scale: finite('times the 32 × 52 px pin').check(
    z.gte(PIN_SCALE_RANGE[0], { error: `must be between ${PIN_SCALE_RANGE[0]} and ${PIN_SCALE_RANGE[1]}` }),
    z.lte(PIN_SCALE_RANGE[1], { error: `must be between ${PIN_SCALE_RANGE[0]} and ${PIN_SCALE_RANGE[1]}` }),
  ),
  label: z.pipe(
    z.pipe(z.union([z.string(), z.number()], { error: 'must be a short text or a number' }), z.transform(String)),
    z.string().check(z.maxLength(PIN_LABEL_MAX_LENGTH, { error: `must be at most ${PIN_LABEL_MAX_LENGTH} characters` })),
  ),
  shadow: z.boolean({ error: 'must be true or false' }),
} as const;

export const pinOptionsSchema = z.strictObject(
  Object.fromEntries(Object.entries(pinOptionsShape).map(([k, v]) => [k, z.optional(v)])) as {
    [K in keyof typeof pinOptionsShape]: z.ZodMiniOptional<(typeof pinOptionsShape)[K]>;
  },
  { error: 'must be an object of pin options' },
);

/** The schema's own types; types.ts has the documented `PinOptionsInput` and `PinOptions`, kept equal to these. */
export type PinOptionsSchemaInput = z.input<typeof pinOptionsSchema>;
export type PinOptionsSchemaOutput = z.output<typeof pinOptionsSchema>;
export type { PinOptions, PinOptionsInput } from './types.ts';
export type PinOptionName = keyof typeof pinOptionsShape;
