import { FIT_PINS, type FitPadding } from '../config/constants.ts';
import type { MapAdapter } from '../map/adapter.ts';
import { archiveBounds, pinBounds, type PinBounds } from '../pins/bounds.ts';
import type { PinSet } from '../pins/types.ts';

/**
 * The camera on the pins (README, "Your own data"): the box the map opens on when neither the
 * config nor the address gives a camera (`fitPins`), and the pin list's "Show all pins".
 */

/**
 * The box around a pin set's pins (those of hidden categories left out): inline pins' own, or a
 * pre-tiled archive's from its metadata (its header's bounds for an archive made before it kept
 * them). Undefined without pins.
 */
export function pinSetBounds(set: PinSet, hidden: readonly string[]): PinBounds | undefined {
  if (set.archive) return set.archive.metadata.count > 0 ? archiveBounds(set.archive.metadata.bounds ?? set.archive.source.bounds) : undefined;
  return pinBounds(set.pins, new Set(hidden));
}

/** `FIT_PINS.padding`, less on a map too small for it (a share of its width and height at most). */
export function fitPadding(width: number, height: number): FitPadding {
  const across = width * FIT_PINS.paddingShare;
  const down = height * FIT_PINS.paddingShare;
  const { top, right, bottom, left } = FIT_PINS.padding;
  return { top: Math.min(top, down), right: Math.min(right, across), bottom: Math.min(bottom, down), left: Math.min(left, across) };
}

/** Opens the map at once on `bounds`, no further in than `maxZoom` (and `FIT_PINS.maxZoom`). */
export function jumpToPins(adapter: MapAdapter, bounds: PinBounds, maxZoom: number, container: HTMLElement): void {
  adapter.fitBounds(bounds, { tag: 'fitPins', duration: 0, maxZoom: Math.min(maxZoom, FIT_PINS.maxZoom), padding: fitPadding(container.clientWidth, container.clientHeight) });
}
