import { expect, test, type Page } from './test.ts';
import { drivenGeolocation, waitForMapState } from './helpers.ts';
import { canvasScale, consoleErrors, controlFrames, expectAligned, expectDrawn, expectNoJump, holdNextZoomAnimation, NO_CONTROLS, openHybrid, settleAfterResize, type LngLat, type PageFrames, type Rect, type TestPoint } from './alignment.ts';
import { nextFrames, settleAfter } from './helpers.ts';

/**
 * The hybrid view draws one map with two engines: MapLibre's canvas (the vector map, here a
 * magenta dot on each test point) inside Leaflet, which draws the pins. After every way the view
 * can change, each pin's tip and its dot must be within 1 px on screen (tests/alignment.ts
 * measures both from the page as shown).
 */

const CENTER: LngLat = [10, 45];
/** A 5 × 5 grid around the centre, about 110 px apart at zoom 3: after zooming in, the middle of it is still in view. */
const GRID: TestPoint[] = [-2, -1, 0, 1, 2].flatMap((row) =>
  [-2, -1, 0, 1, 2].map((col) => ({ id: `g${row + 2}${col + 2}`, lngLat: [CENTER[0] + col * 9.7, CENTER[1] - row * 6.1] as LngLat })),
);

// The layers must stay aligned through Leaflet's zoom animations and the glide after a drag.
test.use({ reducedMotion: 'no-preference' });

test.afterEach(({ page }) => expect(consoleErrors(page), 'console errors').toEqual([]));

const openGrid = (page: Page, config: Record<string, unknown> = {}) => openHybrid(page, GRID, { center: CENTER, zoom: 3, ...config });

/** The camera as the page address shows it (MapLibre's zoom). */
async function camera(page: Page) {
  const [zoom, lat, lng] = /map=([^&]+)/.exec(await page.evaluate(() => location.hash))![1]!.split('/').map(Number) as [number, number, number];
  return { zoom, lat, lng };
}

test('after load', async ({ mapPage: page }) => {
  await openGrid(page);
  await expectAligned(page, { atLeast: 25 });
});

test('after a drag', async ({ mapPage: page }) => {
  await openGrid(page);
  await settleAfter(page, async () => {
    await page.mouse.move(455, 355);
    await page.mouse.down();
    await page.mouse.move(330, 260, { steps: 8 });
    await page.mouse.move(317, 243, { steps: 2 });
    await page.mouse.up();
  });
  expect((await camera(page)).lng, 'dragged east').toBeGreaterThan(CENTER[0] + 5);
  await expectAligned(page, { atLeast: 12 });
});

test('during a drag, in the frame the vector layer moves to cover the view', async ({ mapPage: page }) => {
  const frames = await controlFrames(page);
  await openGrid(page);
  await page.mouse.move(455, 355);
  await page.mouse.down();
  await page.mouse.move(445, 348);
  await nextFrames(page);
  await frames.holdAfterChangeOf('.pinmap-vector-layer');
  await page.mouse.move(395, 311);
  await frames.held();
  await expectAligned(page, { atLeast: 20, label: 'mid-drag' });
  await frames.release();
  await settleAfter(page, () => page.mouse.up());
  await expectAligned(page, { atLeast: 20, label: 'after' });
});

test('after the zoom-in button', async ({ mapPage: page }) => {
  await openGrid(page, { controls: { ...NO_CONTROLS, navigation: 'top-right' } });
  await settleAfter(page, () => page.locator('.pinmap-zoom-in').click());
  expect((await camera(page)).zoom).toBeCloseTo(4, 5);
  await expectAligned(page, { atLeast: 9 });
});

test('after a wheel zoom', async ({ mapPage: page }) => {
  await openGrid(page);
  await page.mouse.move(333, 251);
  await settleAfter(page, () => page.mouse.wheel(0, -120));
  const { zoom } = await camera(page);
  expect(zoom, 'a fraction of a zoom level in').toBeGreaterThan(3.3);
  expect(zoom % 1, 'a fraction of a zoom level in').toBeGreaterThan(0.1);
  await expectAligned(page, { atLeast: 9 });
});

test('after a double-click zoom', async ({ mapPage: page }) => {
  await openGrid(page);
  await settleAfter(page, () => page.mouse.dblclick(455, 250));
  expect(await camera(page)).toMatchObject({ zoom: 4 });
  await expectAligned(page, { atLeast: 9 });
});

test('after fitting the camera to the user location', async ({ page }) => {
  await drivenGeolocation(page, { longitude: CENTER[0] + 3, latitude: CENTER[1] - 2, accuracy: 1_500_000 });
  await openGrid(page, { controls: { ...NO_CONTROLS, geolocate: 'top-right' } });
  await page.locator('.pinmap-geolocate button').click();
  await settleAfter(page, () => page.evaluate(() => (window as unknown as { pinmapGeolocation: { send(): void } }).pinmapGeolocation.send()));
  await expect(page.locator('.pinmap-geolocate')).toHaveAttribute('data-state', 'ACTIVE_LOCK');
  const fitted = await camera(page);
  expect(fitted.zoom, 'fitted to the accuracy circle').not.toBeCloseTo(3, 1);
  expect(fitted.lng).toBeCloseTo(CENTER[0] + 3, 1);
  await expectAligned(page, { atLeast: 9 });
});

