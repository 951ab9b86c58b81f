/**
 * The search box's benchmark rows: how long the answer takes after each keystroke, in headless
 * Chromium against the production build (`npm run build`, then this script; or
 * `npm run bench:search`, which does both): with 100k pins given inline, and with 1M pins
 * pre-tiled into a pin archive, searched through its search index with range requests.
 *
 *   npm run bench:search                       # 100k pins inline, 3 runs of every query
 *   npm run bench:search -- --count 10000 --runs 1
 *   npm run bench:search -- --pretiled         # 1M pins tiled (with --search-fields description), then searched
 *   npm run bench:search -- --pretiled --archive /tmp/pins-1m.pmtiles   # that archive, tiled first if it is not there
 *
 * It serves `dist/` with a generated pin set (`generatePins(count, 1)`: titles `Pin 1…`,
 * descriptions `Synthetic pin 1 of 100000 (capital)`) and a config that searches the descriptions
 * too (`searchFields: ['description']`, the heavier case); how each keystroke is timed is in
 * scripts/bench/search.ts. Prints p50, p95 and the slowest, and for an archive the range requests
 * each keystroke made. A benchmark, not a test: it exits 0 whatever the figures.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../tests/chromium.ts';
import { tilePins } from '../src/tiler/tile-pins.ts';
import { PIN_CATEGORY_STYLES } from './pin-categories.ts';
import { measureSearch, renderSearch } from './bench/search.ts';
import { syntheticPins } from './synthetic-pins.ts';

const ROOT = resolve(import.meta.dirname, '..');
/** The fields searched besides the title (config's, and the archive's when one is tiled). */
const SEARCH_FIELDS = ['description'];

const { values } = parseArgs({
  options: { count: { type: 'string' }, runs: { type: 'string', default: '3' }, pretiled: { type: 'boolean', default: false }, archive: { type: 'string' } },
});
const pretiled = values.pretiled;
const count = Number(values.count ?? (pretiled ? 1_000_000 : 100_000));
const runs = Number(values.runs);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(runs) || runs < 1 || (values.archive !== undefined && !pretiled)) {
  console.error('Usage: npm run bench:search -- [--count 100000] [--runs 3] [--pretiled [--archive <file>]]');
  process.exit(1);
}

const dist = resolve(ROOT, process.env.PINMAP_BENCH_APP_DIR ?? 'dist');
if (!existsSync(resolve(dist, 'index.html'))) {
  console.error(`No app build in ${dist}: run npm run build first (npm run bench:search does).`);
  process.exit(1);
}

/** The `count` synthetic pins tiled into `path` with the descriptions searched, as `pinmap tile --search-fields description` does. */
async function tileArchive(path: string): Promise<void> {
  console.log(`Tiling ${count.toLocaleString('en-US')} pins into ${path} (searching titles and descriptions) …`);
  const started = performance.now();
  function* collection() {
    yield `{"type":"FeatureCollection","pinStyles":${JSON.stringify(PIN_CATEGORY_STYLES)},"features":[\n`;
    let i = 0;
    for (const feature of syntheticPins(count, 1)) yield `${i++ ? ',\n' : ''}${JSON.stringify(feature)}`;
    yield ']}\n';
  }
  const result = await tilePins(Readable.from(collection()), path, { name: 'bench-search', searchFields: SEARCH_FIELDS });
  console.log(`  ${((performance.now() - started) / 1000).toFixed(1)} s, ${(result.bytes / 2 ** 20).toFixed(1)} MB`);
}

const made = pretiled && !values.archive ? mkdtempSync(join(tmpdir(), 'pinmap-bench-search-')) : undefined;
const archive = pretiled ? resolve(values.archive ?? join(made!, 'pins.pmtiles')) : undefined;
if (archive && !existsSync(archive)) await tileArchive(archive);

const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
try {
  const figures = await measureSearch(browser, { appDir: dist, count, runs, searchFields: SEARCH_FIELDS, ...(archive ? { archive } : {}) });
  console.log(`\n${renderSearch(figures)}`);
} finally {
  await browser.close();
  if (made) rmSync(made, { recursive: true, force: true });
}
