/**
 * `npm run bench:pins`: how the app copes with many pins, in headless Chromium (software WebGL).
 *
 * For each pin count (default 1k, 10k, 100k, from scripts/synthetic-pins.ts) it opens
 * - the app (`/?config=…`, the production build), which draws sets above `domPinLimit` as a
 *   clustered GPU symbol layer, and
 * - the baseline: a bare MapLibre map on the same style and camera with one default
 *   `new Marker()` per pin (scripts/bench/markers.html),
 * plus both with no pins, and measures
 * - time to idle: ms from navigation start until the map root has `data-map-state="idle"`;
 * - pan frame times: a scripted 2 s mouse drag across the map while a requestAnimationFrame loop
 *   in the page records the time between frames; p50 and p95 of those intervals.
 * Each row is the median of `--runs` runs (rows are interleaved run by run, so a change in the
 * machine's load hits every row alike). Prints a Markdown table; exits 0 whatever the figures,
 * non-zero only when it could not measure at all.
 *
 *   npm run bench:pins
 *   npm run bench:pins -- --counts 1000,10000 --runs 1
 *   npm run bench:pins -- --out bench-pins.md       # also write the report to a file
 *   PINMAP_BENCH_APP_DIR=dist npm run bench:pins     # measure an existing app build
 *
 * The app is built from the working tree into a temporary folder (never dist/) and served,
 * with the baseline page and the generated pins, by a small server on a free port.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from '@playwright/test';
import { build } from 'vite';
import { CHROMIUM_ARGS, findChromium } from '../tests/chromium.ts';
import { startStaticServer, type StaticServer } from './bench/server.ts';
import { deltas, median, percentile } from './bench/stats.ts';
import { generatePins } from './synthetic-pins.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CAMERA = { center: [10, 30] as [number, number], zoom: 2 };
const FADE_DURATION = 300;
const VIEWPORT = { width: 1000, height: 700 };
const PAN = { ms: 2000, steps: 120, from: { x: 700, y: 380 }, to: { x: 300, y: 320 } };
const PAN_CAP_MS = 60_000;
const SEED = 1;
/** Target of the issue: at 100k pins, pan p95 within this factor of the no-pin map's. */
const TARGET_COUNT = 100_000;
const TARGET_FACTOR = 1.5;

type PageKind = 'app' | 'markers';

interface Sample {
  idleMs: number;
  panP50: number;
  panP95: number;
  frames: number;
  domMarkers: number;
  notice?: string;
}

type Outcome = { ok: true; sample: Sample } | { ok: false; reason: string; timedOut: boolean };

interface Row {
  kind: PageKind;
  count: number;
  samples: Sample[];
  failures: string[];
  /** Runs that timed out, and why the first one did. */
  timeouts: number;
  timedOut?: string;
}

declare global {
  interface Window {
    __bench?: { idleAt?: number; error?: string; stamps?: number[]; running?: boolean };
  }
}

function usage(): string {
  return [
    'Usage: npm run bench:pins -- [--counts 1000,10000,100000] [--runs 3] [--timeout 120] [--out file.md] [--pins-delay ms]',
    '  --counts   pin counts to measure (a no-pin row is always added)',
    '  --runs     runs per row; the table shows medians (default 3)',
    '  --timeout  seconds a page may take to reach idle before the row is "timed out" (default 120)',
    '  --out      also write the report (Markdown) to this file',
    '  --pins-delay  diagnostic: the server answers pin requests this many ms late (time to idle includes it)',
    'Env: PINMAP_BENCH_APP_DIR=<dir> measures an existing app build instead of building one;',
    '     PINMAP_CHROMIUM=<path> picks the browser (as the tests do).',
  ].join('\n');
}

