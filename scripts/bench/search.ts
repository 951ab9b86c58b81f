import { closeSync, openSync, readSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, dirname } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { PMTiles, type RangeResponse, type Source } from 'pmtiles';
import type { PinArchiveMetadata } from '../../src/pins/archive-format.ts';
import { generatePins } from '../synthetic-pins.ts';
import type { Target } from './report.ts';
import { startStaticServer } from './server.ts';
import { median, percentile } from './stats.ts';

/**
 * The search box's benchmark (`npm run bench:search`, and the archive search row of
 * `npm run bench`'s pre-tiled section): how long the answer takes after each keystroke, in
 * headless Chromium against an app build, with synthetic pins given inline (`generatePins`) or
 * pre-tiled into a pin archive that is searched through its search index with range requests.
 *
 * The app is served with a config that shows the search box (and searches `searchFields`); the
 * box is focused (which makes the inline index, or reads the archive index's directory: timed
 * apart) and each query typed one key at a time. A keystroke's time runs from its `input` event
 * to the moment the results for the new text are in the DOM (a MutationObserver sees the results
 * list take the new query). For an archive, the server counts the range requests each keystroke
 * made.
 */

/** What is typed, one key at a time: a title, a description word with a number, a word that matches a quarter of the set, nothing. */
export const SEARCH_QUERIES = ['pin 12345', 'synthetic 99999', 'capital', 'zurich', 'pin 7'];
/** The targets: inline pins (issue 22), and a pin archive of 1M pins (issue 34). */
export const SEARCH_TARGETS = { inlineP95: 50, archiveP95: 100, archiveRequests: 3 };

export interface SearchFigures {
  count: number;
  /** The pin archive searched; undefined for inline pins. */
  archive: string | undefined;
  /** The fields searched besides the title: config's `searchFields`, or those the archive's index holds. */
  fields: readonly string[];
  runs: number;
  /** Inline pins: the index's making on the first focus (ms). */
  indexMs: number;
  /** An archive: range requests made on the first focus (its index's directory). */
  directoryRequests: number;
  /** Each keystroke's time (ms). */
  times: number[];
  /** An archive: each keystroke's range requests. */
  perKey: number[];
  /** What the status said at the end of each query. */
  found: Record<string, string>;
  /** Cores, load before and after, Chromium. */
  machine: string;
}

export interface SearchBenchOptions {
  /** The app build to serve (a folder with index.html). */
  appDir: string;
  /** How many pins: generated inline, or those in `archive`. */
  count: number;
  runs: number;
  /** A pin archive (made by the pin tiler) to search instead of inline pins. */
  archive?: string;
  /** Config's `searchFields` (inline pins; an archive's index holds its own). */
  searchFields: readonly string[];
}

/** The fields an archive's search index holds besides the titles (its metadata's `pinmap.search.fields`). */
async function archiveSearchFields(path: string): Promise<string[]> {
  const fd = openSync(path, 'r');
  try {
    const source: Source = {
      getKey: () => path,
      getBytes: async (offset, length): Promise<RangeResponse> => {
        const data = Buffer.alloc(length);
        const read = readSync(fd, data, 0, length, offset);
        return { data: data.buffer.slice(0, read) };
      },
    };
    const { pinmap } = (await new PMTiles(source).getMetadata()) as { pinmap?: PinArchiveMetadata };
    return pinmap?.search?.fields ?? [];
  } finally {
    closeSync(fd);
  }
}

/** Serves the app with the pins, types every query `runs` times and returns the figures (see the file's comment). */
export async function measureSearch(browser: Browser, options: SearchBenchOptions): Promise<SearchFigures> {
  const { appDir, count, runs, archive, searchFields } = options;
  let archiveRequests = 0;
  const server = await startStaticServer({ '/': appDir, ...(archive ? { '/bench-archive/': dirname(archive) } : {}) }, 0, (path) => {
    if (path.startsWith('/bench-archive/')) archiveRequests++;
  });
  const pins = archive ? `pmtiles:///bench-archive/${basename(archive)}` : '/bench-search/pins.geojson';
  if (!archive) server.put('/bench-search/pins.geojson', JSON.stringify(generatePins(count, 1)));
  server.put('/bench-search/config.json', JSON.stringify({ pins, center: [10, 30], zoom: 2, fadeDuration: 0, controls: { search: true }, searchFields }));
  const loadBefore = loadavg();
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  try {
    await page.goto(`${server.origin}/?config=/bench-search/config.json`);
    await page.locator('.pinmap[data-map-state="idle"]').waitFor({ timeout: 120_000 });
    const typed = await typeQueries(page, runs, archive !== undefined, () => archiveRequests);
    const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(' ');
    const machine = `${cpus().length} cores, load average ${load(loadBefore)} before and ${load(loadavg())} after; Chromium ${browser.version()}, headless`;
    return { count, archive, fields: archive ? await archiveSearchFields(archive) : searchFields, runs, ...typed, machine };
  } finally {
    await page.close();
    await server.close();
  }
}

