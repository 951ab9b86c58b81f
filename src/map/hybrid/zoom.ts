/**
 * Leaflet counts zoom in 256 px tiles, MapLibre in 512 px tiles: the same scale is one more in
 * Leaflet. Everything outside the hybrid view's modules speaks MapLibre's zoom (the address, the
 * config, the controls, the grouping of pins); these convert at the edge of Leaflet.
 */

/** Leaflet's zoom for a MapLibre zoom. */
export const toLeafletZoom = (zoom: number): number => zoom + 1;

/** MapLibre's zoom for a Leaflet zoom. */
export const toMapLibreZoom = (zoom: number): number => zoom - 1;
