/**
 * Generates a small world basemap in the OpenMapTiles schema (the schema of the common hosted
 * street maps, free and commercial) into `fixtures/openmaptiles/` (or the directory given as the
 * first command-line argument): a stand-in for a hosted style, at zooms 0..6, made from the same
 * Natural Earth and GeoNames data as the embedded basemap (`scripts/generate-basemap.ts`). It
 * proves and shows the "a hosted street map" path offline: a style written against the schema's
 * layers and fields, over one archive.
 *
 * - `openmaptiles.pmtiles`: PMTiles v3 of Mapbox Vector Tiles with the schema's layers and fields
 *   that this data has: `water` (`class`: `ocean`; each tile less its land), `landcover`
 *   (`class`: `ice`, `subclass`: `glacier`: Antarctica), `boundary` (`admin_level` 2, `disputed`
 *   0, `maritime` 0) and `place` (`class` `country`, `city`, `town` or `village`; `name`,
 *   `name_en`, `name:latin`, `rank`, `capital` 2 for capitals, `iso_a2` for countries). The
 *   metadata also lists the schema's layers this data has nothing for (`water_name`,
 *   `transportation`, `transportation_name`, `waterway`, `landuse`, `park`, `building`, `poi`,
 *   `aerodrome_label`, `mountain_peak`, `housenumber`), as an extract whose zooms hold none of
 *   their features does, so a style's layers for them are valid.
 * - `style.json`: a light style over `pmtiles://openmaptiles.pmtiles` (source `openmaptiles`, as
 *   hosted styles name it) in the manner of the hosted ones: the background is land, water and ice
 *   are drawn over it, roads by `transportation` class, labels by `place` class and `rank`. Fonts
 *   through `font-faces` (no glyph server), no sprite.
 * - `fonts/`: Noto Sans Regular, Bold and Italic (latin and latin-ext), from `@fontsource/noto-sans`.
 * - `README.md`.
 *
 * Deterministic like the basemap generator: `scripts/generate-openmaptiles.test.ts` regenerates
 * it and compares every file. Run with `npm run fixtures` (`tsx scripts/generate-openmaptiles.ts [outDir]`).
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Feature, FeatureCollection, Point } from 'geojson';
import { GeoJSONVT } from '@maplibre/geojson-vt';
import type { GeoJSONVTOptions, GeoJSONVTTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { MAX_LAT, loadSources, type Properties } from './generate-basemap.ts';
import { oceanOf, tileOf } from './ocean-tile.ts';
import { writePmtiles, type PmtilesTile } from './pmtiles-writer.ts';
import { recordFixture } from './fixture-inputs.ts';

const require = createRequire(import.meta.url);

/** The repository's committed copy. */
export const DEFAULT_OUT_DIR = fileURLToPath(new URL('../fixtures/openmaptiles/', import.meta.url));

export const MIN_ZOOM = 0;
export const MAX_ZOOM = 6;
export const ARCHIVE_FILE = 'openmaptiles.pmtiles';
/** The source name hosted OpenMapTiles styles give their tiles. */
export const SOURCE = 'openmaptiles';
export const LAYER_NAMES = ['water', 'landcover', 'boundary', 'place'] as const;
/** The schema's other layers: listed in the metadata, with no features from this data. */
export const EMPTY_LAYER_NAMES = ['water_name', 'transportation', 'transportation_name', 'waterway', 'landuse', 'park', 'building', 'poi', 'aerodrome_label', 'mountain_peak', 'housenumber'] as const;

const EXTENT = 4096;
const BUFFER = 64;
const TOLERANCE = 4;

const ATTRIBUTION =
  '<a href="https://www.naturalearthdata.com/" target="_blank">Natural Earth</a> (public domain) · ' +
  '<a href="https://www.geonames.org/" target="_blank">GeoNames</a> (<a href="https://creativecommons.org/licenses/by/4.0/" target="_blank">CC BY 4.0</a>) · ' +
  'schema: <a href="https://openmaptiles.org/schema/" target="_blank">OpenMapTiles</a>';

