import type { Pin } from './types.ts';
import { fieldText, firstLine } from './search.ts';

/**
 * What tells apart the pin list's entries of one title ("12", "12", "12": addresses by house
 * number): the titles repeated in a list, and for a pin of one of them the detail its entry's
 * second line shows: the config's `listDetailField`, else the pin's place. Pure, so it is unit
 * tested in Node; the list (`PinListControl`) shows it.
 */

/** The titles more than one of `pins` has (as written: "12" and "12 " are two titles). */
export function repeatedTitles(pins: Iterable<Pick<Pin, 'title'>>): Set<string> {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const { title } of pins) {
    if (seen.has(title)) repeated.add(title);
    else seen.add(title);
  }
  return repeated;
}

/** Decimals of a place as the list shows it: 4, about 10 m, which tells apart the houses of a street. */
const PLACE_DECIMALS = 4;

/**
 * A place as people read it: latitude then longitude, each with its hemisphere, 4 decimals
 * ("48.8566° N, 2.3522° E"); a longitude of another copy of the world is given as in the first.
 */
export function placeText([lng, lat]: readonly [number, number]): string {
  const wrapped = ((((lng + 180) % 360) + 360) % 360) - 180;
  const part = (value: number, positive: string, negative: string) => {
    const text = Math.abs(value).toFixed(PLACE_DECIMALS);
    // No "-0.0000° S": a value that rounds to 0 has no hemisphere side.
    return `${text}° ${Number(text) === 0 ? positive : value < 0 ? negative : positive}`;
  };
  return `${part(lat, 'N', 'S')}, ${part(wrapped, 'E', 'W')}`;
}

/**
 * The detail of a pin whose title is repeated in the list: the text of its `field` (config's
 * `listDetailField`; a description gives its first line), else, where it has none or no field is
 * named, its place (`placeText`).
 */
export function listDetail(pin: Pin, field: string | undefined): string {
  const text = field === undefined ? '' : firstLine(fieldText(pin, field));
  return text !== '' ? text : placeText(pin.lngLat);
}
