import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, CDPSession, Page } from '@playwright/test';
import type { CycleFigures, FrameFigures as FrameStats, RunSample, SizeEntry as Asset } from './report.ts';
import { deltas, percentile } from './stats.ts';

/**
 * What `npm run bench` does in the browser: one page load to `data-map-state="idle"`, the JS
 * heap after a forced garbage collection (through CDP), the JavaScript and CSS the page loaded
 * before that idle, a scripted pan and zoom with frame times, and the mount/destroy cycles of
 * the embed library. In-page code is kept as strings: tsx wraps named functions in a `__name`
 * helper that the page does not have.
 */

export const VIEWPORT = { width: 1000, height: 700 };
/** The pan: a 2 s mouse drag of about 400 px across the middle of the map. */
export const PAN = { ms: 2000, steps: 120, from: { x: 700, y: 380 }, to: { x: 300, y: 320 } };
/** The zoom: the keyboard's zoom-in key three times, 1/3 s apart (each eases 1 level in 250–300 ms), frames over 1 s. */
export const ZOOM = { ms: 1000, presses: 3 };
/** A pan or zoom that takes longer than this (a page too busy to take input) is "timed out". */
const GESTURE_CAP_MS = 60_000;

/** One page load's figures, and what it loaded when asked for. */
export interface Sample extends RunSample {
  /** JavaScript and CSS the page had loaded by its first idle (only when asked for). */
  assets?: Asset[];
  /** Every JavaScript URL the page loaded, until it closed (only when asked for). */
  allScripts?: string[];
}

export type Outcome = { ok: true; sample: Sample } | { ok: false; reason: string; timedOut: boolean };

export interface MeasureOptions {
  /** ms a page may take to reach idle. */
  loadCapMs: number;
  /** Which element takes the keyboard for the zoom. */
  focus: string;
  /** Record the JavaScript and CSS loaded before idle. */
  assets?: boolean;
  /** Skip the pan and zoom (a load-only measurement). */
  loadOnly?: boolean;
  /** Read the JS heap after idle (a forced GC first: it takes time, so only where it is reported). */
  heap?: boolean;
  /** Told of the page's browser context as soon as it is made (to watch its requests). */
  onContext?: (context: BrowserContext) => void;
  /** Told when the page first said idle, in epoch ms (as Playwright's request timings). */
  idleStamp?: (epochMs: number) => void;
}

declare global {
  interface Window {
    __bench?: { idleAt?: number; error?: string; stamps?: number[]; running?: boolean };
  }
}

/**
 * Runs in the page before its own scripts: notes the moment the map root first says idle (an
 * attribute observer, so adding thousands of marker elements costs it nothing) and any error.
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
})();`;

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

const STOP_FRAMES = `(() => {
  const bench = window.__bench;
  bench.running = false;
  return { stamps: bench.stamps || [], endedAt: performance.now() };
})()`;

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

export const TIMED_OUT = Symbol('timed out');
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((done) => (timer = setTimeout(() => done(TIMED_OUT), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The JS heap in use on the page's main thread after a full garbage collection, bytes. */
export async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize;
}

function frameStats(stamps: number[], from: number, to: number): FrameStats {
  const intervals = deltas(stamps.filter((t) => t >= from && t <= to));
  return { p50: percentile(intervals, 50), p95: percentile(intervals, 95), frames: intervals.length };
}

/** The 2 s drag, with frame intervals recorded in the page. */
async function pan(page: Page): Promise<FrameStats> {
  const { from, to } = PAN;
  await page.mouse.move(from.x, from.y);
  await page.evaluate(START_FRAMES);
  await sleep(100);
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
  const { stamps, endedAt } = (await page.evaluate(STOP_FRAMES)) as { stamps: number[]; endedAt: number };
  return frameStats(stamps, startedAt, endedAt);
}

/** The 1 s keyboard zoom, with frame intervals recorded in the page. */
async function zoom(page: Page, focus: string): Promise<FrameStats> {
  await page.focus(focus);
  await page.evaluate(START_FRAMES);
  await sleep(100);
  const startedAt = await page.evaluate(() => performance.now());
  const start = Date.now();
  for (let press = 0; press < ZOOM.presses; press++) {
    await sleep(Math.max(0, start + (press * ZOOM.ms) / ZOOM.presses - Date.now()));
    await page.keyboard.press('Equal');
  }
  await sleep(Math.max(0, start + ZOOM.ms - Date.now()));
  const { stamps } = (await page.evaluate(STOP_FRAMES)) as { stamps: number[] };
  return frameStats(stamps, startedAt, startedAt + ZOOM.ms);
}