/** The font names the style asks for, and the Noto Sans files that draw them. */
const FONTS = [
  { name: 'Noto Sans Regular', weight: 400, style: 'normal' },
  { name: 'Noto Sans Bold', weight: 700, style: 'normal' },
  { name: 'Noto Sans Italic', weight: 400, style: 'italic' },
] as const;
const FONT_SUBSETS = ['latin', 'latin-ext'] as const;

/**
 * The schema's `class` of a place by its rank in the embedded basemap (1 biggest .. 8): cities of
 * 250,000 people or more, towns of 10,000 or more, villages.
 */
const placeClass = (rank: number): 'city' | 'town' | 'village' => (rank <= 5 ? 'city' : rank <= 7 ? 'town' : 'village');

/** The style's colours. */
export const COLOURS = {
  land: '#f2efe9',
  water: '#a9cce3',
  ice: '#fbfcfd',
  boundary: '#9e9cab',
  road: '#ffffff',
  roadCasing: '#d9c8b4',
  country: '#334155',
  city: '#1f2933',
  town: '#3e4c59',
  halo: '#ffffff',
} as const;

export interface GenerateResult {
  tiles: number;
  archiveBytes: number;
  /** Features per layer summed over every tile written. */
  tileFeatures: Record<(typeof LAYER_NAMES)[number], number>;
}

const collection = (features: Feature[]): FeatureCollection => ({ type: 'FeatureCollection', features });

const tileOptions = (buffer: number): GeoJSONVTOptions => ({ maxZoom: MAX_ZOOM, indexMaxZoom: MAX_ZOOM, tolerance: TOLERANCE, extent: EXTENT, buffer });

/** The source features in the schema's layers. */
function schemaFeatures() {
  const sources = loadSources();
  const antarctica = sources.layers.countries.features.filter((country) => country.properties?.name === 'Antarctica');
  const landcover = collection(antarctica.map((country) => ({ ...country, properties: { class: 'ice', subclass: 'glacier' } })));
  const boundary = collection(sources.layers.boundaries.features.map((line) => ({ ...line, properties: { admin_level: 2, disputed: 0, maritime: 0 } })));
  const countries: Feature<Point, Properties>[] = sources.layers.country_labels.features.map((label) => {
    const { name, rank } = label.properties as { name: string; rank: number };
    return { type: 'Feature', geometry: label.geometry as Point, properties: { class: 'country', name, name_en: name, 'name:latin': name, rank } };
  });
  const places: Feature<Point, Properties>[] = sources.places
    .filter((place) => place.properties.minzoom <= MAX_ZOOM)
    .map((place) => {
      const { name, rank, minzoom, capital } = place.properties;
      return {
        type: 'Feature',
        geometry: place.geometry,
        properties: { class: placeClass(rank), name, name_en: name, 'name:latin': name, rank, minzoom, ...(capital ? { capital: 2 } : {}) },
      };
    });
  return { land: sources.layers.land, landcover, boundary, place: [...countries, ...places] };
}

/** A label layer of the `place` source layer: the name in Latin script, as hosted styles show it. */
const placeLabels = (id: string, filter: unknown[], size: unknown, color: string, font: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  type: 'symbol',
  source: SOURCE,
  'source-layer': 'place',
  filter,
  layout: {
    'text-field': ['coalesce', ['get', 'name:latin'], ['get', 'name']],
    'text-font': [font],
    'text-size': size,
    'text-max-width': 8,
    'symbol-sort-key': ['get', 'rank'],
    ...extra,
  },
  paint: { 'text-color': color, 'text-halo-color': COLOURS.halo, 'text-halo-width': 1.2 },
});

/** A road layer of `transportation` by class (no features at these zooms; a hosted style has them). */
const roadLayer = (id: string, classes: string[], width: number, color: string): Record<string, unknown> => ({
  id,
  type: 'line',
  source: SOURCE,
  'source-layer': 'transportation',
  filter: ['match', ['get', 'class'], classes, true, false],
  layout: { 'line-cap': 'round', 'line-join': 'round' },
  paint: { 'line-color': color, 'line-width': ['interpolate', ['exponential', 1.5], ['zoom'], 5, width / 4, 18, width * 8] },
});

