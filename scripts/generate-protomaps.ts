/**
 * Generates a small world basemap in the Protomaps basemap schema into `fixtures/protomaps/` (or
 * the directory given as the first command-line argument): what a site owner's own Protomaps
 * extract looks like, at zooms 0..5, made from the same Natural Earth and GeoNames data as the
 * embedded basemap (`scripts/generate-basemap.ts`). It proves and shows the "bring your own
 * basemap" path: styles built with `@protomaps/basemaps` over a PMTiles archive, fully offline.
 *
 * - `protomaps.pmtiles`: PMTiles v3 of Mapbox Vector Tiles with the layers `earth` (land),
 *   `water` (the ocean: each tile less its land), `boundaries` (country borders) and `places`
 *   (countries and cities), with the property names `@protomaps/basemaps`' layers read: `kind`,
 *   `kind_detail`, `name`, `name:en`, `min_zoom`, `population_rank`, `sort_key`, `capital`.
 * - `style-light.json`, `style-dark.json`: `layers('protomaps', namedFlavor('light' | 'dark'),
 *   { lang: 'en' })` over `pmtiles://protomaps.pmtiles`, with fonts through `font-faces` (no
 *   glyph server) and a sprite of its own (the two icons the layers ask for at these zooms).
 * - `fonts/`: Noto Sans Regular, Medium and Italic (latin and latin-ext), from `@fontsource/noto-sans`.
 * - `sprites/protomaps{,@2x}.{json,png}`: `townspot` and `capital`, drawn here.
 * - `README.md`.
 *
 * Deterministic like the basemap generator: `scripts/generate-protomaps.test.ts` regenerates it
 * and compares every file. Run with `npm run fixtures` (`tsx scripts/generate-protomaps.ts [outDir]`).
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Feature, FeatureCollection, Point } from 'geojson';
import { GeoJSONVT } from '@maplibre/geojson-vt';
import type { GeoJSONVTOptions, GeoJSONVTTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { layers, namedFlavor } from '@protomaps/basemaps';
import { PNG } from 'pngjs';
import { MAX_LAT, loadSources, type Properties } from './generate-basemap.ts';
import { oceanOf, tileOf } from './ocean-tile.ts';
import { writePmtiles, type PmtilesTile } from './pmtiles-writer.ts';
import { recordFixture } from './fixture-inputs.ts';

const require = createRequire(import.meta.url);

/** The repository's committed copy. */
export const DEFAULT_OUT_DIR = fileURLToPath(new URL('../fixtures/protomaps/', import.meta.url));

export const MIN_ZOOM = 0;
export const MAX_ZOOM = 5;
export const ARCHIVE_FILE = 'protomaps.pmtiles';
/** The source name the styles give the archive (what `layers(source, …)` is called with). */
export const SOURCE = 'protomaps';
export const FLAVORS = ['light', 'dark'] as const;
export const LAYER_NAMES = ['earth', 'water', 'boundaries', 'places'] as const;
/**
 * The schema's other layers, which a full extract has and the styles draw from (land cover, land
 * use, roads, buildings, points of interest): listed in the archive's metadata, as an extract
 * whose zooms hold none of their features lists them, so a style's layers for them are valid.
 */
export const EMPTY_LAYER_NAMES = ['landcover', 'landuse', 'roads', 'buildings', 'pois'] as const;

const EXTENT = 4096;
const BUFFER = 64;
const TOLERANCE = 4;

const ATTRIBUTION =
  '<a href="https://www.naturalearthdata.com/" target="_blank">Natural Earth</a> (public domain) · ' +
  '<a href="https://www.geonames.org/" target="_blank">GeoNames</a> (<a href="https://creativecommons.org/licenses/by/4.0/" target="_blank">CC BY 4.0</a>) · ' +
  'style: <a href="https://github.com/protomaps/basemaps" target="_blank">Protomaps</a>';

/** The font names the layers ask for, and the Noto Sans files that draw them. */
const FONTS = [
  { name: 'Noto Sans Regular', weight: 400, style: 'normal' },
  { name: 'Noto Sans Medium', weight: 500, style: 'normal' },
  { name: 'Noto Sans Italic', weight: 400, style: 'italic' },
] as const;
const FONT_SUBSETS = ['latin', 'latin-ext'] as const;