/** Sets the size of the element the map fills (the app's root), or lets it fill the window again. */
const sizeRoot = (page: Page, size?: { width: number; height: number }) =>
  page.evaluate((size) => {
    const root = document.getElementById('root')!;
    root.style.width = size ? `${size.width}px` : '';
    root.style.height = size ? `${size.height}px` : '';
  }, size);

/**
 * Resizes the map by `action` and checks the first frame shown at the new size (held while it is
 * measured), then the map once idle: aligned both times, and the newly shown parts (`exposed`)
 * drawn by the vector map from the first frame on.
 */
async function expectFollowsResize(page: Page, frames: PageFrames, action: () => Promise<unknown>, { atLeast, label, exposed = [] }: { atLeast: number; label: string; exposed?: Rect[] }) {
  await frames.holdAfterChangeOf('.pinmap-vector-layer');
  await action();
  await frames.held();
  await expectAligned(page, { atLeast, label: `${label}, first frame` });
  await expectDrawn(page, ...exposed);
  await frames.release();
  await settleAfterResize(page, async () => {});
  await expectAligned(page, { atLeast, label });
}

test('after the map container is resized, with the newly shown part drawn at once', async ({ mapPage: page }) => {
  const frames = await controlFrames(page);
  await openGrid(page);
  await expectFollowsResize(page, frames, () => sizeRoot(page, { width: 533, height: 411 }), { atLeast: 9, label: 'smaller' });
  await expectFollowsResize(page, frames, () => sizeRoot(page), { atLeast: 25, label: 'larger', exposed: [[533, 0, 800, 600], [0, 411, 800, 600]] });
});

test('after the window is resized', async ({ page }) => {
  const frames = await controlFrames(page);
  await openGrid(page);
  await expectFollowsResize(page, frames, () => page.setViewportSize({ width: 611, height: 457 }), { atLeast: 9, label: 'smaller' });
  await expectFollowsResize(page, frames, () => page.setViewportSize({ width: 800, height: 600 }), { atLeast: 25, label: 'larger', exposed: [[611, 0, 800, 600], [0, 457, 800, 600]] });
});

test('after entering and leaving fullscreen', async ({ mapPage: page }) => {
  const frames = await controlFrames(page);
  await openGrid(page, { controls: { ...NO_CONTROLS, fullscreen: 'top-left' } });
  await settleAfterResize(page, () => sizeRoot(page, { width: 533, height: 411 }));
  await expectFollowsResize(page, frames, () => page.getByRole('button', { name: 'Enter fullscreen' }).click(), {
    atLeast: 25,
    label: 'fullscreen',
    exposed: [[533, 0, 800, 600], [0, 411, 800, 600]],
  });
  await expect(page.locator('.pinmap-fullscreen')).toHaveAttribute('data-state', 'on');
  expect(await page.locator('.pinmap').boundingBox()).toMatchObject({ width: 800, height: 600 });
  await expectFollowsResize(page, frames, () => page.getByRole('button', { name: 'Exit fullscreen' }).click(), { atLeast: 9, label: 'after fullscreen' });
  await expect(page.locator('.pinmap-fullscreen')).toHaveAttribute('data-state', 'off');
  expect(await page.locator('.pinmap').boundingBox()).toMatchObject({ width: 533, height: 411 });
});

test.describe('a page resized while hidden', () => {
  test.use({ viewport: { width: 611, height: 457 } });

  test('follows the new size in the first frame shown', async ({ page }) => {
    const frames = await controlFrames(page);
    await openGrid(page);
    await frames.hide();
    expect(await page.evaluate(() => document.visibilityState)).toBe('hidden');
    await page.setViewportSize({ width: 800, height: 600 });
    // Nothing has followed yet, as on a hidden page, where no frame runs.
    expect(await page.locator('.pinmap-vector-layer').evaluate((box: HTMLElement) => box.offsetWidth)).toBe(Math.round(611 * 1.2));
    await expectFollowsResize(page, frames, () => frames.show(), { atLeast: 25, label: 'shown', exposed: [[611, 0, 800, 600], [0, 457, 800, 600]] });
  });
});

/** Points over the whole world, 45 px or more apart at zoom 0 (so no two group into one bubble), and far north. */
const WORLD: TestPoint[] = [
  ...[-32, 0, 32].flatMap((lat) => [-64, -32, 0, 32, 64].map((lng) => ({ id: `w${lng}_${lat}`, lngLat: [lng, lat] as LngLat }))),
  { id: 'n70', lngLat: [-110, 70] },
  { id: 'n80', lngLat: [110, 80] },
  { id: 'n84', lngLat: [-150, 84] },
  { id: 's60', lngLat: [140, -60] },
];