/** The style: land as the background, then water and ice, roads, borders and labels. */
function buildStyle(): Record<string, unknown> {
  const ranges = JSON.parse(readFileSync(require.resolve('@fontsource/noto-sans/unicode.json'), 'utf8')) as Record<string, string>;
  const fontFaces = Object.fromEntries(
    FONTS.map(({ name, weight, style }) => [
      name,
      FONT_SUBSETS.map((subset) => ({ url: `fonts/${fontFile(subset, weight, style)}`, 'unicode-range': (ranges[subset] ?? '').split(',').map((part) => part.trim()) })),
    ]),
  );
  const rank = ['get', 'rank'];
  const shownPlace = (kind: string) => ['all', ['==', ['get', 'class'], kind], ['>=', ['zoom'], ['get', 'minzoom']]];
  return {
    version: 8,
    name: 'Pinmap OpenMapTiles-schema fixture',
    metadata: { 'pinmap:generator': 'scripts/generate-openmaptiles.ts', 'pinmap:notes': `A light style over an OpenMapTiles-schema archive of Natural Earth and GeoNames (zooms ${MIN_ZOOM}-${MAX_ZOOM}).` },
    sources: { [SOURCE]: { type: 'vector', url: `pmtiles://${ARCHIVE_FILE}`, attribution: ATTRIBUTION } },
    'font-faces': fontFaces,
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': COLOURS.land } },
      { id: 'landcover-ice', type: 'fill', source: SOURCE, 'source-layer': 'landcover', filter: ['==', ['get', 'class'], 'ice'], paint: { 'fill-color': COLOURS.ice } },
      { id: 'water', type: 'fill', source: SOURCE, 'source-layer': 'water', filter: ['!=', ['get', 'brunnel'], 'tunnel'], paint: { 'fill-color': COLOURS.water } },
      { id: 'waterway', type: 'line', source: SOURCE, 'source-layer': 'waterway', paint: { 'line-color': COLOURS.water, 'line-width': 1 } },
      roadLayer('road-minor-casing', ['minor', 'service', 'tertiary'], 1.4, COLOURS.roadCasing),
      roadLayer('road-major-casing', ['motorway', 'trunk', 'primary', 'secondary'], 2, COLOURS.roadCasing),
      roadLayer('road-minor', ['minor', 'service', 'tertiary'], 1, COLOURS.road),
      roadLayer('road-major', ['motorway', 'trunk', 'primary', 'secondary'], 1.6, COLOURS.road),
      {
        id: 'boundary-country',
        type: 'line',
        source: SOURCE,
        'source-layer': 'boundary',
        filter: ['all', ['==', ['get', 'admin_level'], 2], ['==', ['get', 'maritime'], 0], ['==', ['get', 'disputed'], 0]],
        layout: { 'line-join': 'round' },
        paint: { 'line-color': COLOURS.boundary, 'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.6, 6, 1.6] },
      },
      {
        id: 'water-name-ocean',
        type: 'symbol',
        source: SOURCE,
        'source-layer': 'water_name',
        filter: ['==', ['get', 'class'], 'ocean'],
        layout: { 'text-field': ['get', 'name:latin'], 'text-font': ['Noto Sans Italic'], 'text-size': 13 },
        paint: { 'text-color': '#5d7d94' },
      },
      placeLabels('place-village', shownPlace('village'), 11, COLOURS.town, 'Noto Sans Regular'),
      placeLabels('place-town', shownPlace('town'), ['interpolate', ['linear'], ['zoom'], 6, 11.5, 10, 13], COLOURS.town, 'Noto Sans Regular'),
      placeLabels('place-city', shownPlace('city'), ['interpolate', ['linear'], ['zoom'], 3, ['match', rank, 1, 13, 2, 12, 11], 6, ['match', rank, 1, 17, 2, 16, 3, 15, 14]], COLOURS.city, 'Noto Sans Regular'),
      placeLabels('place-country', ['all', ['==', ['get', 'class'], 'country'], ['<=', rank, ['max', 1, ['-', ['zoom'], 1]]]], ['interpolate', ['linear'], ['zoom'], 1, 11, 6, 16], COLOURS.country, 'Noto Sans Bold', { 'text-transform': 'uppercase', 'text-letter-spacing': 0.08 }),
    ],
  };
}

