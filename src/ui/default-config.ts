import type { PinmapConfigInput } from '../map/config.ts';

/**
 * What the app shows with no `?config=`: the embedded basemap, its own pins (world cities,
 * fixtures/pins) and, in the hybrid view, its own raster overlay over the vector map: a hatch
 * over land (fixtures/raster), drawn from the same coastlines as the basemap. Paths are relative
 * to the page, where the build puts the fixtures.
 */
export const DEFAULT_APP_CONFIG = {
  pins: 'pins/cities.geojson',
  rasterLayers: [{ url: 'raster/hatch/{z}/{x}/{y}.png', attribution: 'Hatching: Natural Earth (public domain)', placement: 'above', maxTileZoom: 5 }],
} satisfies PinmapConfigInput;
