import type { PinOptions } from '../src/config/pin-options.ts';

/**
 * The categories of the default pin set (fixtures/pins/cities.geojson) and their pin styles,
 * written into the file as its top-level `pinStyles`. Each has its own Font Awesome Free solid
 * glyph (drawn white) and marker colour; plain cities keep the default marker colour.
 * Shared by `generate-pins.ts` and `synthetic-pins.ts`, and free of Node APIs.
 */
export const PIN_CATEGORIES = ['megacity', 'capital', 'regional-capital', 'city'] as const;
export type PinCategory = (typeof PIN_CATEGORIES)[number];

/** What each category means, as the generator decides it (first match wins, in this order). */
export const PIN_CATEGORY_MEANING: Record<PinCategory, string> = {
  megacity: 'a city of 10 million people or more',
  capital: 'the capital of a country or territory (GeoNames feature code PPLC)',
  'regional-capital': 'the seat of a first-order administrative division (PPLA)',
  city: 'any other city',
};

/** Category → pin style. */
export const PIN_CATEGORY_STYLES: Record<PinCategory, PinOptions> = {
  megacity: { iconClasses: 'fa-solid fa-city', markerColor: '#6A3FB5' },
  capital: { iconClasses: 'fa-solid fa-landmark-flag', markerColor: '#C62828' },
  'regional-capital': { iconClasses: 'fa-solid fa-building-columns', markerColor: '#2E7D32' },
  city: { iconClasses: 'fa-solid fa-building', markerColor: '#3FB1CE' },
};
