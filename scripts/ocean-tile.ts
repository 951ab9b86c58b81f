import type { GeoJSONVTFeature, GeoJSONVTTile } from '@maplibre/geojson-vt';

/**
 * The ocean of a vector tile for the schemas that draw water as polygons (Protomaps' and
 * OpenMapTiles' `water`), made from the tile's land: used by the fixture generators of both.
 */

/** Twice the signed area of a ring in tile coordinates (positive: clockwise on screen, y down). */
const signedArea = (ring: [number, number][]): number => {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[j]![0] - ring[i]![0]) * (ring[i]![1] + ring[j]![1]);
  return sum;
};
const oriented = (ring: [number, number][], clockwise: boolean): [number, number][] => (signedArea(ring) > 0 === clockwise ? ring : [...ring].reverse());

/**
 * The ocean of one tile of `extent` units with `buffer` units around it: the tile less its land,
 * with `tags`. The land's outer rings are holes in the tile's square, and the land's own holes
 * (inland seas) are water again. Outer rings wind one way and holes the other, which is how a map
 * reads them.
 */
export function oceanOf(land: GeoJSONVTFeature[], tags: Record<string, string>, extent: number, buffer: number): GeoJSONVTFeature {
  const square: [number, number][] = [
    [-buffer, -buffer],
    [extent + buffer, -buffer],
    [extent + buffer, extent + buffer],
    [-buffer, extent + buffer],
    [-buffer, -buffer],
  ];
  const polygons: [number, number][][][] = [[oriented(square, true)]];
  for (const feature of land) {
    if (feature.type !== 3) continue;
    const rings = feature.geometry;
    // The land's outer rings wind like its biggest ring.
    const outerSign = Math.sign(signedArea(rings.reduce((a, b) => (Math.abs(signedArea(b)) > Math.abs(signedArea(a)) ? b : a))));
    for (const ring of rings) {
      if (Math.sign(signedArea(ring)) === outerSign) polygons[0]!.push(oriented(ring, false));
      else polygons.push([oriented(ring, true)]);
    }
  }
  return { type: 3, tags, geometry: polygons.flat() };
}

/** A tile of features already in tile coordinates, as `fromGeojsonVt` takes it. */
export const tileOf = (z: number, x: number, y: number, features: GeoJSONVTFeature[]): GeoJSONVTTile =>
  ({ transformed: true, features, source: null, z, x, y }) as unknown as GeoJSONVTTile;