const fontFile = (subset: string, weight: number, style: string): string => `noto-sans-${subset}-${weight}-${style}.woff2`;

const README = `# Pinmap's OpenMapTiles-schema fixture basemap

Generated by \`scripts/generate-openmaptiles.ts\`: do not edit by hand. Regenerate with \`npm run fixtures\`;
\`scripts/generate-openmaptiles.test.ts\` fails if any file here differs from a fresh run.

A stand-in for a hosted street map in the [OpenMapTiles schema](https://openmaptiles.org/schema/): the same
Natural Earth and GeoNames data as \`../basemap\`, zooms ${MIN_ZOOM} to ${MAX_ZOOM}, in that schema's layers and fields.

- \`${ARCHIVE_FILE}\`: PMTiles v3, Mapbox Vector Tiles (gzip), layers:
  - \`water\`: the ocean, each tile less its land (\`class\`: \`ocean\`);
  - \`landcover\`: Antarctica's ice (\`class\`: \`ice\`, \`subclass\`: \`glacier\`);
  - \`boundary\`: country borders (\`admin_level\`: 2, \`disputed\`: 0, \`maritime\`: 0);
  - \`place\`: countries (\`class\`: \`country\`, \`rank\` 1..4) and cities, towns and villages (\`class\`: \`city\`,
    \`town\`, \`village\`: 250,000 people or more, 10,000 or more, fewer; \`rank\` 1..8, \`capital\`: 2 for capitals, \`minzoom\`), each with \`name\`, \`name_en\` and
    \`name:latin\`; a place only in the tiles of its \`minzoom\` and above.
  The metadata also lists the schema's layers with nothing in this data (${EMPTY_LAYER_NAMES.join(', ')}).
- \`style.json\`: a light style over \`pmtiles://${ARCHIVE_FILE}\` (source \`${SOURCE}\`): land as the background, water,
  ice, roads by \`transportation\` class, country borders, and labels by \`place\` class; fonts through
  \`font-faces\` (no glyph server), no sprite.
- \`fonts/\`: Noto Sans Regular (400), Bold (700) and Italic (400 italic), latin and latin-ext (SIL OFL 1.1).

Licences: Natural Earth, public domain; GeoNames, CC BY 4.0; Noto Sans, SIL Open Font License 1.1. The
OpenMapTiles schema is CC BY 4.0 (names of layers and fields only; no OpenMapTiles data is in here).
`;

const toJson = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

