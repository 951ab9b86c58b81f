/**
 * Plain geographic values shared by the machines, and the little arithmetic they need. No map
 * engine types: the app converts these to and from the engine's own.
 */

/** A point as [longitude, latitude] in degrees. */
export type LngLat = [lng: number, lat: number];

/** A box as [[west, south], [east, north]] in degrees. */
export type LngLatBounds = [southWest: LngLat, northEast: LngLat];

/** One reading from the browser's geolocation. */
export type GeoPosition = {
  lng: number;
  lat: number;
  /** Radius of the circle the user is in, in metres. */
  accuracy: number;
};

/** Earth's circumference at the equator, in metres, as the map engine uses it. */
const EQUATOR_METRES = 40075017;

/**
 * The box that holds a position's accuracy circle: latΔ = 360·accuracy / 40075017 degrees,
 * lngΔ = latΔ / cos(lat), on each side of the position.
 */
export function accuracyBounds(position: GeoPosition): LngLatBounds {
  const latDelta = (360 * position.accuracy) / EQUATOR_METRES;
  const lngDelta = latDelta / Math.cos((position.lat * Math.PI) / 180);
  return [
    [position.lng - lngDelta, position.lat - latDelta],
    [position.lng + lngDelta, position.lat + latDelta],
  ];
}

/** A bearing in degrees brought into (-180, 180], so that 355 reads as -5. */
export function normalizeBearing(bearing: number): number {
  const wrapped = ((bearing % 360) + 360) % 360;
  return wrapped > 180 ? wrapped - 360 : wrapped;
}
