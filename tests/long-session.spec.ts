import { expect, test, type CDPSession, type Page } from './test.ts';
import { watchCsp } from './csp-violations.ts';
import { openEmbedPage, watchConsole, type EmbedWindow } from './helpers.ts';
import { countListeners, liveListenerTypes, liveListeners } from './listeners.ts';
import { countWebGLContexts, liveWebGLContexts } from './webgl-contexts.ts';
import { countWorkers, liveWorkers } from './workers.ts';

/**
 * A long session in one page, as a site that keeps a map open all day sees it: the embed library
 * (under the library's Content Security Policy) mounts and destroys a map 20 times, in both views,
 * then one map switches views 20 times. Nothing may pile up: WebGL contexts, workers, window and
 * document listeners, font faces, DOM, and the JS heap (after a forced garbage collection) grows
 * by less than 20 MB over the whole session. No console error or warning, so no "Too many active
 * WebGL contexts" either.
 */

const CYCLES = 20;
const SWITCHES = 20;
/** Every fifth mount is of the hybrid view. */
const isHybridCycle = (cycle: number) => cycle % 5 === 4;
const MAX_HEAP_GROWTH_MB = 20;

/** A few pins, so markers, their bubbles and their listeners come and go with each map. */
const PINS = {
  type: 'FeatureCollection' as const,
  features: (
    [
      ['paris', 2.35, 48.86],
      ['berlin', 13.4, 52.52],
      ['rome', 12.5, 41.9],
      ['madrid', -3.7, 40.42],
      ['vienna', 16.37, 48.21],
      ['munich', 11.58, 48.14],
      ['zurich', 8.54, 47.37],
      ['oslo', 10.75, 59.91],
    ] as const
  ).map(([id, lng, lat]) => ({ type: 'Feature' as const, id, geometry: { type: 'Point' as const, coordinates: [lng, lat] }, properties: { title: id } })),
};

const MB = 1024 * 1024;

/** The JS heap in use on the page's main thread after a full garbage collection, bytes. */
async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize;
}

/** What a map that comes and goes could leave behind. */
async function leftovers(page: Page) {
  return {
    webgl: (await liveWebGLContexts(page)).alive,
    workers: await liveWorkers(page),
    listeners: await liveListeners(page),
    fonts: await page.evaluate(() => document.fonts.size),
    elements: await page.locator('#map canvas, #map .pinmap, #map .leaflet-container, #map .pinmap-pin, .maplibregl-popup, .leaflet-popup').count(),
  };
}

/** Resolves once the map shows `view`, the `contexts`-th WebGL context was made (a new map) and it is idle. */
async function waitForNewMap(page: Page, view: 'vector' | 'hybrid', contexts: number): Promise<void> {
  await page.waitForFunction(
    ({ view, contexts }) => {
      const root = document.querySelector('#map .pinmap');
      const made = (window as unknown as { __webgl: { created: number } }).__webgl.created;
      return root?.getAttribute('data-view') === view && made === contexts && root.getAttribute('data-map-state') === 'idle';
    },
    { view, contexts },
    { timeout: 30_000 },
  );
}

