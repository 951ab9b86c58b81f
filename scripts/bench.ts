/**
 * `npm run bench`: Pinmap next to bare MapLibre and the usual pin plugins, in headless Chromium
 * (software WebGL). One table of figures (printed, and written to bench/results/latest.md and
 * latest.json); scripts/bench/README.md says how each figure is measured.
 *
 *   npm run bench                                   # everything, 5 runs (about 8 minutes)
 *   npm run bench -- --runs 1 --counts 1000 --cycles 3   # a quick look
 *   npm run bench -- --update-readme                # also put the targets into README.md's Speed table
 *   npm run bench -- --trace pinmap:100000          # also write a Chrome trace of one load
 *   npm run bench -- --cpu pinmap:0,pinmap:100000 --no-pins --cycles 0   # the CPU time loads cost, by thread
 *   npm run bench:basemap                           # only the basemap row: one archive against loose files
 *   npm run bench -- --weight                       # only the initial JavaScript and its breakdown (weight.md)
 *   PINMAP_BENCH_APP_DIR=dist npm run bench         # measure an existing app build
 *   npm run bench -- --pretiled                     # only the pre-tiled pin rows (1M pins tiled, then loaded)
 *   npm run bench -- --pretiled --archive pins.pmtiles   # the same rows with an archive made before (no tiling)
 *   npm run bench -- --city-zoom                    # only 100k clumped pins at zoom 16 against the no-pin map (city-zoom.md)
 *   npm run bench -- --fleet                        # only 10k pins, 1k moving at 1 Hz, against MapLibre's clustered updateData (fleet.md)
 *   npm run bench -- --react                        # only React content: renderPopup and renderPin against none, react-map-gl markers (react.md)
 *   npm run build && npm run bench -- --consumer    # only an app that imports maplibre-gl beside pinmap against one MapLibre: initial JS (consumer.md)
 *
 * Exits 0 whatever the figures (it is not a test); 1 only when it could not measure at all.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { CHROMIUM_ARGS, findChromium } from '../tests/chromium.ts';
import { measure, mountCycles, mountPage, withTimeout, type Outcome, type Sample } from './bench/measure.ts';
import { breakdownOf, type FileBreakdown } from './bench/breakdown.ts';
import { judgeTargets, renderMarkdown, renderWeight, RENDERER_LABELS, type BenchData, type CycleFigures, type Renderer, type Row, type SizeEntry } from './bench/report.ts';
import { startStaticServer, type StaticServer } from './bench/server.ts';
import { updateSpeedTable } from './bench/readme.ts';
import { summariseTrace, traceCategories } from './bench/trace.ts';
import { chromiumThreadCpu, cpuBetween, machineCpuMs, renderCpu, type CpuLoads } from './bench/cpu.ts';
import { basemapArchiveTarget, measureBasemapArchive, renderBasemapArchive } from './bench/basemap-archive.ts';
import { CSV_HEADER, csvLine, generatePins } from './synthetic-pins.ts';
import { PIN_CATEGORY_STYLES } from './pin-categories.ts';
import { createIndexCore } from '../src/pins/grouping/index-core.ts';
import { abbreviate, clusterDiameter } from '../src/pins/bubble.ts';
import { PRETILED_COUNT, existingArchive, measurePretiled, pretiledTargets, renderCsvTiling, renderPretiled, renderTiling, serveArchive, tileForBench } from './bench/pretiled.ts';
import { measureSearch } from './bench/search.ts';
import { CITY_ZOOM, busiestPlace, cityPins, measureCityZoom, renderCityZoom } from './bench/city-zoom.ts';
import { fleetData, fleetPage, fleetTargets, measureFleet, renderFleet } from './bench/fleet.ts';
import { measureConsumer, renderConsumer } from './bench/consumer.ts';
import { MAP_GL_MARKERS, PAN_PINS, POPUP_PINS, REACT_PINS, measureReact, renderReact } from './bench/react-pins.ts';

const ROOT = resolve(import.meta.dirname, '..');
const RESULTS = join(ROOT, 'bench/results');
const CAMERA = { center: [10, 30] as [number, number], zoom: 2 };
const FADE_DURATION = 300;
const SEED = 1;
/** Pins of the mount/destroy cycles: a GPU layer (above `domPinLimit`) and its images. */
const CYCLE_PINS = 1000;
/** DOM baselines above this many pins get one capped attempt, in the first run only. */
const DOM_FULL_MAX = 10_000;

