import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { nextFrames, serveJson, waitForMapState, watchConsole } from './helpers.ts';

/**
 * Measures how well the hybrid view's two drawings of one place agree: the vector map (a
 * magenta dot per test point, drawn by MapLibre on its canvas) and Leaflet (a pin marker per
 * test point, its tip on the coordinate). Nothing is computed from the camera: both positions
 * are read from what the page shows.
 */

export type Point = { x: number; y: number };
export type LngLat = [number, number];

/** The dot colour: pure magenta, which nothing else on these maps is. */
const DOT = '#ff00ff';
const DOT_RADIUS = 4;
/** How far from a pin's tip the dot is looked for. */
const SEARCH_RADIUS = 14;

/** A test point: its pin id and coordinate. */
export interface TestPoint {
  id: string;
  lngLat: LngLat;
}

/** A style with nothing but a white background and a magenta dot on each point. */
export function dotStyle(points: TestPoint[]) {
  return {
    version: 8,
    sources: {
      dots: {
        type: 'geojson',
        data: { type: 'FeatureCollection', features: points.map((p) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: p.lngLat }, properties: {} })) },
      },
    },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#ffffff' } },
      {
        id: 'dots',
        type: 'circle',
        source: 'dots',
        paint: { 'circle-radius': DOT_RADIUS, 'circle-color': DOT, 'circle-stroke-width': 0, 'circle-blur': 0, 'circle-pitch-alignment': 'map' },
      },
    ],
  };
}

/** The same points as pins. */
export function pinCollection(points: TestPoint[]) {
  return {
    type: 'FeatureCollection',
    features: points.map((p) => ({ type: 'Feature', id: p.id, geometry: { type: 'Point', coordinates: p.lngLat }, properties: { title: p.id } })),
  };
}

/** Every control off: nothing is drawn over the map unless a test asks for it. */
export const NO_CONTROLS = { navigation: false, geolocate: false, scale: false, fullscreen: false, attribution: false } as const;

const consoles = new WeakMap<Page, ReturnType<typeof watchConsole>>();

/** The console errors of a page opened by `openHybrid`. */
export const consoleErrors = (page: Page): string[] => consoles.get(page)?.errors ?? [];

/** Opens the app in the hybrid view on `points`, with `config` over the defaults of these tests. */
export async function openHybrid(page: Page, points: TestPoint[], config: Record<string, unknown> = {}): Promise<void> {
  consoles.set(page, watchConsole(page));
  await serveJson(page, '/__test/alignment.json', {
    view: 'hybrid',
    fadeDuration: 0,
    controls: NO_CONTROLS,
    style: dotStyle(points),
    pins: pinCollection(points),
    ...config,
  });
  await page.goto('/?config=/__test/alignment.json');
  await waitForMapState(page, 'idle');
  await expect(page.locator('.pinmap')).toHaveAttribute('data-view', 'hybrid');
  await nextFrames(page);
}



/**
 * Runs `action`, which resizes the map, and waits until the vector layer has followed: its box
 * and its canvas (drawing buffer included) are the view plus the default padding of a tenth on
 * each side; then until the map is idle, and two frames.
 */
export async function settleAfterResize(page: Page, action: () => Promise<unknown>): Promise<void> {
  await action();
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const view = document.querySelector('.pinmap-map')!.getBoundingClientRect();
          const box = document.querySelector<HTMLElement>('.pinmap-vector-layer')!;
          const canvas = box.querySelector('canvas')!;
          const [width, height] = [Math.round(view.width * 1.2), Math.round(view.height * 1.2)];
          return box.offsetWidth === width && box.offsetHeight === height && canvas.clientWidth === width && canvas.clientHeight === height && canvas.width === width && canvas.height === height;
        }),
      { message: 'the vector layer never took the size of the resized map' },
    )
    .toBe(true);
  await waitForMapState(page, 'idle');
  await nextFrames(page);
}