test('20 mounts and destroys, then 20 view switches, in one page: nothing piles up and the heap stays within 20 MB', async ({ page }) => {
  test.setTimeout(420_000); // about a hundred maps loaded to idle on a busy machine; the figures are printed
  await countWebGLContexts(page);
  await countWorkers(page);
  await countListeners(page);
  const csp = await watchCsp(page);
  const console = watchConsole(page);
  await openEmbedPage(page, { width: 320, height: 240 });
  const cdp = await page.context().newCDPSession(page);

  const beforeAnyMap = await leftovers(page);
  const listenersBeforeAnyMap = await liveListenerTypes(page);
  const heap = { before: await heapAfterGc(cdp), afterFirstCycle: 0, afterCycles: 0, afterSwitches: 0, atEnd: 0 };
  expect(beforeAnyMap).toMatchObject({ webgl: 0, workers: 0, elements: 0 });
  // What the first map of each view sets up once for the page (MapLibre's and Leaflet's own
  // page-wide listeners) is the baseline every later map must come back to.
  let baseline = beforeAnyMap;
  let setUpOnce: string[] = [];

  // Mount and destroy: each map loaded to idle, then destroyed.
  const cyclesStarted = Date.now();
  let workersShown = { vector: 0, hybrid: 0 };
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const view: 'vector' | 'hybrid' = isHybridCycle(cycle) ? 'hybrid' : 'vector';
    const shown = await page.evaluate(
      async ({ cycle, view, pins }) => {
        const w = window as unknown as EmbedWindow & { __workers: { workers: number } };
        const handle = w.Pinmap.createPinmap('map', { view, center: [10, 50], zoom: 2 + (cycle % 3), fadeDuration: 0, pins });
        await handle.ready;
        const workers = w.__workers.workers;
        const pinsShown = document.querySelectorAll('#map .pinmap-pin, #map .pinmap-cluster').length;
        handle.destroy();
        return { workers, pinsShown };
      },
      { cycle, view, pins: PINS },
    );
    expect(shown.pinsShown, `pins of map ${cycle + 1}`).toBeGreaterThan(0);
    workersShown = { ...workersShown, [view]: Math.max(workersShown[view], shown.workers) };
    if (cycle === 0) heap.afterFirstCycle = await heapAfterGc(cdp);
    if (cycle === 4) {
      await expect.poll(async () => (await leftovers(page)).webgl).toBe(0);
      baseline = await leftovers(page);
      const now = await liveListenerTypes(page);
      setUpOnce = now.filter((type) => !listenersBeforeAnyMap.includes(type));
      expect({ ...baseline, listeners: beforeAnyMap.listeners }, 'left after the first map of each view').toEqual(beforeAnyMap);
      expect(setUpOnce.length, `listeners the first maps set up: ${setUpOnce.join(', ')}`).toBeLessThanOrEqual(4);
    }
  }
  const cyclesMs = Date.now() - cyclesStarted;
  await expect.poll(() => liveWebGLContexts(page)).toEqual({ created: CYCLES, alive: 0 });
  await expect.poll(() => leftovers(page)).toEqual(baseline);
  expect(workersShown.vector).toBeGreaterThan(0);
  expect(workersShown.hybrid).toBeGreaterThan(0);
  heap.afterCycles = await heapAfterGc(cdp);

  // One map, switched between the views with its view control, as a user does.
  const switchesStarted = Date.now();
  await page.evaluate((pins) => {
    const w = window as unknown as EmbedWindow;
    w.handle = w.Pinmap.createPinmap('map', { center: [10, 50], zoom: 3, fadeDuration: 0, pins, controls: { view: 'top-left' } });
  }, PINS);
  let contexts = CYCLES + 1;
  await waitForNewMap(page, 'vector', contexts);
  const live = async () => ({ webgl: (await liveWebGLContexts(page)).alive, workers: await liveWorkers(page), listeners: await liveListeners(page) });
  const inVector = await live();
  let inHybrid: Awaited<ReturnType<typeof live>> | undefined;
  const switcher = page.getByRole('group', { name: 'Map view' });
  for (let i = 1; i <= SWITCHES; i++) {
    const view = i % 2 === 1 ? 'hybrid' : 'vector';
    await switcher.getByRole('button', { name: view === 'hybrid' ? 'Hybrid' : 'Map', exact: true }).click();
    await waitForNewMap(page, view, ++contexts);
    if (i === 1) inHybrid = await live();
    if (i === SWITCHES - 1) expect(await live(), `in the hybrid view after ${i} switches`).toEqual(inHybrid);
  }
  const switchesMs = Date.now() - switchesStarted;
  expect(await live(), `in the vector view after ${SWITCHES} switches`).toEqual(inVector);
  expect(inVector.webgl).toBe(1);
  heap.afterSwitches = await heapAfterGc(cdp);
  await page.evaluate(() => (window as unknown as EmbedWindow).handle!.destroy());
  await expect.poll(() => liveWebGLContexts(page)).toEqual({ created: CYCLES + 1 + SWITCHES, alive: 0 });
  await expect.poll(() => leftovers(page)).toEqual(baseline);
  heap.atEnd = await heapAfterGc(cdp);

  const growth = (heap.atEnd - heap.before) / MB;
  const mb = (bytes: number) => (bytes / MB).toFixed(1);
  const figures =
    `Long session: ${CYCLES} mounts/destroys (${CYCLES / 5} hybrid) in ${(cyclesMs / 1000).toFixed(0)} s (${(cyclesMs / CYCLES).toFixed(0)} ms each), ` +
    `${SWITCHES} view switches in ${(switchesMs / 1000).toFixed(0)} s (${(switchesMs / SWITCHES).toFixed(0)} ms each); ` +
    `${CYCLES + 1 + SWITCHES} WebGL contexts made, 0 left; workers at most ${workersShown.vector} (vector) / ${workersShown.hybrid} (hybrid), 0 left; ` +
    `window+document listeners ${beforeAnyMap.listeners} before any map, ${baseline.listeners} after the first of each view (${setUpOnce.join(', ') || 'none'} set up once) and after all, ${inVector.listeners} with the vector map, ${inHybrid!.listeners} with the hybrid; font faces ${baseline.fonts} before and after; ` +
    `heap ${mb(heap.before)} MB before, ${mb(heap.afterFirstCycle)} after 1 cycle, ${mb(heap.afterCycles)} after ${CYCLES}, ${mb(heap.afterSwitches)} after ${SWITCHES} switches, ${mb(heap.atEnd)} at the end: ` +
    `growth ${growth.toFixed(2)} MB (limit ${MAX_HEAP_GROWTH_MB}); console errors ${console.errors.length}, warnings ${console.warnings.length}, CSP violations ${csp.violations.length}`;
  globalThis.console.log(figures);
  test.info().annotations.push({ type: 'figures', description: figures });

  expect([...console.errors, ...console.warnings].filter((m) => /webgl/i.test(m)), 'WebGL warnings').toEqual([]);
  expect(console.errors).toEqual([]);
  expect(console.warnings).toEqual([]);
  expect(csp.violations).toEqual([]);
  expect(growth).toBeLessThan(MAX_HEAP_GROWTH_MB);
});