function parseCli() {
  const { values } = parseArgs({
    options: {
      counts: { type: 'string', default: '1000,10000,100000' },
      runs: { type: 'string', default: '3' },
      timeout: { type: 'string', default: '120' },
      out: { type: 'string' },
      'pins-delay': { type: 'string', default: '0' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(usage());
    process.exit(0);
  }
  const counts = values.counts.split(',').map((s) => Number(s.trim()));
  if (counts.some((n) => !Number.isInteger(n) || n <= 0)) throw new Error(`--counts must be positive whole numbers (got "${values.counts}")\n${usage()}`);
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be 1 or more (got "${values.runs}")`);
  const timeoutS = Number(values.timeout);
  if (!(timeoutS > 0)) throw new Error(`--timeout must be a number of seconds (got "${values.timeout}")`);
  const pinsDelayMs = Number(values['pins-delay']);
  if (!(pinsDelayMs >= 0)) throw new Error(`--pins-delay must be 0 or more ms (got "${values['pins-delay']}")`);
  return { counts: [...new Set(counts)].sort((a, b) => a - b), runs, loadCapMs: timeoutS * 1000, out: values.out, pinsDelayMs };
}

const log = (message: string) => process.stderr.write(`${message}\n`);
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** Builds the app (unless given one) and the baseline page into `tmp`. */
async function buildPages(tmp: string): Promise<{ appDir: string; markersDir: string; appSource: string }> {
  const given = process.env.PINMAP_BENCH_APP_DIR;
  let appDir: string;
  let appSource: string;
  if (given) {
    appDir = resolve(given);
    if (!existsSync(join(appDir, 'index.html'))) throw new Error(`PINMAP_BENCH_APP_DIR=${given}: no index.html there`);
    appSource = `existing build in ${given}`;
  } else {
    appDir = join(tmp, 'app');
    log(`Building the app into ${appDir} …`);
    await build({ root: ROOT, configFile: join(ROOT, 'vite.config.ts'), mode: 'production', logLevel: 'warn', build: { outDir: appDir, emptyOutDir: true } });
    appSource = `production build of the working tree (${gitDescription()})`;
  }
  const markersDir = join(tmp, 'markers');
  log('Building the DOM-marker baseline page …');
  await build({
    root: join(ROOT, 'scripts/bench'),
    configFile: false,
    base: './',
    publicDir: false,
    logLevel: 'warn',
    build: {
      outDir: markersDir,
      emptyOutDir: true,
      chunkSizeWarningLimit: 5000,
      rollupOptions: { input: join(ROOT, 'scripts/bench/markers.html') },
    },
  });
  return { appDir, markersDir, appSource };
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

/** Puts the pins and configs on the server; returns the page URL of each row. */
function publishInputs(server: StaticServer, counts: number[], pinsDelayMs: number): (kind: PageKind, count: number) => string {
  for (const count of counts) {
    log(`Generating ${count.toLocaleString('en-US')} pins …`);
    server.put(`/__bench/data/pins-${count}.json`, JSON.stringify(generatePins(count, SEED)), { delayMs: pinsDelayMs });
  }
  for (const count of [0, ...counts]) {
    const config = { ...CAMERA, fadeDuration: FADE_DURATION, ...(count > 0 ? { pins: `/__bench/data/pins-${count}.json` } : {}) };
    server.put(`/__bench/data/config-${count}.json`, JSON.stringify(config));
  }
  return (kind, count) => {
    if (kind === 'app') return `${server.origin}/?config=${encodeURIComponent(`/__bench/data/config-${count}.json`)}`;
    const params = new URLSearchParams({
      style: '/basemap/style.json',
      center: JSON.stringify(CAMERA.center),
      zoom: String(CAMERA.zoom),
      fadeDuration: String(FADE_DURATION),
      ...(count > 0 ? { pins: `/__bench/data/pins-${count}.json` } : {}),
    });
    return `${server.origin}/__bench/markers/markers.html?${params}`;
  };
}

/**
 * Runs in the page before its own scripts: notes the moment the map root first says idle (an
 * attribute observer, so adding thousands of marker elements costs it nothing) and any error.
 * In-page code is kept as strings: tsx wraps named functions in a `__name` helper that the page
 * does not have.
 */
const WATCH_MAP_STATE = `(() => {
  const bench = {};
  window.__bench = bench;
  const check = () => {
    const root = document.querySelector('.pinmap');
    const state = root && root.getAttribute('data-map-state');
    if (state === 'idle' && bench.idleAt === undefined) bench.idleAt = performance.now();
    if (state === 'error' && bench.error === undefined) {
      bench.error = (root.getAttribute('data-error') || root.textContent || 'error').trim().slice(0, 300);
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-map-state'] });
})();`

/** Starts recording requestAnimationFrame times into `__bench.stamps`. */
const START_FRAMES = `(() => {
  const bench = window.__bench;
  bench.stamps = [];
  bench.running = true;
  const loop = (time) => {
    if (!bench.running) return;
    bench.stamps.push(time);
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
})()`;

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((done) => (timer = setTimeout(() => done(TIMED_OUT), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
const TIMED_OUT = Symbol('timed out');

/** The 2 s drag with frame intervals recorded in the page: their p50, p95 and count. */
async function pan(page: Page): Promise<{ p50: number; p95: number; frames: number }> {
  const { from, to } = PAN;
  await page.mouse.move(from.x, from.y);
  await page.evaluate(START_FRAMES);
  await sleep(250);
  const startedAt = await page.evaluate(() => performance.now());
  await page.mouse.down();
  // Where the pointer is follows the clock, not the step count: a page that answers slowly
  // gets fewer moves, but the same distance in the same 2 s.
  const start = Date.now();
  for (let step = 1; ; step++) {
    const f = Math.min(1, (Date.now() - start) / PAN.ms);
    await page.mouse.move(from.x + (to.x - from.x) * f, from.y + (to.y - from.y) * f);
    if (f >= 1) break;
    const next = start + (step * PAN.ms) / PAN.steps;
    await sleep(Math.max(0, next - Date.now()));
  }
  await page.mouse.up();
  const { stamps, endedAt } = await page.evaluate(() => {
    const bench = window.__bench!;
    bench.running = false;
    return { stamps: bench.stamps ?? [], endedAt: performance.now() };
  });
  const during = stamps.filter((t) => t >= startedAt && t <= endedAt);
  const intervals = deltas(during);
  return { p50: percentile(intervals, 50), p95: percentile(intervals, 95), frames: intervals.length };
}

/** One page load and pan. `stuck` is set when the page could not even be closed. */
async function measure(browser: Browser, url: string, loadCapMs: number): Promise<Outcome & { stuck?: boolean }> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  await context.addInitScript({ content: WATCH_MAP_STATE });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  let outcome: Outcome;
  try {
    outcome = await measurePage(page, url, loadCapMs, consoleErrors);
  } catch (error) {
    outcome = { ok: false, reason: error instanceof Error ? error.message.split('\n')[0]! : String(error), timedOut: false };
  }
  const closed = await withTimeout(context.close(), 30_000);
  return closed === TIMED_OUT ? { ...outcome, stuck: true } : outcome;
}

async function measurePage(page: Page, url: string, loadCapMs: number, consoleErrors: string[]): Promise<Outcome> {
  const started = Date.now();
  await page.goto(url, { waitUntil: 'commit', timeout: loadCapMs });
  const state = await withTimeout(
    page.waitForFunction(() => (window.__bench ? (window.__bench.error ?? window.__bench.idleAt) : 'the bench watcher did not start'), null, { polling: 100, timeout: loadCapMs + 5000 }).then((h) => h.jsonValue()),
    Math.max(1000, loadCapMs - (Date.now() - started)),
  );
  if (state === TIMED_OUT) return { ok: false, reason: `timed out (> ${Math.round(loadCapMs / 1000)} s to idle)`, timedOut: true };
  if (typeof state === 'string') return { ok: false, reason: `map error: ${state}${consoleErrors[0] ? ` (${consoleErrors[0]})` : ''}`, timedOut: false };
  const idleMs = state as number;
  const details = await page.evaluate(() => ({
    domMarkers: document.querySelectorAll('.maplibregl-marker').length,
    notice: document.querySelector('.pinmap-notice-text')?.textContent ?? undefined,
  }));
  await sleep(300);
  const panned = await withTimeout(pan(page), PAN_CAP_MS);
  if (panned === TIMED_OUT) return { ok: false, reason: `pan timed out (> ${PAN_CAP_MS / 1000} s for the 2 s drag)`, timedOut: true };
  return {
    ok: true,
    sample: { idleMs, panP50: panned.p50, panP95: panned.p95, frames: panned.frames, domMarkers: details.domMarkers, ...(details.notice ? { notice: details.notice } : {}) },
  };
}

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
const fmtCount = (n: number) => (n === 0 ? 'none' : n.toLocaleString('en-US'));

function rendererOf(row: Row): string {
  if (row.kind === 'markers') return row.count === 0 ? 'MapLibre page, no markers' : 'MapLibre `Marker` per pin (DOM)';
  if (row.count === 0) return 'Pinmap app, no pins';
  const dom = row.samples.some((s) => s.domMarkers > 0);
  return dom ? 'Pinmap app (DOM markers)' : 'Pinmap app (GL symbols + clusters)';
}

interface Summary {
  idleMs: number;
  p50: number;
  p95: number;
  frames: number;
}

function summarise(row: Row): Summary | undefined {
  if (row.samples.length === 0) return undefined;
  return {
    idleMs: median(row.samples.map((s) => s.idleMs)),
    p50: median(row.samples.map((s) => s.panP50)),
    p95: median(row.samples.map((s) => s.panP95)),
    frames: median(row.samples.map((s) => s.frames)),
  };
}

function report(rows: Row[], info: string[], counts: number[]): { text: string; target: string } {
  const noPin = (kind: PageKind) => summarise(rows.find((r) => r.kind === kind && r.count === 0)!);
  const lines = [
    '| pins | renderer | time to idle (ms) | pan p50 (ms) | pan p95 (ms) | frames in pan | p95 vs no pins |',
    '|---:|---|---:|---:|---:|---:|---:|',
  ];
  const ordered = [...rows].sort((a, b) => a.count - b.count || (a.kind === 'app' ? -1 : 1));
  for (const row of ordered) {
    const s = summarise(row);
    const base = noPin(row.kind);
    const runs = row.samples.length;
    const attempts = runs + row.failures.length + row.timeouts;
    const partial =
      runs > 0 && attempts > runs
        ? ` (measured in ${runs} of ${attempts} runs; ${row.timeouts > 0 ? `${row.timeouts} timed out` : ''}${row.timeouts > 0 && row.failures.length > 0 ? ', ' : ''}${row.failures.length > 0 ? `${row.failures.length} failed` : ''})`
        : '';
    if (!s) {
      const why = row.timedOut ? `${row.timedOut}${row.timeouts > 1 ? ` in all ${row.timeouts} runs` : ''}` : (row.failures[0] ?? 'not run');
      lines.push(`| ${fmtCount(row.count)} | ${rendererOf(row)} | ${why} | – | – | – | – |`);
      continue;
    }
    const ratio = base && row.count > 0 ? `${(s.p95 / base.p95).toFixed(2)}×` : row.count === 0 ? '1.00×' : '–';
    lines.push(`| ${fmtCount(row.count)} | ${rendererOf(row)}${partial} | ${fmtMs(s.idleMs)} | ${fmtMs(s.p50)} | ${fmtMs(s.p95)} | ${s.frames} | ${ratio} |`);
  }

  let target: string;
  const appTarget = summarise(rows.find((r) => r.kind === 'app' && r.count === TARGET_COUNT) ?? { kind: 'app', count: 0, samples: [], failures: [], timeouts: 0 });
  const appBase = noPin('app');
  if (!counts.includes(TARGET_COUNT)) target = `Target (${fmtCount(TARGET_COUNT)} pins: pan p95 ≤ ${TARGET_FACTOR}× no pins): not measured in this run.`;
  else if (!appTarget || !appBase) target = `Target (${fmtCount(TARGET_COUNT)} pins: pan p95 ≤ ${TARGET_FACTOR}× no pins): could not be measured.`;
  else {
    const ratio = appTarget.p95 / appBase.p95;
    const met = ratio <= TARGET_FACTOR;
    target = `Target (${fmtCount(TARGET_COUNT)} pins: pan p95 ≤ ${TARGET_FACTOR}× no pins): ${met ? 'MET' : 'NOT MET'} — ${fmtMs(appTarget.p95)} ms vs ${fmtMs(appBase.p95)} ms = ${ratio.toFixed(2)}×.`;
  }

  const notices = rows.flatMap((r) => r.samples.filter((s) => s.notice).map((s) => `${fmtCount(r.count)} ${r.kind}: page notice "${s.notice}"`));
  const failures = rows.flatMap((r) => r.failures.map((f) => `${fmtCount(r.count)} ${rendererOf(r)}: ${f}`));
  const text = [
    lines.join('\n'),
    '',
    target,
    '',
    'Medians of the runs; "p95 vs no pins" compares each row with the no-pin row of the same page. ' +
      `Camera [${CAMERA.center.join(', ')}] zoom ${CAMERA.zoom}, viewport ${VIEWPORT.width}×${VIEWPORT.height} at device scale 1, fadeDuration ${FADE_DURATION} ms; ` +
      `pan: a ${PAN.ms / 1000} s mouse drag of ${Math.round(Math.hypot(PAN.to.x - PAN.from.x, PAN.to.y - PAN.from.y))} px, frame time = interval between requestAnimationFrame callbacks. ` +
      'Time to idle is from navigation start and includes fetching and parsing the pins.',
    '',
    ...info.map((line) => `- ${line}`),
    ...(notices.length || failures.length ? ['', ...[...new Set([...notices, ...failures])].map((l) => `- note: ${l}`)] : []),
  ].join('\n');
  return { text, target };
}

async function main(): Promise<number> {
  const { counts, runs, loadCapMs, out, pinsDelayMs } = parseCli();
  const loadBefore = loadavg();
  const tmp = mkdtempSync(join(tmpdir(), 'pinmap-bench-'));
  let browser: Browser | undefined;
  let server: StaticServer | undefined;
  try {
    const { appDir, markersDir, appSource } = await buildPages(tmp);
    server = await startStaticServer({ '/': appDir, '/__bench/markers/': markersDir });
    const urlOf = publishInputs(server, counts, pinsDelayMs);
    browser = await launch();
    const chromiumVersion = browser.version();
    const renderer = await webglRenderer(browser);

    const rows: Row[] = [];
    for (const count of [0, ...counts]) for (const kind of ['app', 'markers'] as const) rows.push({ kind, count, samples: [], failures: [], timeouts: 0 });

    // One untimed load of each page first, so no row pays for a cold browser (JIT, caches).
    log('Warming up …');
    for (const kind of ['app', 'markers'] as const) await measure(browser, urlOf(kind, 0), loadCapMs);

    const benchStart = Date.now();
    for (let run = 1; run <= runs; run++) {
      for (const row of rows) {
        // A baseline that timed out is slow, not flaky: it is not tried again. The app is.
        if (row.kind === 'markers' && row.timedOut) continue;
        const label = `run ${run}/${runs}: ${fmtCount(row.count)} pins, ${row.kind === 'app' ? 'app' : 'MapLibre markers'}`;
        log(`${label} …`);
        const result = await measure(browser, urlOf(row.kind, row.count), loadCapMs);
        if (result.ok) {
          row.samples.push(result.sample);
          const s = result.sample;
          log(`  idle ${fmtMs(s.idleMs)} ms, pan p50 ${fmtMs(s.panP50)} ms, p95 ${fmtMs(s.panP95)} ms, ${s.frames} frames${s.domMarkers ? `, ${s.domMarkers} DOM markers` : ''}`);
        } else {
          log(`  ${result.reason}`);
          if (result.timedOut) {
            row.timeouts++;
            row.timedOut ??= result.reason;
          } else row.failures.push(result.reason);
        }
        if (result.stuck) {
          log('  the page did not close: restarting Chromium');
          await withTimeout(browser.close(), 30_000);
          browser = await launch();
        }
      }
    }

    const loadAfter = loadavg();
    const cpu = cpus();
    const info = [
      `Machine: ${cpu.length} CPU${cpu.length === 1 ? '' : 's'} (${cpu[0]?.model.trim() ?? 'unknown'}), load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before and ${loadAfter.map((l) => l.toFixed(2)).join(' ')} after (1/5/15 min)`,
      `Chromium ${chromiumVersion}, headless; WebGL: ${renderer}`,
      `App: ${appSource}; baseline: scripts/bench/markers.html (maplibre-gl ${maplibreVersion()}); Node ${process.version}`,
      `${runs} run${runs === 1 ? '' : 's'} per row, ${((Date.now() - benchStart) / 1000).toFixed(0)} s in all; pins from generatePins(count, ${SEED}); load cap ${loadCapMs / 1000} s, pan cap ${PAN_CAP_MS / 1000} s`,
      ...(pinsDelayMs > 0 ? [`DIAGNOSTIC: pins were served ${pinsDelayMs} ms late (--pins-delay); time to idle includes that delay`] : []),
    ];
    const { text } = report(rows, info, counts);
    console.log(`\n${text}`);
    if (out) writeFileSync(out, `${text}\n`);
    // Without the no-pin app row there is nothing to compare with: the bench could not run.
    return rows.find((r) => r.kind === 'app' && r.count === 0)!.samples.length > 0 ? 0 : 1;
  } finally {
    if (browser) await withTimeout(browser.close(), 30_000);
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

function maplibreVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'node_modules/maplibre-gl/package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench:pins could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