function usage(): string {
  return [
    'Usage: npm run bench -- [--runs 5] [--counts 1000,10000,100000] [--cycles 20] [--timeout 20] [--dom-cap 10]',
    '                        [--update-readme] [--trace renderer:count] [--cpu renderer:count,…] [--out-dir bench/results]',
    '  --runs           runs of every row; figures are medians (default 5)',
    '  --counts         pin counts (no-pin rows are always measured)',
    '  --cycles         mount/destroy cycles per run of the memory figure (default 20)',
    '  --timeout        seconds a page may take to reach idle (default 20)',
    '  --dom-cap        seconds for the one attempt of a DOM baseline above 10k pins (default 10; 0 skips it)',
    '  --update-readme  also put the targets, judged, into README.md\'s Speed table (between the speed markers); the full report stays in latest.md',
    '  --no-pins        skip the page loads (cold load, pins, size): only the mount/destroy cycles (and --trace, --cpu); writes cycles.md',
    '  --weight         only the weight: one load of the vector, hybrid, bare MapLibre and React + react-map-gl pages, the JavaScript and CSS each loads',
    '                   before its first idle, and the breakdown of the vector view\'s; writes weight.md and weight.json',
    `  --rows           only these pin rows (comma-separated: ${Object.keys(RENDERER_LABELS).join(', ')}), beside the no-pin rows; no basemap or pre-tiled rows; writes rows.md and rows.json`,
    '  --pretiled       only the pre-tiled pin rows: 1M pins tiled by pinmap-tile-pins (time, memory, size), then the map with them (also part of a full run)',
    '  --archive <file> with --pretiled: measure the map with this pin archive (made by pinmap-tile-pins) instead of tiling 1M pins first; no tiling figures',
    '  --tiling <n>     only the tiling: n synthetic pins written as GeoJSON and tiled by pinmap tile (wall and CPU time, peak memory, size); no build, no browser',
    '  --csv            with --tiling: the same pins written as CSV and tiled, against the CSV targets',
    '  --clumped        with --tiling: the pins placed in towns, streets and blocks of flats (clumpedSyntheticPins), not spread over the world',
    '  --fleet          only a fleet: 10k pins, 1k of them moving at 1 Hz (updatePins), against MapLibre\'s clustered GeoJSON source fed the same changes (updateData): pan, main-thread time per update, change to frame, bubbles re-created; writes fleet.md and fleet.json',
    '  --react          only React content: a renderPopup popup against the default (click to painted), 10k pins with 100 renderPin pins against none and react-map-gl with 1,000 <Marker>s (pan p95); writes react.md',
    '  --consumer       only MapLibre shared with the app: the packed library (needs npm run build first) installed offline into a temporary copy of tests/consumer,',
    '                   built with Vite as it is (it imports maplibre-gl itself) and without its own maplibre-gl import; initial JS (gzip) of one over the other, copies of MapLibre; no browser; writes consumer.md',
    '  --city-zoom      only 100k clumped pins (inline GeoJSON, and pre-tiled) in the vector view at zoom 16 over the busiest town, against the same view without pins: time to idle; writes city-zoom.md',
    `  --trace          also record a Chrome trace of one load of a row (${Object.keys(RENDERER_LABELS).join(', ')}) and print where the time went`,
    '  --cpu            also load these rows --runs times each, in turn, and report the CPU time the browser\'s threads spent until idle',
    '                   (Linux /proc: every Chromium process on the machine) and how busy the machine\'s cores were; writes cpu.md',
    'Env: PINMAP_BENCH_APP_DIR=<dir> measures an existing app build; PINMAP_CHROMIUM=<path> picks the browser.',
  ].join('\n');
}

