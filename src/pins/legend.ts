import type { CategoryCount, LegendEntry, Pin } from './types.ts';
import type { PinOptions } from '../config/pin-options.ts';

/**
 * The legend of a pin set: every category of its `pinStyles` in their order, then any other
 * category its pins name, in the order they first appear, each with its count. Pins without a
 * category are in none (and no filter hides them). A set whose pins are not all on the page
 * (pre-tiled pins) gives its categories and counts in that order as `counted` instead, and `pins`
 * is not read; a category of `pinStyles` it does not name (the config's own) follows, with no pins.
 */
export function legendEntries(pins: readonly Pin[], pinStyles: Readonly<Record<string, PinOptions>>, counted?: readonly CategoryCount[]): LegendEntry[] {
  const counts = new Map<string, number | undefined>();
  if (counted) for (const { category, count } of counted) counts.set(category, count);
  for (const category of Object.keys(pinStyles)) if (!counts.has(category)) counts.set(category, 0);
  if (!counted) for (const pin of pins) if (pin.category !== undefined) counts.set(pin.category, (counts.get(pin.category) ?? 0) + 1);
  return [...counts].map(([category, count]) => ({ category, options: Object.hasOwn(pinStyles, category) ? pinStyles[category]! : {}, count }));
}

/**
 * How many pins have no category (the legend's "Pins" line, or "Other pins" below the
 * categories): counted among `pins`; for a set counted elsewhere (`counted`, a pre-tiled
 * archive, which keeps the count of each category and of all its pins, `total`), those of
 * `total` in no category. Undefined when that cannot be known: no `total`, or an archive made
 * before archives kept counts whose pins have categories.
 */
export function uncategorisedCount(pins: readonly Pin[], counted?: readonly CategoryCount[], total?: number): number | undefined {
  if (counted) {
    if (total === undefined) return undefined;
    let categorised = 0;
    for (const { count } of counted) {
      if (count === undefined) return undefined;
      categorised += count;
    }
    return Math.max(0, total - categorised);
  }
  let count = 0;
  for (const pin of pins) if (pin.category === undefined) count++;
  return count;
}