/** A country's label rank (1 = largest) as the schema's `min_zoom` and `population_rank`. */
const COUNTRY_MIN_ZOOM = [1, 2, 3, 4];
const COUNTRY_POPULATION_RANK = [14, 12, 10, 8];
/** A city's population as the schema's `population_rank` (bigger is more). */
const CITY_POPULATION_RANKS: [number, number][] = [
  [5_000_000, 13],
  [2_000_000, 12],
  [1_000_000, 11],
  [500_000, 10],
  [250_000, 9],
];

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
  const earth = collection(sources.layers.land.features.map((f) => ({ ...f, properties: { kind: 'earth' } })));
  const boundaries = collection(sources.layers.boundaries.features.map((f) => ({ ...f, properties: { kind: 'country', kind_detail: 2 } })));
  const countries: Feature<Point, Properties>[] = sources.layers.country_labels.features.map((label) => {
    const { name, rank } = label.properties as { name: string; rank: number };
    const minZoom = COUNTRY_MIN_ZOOM[rank - 1] ?? MAX_ZOOM;
    return {
      type: 'Feature',
      geometry: label.geometry as Point,
      properties: { kind: 'country', name, 'name:en': name, min_zoom: minZoom, sort_key: minZoom, population_rank: COUNTRY_POPULATION_RANK[rank - 1] ?? 6 },
    };
  });
  const cities: Feature<Point, Properties>[] = sources.places
    .filter((place) => Number(place.properties.minzoom) <= MAX_ZOOM)
    .map((place) => {
      const { name, population, capital, minzoom, rank } = place.properties as { name: string; population: number; capital: boolean; minzoom: number; rank: number };
      const populationRank = CITY_POPULATION_RANKS.find(([threshold]) => population >= threshold)?.[1] ?? 8;
      return {
        type: 'Feature',
        geometry: place.geometry,
        properties: { kind: 'locality', kind_detail: 'city', name, population, population_rank: populationRank, min_zoom: minzoom, sort_key: rank, ...(capital ? { capital: 'yes' } : {}) },
      };
    });
  return { earth, boundaries, places: [...countries, ...cities] };
}

/** The style of one flavour: the package's layers over the archive, fonts and sprite from the folder. */
function buildStyle(flavor: (typeof FLAVORS)[number]) {
  const ranges = JSON.parse(readFileSync(require.resolve('@fontsource/noto-sans/unicode.json'), 'utf8')) as Record<string, string>;
  const fontFaces = Object.fromEntries(
    FONTS.map(({ name, weight, style }) => [
      name,
      FONT_SUBSETS.map((subset) => ({ url: `fonts/${fontFile(subset, weight, style)}`, 'unicode-range': (ranges[subset] ?? '').split(',').map((part) => part.trim()) })),
    ]),
  );
  return {
    version: 8,
    name: `Pinmap Protomaps ${flavor}`,
    metadata: { 'pinmap:generator': 'scripts/generate-protomaps.ts', 'pinmap:notes': `@protomaps/basemaps layers, flavour "${flavor}", over a Protomaps-schema archive of Natural Earth and GeoNames (zooms ${MIN_ZOOM}-${MAX_ZOOM}).` },
    sources: { [SOURCE]: { type: 'vector', url: `pmtiles://${ARCHIVE_FILE}`, attribution: ATTRIBUTION } },
    sprite: 'sprites/protomaps',
    'font-faces': fontFaces,
    layers: layers(SOURCE, namedFlavor(flavor), { lang: 'en' }),
  };
}

const fontFile = (subset: string, weight: number, style: string): string => `noto-sans-${subset}-${weight}-${style}.woff2`;

/**
 * The two icons the layers show at these zooms (`townspot` for a city, `capital` for a capital),
 * drawn as discs with a light halo, at `scale` (1 or 2), four by four samples a pixel.
 */
