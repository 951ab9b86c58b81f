import type { Pin } from './pin-data.ts';
import type { PinOptions } from './pin-options.ts';

/** One line of the legend: a category, its look and how many pins of the set it has. */
export interface LegendEntry {
  category: string;
  /** The category's pin options (empty: the default pin). */
  options: Readonly<PinOptions>;
  count: number;
}

/**
 * The legend of a pin set: every category of its `pinStyles` in their order, then any other
 * category its pins name, in the order they first appear, each with its count. Pins without a
 * category are in none (and no filter hides them).
 */
export function legendEntries(pins: readonly Pin[], pinStyles: Readonly<Record<string, PinOptions>>): LegendEntry[] {
  const counts = new Map<string, number>();
  for (const category of Object.keys(pinStyles)) counts.set(category, 0);
  for (const pin of pins) if (pin.category !== undefined) counts.set(pin.category, (counts.get(pin.category) ?? 0) + 1);
  return [...counts].map(([category, count]) => ({ category, options: Object.hasOwn(pinStyles, category) ? pinStyles[category]! : {}, count }));
}
