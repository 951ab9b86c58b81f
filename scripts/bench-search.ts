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
 * descriptions `Synthetic pin 1 of 100000 (capital)`) and a config that shows the search box and
 * searches the descriptions too (`searchFields: ['description']`, the heavier case), focuses the
 * box (which makes the index, or reads the archive index's directory: timed apart) and types each
 * query one key at a time. A keystroke's time runs from its `input` event to the moment the
 * results for the new text are in the DOM (a MutationObserver sees the results list take the new
 * query). Prints p50, p95 and the slowest, and for an archive the range requests each keystroke
 * made (the server counts them). A benchmark, not a test: it exits 0 whatever the figures.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../tests/chromium.ts';
import { tilePins } from '../src/tiler/tile-pins.ts';
import { PIN_CATEGORY_STYLES } from './pin-categories.ts';
import { startStaticServer } from './bench/server.ts';
import { median, percentile } from './bench/stats.ts';
import { generatePins, syntheticPins } from './synthetic-pins.ts';

const ROOT = resolve(import.meta.dirname, '..');
/** What is typed, one key at a time: a title, a description word with a number, a word that matches a quarter of the set, nothing. */
const QUERIES = ['pin 12345', 'synthetic 99999', 'capital', 'zurich', 'pin 7'];
/** The targets: inline pins (issue 22), and a pin archive of 1M pins (issue 34). */
const TARGETS = { inlineP95: 50, archiveP95: 100, archiveRequests: 3 };

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

/** The `count` synthetic pins tiled into `path` with the descriptions searched, as `pinmap-tile-pins --search-fields description` does. */
async function tileArchive(path: string): Promise<void> {
  console.log(`Tiling ${count.toLocaleString('en-US')} pins into ${path} (searching titles and descriptions) …`);
  const started = performance.now();
  function* collection() {
    yield `{"type":"FeatureCollection","pinStyles":${JSON.stringify(PIN_CATEGORY_STYLES)},"features":[\n`;
    let i = 0;
    for (const feature of syntheticPins(count, 1)) yield `${i++ ? ',\n' : ''}${JSON.stringify(feature)}`;
    yield ']}\n';
  }
  const result = await tilePins(Readable.from(collection()), path, { name: 'bench-search', searchFields: ['description'] });
  console.log(`  ${((performance.now() - started) / 1000).toFixed(1)} s, ${(result.bytes / 2 ** 20).toFixed(1)} MB`);
}

/** Times each keystroke of each query (see the file's comment); `requests` says how many archive range requests were made so far. */
async function typeQueries(page: Page, requests: () => number) {
  // The index is made (or its directory read) when the box first gets focus: timed around the focus.
  const before = requests();
  const indexMs = await page.evaluate(async () => {
    const box = document.querySelector<HTMLInputElement>('.pinmap-search-input')!;
    const start = performance.now();
    box.focus();
    // React renders the focus's update in a microtask queued before this one.
    await Promise.resolve();
    return performance.now() - start;
  });
  await page.evaluate(() => {
    const box = document.querySelector<HTMLInputElement>('.pinmap-search-input')!;
    const list = document.querySelector('.pinmap-search [role="listbox"]')!;
    const bench = { started: 0, times: [] as number[], expected: '' };
    (window as unknown as { searchBench: typeof bench }).searchBench = bench;
    box.addEventListener(
      'input',
      () => {
        bench.started = performance.now();
        bench.expected = box.value;
      },
      { capture: true },
    );
    new MutationObserver(() => {
      if (bench.started === 0 || list.getAttribute('data-query') !== bench.expected) return;
      bench.times.push(performance.now() - bench.started);
      bench.started = 0;
    }).observe(list, { attributes: true, childList: true, subtree: true });
  });
  // The archive's directory, read on focus: waited for, so the first keystroke's requests are its own.
  await page.waitForTimeout(pretiled ? 1000 : 0);
  const directoryRequests = requests() - before;

  const box = page.locator('.pinmap-search-input');
  const times: number[] = [];
  const perKey: number[] = [];
  const found: Record<string, string> = {};
  for (let run = 0; run < runs; run++) {
    for (const query of QUERIES) {
      await page.evaluate(() => ((window as unknown as { searchBench: { times: number[] } }).searchBench.times = []));
      for (const key of query) {
        const asked = requests();
        await page.keyboard.type(key);
        await page.waitForFunction(() => (window as unknown as { searchBench: { started: number } }).searchBench.started === 0, undefined, { timeout: 10_000 });
        perKey.push(requests() - asked);
      }
      const typed = await page.evaluate(() => (window as unknown as { searchBench: { times: number[] } }).searchBench.times);
      if (process.env.PINMAP_BENCH_VERBOSE) console.log(query, typed.map((t) => t.toFixed(1)).join(' '));
      times.push(...typed);
      found[query] = (await page.locator('.pinmap-search [role="status"]').textContent()) ?? '';
      await box.fill('');
      await page.waitForFunction(() => (window as unknown as { searchBench: { started: number } }).searchBench.started === 0, undefined, { timeout: 10_000 });
    }
  }
  return { indexMs, directoryRequests, times, perKey, found };
}

const made = pretiled && !values.archive ? mkdtempSync(join(tmpdir(), 'pinmap-bench-search-')) : undefined;
const archivePath = pretiled ? resolve(values.archive ?? join(made!, 'pins.pmtiles')) : undefined;
if (archivePath && !existsSync(archivePath)) await tileArchive(archivePath);

let archiveRequests = 0;
const server = await startStaticServer({ '/': dist, ...(archivePath ? { '/bench-archive/': dirname(archivePath) } : {}) }, 0, (path) => {
  if (path.startsWith('/bench-archive/')) archiveRequests++;
});
const pins = archivePath ? `pmtiles:///bench-archive/${basename(archivePath)}` : '/bench-search/pins.geojson';
if (!archivePath) server.put('/bench-search/pins.geojson', JSON.stringify(generatePins(count, 1)));
server.put('/bench-search/config.json', JSON.stringify({ pins, center: [10, 30], zoom: 2, fadeDuration: 0, controls: { search: true }, searchFields: ['description'] }));
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
const loadBefore = loadavg();
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  await page.goto(`${server.origin}/?config=/bench-search/config.json`);
  await page.locator('.pinmap[data-map-state="idle"]').waitFor({ timeout: 120_000 });
  const { indexMs, directoryRequests, times, perKey, found } = await typeQueries(page, () => archiveRequests);

  const round = (ms: number) => ms.toFixed(1);
  const p95 = percentile(times, 95);
  const what = `${count.toLocaleString('en-US')} pins${pretiled ? ' in a pin archive' : ''} (title and description)`;
  console.log(`\nSearch, ${what}, ${times.length} keystrokes in ${runs} run(s) of ${QUERIES.map((q) => `"${q}"`).join(', ')}`);
  console.log('');
  if (pretiled) {
    const mostRequests = Math.max(...perKey);
    const met = p95 <= TARGETS.archiveP95 && mostRequests <= TARGETS.archiveRequests;
    console.log('| pins | directory read on first focus | per keystroke p50 (ms) | p95 (ms) | slowest (ms) | range requests per keystroke: most, mean | target |');
    console.log('|---:|---:|---:|---:|---:|---:|---|');
    console.log(
      `| ${count.toLocaleString('en-US')} (archive) | ${directoryRequests} request(s) | ${round(median(times))} | ${round(p95)} | ${round(Math.max(...times))} | ${mostRequests}, ${(perKey.reduce((a, b) => a + b, 0) / perKey.length).toFixed(2)} | ` +
        `≤ ${TARGETS.archiveRequests} range requests and p95 ≤ ${TARGETS.archiveP95} ms per keystroke: ${met ? 'met' : '**missed**'} |`,
    );
  } else {
    console.log('| pins | index made on first focus (ms) | per keystroke p50 (ms) | p95 (ms) | slowest (ms) | target |');
    console.log('|---:|---:|---:|---:|---:|---|');
    console.log(`| ${count.toLocaleString('en-US')} | ${round(indexMs)} | ${round(median(times))} | ${round(p95)} | ${round(Math.max(...times))} | ≤ ${TARGETS.inlineP95} ms per keystroke: ${p95 <= TARGETS.inlineP95 ? 'met' : '**missed**'} (p95) |`);
  }
  console.log('');
  for (const [query, status] of Object.entries(found)) console.log(`- "${query}": ${status || 'no answer'}`);
  console.log(`- Machine: ${cpus().length} cores, load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before and ${loadavg().map((l) => l.toFixed(2)).join(' ')} after; Chromium ${browser.version()}, headless`);
} finally {
  await browser.close();
  await server.close();
  if (made) rmSync(made, { recursive: true, force: true });
}
