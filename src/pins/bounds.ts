import type { Pin } from './types.ts';

/**
 * Where a set of pins is: the smallest box around them, for the camera that opens on them (the
 * config's `fitPins`) and the pin list's "Show all pins". Longitudes wrap, so the smallest box
 * may cross the antimeridian: pins at 170°E and 170°W are in a box 20° wide from 170 to 190, not
 * in one 340° wide from -170 to 170.
 */

/** `[[west, south], [east, north]]` in degrees; `east` may pass 180 (west 170, east 190 crosses the antimeridian), `west` is within -180..180. */
export type PinBounds = [[number, number], [number, number]];

/**
 * The smallest box around `count` points whose longitude and latitude `lngAt(i)` and `latAt(i)`
 * give: across the widest stretch of longitude with no point in it, the rest of the circle.
 * Undefined for no points.
 */
export function boundsOf(count: number, lngAt: (i: number) => number, latAt: (i: number) => number): PinBounds | undefined {
  if (count === 0) return undefined;
  const lngs = new Float64Array(count);
  let south = 90;
  let north = -90;
  for (let i = 0; i < count; i++) {
    lngs[i] = lngAt(i);
    const lat = latAt(i);
    if (lat < south) south = lat;
    if (lat > north) north = lat;
  }
  lngs.sort();
  // The stretch from the last longitude round to the first, across the antimeridian…
  let gap = lngs[0]! + 360 - lngs[count - 1]!;
  let west = lngs[0]!;
  let east = lngs[count - 1]!;
  // …or a wider one between two neighbours, which the box then leaves out.
  for (let i = 1; i < count; i++) {
    const between = lngs[i]! - lngs[i - 1]!;
    if (between <= gap) continue;
    gap = between;
    west = lngs[i]!;
    east = lngs[i - 1]! + 360;
  }
  return [
    [west, south],
    [east, north],
  ];
}

/** The box around these pins (`boundsOf`), leaving out those of hidden categories; undefined when none is left. */
export function pinBounds(pins: readonly Pin[], hidden: ReadonlySet<string> = new Set()): PinBounds | undefined {
  const shown = hidden.size === 0 ? pins : pins.filter((pin) => pin.category === undefined || !hidden.has(pin.category));
  return boundsOf(
    shown.length,
    (i) => shown[i]!.lngLat[0],
    (i) => shown[i]!.lngLat[1],
  );
}

/**
 * A pre-tiled archive's box as its metadata's `bounds` (`[west, south, east, north]`, east past
 * 180 across the antimeridian) or, in an archive made before it kept them, its header's.
 */
export function archiveBounds(bounds: readonly [number, number, number, number]): PinBounds {
  const [west, south, east, north] = bounds;
  return [
    [west, south],
    [east, north],
  ];
}
