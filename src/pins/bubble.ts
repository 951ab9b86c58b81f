/**
 * What a bubble (a group of nearby pins) looks like wherever it is drawn: the DOM bubble, the GPU
 * layer's bubble image and the pin tiler's bubble label share these.
 */

/** Bubble diameter by count, inside its ring: the GPU layer's bubble images have the same steps. */
export function clusterDiameter(count: number): number {
  return 2 * (count < 10 ? 14 : count < 100 ? 17 : count < 1000 ? 21 : 26);
}

/** 1234 → '1.2k', as MapLibre abbreviates cluster counts. */
export function abbreviate(count: number): string {
  if (count < 1000) return String(count);
  if (count < 10000) return `${Math.round(count / 100) / 10}k`;
  return `${Math.round(count / 1000)}k`;
}