export async function generateOpenMapTiles(outDir: string = DEFAULT_OUT_DIR): Promise<GenerateResult> {
  const { land, landcover, boundary, place } = schemaFeatures();
  const landIndex = new GeoJSONVT(land, tileOptions(BUFFER));
  const landcoverIndex = new GeoJSONVT(landcover, tileOptions(BUFFER));
  const boundaryIndex = new GeoJSONVT(boundary, tileOptions(BUFFER));
  const placeIndexes: GeoJSONVT[] = [];
  for (let z = MIN_ZOOM; z <= MAX_ZOOM; z++) placeIndexes[z] = new GeoJSONVT(collection(place.filter((p) => (p.properties.class === 'country' ? 0 : Number(p.properties.minzoom)) <= z)), tileOptions(0));

  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(path.join(outDir, 'fonts'), { recursive: true });

  const tileFeatures = { water: 0, landcover: 0, boundary: 0, place: 0 };
  const pyramid: PmtilesTile[] = [];
  for (let z = MIN_ZOOM; z <= MAX_ZOOM; z++) {
    for (let x = 0; x < 2 ** z; x++) {
      for (let y = 0; y < 2 ** z; y++) {
        const layers: Partial<Record<(typeof LAYER_NAMES)[number], GeoJSONVTTile>> = {};
        const landOfTile = landIndex.getTile(z, x, y)?.features ?? [];
        layers.water = tileOf(z, x, y, [oceanOf(landOfTile, { class: 'ocean' }, EXTENT, BUFFER)]);
        for (const [name, index] of [['landcover', landcoverIndex], ['boundary', boundaryIndex], ['place', placeIndexes[z]!]] as const) {
          const features = index.getTile(z, x, y)?.features ?? [];
          if (features.length > 0) layers[name] = tileOf(z, x, y, features);
        }
        for (const name of LAYER_NAMES) tileFeatures[name] += layers[name]?.features.length ?? 0;
        pyramid.push({ z, x, y, data: fromGeojsonVt(layers as Record<string, GeoJSONVTTile>, { version: 2, extent: EXTENT }) });
      }
    }
  }
  const archive = writePmtiles(pyramid, {
    tileType: 'mvt',
    bounds: [-180, -MAX_LAT, 180, MAX_LAT],
    center: [0, 0, MIN_ZOOM],
    metadata: {
      name: 'Pinmap OpenMapTiles-schema fixture',
      description: 'Natural Earth 1:50m and GeoNames places in the OpenMapTiles schema, generated by scripts/generate-openmaptiles.ts',
      attribution: ATTRIBUTION,
      type: 'baselayer',
      version: '1',
      vector_layers: [
        { id: 'water', fields: { class: 'String', brunnel: 'String', intermittent: 'Number' }, minzoom: MIN_ZOOM, maxzoom: MAX_ZOOM },
        { id: 'landcover', fields: { class: 'String', subclass: 'String' }, minzoom: MIN_ZOOM, maxzoom: MAX_ZOOM },
        { id: 'boundary', fields: { admin_level: 'Number', disputed: 'Number', maritime: 'Number' }, minzoom: MIN_ZOOM, maxzoom: MAX_ZOOM },
        {
          id: 'place',
          fields: { class: 'String', name: 'String', name_en: 'String', 'name:latin': 'String', rank: 'Number', capital: 'Number', minzoom: 'Number' },
          minzoom: MIN_ZOOM,
          maxzoom: MAX_ZOOM,
        },
        ...EMPTY_LAYER_NAMES.map((id) => ({ id, fields: { class: 'String' }, minzoom: MIN_ZOOM, maxzoom: MAX_ZOOM })),
      ],
    },
  });
  writeFileSync(path.join(outDir, ARCHIVE_FILE), archive);

  const fontSourceDir = path.join(path.dirname(require.resolve('@fontsource/noto-sans/unicode.json')), 'files');
  for (const { weight, style } of FONTS) {
    for (const subset of FONT_SUBSETS) copyFileSync(path.join(fontSourceDir, fontFile(subset, weight, style)), path.join(outDir, 'fonts', fontFile(subset, weight, style)));
  }
  writeFileSync(path.join(outDir, 'style.json'), toJson(buildStyle()));
  writeFileSync(path.join(outDir, 'README.md'), README);
  return { tiles: pyramid.length, archiveBytes: archive.byteLength, tileFeatures };
}

async function main(): Promise<void> {
  const outDir = path.resolve(process.argv[2] ?? DEFAULT_OUT_DIR);
  const result = await generateOpenMapTiles(outDir);
  await recordFixture('scripts/generate-openmaptiles.ts', outDir, DEFAULT_OUT_DIR);
  console.log(`OpenMapTiles-schema basemap written to ${path.relative(process.cwd(), outDir) || '.'}`);
  console.log(`  ${result.tiles} tiles (zooms ${MIN_ZOOM}-${MAX_ZOOM}) in ${ARCHIVE_FILE}: ${(result.archiveBytes / 1024 / 1024).toFixed(2)} MB`);
  for (const name of LAYER_NAMES) console.log(`    ${name.padEnd(10)} ${String(result.tileFeatures[name]).padStart(7)} features over all tiles`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
