import AxeBuilder from '@axe-core/playwright';
import { expect, type ConsoleMessage, type Locator, type Page } from '@playwright/test';
import type { StyleSpecification } from 'maplibre-gl';
import { LIBRARY_CONTENT_SECURITY_POLICY } from '../src/config/csp.ts';

/**
 * axe-core over the page, as the accessibility tests run it: in the page itself (legacy mode:
 * no blank page opened to put the frames' results together; the app's pages have no cross-origin
 * frames) and returning the violations only. The default, a blank page per run and every node
 * that passed sent back, took about 20 s a run over a map of 300 pins, against 3.
 */
export function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });
}

export type MapState = 'loading' | 'idle' | 'error';

/**
 * A one-layer style (a plain backdrop) for tests whose subject is not the basemap: controls, pins,
 * panels. A map on the embedded basemap costs about 2 s more CPU to reach idle than on this one (its
 * fills, lines and labels in software WebGL), and every ease and pan redraws them; tests of the
 * basemap, its labels and its credits keep it.
 */
export const PLAIN_STYLE: StyleSpecification = { version: 8, sources: {}, layers: [{ id: 'backdrop', type: 'background', paint: { 'background-color': '#e9eef2' } }] };

/** Waits until the map root says `state` (default: idle), with a clear failure after `timeout`. */
export async function waitForMapState(page: Page, state: MapState = 'idle', timeout = 30_000): Promise<void> {
  await expect(page.locator('.pinmap').first(), `map never reached data-map-state="${state}"`).toHaveAttribute('data-map-state', state, { timeout });
}

/** Collects console errors and warnings and uncaught page errors, for "no console errors" checks. */
export function watchConsole(page: Page) {
  const errors: string[] = [];
  const warnings: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
    if (message.type() === 'warning') warnings.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return { errors, warnings };
}

/** Makes every WebGL context request fail, as on a machine where WebGL cannot start. */
export async function disableWebGL(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, type: string, ...rest: unknown[]) {
      if (/webgl/i.test(type)) return null;
      return (original as (...args: unknown[]) => RenderingContext | null).call(this, type, ...rest);
    } as typeof HTMLCanvasElement.prototype.getContext;
  });
}

/** Serves `body` as JSON at `path` on the app's origin, for tests that load `?config=<url>`. */
export async function serveJson(page: Page, path: string, body: unknown, status = 200): Promise<void> {
  await page.route((url) => url.pathname === path, (route) =>
    route.fulfill({ status, contentType: 'application/json', body: typeof body === 'string' ? body : JSON.stringify(body) }),
  );
}

/** Serves `bytes` at `path` on the app's origin with HTTP range requests, as a static host does (a PMTiles archive). */
export async function serveArchive(page: Page, path: string, bytes: Buffer): Promise<void> {
  await page.route((url) => url.pathname === path, (route) => {
    const range = /bytes=(\d+)-(\d+)/.exec(route.request().headers()['range'] ?? '');
    if (!range) return route.fulfill({ status: 200, body: bytes, contentType: 'application/octet-stream' });
    const start = Number(range[1]);
    const end = Math.min(Number(range[2]), bytes.length - 1);
    return route.fulfill({
      status: 206,
      body: bytes.subarray(start, end + 1),
      headers: { 'content-type': 'application/octet-stream', 'content-range': `bytes ${start}-${end}/${bytes.length}`, 'accept-ranges': 'bytes' },
    });
  });
}

/** Blocks every request that leaves this machine, so a test proves the app needs no network. */
export async function blockExternalNetwork(page: Page): Promise<string[]> {
  const blocked: string[] = [];
  await page.context().route(/^(?!https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/).+/, (route) => {
    const url = route.request().url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    blocked.push(url);
    return route.abort('internetdisconnected');
  });
  return blocked;
}

/**
 * Replaces the browser's geolocation with one the test drives: requests wait until
 * `window.pinmapGeolocation.send()` answers them with `position`, or `.fail(code)` reports error
 * `code` (1 denied, 2 unavailable, 3 timeout), which Playwright's own geolocation cannot produce.
 */
