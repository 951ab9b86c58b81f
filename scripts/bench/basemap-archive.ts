/**
 * The basemap row of `npm run bench`: the embedded basemap read from its one PMTiles archive
 * (range requests) against the same tiles as loose files (one request per tile), in the app,
 * from a cold page: time to the first idle, and the ratio (target ≤ 1.05×). The loose variant is
 * made for the bench only, in a temporary folder: the archive's tiles written out as
 * `tiles/{z}/{x}/{y}.pbf` (uncompressed, as the basemap shipped before) and its style pointed at
 * them. The two are loaded alternately, each run after one untimed load of both, so neither pays
 * for a cold browser.
 *
 *   npm run bench:basemap                          # this row alone (builds the app first)
 *   npm run bench:basemap -- --runs 9
 *   PINMAP_BENCH_APP_DIR=dist npm run bench:basemap  # measure an existing app build
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from '@playwright/test';
import { PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { build } from 'vite';
import { CHROMIUM_ARGS, findChromium } from '../../tests/chromium.ts';
import { measure } from './measure.ts';
import { startStaticServer } from './server.ts';
import type { Target } from './report.ts';
import { median } from './stats.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CAMERA = { center: [10, 30] as [number, number], zoom: 2 };
const FADE_DURATION = 300;
/** The ratio the archive aims for, against loose files. */
export const BASEMAP_ARCHIVE_TARGET = 1.05;

export interface BasemapArchiveFigures {
  /** Median ms to the first idle, from the archive. */
  archiveMs: number;
  /** Median ms to the first idle, from loose files. */
  looseMs: number;
  ratio: number;
  runs: number;
  /** Requests for basemap tiles while the page was open (median): range requests to the archive, tile files. */
  archiveRequests: number;
  looseRequests: number;
  failures: string[];
}

/**
 * The archive's tiles written out as loose files beside a copy of the style whose sources point at
 * them: the zooms the bench's camera reads, and one more (the whole pyramid is tens of thousands
 * of files).
 */
async function writeLooseBasemap(basemapDir: string, outDir: string): Promise<void> {
  const bytes = readFileSync(join(basemapDir, 'basemap.pmtiles'));
  const reader = new PMTiles(
    new (class implements Source {
      getKey = () => 'basemap.pmtiles';
      getBytes = async (offset: number, length: number): Promise<RangeResponse> => ({ data: bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length) as ArrayBuffer });
    })(),
  );
  const header = await reader.getHeader();
  for (let z = header.minZoom; z <= Math.min(header.maxZoom, Math.ceil(CAMERA.zoom) + 1); z++) {
    for (let x = 0; x < 2 ** z; x++) {
      mkdirSync(join(outDir, 'tiles', String(z), String(x)), { recursive: true });
      for (let y = 0; y < 2 ** z; y++) {
        const tile = await reader.getZxy(z, x, y);
        if (tile) writeFileSync(join(outDir, 'tiles', String(z), String(x), `${y}.pbf`), new Uint8Array(tile.data));
      }
    }
  }
  cpSync(join(basemapDir, 'fonts'), join(outDir, 'fonts'), { recursive: true });
  const style = JSON.parse(readFileSync(join(basemapDir, 'style.json'), 'utf8')) as { sources: Record<string, Record<string, unknown>> };
  for (const source of Object.values(style.sources)) {
    delete source.url;
    source.tiles = ['tiles/{z}/{x}/{y}.pbf'];
  }
  writeFileSync(join(outDir, 'style.json'), JSON.stringify(style));
}

/**
 * Measures the row: `runs` cold loads of each variant, alternately, in `browser`, of the app in
 * `appDir` (an `npm run build` output, with basemap/ beside index.html).
 */