function parseCli() {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '5' },
      counts: { type: 'string', default: '1000,10000,100000' },
      cycles: { type: 'string', default: '20' },
      timeout: { type: 'string', default: '20' },
      'dom-cap': { type: 'string', default: '10' },
      'update-readme': { type: 'boolean', default: false },
      'no-pins': { type: 'boolean', default: false },
      weight: { type: 'boolean', default: false },
      pretiled: { type: 'boolean', default: false },
      rows: { type: 'string' },
      tiling: { type: 'string' },
      csv: { type: 'boolean', default: false },
      clumped: { type: 'boolean', default: false },
      'city-zoom': { type: 'boolean', default: false },
      fleet: { type: 'boolean', default: false },
      react: { type: 'boolean', default: false },
      consumer: { type: 'boolean', default: false },
      archive: { type: 'string' },
      trace: { type: 'string' },
      cpu: { type: 'string' },
      'out-dir': { type: 'string', default: RESULTS },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(usage());
    process.exit(0);
  }
  const whole = (name: string, text: string, min: number) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number of ${min} or more (got "${text}")\n${usage()}`);
    return n;
  };
  const counts = values.counts.split(',').map((s) => whole('counts', s.trim(), 1));
  const rowOf = (flag: string, spec: string): { renderer: Renderer; count: number } => {
    const [renderer, count = '0'] = spec.trim().split(':');
    if (!(renderer! in RENDERER_LABELS)) throw new Error(`--${flag}: unknown renderer "${renderer}"\n${usage()}`);
    const n = whole(flag, count, 0);
    if (n > 0 && !counts.includes(n)) throw new Error(`--${flag}: ${n} pins are not generated; add ${n} to --counts\n${usage()}`);
    return { renderer: renderer as Renderer, count: n };
  };
  const cpuRows = values.cpu?.split(',').map((spec) => rowOf('cpu', spec));
  const weight = values.weight;
  const only = values.rows?.split(',').map((name) => name.trim());
  for (const name of only ?? []) if (!(name in RENDERER_LABELS)) throw new Error(`--rows: unknown row "${name}"\n${usage()}`);
  return {
    only: only as Renderer[] | undefined,
    runs: weight ? 1 : whole('runs', values.runs, 1),
    // The weight also loads the vector view with pins once: what a map with pins loads besides.
    counts: weight ? [WEIGHT_PINS] : [...new Set(counts)].sort((a, b) => a - b),
    cycles: weight ? 0 : whole('cycles', values.cycles, 0),
    weight,
    loadCapMs: whole('timeout', values.timeout, 1) * 1000,
    domCapMs: whole('dom-cap', values['dom-cap'], 0) * 1000,
    updateReadme: values['update-readme'] && !weight && !values.rows && !values['no-pins'],
    pageLoads: !values['no-pins'],
    pretiledOnly: values.pretiled,
    archive: values.archive === undefined ? undefined : resolve(values.archive),
    tilingOnly: values.tiling === undefined ? undefined : whole('tiling', values.tiling, 1),
    csv: values.csv,
    clumped: values.clumped,
    cityZoom: values['city-zoom'],
    fleet: values.fleet,
    react: values.react,
    consumer: values.consumer,
    trace: values.trace === undefined ? undefined : rowOf('trace', values.trace),
    cpuRows,
    outDir: resolve(values['out-dir']),
  };
}

const log = (message: string) => process.stderr.write(`${message}\n`);
/** The browser in use, for the signal handlers. */
let activeBrowser: Browser | undefined;

interface Built {
  appDir: string;
  libDir: string;
  pagesDir: string;
  appSource: string;
}

/** Builds the app (unless given one), the embed library and the baseline pages into `tmp`. */
async function buildAll(tmp: string, reactPage = false): Promise<Built> {
  const given = process.env.PINMAP_BENCH_APP_DIR;
  const configFile = join(ROOT, 'vite.config.ts');
  let appDir: string;
  let libDir: string;
  let appSource: string;
  if (given) {
    appDir = resolve(given);
    libDir = join(appDir, 'lib');
    if (!existsSync(join(appDir, 'index.html')) || !existsSync(join(libDir, 'pinmap-embed.js'))) throw new Error(`PINMAP_BENCH_APP_DIR=${given}: no index.html and lib/pinmap-embed.js there (npm run build makes both)`);
    appSource = `existing build in ${given}`;
  } else {
    appDir = join(tmp, 'app');
    libDir = join(tmp, 'lib');
    appSource = `production build of the working tree (${gitDescription()})`;
  }
  const pagesDir = join(tmp, 'pages');
  log(`Building ${given ? '' : 'the app, the embed library and '}the baseline pages …`);
  // Each baseline page on its own, so the bare MapLibre page carries nothing of the Leaflet one,
  // nor of React (the react-map-gl page, whose JSX the React plugin compiles, as in a React app).
  // The builds wait on files as much as on the processor: side by side they take less time.
  // The `<Pinmap/>` page only for `--react`: it builds the library's sources once more.
  const builds = ['maplibre', 'leaflet', 'react-map-gl', ...(reactPage ? ['react-pinmap'] : [])].map((page) =>
    build({
      root: join(ROOT, 'scripts/bench'),
      configFile: false,
      base: './',
      publicDir: false,
      logLevel: 'warn',
      plugins: page.startsWith('react-') ? [react()] : [],
      build: {
        outDir: pagesDir,
        emptyOutDir: false,
        chunkSizeWarningLimit: 5000,
        rollupOptions: { input: join(ROOT, `scripts/bench/${page}.html`), output: { entryFileNames: `assets/${page}-[hash].js`, chunkFileNames: `assets/${page}-[name]-[hash].js`, assetFileNames: `assets/${page}-[name]-[hash][extname]` } },
      },
    }),
  );
  if (!given) {
    builds.push(build({ root: ROOT, configFile, mode: 'production', logLevel: 'warn', build: { outDir: appDir, emptyOutDir: true } }));
    builds.push(build({ root: ROOT, configFile, mode: 'embed', logLevel: 'warn', build: { outDir: libDir, emptyOutDir: true } }));
  }
  await Promise.all(builds);
  return { appDir, libDir, pagesDir, appSource };
}

function gitDescription(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'index.html', 'vite.config.ts'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
    return `${sha}${dirty ? ' + uncommitted changes in src/' : ''}`;
  } catch {
    return 'not a git checkout';
  }
}

const pinsPath = (count: number) => `/__bench/data/pins-${count}.json`;
const csvPinsPath = (count: number) => `/__bench/data/pins-${count}.csv`;
const groupsPath = (count: number) => `/__bench/data/groups-${count}.json`;

/** The same pins as a CSV file (its categories' styles go in the row's config, as a CSV file has none). */
const pinsAsCsv = (pins: ReturnType<typeof generatePins>) => `${CSV_HEADER}\n${pins.features.map(csvLine).join('\n')}\n`;

/**
 * The bubbles and lone pins the app shows at whole zoom `zoom` over the world (the view at the
 * bench's camera is the world), grouped by the app's own index, as the `first-view` page draws them.
 */
function viewGroups(pins: ReturnType<typeof generatePins>, zoom: number): GeoJSON.FeatureCollection<GeoJSON.Point> {
  const lngLats = new Float64Array(pins.features.length * 2);
  pins.features.forEach((feature, i) => lngLats.set(feature.geometry.coordinates.slice(0, 2), 2 * i));
  const answer = createIndexCore();
  answer({ id: 1, type: 'load', lngLats, zoom });
  const { reply } = answer({ id: 2, type: 'groups', bbox: [-180, -90, 180, 90], zoom });
  if (!('type' in reply) || reply.type !== 'groups') throw new Error('the pin index did not answer with groups');
  const features: GeoJSON.Feature<GeoJSON.Point>[] = [];
  for (let k = 0; k < reply.clusters.length; k += 4) {
    const count = reply.clusters[k + 2]!;
    features.push({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [reply.clusters[k]!, reply.clusters[k + 1]!] },
      properties: { point_count: count, point_count_abbreviated: abbreviate(count), diameter: clusterDiameter(count) },
    });
  }
  for (const i of reply.pins) features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [lngLats[2 * i]!, lngLats[2 * i + 1]!] }, properties: {} });
  return { type: 'FeatureCollection', features };
}

/** Puts the pins, configs and the embed page on the server; returns each row's page URL. */
function publishInputs(server: StaticServer, counts: number[]): (renderer: Renderer, count: number) => string {
  // The floor pages are measured with the most pins only (`planRows`).
  const most = Math.max(...counts);
  for (const count of new Set([...counts, CYCLE_PINS])) {
    log(`Generating ${count.toLocaleString('en-US')} pins …`);
    const pins = generatePins(count, SEED);
    server.put(pinsPath(count), JSON.stringify(pins));
    if (count === most) server.put(groupsPath(count), JSON.stringify(viewGroups(pins, CAMERA.zoom)));
    if (count === most) server.put(csvPinsPath(count), pinsAsCsv(pins));
  }
  const config = (count: number, view: 'vector' | 'hybrid') => ({ ...CAMERA, fadeDuration: FADE_DURATION, view, ...(count > 0 ? { pins: pinsPath(count) } : {}) });
  for (const count of [0, ...counts]) server.put(`/__bench/data/config-${count}.json`, JSON.stringify(config(count, 'vector')));
  server.put(`/__bench/data/config-csv-${most}.json`, JSON.stringify({ ...config(most, 'vector'), pins: csvPinsPath(most), pinStyles: PIN_CATEGORY_STYLES }));
  server.put('/__bench/data/config-hybrid-0.json', JSON.stringify(config(0, 'hybrid')));
  // At the root, as an embedding page would be: the map's default style is the page's basemap/style.json.
  server.put('/bench-mount.html', mountPage('/lib'));
  return (renderer, count) => {
    if (renderer === 'pinmap') return `${server.origin}/?config=${encodeURIComponent(`/__bench/data/config-${count}.json`)}`;
    if (renderer === 'pinmap-csv') return `${server.origin}/?config=${encodeURIComponent(`/__bench/data/config-csv-${count}.json`)}`;
    if (renderer === 'hybrid') return `${server.origin}/?config=${encodeURIComponent('/__bench/data/config-hybrid-0.json')}`;
    const mode = renderer === 'maplibre' ? 'bare' : renderer;
    const params = new URLSearchParams({
      style: '/basemap/style.json',
      center: JSON.stringify(CAMERA.center),
      zoom: String(CAMERA.zoom),
      fadeDuration: String(FADE_DURATION),
      mode,
      ...(count > 0 ? { pins: pinsPath(count) } : {}),
      ...(renderer === 'first-view' ? { groups: groupsPath(count) } : {}),
    });
    return `${server.origin}/__bench/pages/${PAGE_FILES[renderer] ?? 'maplibre'}.html?${params}`;
  };
}

/**
 * The pages of `--react` (`bench/react-pins.ts`): `<Pinmap/>` with `POPUP_PINS` pins (DOM markers)
 * and either popup; with `PAN_PINS` pins at zoom 4 over the bench's centre, with or without the
 * `REACT_PINS` pins that stand alone nearest the centre as price tags; and react-map-gl with the
 * `MAP_GL_MARKERS` pins nearest the centre as `<Marker>` price tags.
 */
function reactPages(server: StaticServer): import('./bench/react-pins.ts').ReactPages {
  const camera = { center: CAMERA.center, zoom: 4 };
  const popupPins = generatePins(POPUP_PINS, SEED);
  // Near the centre, so they show as lone pins at the camera's zoom.
  popupPins.features.forEach((feature, i) => (feature.geometry.coordinates = [camera.center[0] - 20 + (i % 10) * 4, camera.center[1] - 8 + Math.floor(i / 10) * 4]));
  server.put('/__bench/data/react-popup-pins.json', JSON.stringify(popupPins));
  const pins = generatePins(PAN_PINS, SEED);
  server.put(pinsPath(PAN_PINS), JSON.stringify(pins));
  const distance = ([lng, lat]: number[]) => Math.hypot(lng! - camera.center[0], lat! - camera.center[1]);
  const lngLats = new Float64Array(pins.features.length * 2);
  pins.features.forEach((feature, i) => lngLats.set(feature.geometry.coordinates.slice(0, 2), 2 * i));
  const answer = createIndexCore();
  answer({ id: 1, type: 'load', lngLats, zoom: camera.zoom });
  const { reply } = answer({ id: 2, type: 'groups', bbox: [-180, -90, 180, 90], zoom: camera.zoom });
  if (!('type' in reply) || reply.type !== 'groups') throw new Error('the pin index did not answer with groups');
  const lone = [...reply.pins].map((i) => pins.features[i]!).sort((a, b) => distance(a.geometry.coordinates) - distance(b.geometry.coordinates));
  server.put('/__bench/data/react-tags.json', JSON.stringify(lone.slice(0, REACT_PINS).map((feature) => String(feature.id))));
  const nearest = [...pins.features].sort((a, b) => distance(a.geometry.coordinates) - distance(b.geometry.coordinates)).slice(0, MAP_GL_MARKERS);
  server.put('/__bench/data/react-markers.json', JSON.stringify(nearest.map((feature) => [...feature.geometry.coordinates.slice(0, 2), feature.properties.title.slice(4)])));
  const base = { style: '/basemap/style.json', center: JSON.stringify(camera.center), zoom: String(camera.zoom), fadeDuration: String(FADE_DURATION) };
  const page = (file: string, extra: Record<string, string>) => `${server.origin}/__bench/pages/${file}.html?${new URLSearchParams({ ...base, ...extra })}`;
  return {
    popup: (react) => page('react-pinmap', { pins: '/__bench/data/react-popup-pins.json', ...(react ? { popup: 'react' } : {}) }),
    pan: (reactPins) => page('react-pinmap', { pins: pinsPath(PAN_PINS), ...(reactPins ? { tags: '/__bench/data/react-tags.json' } : {}) }),
    mapGl: () => page('react-map-gl', { markers: '/__bench/data/react-markers.json' }),
  };
}

/** The baseline pages that are not `maplibre.html`. */
const PAGE_FILES: Partial<Record<Renderer, string>> = { 'fa-markers': 'leaflet', 'react-map-gl': 'react-map-gl' };

/** The element that takes the keyboard zoom on each page. */
const focusOf = (renderer: Renderer) => (renderer === 'hybrid' || renderer === 'fa-markers' ? '.leaflet-container' : 'canvas.maplibregl-canvas');

async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
}

async function webglRenderer(browser: Browser): Promise<string> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      if (!gl) return 'no WebGL2';
      const info = gl.getExtension('WEBGL_debug_renderer_info');
      return String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
    });
  } finally {
    await page.close();
  }
}

const fmtMs = (ms: number) => (Number.isFinite(ms) ? (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1)) : '–');
const fmtCount = (n: number) => (n === 0 ? 'no' : n.toLocaleString('en-US'));

/** The rows in the order each run measures them. */
/** The pins of the weight's page with pins (`--weight`): GPU pins, the usual renderer of a pin set. */
const WEIGHT_PINS = 1000;

/** The floor pages and the CSV row: time to idle only, with the most pins only. */
const isFloor = (renderer: Renderer) => renderer === 'first-pin' || renderer === 'first-view' || renderer === 'pinmap-csv';

function planRows(counts: number[], weight: boolean, only?: readonly Renderer[]): Row[] {
  const rows: Row[] = [];
  const add = (renderer: Renderer, count: number) => rows.push({ renderer, count, samples: [], failures: [], timeouts: 0 });
  for (const renderer of ['pinmap', 'hybrid', 'maplibre', 'react-map-gl'] as const) add(renderer, 0);
  if (weight) {
    for (const count of counts) add('pinmap', count);
    return rows;
  }
  // The floor page (time to idle only) where the targets need it: with the most pins.
  const most = Math.max(...counts);
  for (const count of counts) {
    for (const renderer of ['pinmap', 'pinmap-csv', 'first-pin', 'first-view', 'cluster', 'markers', 'fa-markers'] as const) {
      if ((!isFloor(renderer) || count === most) && (!only || only.includes(renderer))) add(renderer, count);
    }
  }
  return rows;
}

function packageVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<number> {
  const options = parseCli();
  if (options.tilingOnly !== undefined) {
    const tmp = mkdtempSync(join(tmpdir(), 'pinmap-bench-tiling-'));
    try {
      const { figures } = await tileForBench(tmp, log, options.tilingOnly, options.csv ? 'csv' : 'geojson', options.clumped);
      console.log(options.csv ? renderCsvTiling(figures) : renderTiling(figures));
      return 0;
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  if (options.consumer) {
    const figures = await measureConsumer(ROOT, log);
    const section = renderConsumer(figures, `Library packed from ${gitDescription()} (its dist/ as npm run build left it), the app built with Vite ${packageVersion('vite')} and maplibre-gl ${packageVersion('maplibre-gl')}, on ${new Date().toISOString().slice(0, 10)}.`);
    console.log(`\n${section}\n`);
    mkdirSync(options.outDir, { recursive: true });
    writeFileSync(join(options.outDir, 'consumer.md'), `${section}\n`);
    log(`Written: ${join(options.outDir, 'consumer.md')}`);
    return 0;
  }
  const { runs, counts, cycles, loadCapMs, domCapMs } = options;
  const startedAt = Date.now();
  const loadBefore = loadavg();
  const tmp = mkdtempSync(join(tmpdir(), 'pinmap-bench-'));
  let browser: Browser | undefined;
  let server: StaticServer | undefined;
  try {
    const built = await buildAll(tmp, options.react);
    // The library at /lib/ beside /basemap/, as `npm run build` lays out dist/: it finds its basemap at ../basemap.
    server = await startStaticServer({ '/': built.appDir, '/__bench/pages/': built.pagesDir, '/lib/': built.libDir });
    browser = activeBrowser = await launch();
    // The pre-tiled pin rows: the pins are tiled first (the browser idle meanwhile), then loaded.
    let configs = 0;
    const appWith = (config: object) => {
      const path = `/__bench/data/config-pretiled-${configs++}.json`;
      server!.put(path, JSON.stringify(config));
      return `${server!.origin}/?config=${encodeURIComponent(path)}`;
    };
    const pretiledRows = async () => {
      const tiling = options.archive ? existingArchive(options.archive) : await tileForBench(tmp, log);
      const figures = await measurePretiled(browser!, appWith, CAMERA, FADE_DURATION, tiling, runs, loadCapMs, log);
      // The search box over the same archive (what its index holds: titles, the tiler's default, when it was tiled here), at most 3 runs of the queries.
      log('Searching the archive …');
      figures.search = await measureSearch(browser!, { appDir: built.appDir, count: PRETILED_COUNT, runs: Math.min(runs, 3), archive: tiling.archive, searchFields: [] });
      // The same pins from a CSV file, tiled too (issue 34's targets).
      return options.archive ? figures : { ...figures, csvTiling: (await tileForBench(tmp, log, undefined, 'csv')).figures };
    };
    if (options.fleet) {
      const data = fleetData();
      server.put('/__bench/data/fleet.json', JSON.stringify(data));
      server.put('/__bench/fleet.html', fleetPage('/lib', '/__bench/data/fleet.json'));
      const figures = await measureFleet(browser, (mode) => `${server!.origin}/__bench/fleet.html?mode=${mode}`, data, log, () => loadavg()[0]!);
      const section = renderFleet(figures);
      console.log(`\n${section}\n`);
      mkdirSync(options.outDir, { recursive: true });
      writeFileSync(join(options.outDir, 'fleet.md'), `${section}\n`);
      writeFileSync(join(options.outDir, 'fleet.json'), `${JSON.stringify({ date: new Date().toISOString(), targets: fleetTargets(figures), figures }, null, 2)}\n`);
      log(`Written: ${join(options.outDir, 'fleet.md')}`);
      return 0;
    }
    if (options.cityZoom) {
      const pins = cityPins();
      const path = '/__bench/data/city-pins.geojson';
      server.put(path, JSON.stringify(pins));
      const center = busiestPlace(pins.features);
      // The same pins pre-tiled (the same generator and seed), served with range requests.
      const { archive } = await tileForBench(tmp, log, CITY_ZOOM.count, 'geojson', true);
      const served = await serveArchive(archive);
      const figures = await measureCityZoom(browser, appWith, path, served.url, center, runs, loadCapMs, log, () => loadavg()[0]!).finally(() => served.close());
      const section = renderCityZoom(figures);
      console.log(`\n${section}\n`);
      mkdirSync(options.outDir, { recursive: true });
      writeFileSync(join(options.outDir, 'city-zoom.md'), `${section}\n`);
      log(`Written: ${join(options.outDir, 'city-zoom.md')}`);
      return 0;
    }
    if (options.react) {
      const section = renderReact(await measureReact(browser, reactPages(server), runs, loadCapMs, log, () => loadavg()[0]!));
      console.log(`\n${section}\n`);
      mkdirSync(options.outDir, { recursive: true });
      writeFileSync(join(options.outDir, 'react.md'), `${section}\n`);
      log(`Written: ${join(options.outDir, 'react.md')}`);
      return 0;
    }
    if (options.pretiledOnly) {
      const section = renderPretiled(await pretiledRows());
      console.log(`\n${section}\n`);
      mkdirSync(options.outDir, { recursive: true });
      writeFileSync(join(options.outDir, 'pretiled.md'), `${section}\n`);
      log(`Written: ${join(options.outDir, 'pretiled.md')}`);
      return 0;
    }
    const urlOf = publishInputs(server, counts);
    const chromiumVersion = browser.version();
    const renderer = await webglRenderer(browser);
    const rows = planRows(counts, options.weight, options.only);
    let size: BenchData['size'];

    // One untimed load of each page first, so no row pays for a cold browser (JIT, caches).
    log('Warming up …');
    for (const r of options.pageLoads && !options.weight ? (['pinmap', 'hybrid', 'maplibre', 'react-map-gl', 'fa-markers'] as const) : []) await measure(browser, urlOf(r, 0), { loadCapMs, focus: focusOf(r), loadOnly: true });

    const measureStart = Date.now();
    for (let run = 0; options.pageLoads && run < runs; run++) {
      for (const row of rows) {
        const dom = row.renderer === 'markers' || row.renderer === 'fa-markers';
        const capped = dom && row.count > DOM_FULL_MAX;
        // A DOM baseline with more pins than the DOM can take gets one capped attempt.
        if (capped && (run > 0 || domCapMs === 0)) {
          if (domCapMs === 0) row.note ??= 'not run (--dom-cap 0)';
          continue;
        }
        // A baseline that timed out without ever reaching idle is slow, not flaky: it is not
        // tried again. One that made it before is (the machine's load may have spiked), as Pinmap is.
        if (row.renderer !== 'pinmap' && row.timeouts > 0 && !row.samples.some(Boolean)) continue;
        const label = `run ${run + 1}/${runs}: ${fmtCount(row.count)} pins, ${RENDERER_LABELS[row.renderer]}`;
        log(`${label} …`);
        const rowStart = Date.now();
        const sizeRun = run === 0 && (row.count === 0 || (options.weight && row.renderer === 'pinmap'));
        const result: Outcome & { stuck?: boolean; closeMs?: number } = await measure(browser, urlOf(row.renderer, row.count), {
          loadCapMs: capped ? domCapMs : loadCapMs,
          focus: focusOf(row.renderer),
          assets: sizeRun,
          // The other no-pin pages are there for cold load and size, the floor page for time to idle:
          // no gestures, to keep the benchmark short.
          loadOnly: options.weight || (row.count === 0 && row.renderer !== 'pinmap') || isFloor(row.renderer),
          // The heap is reported with no pins and with the most pins.
          heap: row.count === 0 || row.count === counts[counts.length - 1],
        });
        if (result.ok) {
          const { assets, allScripts, ...sample } = result.sample as Sample;
          row.samples[run] = sample;
          log(
            `  idle ${fmtMs(sample.idleMs)} ms${Number.isFinite(sample.heapBytes) ? `, heap ${(sample.heapBytes / 2 ** 20).toFixed(1)} MB` : ''}, pan p50/p95 ${fmtMs(sample.pan.p50)}/${fmtMs(sample.pan.p95)} ms (${sample.pan.frames} frames), ` +
              `zoom ${fmtMs(sample.zoom.p50)}/${fmtMs(sample.zoom.p95)} ms (${sample.zoom.frames} frames)${sample.domMarkers ? `, ${sample.domMarkers} DOM markers` : ''}`,
          );
          if (sizeRun && assets) {
            size ??= { pinmap: [], hybrid: [], maplibre: [], hybridChunksInVector: [] };
            if (row.count > 0) size.pinmapWithPins = { count: row.count, entries: assets };
            else if (row.renderer === 'pinmap' || row.renderer === 'hybrid' || row.renderer === 'maplibre') size[row.renderer] = assets;
            else if (row.renderer === 'react-map-gl') size.reactMapGl = assets;
            if (row.renderer === 'pinmap' && row.count === 0) size.hybridChunksInVector = (allScripts ?? []).filter((url) => /hybrid|leaflet/i.test(new URL(url).pathname));
          }
        } else {
          log(`  ${result.reason}`);
          if (result.timedOut) {
            row.timeouts++;
            row.note ??= result.reason;
            if (result.reason.includes('to idle')) {
              row.timedOutAfterMs ??= capped ? domCapMs : loadCapMs;
              (row.timedOutRuns ??= []).push(run);
            }
          } else row.failures.push(result.reason);
        }
        log(`  (${((Date.now() - rowStart) / 1000).toFixed(1)} s, ${((result.closeMs ?? 0) / 1000).toFixed(1)} s of it closing the page)`);
        if (result.stuck) {
          log('  the page did not close: restarting Chromium');
          await withTimeout(browser.close(), 30_000);
          browser = activeBrowser = await launch();
        }
      }
    }
    const pinsSeconds = (Date.now() - measureStart) / 1000;
    if (size) size.breakdown = await initialBreakdown(size.pinmap, built.appDir);

    const cycleFigures: (CycleFigures | undefined)[] = [];
    const cycleFailures: string[] = [];
    const cycleStart = Date.now();
    // No label fade: each cycle's idle would wait for it, and it allocates nothing that could leak.
    const cycleConfig = { ...CAMERA, fadeDuration: 0, pins: pinsPath(CYCLE_PINS) };
    for (let run = 0; cycles > 0 && run < runs; run++) {
      log(`run ${run + 1}/${runs}: ${cycles} mount/destroy cycles …`);
      const result = await mountCycles(browser, `${server.origin}/bench-mount.html`, cycleConfig, cycles, loadCapMs);
      if (result.ok) {
        cycleFigures[run] = result.sample;
        const { before, afterFirst, afterLast, ms } = result.sample;
        log(`  heap ${(before / 2 ** 20).toFixed(1)} → ${(afterFirst / 2 ** 20).toFixed(1)} → ${(afterLast / 2 ** 20).toFixed(1)} MB, ${fmtMs(ms / cycles)} ms per cycle`);
      } else {
        log(`  ${result.reason}`);
        cycleFailures.push(`mount/destroy cycles: ${result.reason}`);
      }
    }
    const cycleSeconds = (Date.now() - cycleStart) / 1000;

    // The basemap from its one archive against the same tiles as loose files (also alone: npm run bench:basemap).
    const basemap = options.pageLoads && !options.weight && !options.only ? await measureBasemapArchive(browser, { appDir: built.appDir, runs, loadCapMs, log }) : undefined;

    if (options.trace) {
      const { renderer: traced, count } = options.trace;
      log(`Tracing one load of ${fmtCount(count)} pins, ${RENDERER_LABELS[traced]} …`);
      const file = join(tmp, 'trace.json');
      const page = await (await browser.newContext({ viewport: { width: 1000, height: 700 } })).newPage();
      await browser.startTracing(page, { path: file, categories: traceCategories() });
      await page.goto(urlOf(traced, count));
      await page.locator('.pinmap[data-map-state="idle"]').waitFor({ timeout: loadCapMs });
      await browser.stopTracing();
      await page.context().close();
      mkdirSync(options.outDir, { recursive: true });
      const kept = join(options.outDir, `trace-${traced}-${count}.json`);
      writeFileSync(kept, readFileSync(file));
      log(`${summariseTrace(JSON.parse(readFileSync(file, 'utf8')))}\n(trace written to ${kept}; open it in Chrome DevTools' Performance panel)`);
    }

    if (options.cpuRows) {
      const pages: CpuLoads[] = options.cpuRows.map(({ renderer, count }) => ({ label: `${RENDERER_LABELS[renderer]}, ${fmtCount(count)} pins`, loads: [] }));
      // One untimed load of each first, as for every other row: no page pays for a cold browser.
      for (let run = -1; run < runs; run++) {
        for (const [i, { renderer, count }] of options.cpuRows.entries()) {
          log(run < 0 ? `CPU, warming up: ${pages[i]!.label} …` : `CPU, run ${run + 1}/${runs}: ${pages[i]!.label} …`);
          const page = await (await browser.newContext({ viewport: { width: 1000, height: 700 } })).newPage();
          await page.goto('about:blank');
          const threadsBefore = chromiumThreadCpu();
          const machineBefore = machineCpuMs();
          const started = Date.now();
          await page.goto(urlOf(renderer, count));
          await page.locator('.pinmap[data-map-state="idle"]').waitFor({ timeout: loadCapMs });
          const wallMs = Date.now() - started;
          const threads = cpuBetween(threadsBefore, chromiumThreadCpu());
          const machineMs = machineCpuMs() - machineBefore;
          const idleMs = await page.evaluate(() => performance.now());
          await page.context().close();
          if (run >= 0) pages[i]!.loads.push({ threads, machineMs, wallMs, idleMs });
        }
      }
      const report = `${renderCpu(pages, cpus().length)}\n\nCPU time of every Chromium thread on the machine (user + system, from /proc, 10 ms ticks) from the navigation until the page was idle, a mean per load; ${runs} load${runs === 1 ? '' : 's'} of each page, in turn. "Time to idle" is the page's clock when the benchmark saw it idle.`;
      mkdirSync(options.outDir, { recursive: true });
      writeFileSync(join(options.outDir, 'cpu.md'), `${report}\n`);
      log(`${report}\n(written to ${join(options.outDir, 'cpu.md')})`);
    }

    const cpu = cpus();
    const loadAfter = loadavg();
    const elapsed = (Date.now() - startedAt) / 1000;
    const info = [
      'Measured in headless Chromium with software WebGL (SwiftShader), no GPU, on a 2-core machine: absolute figures are slow and move with the machine\'s load; compare within one report.',
      `Machine: ${cpu.length} CPU core${cpu.length === 1 ? '' : 's'} (${cpu[0]?.model.trim() ?? 'unknown'}), load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before and ${loadAfter.map((l) => l.toFixed(2)).join(' ')} after (1/5/15 min); Node ${process.version}`,
      `Chromium ${chromiumVersion}, headless; WebGL: ${renderer}; viewport 1000×700 at device scale 1`,
      `App: ${built.appSource}; baselines: scripts/bench/maplibre.html, react-map-gl.html and leaflet.html (maplibre-gl ${packageVersion('maplibre-gl')}, React ${packageVersion('react')}, react-map-gl ${packageVersion('react-map-gl')}, Leaflet 1.9, leaflet-fa-markers 0.1.0)`,
      `Medians of ${runs} run${runs === 1 ? '' : 's'}; every ratio is taken run by run against the reference row of the same run, then the median of those ratios. ` +
        `Camera [${CAMERA.center.join(', ')}] zoom ${CAMERA.zoom} (Leaflet ${CAMERA.zoom + 1}), fadeDuration ${FADE_DURATION} ms; pins from generatePins(count, ${SEED}).`,
      `Benchmark time: ${elapsed.toFixed(0)} s in all (page loads ${pinsSeconds.toFixed(0)} s, mount/destroy cycles ${cycleSeconds.toFixed(0)} s, the rest building and warming up).`,
    ];
    const data: BenchData = { rows, runs, ...(size ? { size } : {}), cycles: cycleFigures, cycleFailures, info };
    // The weight alone needs neither the basemap nor the pre-tiled rows (tiling 1M pins takes minutes).
    const pretiled = !options.weight && options.pageLoads && !options.only ? await pretiledRows() : undefined;
    const markdown = options.weight
      ? renderWeight(data)
      : [renderMarkdown(data), basemap ? renderBasemapArchive(basemap) : '', pretiled ? renderPretiled(pretiled) : ''].filter((section) => section !== '').join('\n\n');
    console.log(`\n${markdown}\n`);
    mkdirSync(options.outDir, { recursive: true });
    // Without page loads the report holds the mount/destroy cycles alone: it does not replace the full one.
    const name = options.weight ? 'weight' : options.only ? 'rows' : options.pageLoads ? 'latest' : 'cycles';
    writeFileSync(join(options.outDir, `${name}.md`), `${markdown}\n`);
    writeFileSync(
      join(options.outDir, `${name}.json`),
      `${JSON.stringify({ date: new Date().toISOString(), machine: { cores: cpu.length, model: cpu[0]?.model.trim(), loadBefore, loadAfter }, chromium: chromiumVersion, webgl: renderer, elapsedSeconds: elapsed, targets: judgeTargets(data), ...data }, null, 1)}\n`,
    );
    log(`Written: ${join(options.outDir, `${name}.md`)} and ${name}.json`);
    if (options.updateReadme) {
      const readme = join(ROOT, 'README.md');
      const targets = [...judgeTargets(data), ...(basemap ? [basemapArchiveTarget(basemap)] : []), ...(pretiled ? pretiledTargets(pretiled) : [])];
      const measured = `on ${new Date().toISOString().slice(0, 10)}, ${built.appSource}, medians of ${runs} run${runs === 1 ? '' : 's'}`;
      writeFileSync(readme, updateSpeedTable(readFileSync(readme, 'utf8'), targets, measured));
      log('README.md: Speed table updated.');
    }
    log(`Elapsed: ${elapsed.toFixed(0)} s`);
    return findRow0(rows) ? 0 : 1;
  } finally {
    if (browser) await withTimeout(browser.close(), 30_000);
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** What the vector view's initial scripts of the app's own build are made of (those with a source map beside them). */
async function initialBreakdown(entries: readonly SizeEntry[], appDir: string): Promise<FileBreakdown[]> {
  const files = entries.filter((e) => e.kind === 'script').map((e) => new URL(e.url).pathname.slice(1));
  const found = await Promise.all(files.map((file) => breakdownOf(appDir, file)));
  return found.filter((b): b is FileBreakdown => b !== undefined);
}

/** Without the no-pin vector row there is nothing to compare with: the bench could not run. */
const findRow0 = (rows: Row[]) => rows.some((r) => r.renderer === 'pinmap' && r.count === 0 && r.samples.some(Boolean));

// Stopped from outside (Ctrl-C, a time limit): close the browser rather than leave it running.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    const closing = activeBrowser ? withTimeout(activeBrowser.close(), 10_000) : Promise.resolve();
    void closing.finally(() => process.exit(130));
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