export async function drivenGeolocation(page: Page, position = { longitude: 20, latitude: 10, accuracy: 700 }): Promise<void> {
  await page.addInitScript((position) => {
    type Callbacks = { success: PositionCallback; error?: PositionErrorCallback | null | undefined };
    const watchers = new Map<number, Callbacks>();
    let pending: Callbacks[] = [];
    let nextId = 1;
    const everyone = () => [...watchers.values(), ...pending.splice(0)];
    navigator.geolocation.watchPosition = (success, error) => {
      watchers.set(nextId, { success, error });
      return nextId++;
    };
    navigator.geolocation.getCurrentPosition = (success, error) => void pending.push({ success, error });
    navigator.geolocation.clearWatch = (id) => void watchers.delete(id);
    (window as unknown as { pinmapGeolocation: unknown }).pinmapGeolocation = {
      send() {
        const coords = { ...position, altitude: null, altitudeAccuracy: null, heading: null, speed: null, toJSON: () => coords };
        const answer = { coords, timestamp: 0, toJSON: () => answer } as unknown as GeolocationPosition;
        for (const callbacks of everyone()) callbacks.success(answer);
      },
      fail(code: number) {
        const error = { code, message: `test error ${code}`, PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 } as GeolocationPositionError;
        for (const callbacks of everyone()) callbacks.error?.(error);
        pending = [];
      },
    };
  }, position);
}

/**
 * Opens a plain HTML page on the app's server that loads the self-contained library build
 * (dist/lib/pinmap-embed.js) as `window.Pinmap`, with a `#map` element (640 × 400 unless told):
 * the embed API as a site owner's page meets it, under the library's Content Security Policy
 * (the app's, with fonts from `data:` too; src/csp.ts), so its script is a file, not inline.
 */