/** One page load (in a fresh context: nothing cached), heap, and unless `loadOnly`, pan and zoom. `stuck`: the page could not even be closed. */
export async function measure(browser: Browser, url: string, options: MeasureOptions): Promise<Outcome & { stuck?: boolean; closeMs?: number }> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  await context.addInitScript({ content: WATCH_MAP_STATE });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  const bodies = options.assets ? collectAssets(context) : undefined;
  options.onContext?.(context);
  let outcome: Outcome;
  try {
    outcome = await measurePage(page, context, url, options, consoleErrors);
    if (outcome.ok && options.idleStamp) options.idleStamp((await page.evaluate('performance.timeOrigin + window.__bench.idleAt')) as number);
    if (outcome.ok && bodies) {
      // Playwright's request timing starts in epoch ms; the idle is in the page's clock.
      const idleAt = (await page.evaluate('performance.timeOrigin + window.__bench.idleAt')) as number;
      const all = await bodies.settle();
      outcome.sample.assets = all.filter((a) => a.endedAt <= idleAt).map(({ url, kind, bytes, gzipBytes }) => ({ url, kind, bytes, gzipBytes }));
      outcome.sample.allScripts = all.filter((a) => a.kind === 'script').map((a) => a.url);
    }
  } catch (error) {
    outcome = { ok: false, reason: error instanceof Error ? error.message.split('\n')[0]! : String(error), timedOut: false };
  }
  const closing = Date.now();
  const closed = await withTimeout(context.close(), 30_000);
  const closeMs = Date.now() - closing;
  return closed === TIMED_OUT ? { ...outcome, stuck: true, closeMs } : { ...outcome, closeMs };
}

type CollectedAsset = Asset & { endedAt: number };

/** The gzip size of a file's bytes, at level 9 (`gzip -9`): the size figure of every bench mode. */
export const gzipSize = (body: Uint8Array): number => gzipSync(body, { level: 9 }).length;

/**
 * Every JavaScript and CSS response of the context (the page's and its workers'), with its
 * body's size and gzip size (zlib, level 9) and when it ended (epoch ms).
 */
function collectAssets(context: BrowserContext): { settle(): Promise<CollectedAsset[]> } {
  const pending: Promise<CollectedAsset | undefined>[] = [];
  context.on('response', (response) => {
    const request = response.request();
    const type = request.resourceType();
    const url = response.url();
    const path = new URL(url).pathname;
    const isScript = type === 'script' || /\.m?js$/.test(path);
    const isStyle = type === 'stylesheet' || /\.css$/.test(path);
    if (!isScript && !isStyle) return;
    pending.push(
      response
        .body()
        .then((body) => {
          const timing = request.timing();
          return {
            url,
            kind: isScript ? ('script' as const) : ('stylesheet' as const),
            bytes: body.length,
            gzipBytes: gzipSize(body),
            endedAt: timing.startTime + Math.max(0, timing.responseEnd),
          };
        })
        .catch(() => undefined),
    );
  });
  return { settle: async () => (await Promise.all(pending)).filter((a): a is CollectedAsset => a !== undefined) };
}

