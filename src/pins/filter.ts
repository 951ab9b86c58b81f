import type { Pin } from './types.ts';

/**
 * What the legend's filter and the pin list share in both views: which pins a set of hidden
 * categories leaves on the map, whether a point lies within a box of the view, and which copy of
 * the world a point is drawn on. Pure, so it is unit tested without a map.
 */

/** Whether the pin shows while the categories in `hidden` are hidden (a pin without a category always shows). */
export function isShown(pin: Pin, hidden: ReadonlySet<string>): boolean {
  return pin.category === undefined || !hidden.has(pin.category);
}

/**
 * One byte per pin in the set's order (or per slot, `PinSlots`: a free slot is undefined), 1 where
 * it shows: what the groupings group. None when every pin shows (nothing hidden, or no pin of a
 * hidden category, and no free slot).
 */
export function visibleMask(pins: readonly (Pin | undefined)[], hidden: ReadonlySet<string>): Uint8Array | undefined {
  const mask = new Uint8Array(pins.length);
  let all = true;
  pins.forEach((pin, i) => {
    const shown = pin !== undefined && isShown(pin, hidden);
    mask[i] = shown ? 1 : 0;
    if (!shown) all = false;
  });
  return all ? undefined : mask;
}

/**
 * Whether `[lng, lat]` lies in the box `[west, south, east, north]`, on any copy of the world:
 * a view across the 180° meridian has a west below -180 or an east above 180, and a box a world
 * wide or more holds every longitude.
 */
export function boxContains([west, south, east, north]: [number, number, number, number], [lng, lat]: [number, number]): boolean {
  if (lat < south || lat > north) return false;
  if (east - west >= 360) return true;
  const shifted = lng + 360 * Math.ceil((west - lng) / 360);
  return shifted <= east;
}

/**
 * The copy of `lng` (± a multiple of 360°) nearest to `center`: where a point shows on the world
 * copy in view, or where a camera goes to reach it without crossing the 180° meridian.
 */
export function nearestCopy(lng: number, center: number): number {
  return lng + 360 * Math.round((center - lng) / 360);
}
