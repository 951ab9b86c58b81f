/**
 * What a bubble (a group of nearby pins) looks like wherever it is drawn: the DOM bubble, the GPU
 * layer's bubble image and the pin tiler's bubble label share these.
 */

/** Bubble diameter by count, inside its ring: the GPU layer's bubble images have the same steps. */
export function clusterDiameter(count: number): number {
  return 2 * (count < 10 ? 14 : count < 100 ? 17 : count < 1000 ? 21 : 26);
}

/** Half the width of a pin drawn at its default size (32 × 52 px): its head's disc, which it keeps clear of bubbles. */
const PIN_DISC_RADIUS = 16;
/** How far above its tip (its point) a default pin's head is centred. */
const PIN_HEAD_LIFT = 52 - PIN_DISC_RADIUS;

/** Pixels kept between two groups' discs (`groupDiscRadius`), so that their edges do not touch. */
export const GROUP_GAP = 2;

/**
 * The radius, in CSS px, of the disc a group of `count` pins is drawn in: a bubble's circle
 * (`clusterDiameter`), a lone pin's head (centred `groupDiscLift` above its tip). The grouping keeps any two groups further apart than
 * their two radii and `GROUP_GAP`, so no bubble hides another's count.
 */
export function groupDiscRadius(count: number): number {
  return count > 1 ? clusterDiameter(count) / 2 : PIN_DISC_RADIUS;
}

/** How far above the group's point, CSS px, its disc is centred: a lone pin's head stands above its tip; a bubble is centred on its point. */
export function groupDiscLift(count: number): number {
  return count > 1 ? 0 : PIN_HEAD_LIFT;
}

/** 1234 → '1.2k', as MapLibre abbreviates cluster counts. */
export function abbreviate(count: number): string {
  if (count < 1000) return String(count);
  if (count < 10000) return `${Math.round(count / 100) / 10}k`;
  return `${Math.round(count / 1000)}k`;
}