async function measurePage(page: Page, context: BrowserContext, url: string, options: MeasureOptions, consoleErrors: string[]): Promise<Outcome> {
  const started = Date.now();
  await page.goto(url, { waitUntil: 'commit', timeout: options.loadCapMs });
  const state = await withTimeout(
    page
      .waitForFunction(() => (window.__bench ? (window.__bench.error ?? window.__bench.idleAt) : 'the bench watcher did not start'), null, {
        polling: 100,
        timeout: options.loadCapMs + 5000,
      })
      .then((h) => h.jsonValue()),
    Math.max(1000, options.loadCapMs - (Date.now() - started)),
  );
  if (state === TIMED_OUT) return { ok: false, reason: `timed out (> ${Math.round(options.loadCapMs / 1000)} s to idle)`, timedOut: true };
  if (typeof state === 'string') return { ok: false, reason: `map error: ${state}${consoleErrors[0] ? ` (${consoleErrors[0]})` : ''}`, timedOut: false };
  const idleMs = state as number;
  const cdp = await context.newCDPSession(page);
  const heapBytes = options.heap ? await heapAfterGc(cdp) : Number.NaN;
  const details = await page.evaluate(() => ({
    domMarkers: document.querySelectorAll('.maplibregl-marker, .leaflet-marker-icon').length,
    notice: document.querySelector('.pinmap-notice-text')?.textContent ?? undefined,
  }));
  const none: FrameStats = { p50: Number.NaN, p95: Number.NaN, frames: 0 };
  let panned = none;
  let zoomed = none;
  if (!options.loadOnly) {
    await sleep(100);
    const p = await withTimeout(pan(page), GESTURE_CAP_MS);
    if (p === TIMED_OUT) return { ok: false, reason: `pan timed out (> ${GESTURE_CAP_MS / 1000} s for the 2 s drag)`, timedOut: true };
    panned = p;
    await sleep(100);
    const z = await withTimeout(zoom(page, options.focus), GESTURE_CAP_MS);
    if (z === TIMED_OUT) return { ok: false, reason: `zoom timed out (> ${GESTURE_CAP_MS / 1000} s for the 1 s zoom)`, timedOut: true };
    zoomed = z;
  }
  await cdp.detach().catch(() => {});
  return {
    ok: true,
    sample: { idleMs, heapBytes, pan: panned, zoom: zoomed, domMarkers: details.domMarkers, ...(details.notice ? { notice: details.notice } : {}) },
  };
}

/** The mount/destroy page's map: smaller than the others, so 20 cycles take less time; a leak does not depend on the size. */
export const CYCLE_VIEWPORT = { width: 320, height: 200 };

/**
 * Mounts and destroys a map `cycles` times on the embed page (`createPinmap(el, config)`,
 * `await ready`, `destroy()`), reading the heap after a forced GC before the first mount, after
 * the first cycle and after the last.
 */
export async function mountCycles(browser: Browser, url: string, config: object, cycles: number, capMs: number): Promise<{ ok: true; sample: CycleFigures } | { ok: false; reason: string }> {
  const context = await browser.newContext({ viewport: CYCLE_VIEWPORT, deviceScaleFactor: 1 });
  const page = await context.newPage();
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction('typeof window.__mountOnce === "function"', null, { timeout: 30_000 });
    const cdp = await context.newCDPSession(page);
    const fonts = async () => (await page.evaluate('document.fonts.size')) as number;
    const fontsBefore = await fonts();
    const before = await heapAfterGc(cdp);
    const started = Date.now();
    const once = () => page.evaluate(`window.__mountOnce(${JSON.stringify(config)})`);
    let afterFirst = before;
    for (let cycle = 1; cycle <= cycles; cycle++) {
      const done = await withTimeout(once(), capMs);
      if (done === TIMED_OUT) return { ok: false, reason: `cycle ${cycle} did not reach idle in ${capMs / 1000} s` };
      if (cycle === 1) afterFirst = await heapAfterGc(cdp);
    }
    const ms = Date.now() - started;
    const afterLast = await heapAfterGc(cdp);
    return { ok: true, sample: { before, afterFirst, afterLast, cycles, ms, fontsBefore, fontsAfter: await fonts() } };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  } finally {
    await withTimeout(context.close(), 30_000);
  }
}

/** The page that loads the embed library and mounts/destroys one map per `__mountOnce(config)`. */
export function mountPage(libPath: string): string {
  return `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><title>Pinmap bench: mount and destroy</title><link rel="stylesheet" href="${libPath}/pinmap.css" /></head>
  <body style="margin:0">
    <div id="map" style="width:${CYCLE_VIEWPORT.width}px;height:${CYCLE_VIEWPORT.height}px"></div>
    <script type="module">
      import { createPinmap } from '${libPath}/pinmap-embed.js';
      window.__mountOnce = async (config) => {
        const map = createPinmap('map', config);
        try { await map.ready; } finally { map.destroy(); }
        // Let React finish the unmount before the next mount.
        await new Promise((resolve) => setTimeout(resolve, 0));
      };
    </script>
  </body>
</html>`;
}

