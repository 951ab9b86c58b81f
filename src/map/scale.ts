/**
 * Pure measures behind the scale bar and the accuracy circle, the same arithmetic as MapLibre's
 * scale and geolocation controls (CONTROLS.md, "Scale" and "Geolocation"), so every engine that
 * can turn two screen points into coordinates gets the same scale.
 */

/** The mean Earth radius MapLibre measures with, in metres. */
export const EARTH_RADIUS = 6371008.8;

/** Widest the scale bar may be, in CSS pixels (PRODUCT.md). */
export const SCALE_MAX_WIDTH = 100;

export const SCALE_UNITS = ['metric', 'imperial', 'nautical'] as const;
export type ScaleUnit = (typeof SCALE_UNITS)[number];

/** The short unit names the scale shows; overridable through the locale table. */
export type UnitSymbol = 'm' | 'km' | 'ft' | 'mi' | 'nm';

/** What the scale bar shows: a rounded distance, its unit, and the bar's width in CSS pixels. */
export interface ScaleBar {
  value: number;
  unit: UnitSymbol;
  width: number;
}

const FEET_PER_METRE = 3.2808;
const FEET_PER_MILE = 5280;
const METRES_PER_NAUTICAL_MILE = 1852;

/** Great-circle (haversine) distance in metres between two `[lng, lat]` points. */
export function distanceBetween([lng1, lat1]: readonly [number, number], [lng2, lat2]: readonly [number, number]): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return EARTH_RADIUS * 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}

/**
 * Metres covered by `pixels` CSS pixels along the equator at `zoom` (512 px world at zoom 0):
 * what the scale measures at latitude 0.
 */
export function metresAcrossAtEquator(zoom: number, pixels = SCALE_MAX_WIDTH): number {
  const degrees = (pixels / (512 * 2 ** zoom)) * 360;
  return distanceBetween([-degrees / 2, 0], [degrees / 2, 0]);
}

/**
 * A readable number not above `value`: its leading digit snapped down to 10, 5, 3, 2 or 1 in its
 * power of ten; values below 1 keep one significant digit. MapLibre rounds that digit to the
 * nearest, which can make its bar wider than the maximum (0.3724 nm → 0.4 nm, 107 px); Pinmap
 * rounds it down, so the bar never exceeds 100 px and matches MapLibre whenever MapLibre's fits.
 */
export function roundForScale(value: number): number {
  const power = 10 ** (String(Math.floor(value)).length - 1);
  const leading = value / power;
  const snapped = [10, 5, 3, 2, 1].find((step) => leading >= step) ?? oneSignificantDigit(leading);
  return power * snapped;
}

function oneSignificantDigit(value: number): number {
  const multiplier = 10 ** Math.ceil(-Math.log10(value));
  // The tiny allowance keeps 0.3 · 10 = 3.0000000000000004 and 0.29 · 100 = 28.999999999999996 honest.
  return Math.floor(value * multiplier + 1e-9) / multiplier;
}

/**
 * The scale bar for `metres` measured across `maxWidth` pixels, in `unit`: metric shows m below
 * 1000 m, else km; imperial ft up to 5280 ft, else mi; nautical nm. Throws on a distance that is
 * not a positive finite number or an unknown unit.
 */
export function scaleBar(metres: number, unit: ScaleUnit, maxWidth = SCALE_MAX_WIDTH): ScaleBar {
  if (!Number.isFinite(metres) || metres <= 0) throw new RangeError(`scaleBar: the measured distance must be a positive number of metres (got ${metres})`);
  if (!Number.isFinite(maxWidth) || maxWidth <= 0) throw new RangeError(`scaleBar: maxWidth must be a positive number of pixels (got ${maxWidth})`);
  const [raw, symbol] = inUnit(metres, unit);
  const value = roundForScale(raw);
  return { value, unit: symbol, width: (maxWidth * value) / raw };
}

function inUnit(metres: number, unit: ScaleUnit): [number, UnitSymbol] {
  switch (unit) {
    case 'metric':
      return metres >= 1000 ? [metres / 1000, 'km'] : [metres, 'm'];
    case 'imperial': {
      const feet = FEET_PER_METRE * metres;
      return feet > FEET_PER_MILE ? [feet / FEET_PER_MILE, 'mi'] : [feet, 'ft'];
    }
    case 'nautical':
      return [metres / METRES_PER_NAUTICAL_MILE, 'nm'];
    default:
      throw new RangeError(`scaleBar: unknown unit "${String(unit)}" (use ${SCALE_UNITS.join(', ')})`);
  }
}

/** The unit after `unit` in the order metric → imperial → nautical → metric. */
export function nextScaleUnit(unit: ScaleUnit): ScaleUnit {
  return SCALE_UNITS[(SCALE_UNITS.indexOf(unit) + 1) % SCALE_UNITS.length]!;
}

/**
 * Diameter in CSS pixels of the circle that shows a position's accuracy: twice the accuracy
 * radius over the metres one pixel covers at the position.
 */
export function accuracyCircleDiameter(accuracyMetres: number, metresPerPixel: number): number {
  if (!(accuracyMetres >= 0) || !Number.isFinite(accuracyMetres)) throw new RangeError(`accuracy must be 0 or more metres (got ${accuracyMetres})`);
  if (!(metresPerPixel > 0) || !Number.isFinite(metresPerPixel)) throw new RangeError(`metres per pixel must be a positive number (got ${metresPerPixel})`);
  return (2 * accuracyMetres) / metresPerPixel;
}

/**
 * Metres one CSS pixel covers at latitude `lat` and `zoom` on a Web Mercator map of 512 px tiles,
 * measured like the geolocation control does: over 100 px eastwards from the point.
 */
export function metresPerPixelAt(lat: number, zoom: number): number {
  const degrees = (100 / (512 * 2 ** zoom)) * 360;
  return distanceBetween([0, lat], [degrees, lat]) / 100;
}