/** The tip of each shown pin (bottom centre of its element), in page pixels, by pin id. */
export async function pinTips(page: Page): Promise<Map<string, Point>> {
  const tips = await page.locator('.pinmap-pin[data-pin-id]').evaluateAll((pins) =>
    pins.map((pin) => {
      const box = pin.getBoundingClientRect();
      return { id: (pin as HTMLElement).dataset.pinId!, x: box.left + box.width / 2, y: box.bottom };
    }),
  );
  return new Map(tips.map(({ id, x, y }) => [id, { x, y }]));
}

/** What is not the vector map: the pins, the user's position, the controls. */
const HIDDEN_FOR_SCREENSHOT = '.pinmap-pin, .pinmap-user-dot, .pinmap-user-accuracy, .pinmap-ctrl';

/** A screenshot of the page with the pins hidden (shown again after), decoded. */
export async function screenshotWithoutPins(page: Page): Promise<PNG> {
  // A constructed style sheet (CSSOM), since the app's Content Security Policy refuses a <style> element.
  await page.evaluate((selector) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(`${selector} { visibility: hidden !important; }`);
    (window as unknown as { pinmapHideOverlays: CSSStyleSheet }).pinmapHideOverlays = sheet;
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }, HIDDEN_FOR_SCREENSHOT);
  try {
    return PNG.sync.read(await page.screenshot({ animations: 'allow', caret: 'initial' }));
  } finally {
    await page.evaluate(() => {
      const sheet = (window as unknown as { pinmapHideOverlays: CSSStyleSheet }).pinmapHideOverlays;
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
    });
  }
}

/** How magenta a pixel is, 0..1: 1 for the dot's colour, 0 for white, grey or any colour with green in it. */
function magentaness(png: PNG, x: number, y: number): number {
  const i = (y * png.width + x) * 4;
  const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
  return Math.max(0, Math.min(r, b) - g) / 255;
}

export interface DotMeasure {
  /** Centroid of the dot's pixels, weighted by how magenta each is. */
  centre: Point;
  /** Sum of the weights: a whole dot of radius 4, antialiased, about π·3.5². */
  weight: number;
}

/** The vector drawing's dot nearest `near`, as the centroid of magenta pixels within the search radius. */
export function dotNear(png: PNG, near: Point, radius = SEARCH_RADIUS): DotMeasure | undefined {
  let sum = 0;
  let sx = 0;
  let sy = 0;
  const x0 = Math.max(0, Math.floor(near.x - radius));
  const x1 = Math.min(png.width - 1, Math.ceil(near.x + radius));
  const y0 = Math.max(0, Math.floor(near.y - radius));
  const y1 = Math.min(png.height - 1, Math.ceil(near.y + radius));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const w = magentaness(png, x, y);
      if (w <= 0) continue;
      sum += w;
      sx += w * (x + 0.5);
      sy += w * (y + 0.5);
    }
  }
  if (sum === 0) return undefined;
  return { centre: { x: sx / sum, y: sy / sum }, weight: sum };
}

export interface PinMeasure {
  /** The pin's tip. */
  tip: Point;
  /** The centre of the vector map's dot near it. */
  dot: Point;
  /** How far apart they are, in px. */
  distance: number;
}

/**
 * Measures every pin whose tip is well inside the view: its tip, and the centre of the vector
 * map's dot near it. Fails when fewer than `atLeast` pins were measured, or when a pin has no dot
 * near it or only part of one (cut off, or not all drawn).
 */
export async function measureAlignment(page: Page, atLeast = 3): Promise<Map<string, PinMeasure>> {
  // A canvas scaled by a zoom animation draws its dots larger.
  const scale = await canvasScale(page);
  const wholeDot = Math.PI * (DOT_RADIUS - 0.5) ** 2 * scale ** 2;
  const tips = await pinTips(page);
  const shot = await screenshotWithoutPins(page);
  const view = (await page.locator('.pinmap').boundingBox())!;
  const margin = SEARCH_RADIUS + 2;
  const measures = new Map<string, PinMeasure>();
  for (const [id, tip] of tips) {
    if (tip.x < view.x + margin || tip.y < view.y + margin || tip.x > view.x + view.width - margin || tip.y > view.y + view.height - margin) continue;
    const dot = dotNear(shot, tip);
    expect(dot, `no dot of the vector map within ${SEARCH_RADIUS} px of pin ${id}`).toBeDefined();
    expect(dot!.weight, `the dot of pin ${id} is not whole (weight ${dot!.weight.toFixed(1)})`).toBeGreaterThan(wholeDot * 0.8);
    expect(dot!.weight, `more than one dot near pin ${id} (weight ${dot!.weight.toFixed(1)})`).toBeLessThan(wholeDot * 1.2);
    measures.set(id, { tip, dot: dot!.centre, distance: Math.hypot(dot!.centre.x - tip.x, dot!.centre.y - tip.y) });
  }
  expect(measures.size, `pins measured: ${[...measures.keys()].join(', ')}`).toBeGreaterThanOrEqual(atLeast);
  return measures;
}