export async function openEmbedPage(page: Page, { stylesheet = true, width = 640, height = 400 } = {}): Promise<void> {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>embed</title>
${stylesheet ? '<link rel="stylesheet" href="/lib/pinmap.css">' : ''}
<script type="module" src="/__test/embed.js"></script>
</head><body>
<div id="map"></div>
</body></html>`;
  // The container's size through the CSSOM: the policy allows no inline style attribute.
  const script = `import * as Pinmap from '/lib/pinmap-embed.js';
const map = document.getElementById('map');
map.style.width = '${width}px';
map.style.height = '${height}px';
window.Pinmap = Pinmap;`;
  const csp = { 'content-security-policy': LIBRARY_CONTENT_SECURITY_POLICY };
  await page.route((url) => url.pathname === '/__test/embed.html', (route) => route.fulfill({ contentType: 'text/html', headers: csp, body: html }));
  await page.route((url) => url.pathname === '/__test/embed.js', (route) => route.fulfill({ contentType: 'text/javascript', headers: csp, body: script }));
  await page.goto('/__test/embed.html');
  await page.waitForFunction(() => 'Pinmap' in window);
}

/** The embed page's window: the library as `Pinmap`, and a handle a test may keep. */
export type EmbedWindow = Window & { Pinmap: typeof import('../src/embed.ts'); handle?: import('../src/embed.ts').PinmapHandle };

/**
 * Moves the keyboard's focus among the map's pins and bubbles with the arrow keys, each press
 * toward `target` (a pin or bubble in view), until it has the focus; at most `max` presses. The
 * focus must be on a pin or bubble of the map already (the pins are one Tab stop).
 */
export async function arrowToPin(page: Page, target: Locator, max = 30): Promise<void> {
  for (let press = 0; press < max; press++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    const key = await target.evaluate((element) => {
      const to = element.getBoundingClientRect();
      const from = (document.activeElement as HTMLElement).getBoundingClientRect();
      const dx = to.left + to.width / 2 - (from.left + from.width / 2);
      const dy = to.top + to.height / 2 - (from.top + from.height / 2);
      return Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'ArrowRight' : 'ArrowLeft') : dy > 0 ? 'ArrowDown' : 'ArrowUp';
    });
    await page.keyboard.press(key);
  }
  throw new Error(`the arrows did not reach the pin in ${max} presses`);
}

/** What `watchForNothing` saw change. */
type Watch = {
  /**
   * Lets the page draw `frames` frames (input is handled on the next frame, and a camera move or
   * a popup starts within two), waits for the map to be idle, stops recording and fails naming
   * every change it recorded since `watchForNothing`: a state of the map, the address, or an
   * element matching `appears`.
   */
  expectNothing(message?: string, frames?: number): Promise<void>;
  /** As `expectNothing`, but gives what changed (nothing: an empty list) instead of failing. */
  changes(frames?: number): Promise<string[]>;
};

/**
 * Proves that nothing happened, from what the page recorded rather than from a look after a
 * sleep: from now on every change of the map's `data-map-state` (a move makes it `loading`), of
 * the address (checked every frame, so a change undone before the end still counts) and, with
 * `appears`, every element matching that selector added to the page, is recorded.
 */
export async function watchForNothing(page: Page, { appears }: { appears?: string } = {}): Promise<Watch> {
  await page.evaluate((appears) => {
    type Recorder = { changes: string[]; stop: () => void };
    const w = window as unknown as { pinmapNothing?: Recorder };
    w.pinmapNothing?.stop();
    const changes: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'attributes') {
          changes.push(`map state ${record.oldValue} → ${(record.target as Element).getAttribute('data-map-state')}`);
        } else if (appears) {
          for (const node of record.addedNodes) {
            if (node instanceof Element && (node.matches(appears) || node.querySelector(appears))) changes.push(`${appears} appeared`);
          }
        }
      }
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ['data-map-state'], attributeOldValue: true, subtree: true, childList: appears !== null });
    let address = location.href;
    let frame = 0;
    const check = () => {
      if (location.href !== address) changes.push(`address ${address} → ${location.href}`);
      address = location.href;
      frame = requestAnimationFrame(check);
    };
    frame = requestAnimationFrame(check);
    w.pinmapNothing = {
      changes,
      stop: () => {
        observer.disconnect();
        cancelAnimationFrame(frame);
        if (location.href !== address) changes.push(`address ${address} → ${location.href}`);
      },
    };
  }, appears ?? null);
  const changes = async (frames = 6): Promise<string[]> => {
    await nextFrames(page, frames);
    await waitForMapState(page, 'idle');
    return page.evaluate(() => {
      const recorder = (window as unknown as { pinmapNothing?: { changes: string[]; stop: () => void } }).pinmapNothing;
      recorder?.stop();
      return recorder ? [...recorder.changes] : ['the recorder was gone (the page was reloaded)'];
    });
  };
  return {
    changes,
    async expectNothing(message = 'nothing should have changed', frames = 6) {
      expect(await changes(frames), message).toEqual([]);
    },
  };
}

/** Waits for `count` animation frames of the page: what the last change drew is on screen. */
export async function nextFrames(page: Page, count = 2): Promise<void> {
  await page.evaluate(
    (count) =>
      new Promise<void>((resolve) => {
        let left = count;
        const frame = () => (--left <= 0 ? resolve() : requestAnimationFrame(frame));
        requestAnimationFrame(frame);
      }),
    count,
  );
}

/**
 * Runs `action` and waits until the map, having gone busy because of it, is idle again, then two
 * frames: the state of the map root is watched from before the action, so a quick busy spell is
 * not missed.
 */
export async function settleAfter(page: Page, action: () => Promise<unknown>): Promise<void> {
  await page.evaluate(() => {
    const root = document.querySelector('.pinmap')!;
    const flag = window as unknown as { pinmapSettled: boolean };
    flag.pinmapSettled = false;
    let wentBusy = root.getAttribute('data-map-state') !== 'idle';
    const observer = new MutationObserver(() => {
      if (root.getAttribute('data-map-state') !== 'idle') wentBusy = true;
      else if (wentBusy) {
        observer.disconnect();
        flag.pinmapSettled = true;
      }
    });
    observer.observe(root, { attributes: true, attributeFilter: ['data-map-state'] });
  });
  await action();
  await page
    .waitForFunction(() => (window as unknown as { pinmapSettled: boolean }).pinmapSettled, undefined, { polling: 50, timeout: 20_000 })
    .catch(() => {
      throw new Error('the map never went busy and back to idle after the action');
    });
  await nextFrames(page);
}

/**
 * Sets the address's camera (`#map=…`) and waits until the map has gone there and drawn it. The
 * map reads a new address a task later, so right after setting it the map still says idle: waiting
 * for idle alone could go on before the map has even moved.
 */
export async function goToAddress(page: Page, hash: string): Promise<void> {
  await settleAfter(page, () => page.evaluate((hash) => (location.hash = hash), hash));
}
