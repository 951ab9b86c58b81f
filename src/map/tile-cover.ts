/** `[west, south, east, north]`; west and east may go past ±180 (world copies). */
export type Bbox = [number, number, number, number];

/** The tiles `[x, y]` of zoom `z` that `bbox` touches, x wrapped into the world. */
export function tilesCovering(z: number, [west, south, east, north]: Bbox): [number, number][] {
  const size = 2 ** z;
  const tileX = (lng: number) => Math.floor(((lng + 180) / 360) * size);
  const tileY = (lat: number) => {
    const clamped = Math.max(-85.0511287798, Math.min(85.0511287798, lat));
    const sin = Math.sin((clamped * Math.PI) / 180);
    const y = 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
    return Math.min(size - 1, Math.max(0, Math.floor(y * size)));
  };
  const [x0, x1] = east - west >= 360 ? [0, size - 1] : [tileX(west), Math.min(tileX(east), tileX(west) + size - 1)];
  const tiles: [number, number][] = [];
  for (let x = x0; x <= x1; x++) {
    for (let y = tileY(north); y <= tileY(south); y++) tiles.push([(((x % size) + size) % size), y]);
  }
  return tiles;
}

/**
 * The tiles `[z, x, y]` of a vector source with zooms `minzoom` to `maxzoom` that a MapLibre map
 * asks for first at its camera: at its whole zoom (512 px tiles), within the source's zooms.
 */
export function tilesInView(
  map: { getZoom(): number; getBounds(): { getWest(): number; getSouth(): number; getEast(): number; getNorth(): number } },
  { minzoom, maxzoom }: { minzoom: number; maxzoom: number },
): [number, number, number][] {
  const zoom = Math.min(maxzoom, Math.max(minzoom, Math.floor(map.getZoom())));
  const bounds = map.getBounds();
  return tilesCovering(zoom, [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()]).map(([x, y]) => [zoom, x, y]);
}