function buildSprite(scale: number): { json: Record<string, unknown>; png: Buffer } {
  const icons = [
    { id: 'townspot', size: 8, rings: [{ r: 3.5, rgba: [255, 255, 255, 230] }, { r: 2.5, rgba: [110, 110, 110, 255] }] },
    { id: 'capital', size: 12, rings: [{ r: 5.5, rgba: [255, 255, 255, 230] }, { r: 4.5, rgba: [90, 90, 90, 255] }, { r: 3, rgba: [255, 255, 255, 255] }, { r: 1.8, rgba: [90, 90, 90, 255] }] },
  ] as const;
  const width = icons.reduce((sum, icon) => sum + icon.size * scale, 0);
  const height = Math.max(...icons.map((icon) => icon.size * scale));
  const png = new PNG({ width, height });
  png.data.fill(0);
  const json: Record<string, unknown> = {};
  let left = 0;
  for (const icon of icons) {
    const size = icon.size * scale;
    json[icon.id] = { x: left, y: 0, width: size, height: size, pixelRatio: scale };
    const centre = size / 2;
    for (let py = 0; py < size; py++) {
      for (let px = 0; px < size; px++) {
        let [r, g, b, a] = [0, 0, 0, 0];
        for (const ring of icon.rings) {
          let inside = 0;
          for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) if (Math.hypot(px + (sx + 0.5) / 4 - centre, py + (sy + 0.5) / 4 - centre) <= ring.r * scale) inside++;
          const cover = (inside / 16) * (ring.rgba[3] / 255);
          // "Over" compositing of this ring on what is below it (premultiplied, then back).
          const outA = cover + (a / 255) * (1 - cover);
          if (outA > 0) {
            r = (ring.rgba[0] * cover + r * (a / 255) * (1 - cover)) / outA;
            g = (ring.rgba[1] * cover + g * (a / 255) * (1 - cover)) / outA;
            b = (ring.rgba[2] * cover + b * (a / 255) * (1 - cover)) / outA;
          }
          a = outA * 255;
        }
        const i = (py * width + left + px) * 4;
        png.data[i] = Math.round(r);
        png.data[i + 1] = Math.round(g);
        png.data[i + 2] = Math.round(b);
        png.data[i + 3] = Math.round(a);
      }
    }
    left += size;
  }
  return { json, png: PNG.sync.write(png, { deflateLevel: 9 }) };
}

const README = `# Pinmap's Protomaps-schema fixture basemap

Generated by \`scripts/generate-protomaps.ts\`: do not edit by hand. Regenerate with \`npm run fixtures\`;
\`scripts/generate-protomaps.test.ts\` fails if any file here differs from a fresh run.

A stand-in for a site owner's own Protomaps extract: the same Natural Earth and GeoNames data as
\`../basemap\`, in the Protomaps basemap schema, zooms ${MIN_ZOOM} to ${MAX_ZOOM}, styled by \`@protomaps/basemaps\`.

- \`${ARCHIVE_FILE}\`: PMTiles v3, Mapbox Vector Tiles (gzip), layers:
  - \`earth\`: land polygons (\`kind\`: \`earth\`);
  - \`water\`: the ocean, each tile less its land (\`kind\`: \`ocean\`);
  - \`boundaries\`: country borders (\`kind\`: \`country\`, \`kind_detail\`: 2);
  - \`places\`: countries (\`kind\`: \`country\`, \`name\`, \`name:en\`, \`min_zoom\`, \`sort_key\`, \`population_rank\`)
    and cities (\`kind\`: \`locality\`, \`kind_detail\`: \`city\`, \`name\`, \`population\`, \`population_rank\`,
    \`min_zoom\`, \`sort_key\`, \`capital\`: \`yes\` for capitals), each only in the tiles of its \`min_zoom\` and above.
  The metadata also lists the schema's layers with nothing at these zooms (${EMPTY_LAYER_NAMES.join(', ')}).
- \`style-light.json\`, \`style-dark.json\`: \`layers('${SOURCE}', namedFlavor('light' | 'dark'), { lang: 'en' })\` over
  \`pmtiles://${ARCHIVE_FILE}\`; fonts through \`font-faces\` (no glyph server), the sprite below.
- \`fonts/\`: Noto Sans Regular (400), Medium (500) and Italic (400 italic), latin and latin-ext (SIL OFL 1.1).
- \`sprites/protomaps{,@2x}.{json,png}\`: the \`townspot\` and \`capital\` icons, drawn by the generator.

Licences: Natural Earth, public domain; GeoNames, CC BY 4.0; Noto Sans, SIL Open Font License 1.1;
the layers' style, \`@protomaps/basemaps\` (BSD-3-Clause).
`;

const toJson = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