export async function measureBasemapArchive(browser: Browser, { appDir, runs, loadCapMs, log = console.log }: { appDir: string; runs: number; loadCapMs: number; log?: (line: string) => void }): Promise<BasemapArchiveFigures> {
  const tmp = mkdtempSync(join(tmpdir(), 'pinmap-bench-basemap-'));
  let tileRequests = 0;
  let counting: (path: string) => boolean = () => false;
  const server = await startStaticServer({ '/': appDir, '/__loose/': join(tmp, 'loose') }, 0, (path) => {
    if (counting(path)) tileRequests++;
  });
  try {
    log('Basemap: writing the loose-file variant …');
    await writeLooseBasemap(join(appDir, 'basemap'), join(tmp, 'loose'));
    const config = (style: string) => ({ ...CAMERA, fadeDuration: FADE_DURATION, style });
    server.put('/__bench/basemap-archive.json', JSON.stringify(config('/basemap/style.json')));
    server.put('/__bench/basemap-loose.json', JSON.stringify(config('/__loose/style.json')));
    const urls = {
      archive: `${server.origin}/?config=${encodeURIComponent('/__bench/basemap-archive.json')}`,
      loose: `${server.origin}/?config=${encodeURIComponent('/__bench/basemap-loose.json')}`,
    };
    const isTile = {
      archive: (path: string) => path === '/basemap/basemap.pmtiles',
      loose: (path: string) => /^\/__loose\/tiles\/\d+\/\d+\/\d+\.pbf$/.test(path),
    };
    const times: Record<'archive' | 'loose', number[]> = { archive: [], loose: [] };
    const requests: Record<'archive' | 'loose', number[]> = { archive: [], loose: [] };
    const failures: string[] = [];
    for (let run = -1; run < runs; run++) {
      // Alternate which goes first, so neither always follows the other.
      const order = run % 2 === 0 ? (['archive', 'loose'] as const) : (['loose', 'archive'] as const);
      for (const variant of order) {
        tileRequests = 0;
        counting = isTile[variant];
        const result = await measure(browser, urls[variant], { loadCapMs, focus: 'canvas.maplibregl-canvas', loadOnly: true });
        if (run < 0) continue; // the untimed warm-up
        if (result.ok) {
          times[variant].push(result.sample.idleMs);
          requests[variant].push(tileRequests);
          log(`  run ${run + 1}/${runs}: ${variant.padEnd(7)} ${result.sample.idleMs.toFixed(0)} ms to idle, ${tileRequests} tile requests (to the page's close)`);
        } else failures.push(`${variant}: ${result.reason}`);
      }
    }
    const archiveMs = median(times.archive);
    const looseMs = median(times.loose);
    return { archiveMs, looseMs, ratio: archiveMs / looseMs, runs, archiveRequests: median(requests.archive), looseRequests: median(requests.loose), failures };
  } finally {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The row's target, judged: the embedded basemap from its one archive against the same tiles as loose files. */
export function basemapArchiveTarget(figures: BasemapArchiveFigures): Target {
  const measured = Number.isFinite(figures.ratio);
  return {
    name: `Basemap: cold load from its one archive ≤ ${BASEMAP_ARCHIVE_TARGET}× the same tiles as loose files`,
    figure: measured ? `${figures.ratio.toFixed(2)}×` : 'not measured',
    met: measured ? figures.ratio <= BASEMAP_ARCHIVE_TARGET : undefined,
  };
}

/** The row as the report prints it. */
export function renderBasemapArchive(figures: BasemapArchiveFigures): string {
  const verdict = figures.ratio <= BASEMAP_ARCHIVE_TARGET ? 'meets' : 'misses';
  return [
    '#### Basemap: one PMTiles archive against loose tile files (cold load to idle)',
    '',
    '| basemap | time to idle (median) | tile requests | ratio |',
    '|---|---|---|---|',
    `| one archive (range requests) | ${figures.archiveMs.toFixed(0)} ms | ${figures.archiveRequests} | ${figures.ratio.toFixed(2)}× (target ≤ ${BASEMAP_ARCHIVE_TARGET}×: ${verdict}) |`,
    `| loose files (the same tiles, uncompressed) | ${figures.looseMs.toFixed(0)} ms | ${figures.looseRequests} | 1.00× |`,
    '',
    `${figures.runs} runs of each, alternately, after one untimed load of both.${figures.failures.length > 0 ? ` Failures: ${figures.failures.join('; ')}.` : ''}`,
  ].join('\n');
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, timeout: { type: 'string', default: '20' } } });
  const runs = Number(values.runs);
  const loadCapMs = Number(values.timeout) * 1000;
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number of 1 or more (got "${values.runs}")`);
  const tmp = mkdtempSync(join(tmpdir(), 'pinmap-bench-app-'));
  let browser: Browser | undefined;
  try {
    let appDir = process.env.PINMAP_BENCH_APP_DIR ? resolve(process.env.PINMAP_BENCH_APP_DIR) : join(tmp, 'app');
    if (!process.env.PINMAP_BENCH_APP_DIR) {
      console.log('Building the app …');
      await build({ root: ROOT, configFile: join(ROOT, 'vite.config.ts'), mode: 'production', logLevel: 'warn', build: { outDir: appDir, emptyOutDir: true } });
    }
    appDir = resolve(appDir);
    browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
    const figures = await measureBasemapArchive(browser, { appDir, runs, loadCapMs });
    console.log(`\n${renderBasemapArchive(figures)}`);
    return Number.isFinite(figures.ratio) ? 0 : 1;
  } finally {
    await browser?.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`bench:basemap could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(1);
    },
  );
}
