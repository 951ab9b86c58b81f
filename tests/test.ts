import type { EventEmitter } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { test as base, type BrowserContextOptions, type Disposable, type Page, type Route } from '@playwright/test';

export { chromium, expect } from '@playwright/test';
export type { Browser, BrowserContext, CDPSession, ConsoleMessage, Locator, Page, Request, Response, Route } from '@playwright/test';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time, in ms, of this worker process and every process below it (its Chromium and the
 * renderers, GPU and utility processes that Chromium starts), counting the children they have
 * already reaped. Null where there is no /proc (not Linux).
 */
export function processTreeCpuMs(root = process.pid): number | null {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return null;
  }
  const parents = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // ended while we read
    }
    // The command name (field 2) is in parentheses and may hold spaces: read after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields from the 3rd: state ppid … utime(14) stime(15) cutime(16) cstime(17).
    parents.set(Number(name), Number(fields[1]));
    ticks.set(Number(name), Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]));
  }
  const inTree = (pid: number): boolean => {
    for (let at: number | undefined = pid, hops = 0; at !== undefined && at > 1 && hops < 64; at = parents.get(at), hops++) {
      if (at === root) return true;
    }
    return false;
  };
  let total = 0;
  for (const [pid, count] of ticks) if (inTree(pid)) total += count;
  return (total * 1000) / TICKS_PER_SECOND;
}

/**
 * Which basemap the app's own style addresses (`basemap/style.json` and its dark twin) give a
 * test's pages. A map on the embedded basemap costs about 4 CPU-seconds more to reach idle in
 * software WebGL than on a plain backdrop (its fills, lines and labels, every redraw again), so a
 * test whose subject is not the basemap gets the plain one: real MapLibre, real pins, controls and
 * panels, over one background colour. A test of the basemap, its labels, credits, sprite or tiles
 * says `test.use({ basemap: 'embedded' })`; the screenshot scenes all do (playwright.config.ts).
 * A config that names its own style is not touched.
 */
export type Basemap = 'plain' | 'embedded';

/** The embedded basemap's style files, light and dark, wherever the app is served from. */
const EMBEDDED_STYLE_URL = /\/basemap\/style(-dark)?\.json(\?.*)?$/;

/** A one-layer style: the light or dark backdrop of the embedded basemap, with nothing drawn on it. */
function plainBasemap(dark: boolean) {
  return { version: 8, sources: {}, layers: [{ id: 'backdrop', type: 'background', paint: { 'background-color': dark ? '#142230' : '#d3e5f0' } }] };
}

const servePlainBasemap = (route: Route) =>
  route.fulfill({ contentType: 'application/json', body: JSON.stringify(plainBasemap(route.request().url().includes('-dark'))) });


/**
 * Playwright's `test`, with what each test costs in CPU (this worker and its browser) noted as
 * a `cpu-ms` annotation, which `tests/cost-reporter.ts` adds up at the end of a run. Every spec
 * takes `test` and `expect` from here.
 */
export const test = base.extend<{ cpuCost: void; basemap: Basemap; mapPage: Page }, { sharedPages: Map<string, Page> }>({
  basemap: ['plain', { option: true }],
  context: async ({ context, basemap }, use) => {
    if (basemap === 'plain') await context.route(EMBEDDED_STYLE_URL, servePlainBasemap);
    await use(context);
  },
  // The worker's kept pages, one per set of page options (most tests share the project's).
  sharedPages: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none
    async ({}, use) => {
      const pages = new Map<string, Page>();
      await use(pages);
      for (const page of pages.values()) await page.context().close();
    },
    { scope: 'worker' },
  ],
  /**
   * A page kept from test to test in this worker, for tests that open a map and read it: a new
   * page costs about 2 CPU-seconds more than a new address in a page that exists (a renderer, its
   * compositor and GPU surfaces). Each test starts on a blank page with its page options (the
   * worker keeps one page per set of them); what it routes, listens to, adds as init scripts and
   * exposes is undone after it, and the app origin's storage is cleared. A test that installs a
   * clock, changes the viewport, the media, geolocation or permissions, asks for the user's
   * location, or reads the history takes `page` instead (a kept page remembers a refused location).
   */
  mapPage: async ({ browser, sharedPages, basemap, baseURL, viewport, deviceScaleFactor, reducedMotion, colorScheme, locale, serviceWorkers, ignoreHTTPSErrors }, use) => {
    const options: BrowserContextOptions = { baseURL, viewport, deviceScaleFactor, reducedMotion, colorScheme, locale, serviceWorkers, ignoreHTTPSErrors };
    const key = JSON.stringify(options);
    let page = sharedPages.get(key);
    if (!page || page.isClosed()) {
      page = await (await browser.newContext(options)).newPage();
      sharedPages.set(key, page);
    }
    // Playwright's page is an event emitter; its types declare only on/off/once.
    const events = page as unknown as EventEmitter;
    const listeners = new Map(events.eventNames().map((name) => [name, new Set(events.listeners(name))]));
    // Init scripts and exposed functions, of the page and its context, are taken back after the test.
    const added: Disposable[] = [];
    const undo: (() => void)[] = [];
    for (const target of [page, page.context()] as const) {
      for (const method of ['addInitScript', 'exposeFunction', 'exposeBinding'] as const) {
        const original = target[method] as (...args: unknown[]) => Promise<Disposable>;
        Object.assign(target, { [method]: async (...args: unknown[]) => { const disposable = await original.apply(target, args); added.push(disposable); return disposable; } });
        undo.push(() => Object.assign(target, { [method]: original }));
      }
    }
    if (basemap === 'plain') await page.route(EMBEDDED_STYLE_URL, servePlainBasemap);
    await use(page);
    for (const restore of undo) restore();
    for (const disposable of added.reverse()) await disposable.dispose();
    for (const name of events.eventNames()) {
      const kept = listeners.get(name);
      for (const listener of events.listeners(name)) if (!kept?.has(listener)) events.off(name, listener as () => void);
    }
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.context().unrouteAll({ behavior: 'ignoreErrors' });
    // What the app keeps in the browser (the scale's units) stays with its origin: a new page has none.
    await page.evaluate(() => (localStorage.clear(), sessionStorage.clear())).catch(() => {});
    if (baseURL) {
      const session = await page.context().newCDPSession(page);
      await session.send('Storage.clearDataForOrigin', { origin: new URL(baseURL).origin, storageTypes: 'local_storage,session_storage,indexeddb,cookies' }).catch(() => {});
      await session.detach();
    }
    await page.context().clearPermissions();
    await page.goto('about:blank');
  },
  cpuCost: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use, testInfo) => {
      const before = processTreeCpuMs();
      await use();
      const after = processTreeCpuMs();
      if (before !== null && after !== null) testInfo.annotations.push({ type: 'cpu-ms', description: String(Math.round(after - before)) });
    },
    { auto: true },
  ],
});