/** Times each keystroke of each query; `requests` says how many archive range requests were made so far. */
async function typeQueries(page: Page, runs: number, pretiled: boolean, requests: () => number) {
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

  const answered = () => page.waitForFunction(() => (window as unknown as { searchBench: { started: number } }).searchBench.started === 0, undefined, { timeout: 10_000 });
  const box = page.locator('.pinmap-search-input');
  const times: number[] = [];
  const perKey: number[] = [];
  const found: Record<string, string> = {};
  for (let run = 0; run < runs; run++) {
    for (const query of SEARCH_QUERIES) {
      await page.evaluate(() => ((window as unknown as { searchBench: { times: number[] } }).searchBench.times = []));
      for (const key of query) {
        const asked = requests();
        await page.keyboard.type(key);
        await answered();
        perKey.push(requests() - asked);
      }
      const typed = await page.evaluate(() => (window as unknown as { searchBench: { times: number[] } }).searchBench.times);
      if (process.env.PINMAP_BENCH_VERBOSE) console.log(query, typed.map((t) => t.toFixed(1)).join(' '));
      times.push(...typed);
      found[query] = (await page.locator('.pinmap-search [role="status"]').textContent()) ?? '';
      await box.fill('');
      await answered();
    }
  }
  return { indexMs, directoryRequests, times, perKey, found };
}

/** The archive search's target, judged: at most 3 range requests and p95 ≤ 100 ms per keystroke. */
export function archiveSearchTarget(f: SearchFigures): Target {
  const p95 = percentile(f.times, 95);
  const most = Math.max(...f.perKey);
  return {
    name: `Search of ${f.count.toLocaleString('en-US')} pre-tiled pins: ≤ ${SEARCH_TARGETS.archiveRequests} range requests and p95 ≤ ${SEARCH_TARGETS.archiveP95} ms per keystroke`,
    figure: `${most} request(s) at most, p95 ${p95.toFixed(1)} ms`,
    met: most <= SEARCH_TARGETS.archiveRequests && p95 <= SEARCH_TARGETS.archiveP95,
  };
}

/** The figures as a Markdown table, what each query found, and the machine. */
export function renderSearch(f: SearchFigures): string {
  const round = (ms: number) => ms.toFixed(1);
  const p95 = percentile(f.times, 95);
  const count = f.count.toLocaleString('en-US');
  const searched = ['title', ...f.fields].join(' and ');
  const lines = [`Search, ${count} pins${f.archive ? ' in a pin archive' : ''} (${searched}), ${f.times.length} keystrokes in ${f.runs} run(s) of ${SEARCH_QUERIES.map((q) => `"${q}"`).join(', ')}`, ''];
  if (f.archive) {
    const target = archiveSearchTarget(f);
    lines.push(
      '| pins | directory read on first focus | per keystroke p50 (ms) | p95 (ms) | slowest (ms) | range requests per keystroke: most, mean | target |',
      '|---:|---:|---:|---:|---:|---:|---|',
      `| ${count} (archive) | ${f.directoryRequests} request(s) | ${round(median(f.times))} | ${round(p95)} | ${round(Math.max(...f.times))} | ${Math.max(...f.perKey)}, ${(f.perKey.reduce((a, b) => a + b, 0) / f.perKey.length).toFixed(2)} | ` +
        `≤ ${SEARCH_TARGETS.archiveRequests} range requests and p95 ≤ ${SEARCH_TARGETS.archiveP95} ms per keystroke: ${target.met ? 'met' : '**missed**'} |`,
    );
  } else {
    lines.push(
      '| pins | index made on first focus (ms) | per keystroke p50 (ms) | p95 (ms) | slowest (ms) | target |',
      '|---:|---:|---:|---:|---:|---|',
      `| ${count} | ${round(f.indexMs)} | ${round(median(f.times))} | ${round(p95)} | ${round(Math.max(...f.times))} | ≤ ${SEARCH_TARGETS.inlineP95} ms per keystroke: ${p95 <= SEARCH_TARGETS.inlineP95 ? 'met' : '**missed**'} (p95) |`,
    );
  }
  lines.push('', ...Object.entries(f.found).map(([query, status]) => `- "${query}": ${status || 'no answer'}`), `- Machine: ${f.machine}`);
  return lines.join('\n');
}