export async function generateProtomaps(outDir: string = DEFAULT_OUT_DIR): Promise<GenerateResult> {
  const { earth, boundaries, places } = schemaFeatures();
  const earthIndex = new GeoJSONVT(earth, tileOptions(BUFFER));
  const boundaryIndex = new GeoJSONVT(boundaries, tileOptions(BUFFER));
  const placeIndexes: GeoJSONVT[] = [];
  for (let z = MIN_ZOOM; z <= MAX_ZOOM; z++) placeIndexes[z] = new GeoJSONVT(collection(places.filter((p) => Number(p.properties.min_zoom) <= z)), tileOptions(0));

  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(path.join(outDir, 'fonts'), { recursive: true });
  mkdirSync(path.join(outDir, 'sprites'), { recursive: true });

  const tileFeatures = { earth: 0, water: 0, boundaries: 0, places: 0 };
  const pyramid: PmtilesTile[] = [];
  for (let z = MIN_ZOOM; z <= MAX_ZOOM; z++) {
    for (let x = 0; x < 2 ** z; x++) {
      for (let y = 0; y < 2 ** z; y++) {
        const land = earthIndex.getTile(z, x, y)?.features ?? [];
        const layersOfTile: Record<string, GeoJSONVTTile> = {};
        if (land.length > 0) layersOfTile.earth = tileOf(z, x, y, land);
        layersOfTile.water = tileOf(z, x, y, [oceanOf(land, { kind: 'ocean' }, EXTENT, BUFFER)]);
        const borders = boundaryIndex.getTile(z, x, y)?.features ?? [];
        if (borders.length > 0) layersOfTile.boundaries = tileOf(z, x, y, borders);
        const placed = placeIndexes[z]?.getTile(z, x, y)?.features ?? [];
        if (placed.length > 0) layersOfTile.places = tileOf(z, x, y, placed);
        tileFeatures.earth += land.length;
        tileFeatures.water += 1;
        tileFeatures.boundaries += borders.length;
        tileFeatures.places += placed.length;
        pyramid.push({ z, x, y, data: fromGeojsonVt(layersOfTile, { version: 2, extent: EXTENT }) });
      }
    }
  }
  const archive = writePmtiles(pyramid, {
    tileType: 'mvt',
    bounds: [-180, -MAX_LAT, 180, MAX_LAT],
    center: [0, 0, MIN_ZOOM],
    metadata: {
      name: 'Pinmap Protomaps-schema fixture',
      description: 'Natural Earth 1:50m and GeoNames places in the Protomaps basemap schema, generated by scripts/generate-protomaps.ts',
      attribution: ATTRIBUTION,
      type: 'baselayer',
      version: '1',
      vector_layers: [
        { id: 'earth', fields: { kind: 'String' }, minzoom: MIN_ZOOM, maxzoom: MAX_ZOOM },
        { id: 'water', fields: { kind: 'String' }, minzoom: MIN_ZOOM, maxzoom: MAX_ZOOM },
        { id: 'boundaries', fields: { kind: 'String', kind_detail: 'Number' }, minzoom: MIN_ZOOM, maxzoom: MAX_ZOOM },
        {
          id: 'places',
          fields: { kind: 'String', kind_detail: 'String', name: 'String', 'name:en': 'String', population: 'Number', population_rank: 'Number', min_zoom: 'Number', sort_key: 'Number', capital: 'String' },
          minzoom: MIN_ZOOM,
          maxzoom: MAX_ZOOM,
        },
        ...EMPTY_LAYER_NAMES.map((id) => ({ id, fields: { kind: 'String' }, minzoom: MIN_ZOOM, maxzoom: MAX_ZOOM })),
      ],
    },
  });
  writeFileSync(path.join(outDir, ARCHIVE_FILE), archive);

  const fontSourceDir = path.join(path.dirname(require.resolve('@fontsource/noto-sans/unicode.json')), 'files');
  for (const { weight, style } of FONTS) {
    for (const subset of FONT_SUBSETS) copyFileSync(path.join(fontSourceDir, fontFile(subset, weight, style)), path.join(outDir, 'fonts', fontFile(subset, weight, style)));
  }
  for (const scale of [1, 2]) {
    const sprite = buildSprite(scale);
    const name = `protomaps${scale === 1 ? '' : `@${scale}x`}`;
    writeFileSync(path.join(outDir, 'sprites', `${name}.json`), toJson(sprite.json));
    writeFileSync(path.join(outDir, 'sprites', `${name}.png`), sprite.png);
  }
  for (const flavor of FLAVORS) writeFileSync(path.join(outDir, `style-${flavor}.json`), toJson(buildStyle(flavor)));
  writeFileSync(path.join(outDir, 'README.md'), README);
  return { tiles: pyramid.length, archiveBytes: archive.byteLength, tileFeatures };
}

async function main(): Promise<void> {
  const outDir = path.resolve(process.argv[2] ?? DEFAULT_OUT_DIR);
  const result = await generateProtomaps(outDir);
  await recordFixture('scripts/generate-protomaps.ts', outDir, DEFAULT_OUT_DIR);
  console.log(`Protomaps-schema basemap written to ${path.relative(process.cwd(), outDir) || '.'}`);
  console.log(`  ${result.tiles} tiles (zooms ${MIN_ZOOM}-${MAX_ZOOM}) in ${ARCHIVE_FILE}: ${(result.archiveBytes / 1024 / 1024).toFixed(2)} MB`);
  for (const name of LAYER_NAMES) console.log(`    ${name.padEnd(11)} ${String(result.tileFeatures[name]).padStart(7)} features over all tiles`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