const describe = (values: Map<string, number>) => [...values].map(([id, d]) => `${id} ${d.toFixed(2)}`).join(', ');

/** Notes a measured worst distance on the test (seen in the reports). */
function note(kind: string, label: string, worst: number): void {
  test.info().annotations.push({ type: kind, description: `${label ? `${label}: ` : ''}worst ${worst.toFixed(2)} px` });
}

/**
 * Asserts every measured pin and its dot are within `tolerance` px (1 px: the pins' own rounding
 * to whole pixels alone accounts for up to 0.71 px), and returns the measures.
 */
export async function expectAligned(page: Page, { atLeast = 3, tolerance = 1, label = '' } = {}): Promise<Map<string, PinMeasure>> {
  const measures = await measureAlignment(page, atLeast);
  const distances = new Map([...measures].map(([id, m]) => [id, m.distance]));
  const worst = Math.max(...distances.values());
  note('alignment', label, worst);
  expect.soft(worst, `pins and dots apart${label ? ` (${label})` : ''}: ${describe(distances)}`).toBeLessThanOrEqual(tolerance);
  return measures;
}

/**
 * Asserts the vector map's dots are where they were (each pin measured in both), within
 * `tolerance` px: the drawing did not jump between the two moments.
 */
export function expectNoJump(before: Map<string, PinMeasure>, after: Map<string, PinMeasure>, { tolerance = 0.25, label = '' } = {}): void {
  const jumps = new Map<string, number>();
  for (const [id, then] of before) {
    const now = after.get(id);
    if (now) jumps.set(id, Math.hypot(now.dot.x - then.dot.x, now.dot.y - then.dot.y));
  }
  expect(jumps.size, 'dots measured both times').toBeGreaterThan(0);
  const worst = Math.max(...jumps.values());
  note('jump', label, worst);
  expect.soft(worst, `the vector map's dots moved${label ? ` (${label})` : ''}: ${describe(jumps)}`).toBeLessThanOrEqual(tolerance);
}

/** A rectangle of the page, in px: `[left, top, right, bottom]` (right and bottom excluded). */
export type Rect = [number, number, number, number];

/**
 * Counts the pixels of `rect` where the vector map's white background (or a dot on it) does not
 * show: where the canvas is missing, stale or not yet resized, Leaflet's grey or the page shows.
 */
export function undrawnPixels(png: PNG, rect: Rect): { count: number; sample: string | undefined } {
  let count = 0;
  let sample: string | undefined;
  const [left, top, right, bottom] = rect.map(Math.round) as Rect;
  for (let y = Math.max(0, top); y < Math.min(png.height, bottom); y++) {
    for (let x = Math.max(0, left); x < Math.min(png.width, right); x++) {
      const i = (y * png.width + x) * 4;
      const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
      if (r >= 250 && b >= 250) continue; // white, or magenta over white
      count++;
      sample ??= `rgb(${r}, ${g}, ${b}) at ${x},${y}`;
    }
  }
  return { count, sample };
}

/** Asserts the vector map's background fills each of `rects` (one screenshot). */
export async function expectDrawn(page: Page, ...rects: Rect[]): Promise<void> {
  const png = await screenshotWithoutPins(page);
  for (const rect of rects) {
    const { count, sample } = undrawnPixels(png, rect);
    expect.soft(count, `pixels of ${rect.join(',')} where the vector map is not drawn (first: ${sample})`).toBe(0);
  }
}

