import type { PinmapConfigInput } from '../config/schema.ts';

/**
 * What the app shows with no `?config=`: the embedded basemap, its own pins (world cities,
 * fixtures/pins) and, in the hybrid view, its own raster overlay over the vector map: a hatch
 * over land (fixtures/raster), drawn from the same coastlines as the basemap, at world to country
 * zooms. Paths are relative
 * to the page, where the build puts the fixtures.
 */
export const DEFAULT_APP_CONFIG = {
  pins: 'pins/cities.geojson',
  // Its tiles go to zoom 5; shown up to zoom 6 (scaled up once), then it gives way to the vector map's detail.
  rasterLayers: [{ url: 'raster/hatch/{z}/{x}/{y}.png', attribution: 'Hatching: Natural Earth (public domain)', placement: 'above', maxTileZoom: 5, maxZoom: 6 }],
} satisfies PinmapConfigInput;
