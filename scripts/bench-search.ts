/**
 * The search box's benchmark row: how long the answer takes after each keystroke with 100k pins,
 * in headless Chromium against the production build (`npm run build`, then this script; or
 * `npm run bench:search`, which does both).
 *
 *   npm run bench:search                       # 100k pins, 3 runs of every query
 *   npm run bench:search -- --count 10000 --runs 1
 *
 * It serves `dist/` with a generated pin set (`generatePins(count, 1)`: titles `Pin 1…`,
 * descriptions `Synthetic pin 1 of 100000 (capital)`) and a config that shows the search box and
 * searches the descriptions too (`searchFields: ['description']`, the heavier case), focuses the
 * box (which makes the index: timed apart) and types each query one key at a time. A keystroke's
 * time runs from its `input` event to the moment the results for the new text are in the DOM
 * (a MutationObserver sees the results list take the new query). Prints p50, p95 and the
 * slowest, and the index's making. A benchmark, not a test: it exits 0 whatever the figures.
 */
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../tests/chromium.ts';
import { startStaticServer } from './bench/server.ts';
import { median, percentile } from './bench/stats.ts';
import { generatePins } from './synthetic-pins.ts';

const ROOT = resolve(import.meta.dirname, '..');
/** What is typed, one key at a time: a title, a description word with a number, a word that matches a quarter of the set, nothing. */
const QUERIES = ['pin 12345', 'synthetic 99999', 'capital', 'zurich', 'pin 7'];

const { values } = parseArgs({ options: { count: { type: 'string', default: '100000' }, runs: { type: 'string', default: '3' } } });
const count = Number(values.count);
const runs = Number(values.runs);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(runs) || runs < 1) {
  console.error('Usage: npm run bench:search -- [--count 100000] [--runs 3]');
  process.exit(1);
}

const dist = resolve(ROOT, process.env.PINMAP_BENCH_APP_DIR ?? 'dist');
if (!existsSync(resolve(dist, 'index.html'))) {
  console.error(`No app build in ${dist}: run npm run build first (npm run bench:search does).`);
  process.exit(1);
}

const server = await startStaticServer({ '/': dist });
server.put('/bench-search/pins.geojson', JSON.stringify(generatePins(count, 1)));
server.put(
  '/bench-search/config.json',
  JSON.stringify({ pins: '/bench-search/pins.geojson', center: [10, 30], zoom: 2, fadeDuration: 0, controls: { search: true }, searchFields: ['description'] }),
);
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
const loadBefore = loadavg();
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  await page.goto(`${server.origin}/?config=/bench-search/config.json`);
  await page.locator('.pinmap[data-map-state="idle"]').waitFor({ timeout: 60_000 });

  // The index is made when the box first gets focus: timed around the focus, which renders at once.
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

  const box = page.locator('.pinmap-search-input');
  const times: number[] = [];
  const found: Record<string, string> = {};
  for (let run = 0; run < runs; run++) {
    for (const query of QUERIES) {
      await page.evaluate(() => ((window as unknown as { searchBench: { times: number[] } }).searchBench.times = []));
      for (const key of query) {
        await page.keyboard.type(key);
        await page.waitForFunction(() => (window as unknown as { searchBench: { started: number } }).searchBench.started === 0, undefined, { timeout: 10_000 });
      }
      const typed = await page.evaluate(() => (window as unknown as { searchBench: { times: number[] } }).searchBench.times);
      if (process.env.PINMAP_BENCH_VERBOSE) console.log(query, typed.map((t) => t.toFixed(1)).join(' '));
      times.push(...typed);
      found[query] = (await page.locator('.pinmap-search [role="status"]').textContent()) ?? '';
      await box.fill('');
    }
  }

  const round = (ms: number) => ms.toFixed(1);
  console.log(`\nSearch, ${count.toLocaleString('en-US')} pins (title and description), ${times.length} keystrokes in ${runs} run(s) of ${QUERIES.map((q) => `"${q}"`).join(', ')}`);
  console.log('');
  console.log('| pins | index made on first focus (ms) | per keystroke p50 (ms) | p95 (ms) | slowest (ms) | target |');
  console.log('|---:|---:|---:|---:|---:|---|');
  const p95 = percentile(times, 95);
  console.log(`| ${count.toLocaleString('en-US')} | ${round(indexMs)} | ${round(median(times))} | ${round(p95)} | ${round(Math.max(...times))} | ≤ 50 ms per keystroke: ${p95 <= 50 ? 'met' : '**missed**'} (p95) |`);
  console.log('');
  for (const [query, status] of Object.entries(found)) console.log(`- "${query}": ${status || 'no answer'}`);
  console.log(`- Machine: ${cpus().length} cores, load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before and ${loadavg().map((l) => l.toFixed(2)).join(' ')} after; Chromium ${browser.version()}, headless`);
} finally {
  await browser.close();
  await server.close();
}