export interface PageFrames {
  /** Hides the page as a background tab is hidden (see `controlFrames`). */
  hide(): Promise<void>;
  /** Shows it again. */
  show(): Promise<void>;
  /**
   * Arms a hold: the first animation frame in which an element matching `selector` (or one
   * inside it) changes its style is shown, and no later frame runs until `release()`.
   */
  holdAfterChangeOf(selector: string): Promise<void>;
  /** Resolves once an armed hold holds. */
  held(): Promise<void>;
  /** Lets frames run again. */
  release(): Promise<void>;
}

/**
 * Gives a test control of the page's animation frames; call before the page loads (Leaflet
 * keeps the page's `requestAnimationFrame` when it loads).
 *
 * - A hold keeps the page showing one frame: what the user sees for that frame is then measured
 *   at leisure. It starts after the frame in which a watched element changed, so that frame
 *   itself runs whole (every callback of it), and the next ones are held.
 * - Hiding: headless Chromium keeps every page visible (bringing another page to the front,
 *   CDP's lifecycle state "frozen" and a minimised window all leave `document.visibilityState`
 *   at "visible"), so `hide()` does in the page what hiding does to it: `visibilityState` is
 *   "hidden", no animation frame runs and no ResizeObserver is told of a change until `show()`;
 *   then `visibilitychange` fires, held frames run and observers see the current sizes.
 */
export async function controlFrames(page: Page): Promise<PageFrames> {
  await page.addInitScript(() => {
    const realFrame = window.requestAnimationFrame.bind(window);
    const realCancel = window.cancelAnimationFrame.bind(window);
    /** Frames with a time after this one are held (-Infinity: every frame). */
    let holdAfter = Number.POSITIVE_INFINITY;
    let currentFrame = 0;
    const heldFrames = new Map<number, FrameRequestCallback>();
    window.requestAnimationFrame = (callback) => {
      const id = realFrame((time) => {
        if (time > holdAfter) return void heldFrames.set(id, callback);
        currentFrame = time;
        callback(time);
      });
      return id;
    };
    window.cancelAnimationFrame = (id) => {
      heldFrames.delete(id);
      realCancel(id);
    };
    let holding: Promise<void> = Promise.resolve();
    const release = () => {
      holdAfter = Number.POSITIVE_INFINITY;
      const callbacks = [...heldFrames.values()];
      heldFrames.clear();
      realFrame((time) => callbacks.forEach((callback) => callback(time)));
    };

    let hidden = false;
    Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
    Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => hidden });
    const missed = new Set<() => void>();
    const RealObserver = window.ResizeObserver;
    window.ResizeObserver = class extends RealObserver {
      private readonly targets = new Map<Element, ResizeObserverOptions | undefined>();
      constructor(callback: ResizeObserverCallback) {
        const observeAgain = () => this.targets.forEach((options, target) => (RealObserver.prototype.unobserve.call(this, target), RealObserver.prototype.observe.call(this, target, options)));
        // Observed again when the page shows, each target's size is reported as it is then.
        super((entries, observer) => (hidden ? void missed.add(observeAgain) : callback(entries, observer)));
      }
      override observe(target: Element, options?: ResizeObserverOptions) {
        this.targets.set(target, options);
        super.observe(target, options);
      }
      override unobserve(target: Element) {
        this.targets.delete(target);
        super.unobserve(target);
      }
      override disconnect() {
        this.targets.clear();
        super.disconnect();
      }
    };

    (window as unknown as { pinmapFrames: unknown }).pinmapFrames = {
      hide() {
        hidden = true;
        holdAfter = Number.NEGATIVE_INFINITY;
        document.dispatchEvent(new Event('visibilitychange'));
      },
      show() {
        hidden = false;
        document.dispatchEvent(new Event('visibilitychange'));
        missed.forEach((observeAgain) => observeAgain());
        missed.clear();
        release();
      },
      holdAfterChangeOf(selector: string) {
        const watched = document.querySelector(selector);
        if (!watched) throw new Error(`nothing matches ${selector}`);
        holding = new Promise<void>((resolve) => {
          const observer = new MutationObserver(() => {
            observer.disconnect();
            // Called within the frame that changed it: this frame runs on, the next are held.
            holdAfter = currentFrame;
            resolve();
          });
          observer.observe(watched, { attributes: true, attributeFilter: ['style'], subtree: true });
        });
      },
      held: () => Promise.race([holding, new Promise((_, reject) => setTimeout(() => reject(new Error('the watched element never changed')), 10_000))]),
      release,
    };
  });
  type Frames = Record<'hide' | 'show' | 'held' | 'release', () => void | Promise<void>> & { holdAfterChangeOf(selector: string): void };
  const call = (name: 'hide' | 'show' | 'held' | 'release') => page.evaluate((name) => (window as unknown as { pinmapFrames: Frames }).pinmapFrames[name](), name);
  return {
    hide: () => call('hide'),
    show: () => call('show'),
    held: () => call('held'),
    release: () => call('release'),
    holdAfterChangeOf: (selector) => page.evaluate((selector) => (window as unknown as { pinmapFrames: Frames }).pinmapFrames.holdAfterChangeOf(selector), selector),
  };
}