test('at zoom 0, 1 and 2', async ({ mapPage: page }) => {
  await openHybrid(page, WORLD, { center: [0, 0], zoom: 0 });
  await expectAligned(page, { atLeast: 19, label: 'zoom 0' });
  for (const zoom of [1, 2]) {
    await settleAfter(page, () => page.evaluate((zoom) => (location.hash = `#map=${zoom}/0/0`), zoom));
    expect(await camera(page)).toMatchObject({ zoom });
    await expectAligned(page, { atLeast: 15, label: `zoom ${zoom}` });
  }
});

/** Points at 70°, 80° and 84° north. */
const ARCTIC: TestPoint[] = [70, 80, 84].flatMap((lat) => [-40, 0, 40].map((lng) => ({ id: `a${lng}_${lat}`, lngLat: [lng, lat] as LngLat })));

test('at high latitudes', async ({ mapPage: page }) => {
  await openHybrid(page, ARCTIC, { center: [3, 79.4], zoom: 2.3 });
  await expectAligned(page, { atLeast: 9, label: 'zoom 2.3' });
  await settleAfter(page, () => page.evaluate(() => (location.hash = '#map=3.6/82.1/-21.7')));
  await expectAligned(page, { atLeast: 3, label: 'zoom 3.6' });
});

test.describe('zoom animations', () => {
  // A size whose padding (a tenth of it on each side) is not a whole number of pixels.
  test.use({ viewport: { width: 811, height: 607 } });

  for (const gesture of ['wheel', 'double-click'] as const) {
    test(`during and after the zoom animation of a ${gesture}`, async ({ mapPage: page }) => {
      await openGrid(page);
      const hold = await holdNextZoomAnimation(page);
      const at = { x: 333, y: 251 };
      await page.mouse.move(at.x, at.y);
      if (gesture === 'wheel') await page.mouse.wheel(0, -120);
      else await page.mouse.dblclick(at.x, at.y);
      expect(await hold.paused(), 'CSS transitions held').toBeGreaterThan(0);
      await hold.seek(0.5);
      await nextFrames(page);
      expect(await canvasScale(page), 'the canvas is being scaled').toBeGreaterThan(1.2);
      await expectAligned(page, { atLeast: 9, label: 'halfway' });
      // The last frame of the animation (at its very end, the transitions would finish and Leaflet
      // end the zoom): the scaled canvas must show the dots where the redrawn map will, or the map
      // jumps as the animation ends.
      await hold.seek(0.999);
      expect(await page.locator('.leaflet-zoom-anim').count(), 'still animating').toBe(1);
      await nextFrames(page);
      const lastFrame = await expectAligned(page, { atLeast: 9, label: 'last frame' });
      await hold.release();
      await expect(page.locator('.leaflet-zoom-anim')).toHaveCount(0);
      await nextFrames(page);
      await expectAligned(page, { atLeast: 9, label: 'just after' });
      await waitForMapState(page, 'idle');
      await nextFrames(page);
      const redrawn = await expectAligned(page, { atLeast: 9, label: 'idle' });
      expectNoJump(lastFrame, redrawn, { label: 'end of the animation' });
      expect(await canvasScale(page), 'nothing left scaled').toBe(1);
    });
  }
});

test.describe('pinch zoom', () => {
  test.use({ hasTouch: true });

  test('the vector map follows the fingers frame by frame, and is aligned when they lift', async ({ page }) => {
    const frames = await controlFrames(page);
    await openGrid(page);
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: [number, number][]) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
    const fingers = (spread: number): [number, number][] => [
      [347 - spread, 262 - spread * 0.3],
      [347 + spread, 262 + spread * 0.3],
    ];
    await touch('touchStart', fingers(50));
    for (let step = 1; step <= 5; step++) {
      await touch('touchMove', fingers(50 + step * 4));
      await nextFrames(page, 2);
    }
    // The frame in which Leaflet moves the pins for the next step of the fingers, as the user sees it.
    await frames.holdAfterChangeOf('.leaflet-marker-pane');
    await touch('touchMove', fingers(50 + 6 * 4));
    await frames.held();
    expect(await page.locator('.pinmap').getAttribute('data-map-state'), 'still in the gesture').toBe('loading');
    expect((await camera(page)).zoom, 'zoomed in by the fingers').toBeGreaterThan(3.3);
    await expectAligned(page, { atLeast: 6, label: 'fingers moving' });
    await frames.release();
    // The fingers rest, still down.
    await nextFrames(page, 3);
    await expectAligned(page, { atLeast: 6, label: 'fingers resting' });
    await settleAfter(page, () => touch('touchEnd', []));
    await expectAligned(page, { atLeast: 6, label: 'fingers lifted' });
    expect(await canvasScale(page), 'nothing left scaled').toBe(1);
  });
});