/**
 * Holds the map's next CSS zoom animation: every CSS transition is paused as soon as the map
 * starts animating, and Leaflet's timer that would end the animation after 250 ms waits too, so
 * the page can be measured as a user sees it at any moment of the zoom (`seek(share)`, 0 the
 * start; at 1 the transitions finish, and Leaflet ends the zoom). `release()` lets the animation
 * run on.
 */
export async function holdNextZoomAnimation(page: Page): Promise<{ paused: () => Promise<number>; seek: (share: number) => Promise<void>; release: () => Promise<void> }> {
  await page.evaluate(() => {
    const realTimeout = window.setTimeout;
    const heldTimers: (() => void)[] = [];
    const paused: Animation[] = [];
    let holding = true;
    window.setTimeout = ((handler: TimerHandler, delay?: number, ...args: unknown[]) => {
      // Leaflet's fallback end of a zoom animation, set as the animation starts.
      if (holding && delay === 250 && typeof handler === 'function' && document.querySelector('.leaflet-zoom-anim')) {
        heldTimers.push(() => (handler as (...a: unknown[]) => void)(...args));
        return 0;
      }
      return realTimeout(handler, delay, ...args);
    }) as typeof window.setTimeout;
    const pausedAt = new Promise<number>((resolve) => {
      const onRun = (event: TransitionEvent) => {
        if (event.propertyName !== 'transform' || !(event.target as Element).closest('.leaflet-zoom-anim')) return;
        document.removeEventListener('transitionrun', onRun, true);
        for (const animation of document.getAnimations()) {
          if (!(animation instanceof CSSTransition)) continue;
          animation.pause();
          paused.push(animation);
        }
        resolve(paused.length);
      };
      document.addEventListener('transitionrun', onRun, true);
    });
    (window as unknown as { pinmapZoomHold: unknown }).pinmapZoomHold = {
      paused: pausedAt,
      seek(share: number) {
        for (const animation of paused) animation.currentTime = Number(animation.effect!.getTiming().duration) * share;
      },
      release() {
        holding = false;
        window.setTimeout = realTimeout;
        // (play() on a transition held at its end would start it again.)
        for (const animation of paused) {
          if (Number(animation.currentTime) >= Number(animation.effect!.getTiming().duration)) animation.finish();
          else animation.play();
        }
        heldTimers.forEach((fire) => realTimeout(fire, 0));
      },
    };
  });
  type Hold = { paused: Promise<number>; seek(share: number): void; release(): void };
  return {
    paused: () => page.evaluate(() => (window as unknown as { pinmapZoomHold: Hold }).pinmapZoomHold.paused),
    seek: (share) => page.evaluate((share) => (window as unknown as { pinmapZoomHold: Hold }).pinmapZoomHold.seek(share), share),
    release: () => page.evaluate(() => (window as unknown as { pinmapZoomHold: Hold }).pinmapZoomHold.release()),
  };
}

/** The vector canvas's CSS transform scale (1 when nothing is left scaled). */
export async function canvasScale(page: Page): Promise<number> {
  return page.locator('.pinmap-vector-layer canvas').evaluate((canvas) => new DOMMatrixReadOnly(getComputedStyle(canvas).transform).a);
}
