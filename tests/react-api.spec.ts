import { PNG } from 'pngjs';
import { expect, test, type Page } from './test.ts';
import { PLAIN_STYLE, waitForMapState, watchConsole, watchForNothing } from './helpers.ts';
import { countWebGLContexts, liveWebGLContexts } from './webgl-contexts.ts';

/**
 * `<Pinmap/>` as a React app uses it (tests/pages/react-api.tsx, under StrictMode on the
 * development server): uncontrolled and controlled camera, the ref, events as props, and props
 * that change on a live map without making a new one (counted in WebGL contexts).
 */

const PINS = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', id: 'paris', geometry: { type: 'Point', coordinates: [2.35, 48.86] }, properties: { title: 'Paris', category: 'capital' } },
    { type: 'Feature', id: 'lyon', geometry: { type: 'Point', coordinates: [4.84, 45.76] }, properties: { title: 'Lyon', category: 'city' } },
    { type: 'Feature', id: 'nice', geometry: { type: 'Point', coordinates: [7.27, 43.7] }, properties: { title: 'Nice', category: 'city' } },
  ],
};

type Props = Record<string, unknown>;

async function open(page: Page, props: Props, query = ''): Promise<void> {
  await countWebGLContexts(page);
  await page.goto(`/tests/pages/react-api.html?props=${encodeURIComponent(JSON.stringify(props))}${query}`);
  await waitForMapState(page, 'idle', 60_000);
}

function setProps(page: Page, props: Props): Promise<void> {
  return page.evaluate((props) => window.harness.setProps(props), props);
}

function viewState(page: Page) {
  return page.evaluate(() => window.harness.ref.current!.getViewState());
}

/** Polls until the camera shows `expected`, field by field, to within float noise. */
async function expectView(page: Page, expected: Record<string, number>): Promise<void> {
  await expect
    .poll(async () => {
      const now = await viewState(page);
      return Object.entries(expected).every(([key, value]) => Math.abs(now[key as keyof typeof now] - value) < 1e-6);
    }, { message: `camera at ${JSON.stringify(expected)}` })
    .toBe(true);
}

function events(page: Page, type?: string) {
  return page.evaluate((type) => window.harness.events.filter((event) => type === undefined || event.type === type), type);
}

/** Drags the map's middle by (dx, dy) pixels with the mouse. */
async function drag(page: Page, dx: number, dy: number): Promise<void> {
  await page.mouse.move(400, 300);
  await page.mouse.down();
  for (let step = 1; step <= 8; step++) await page.mouse.move(400 + (dx * step) / 8, 300 + (dy * step) / 8);
  await page.mouse.up();
}

test.describe(() => {
  test.use({ basemap: 'embedded' }); // getMap() gives the map with the basemap's layers
  test('uncontrolled: initialViewState places the map, later changes of it do not, the ref moves it', async ({ mapPage: page }) => {
    const console = watchConsole(page);
    await open(page, { initialViewState: { longitude: 10, latitude: 50, zoom: 4 } });
    await expectView(page, { longitude: 10, latitude: 50, zoom: 4, bearing: 0, pitch: 0 });

    await page.evaluate(() => window.harness.events.splice(0));
    const still = await watchForNothing(page);
    await setProps(page, { initialViewState: { longitude: -70, latitude: -30, zoom: 2 } });
    await still.expectNothing('a later initialViewState moved the map');
    expect(await events(page, 'move')).toEqual([]);
    await expectView(page, { longitude: 10, latitude: 50, zoom: 4 });

    await page.evaluate(() => window.harness.ref.current!.jumpTo({ longitude: 20, zoom: 3 }));
    await expectView(page, { longitude: 20, latitude: 50, zoom: 3 });
    await page.evaluate(() => window.harness.ref.current!.flyTo({ longitude: 2.35, latitude: 48.86, zoom: 6 }, { duration: 200 }));
    await expectView(page, { longitude: 2.35, latitude: 48.86, zoom: 6 });
    await page.evaluate(() => window.harness.ref.current!.fitBounds([[-10, 35], [30, 60]], { duration: 0 }));
    const fitted = await viewState(page);
    expect(fitted.longitude).toBeCloseTo(10, 0);
    expect(fitted.zoom).toBeGreaterThan(2);
    expect(fitted.zoom).toBeLessThan(5);
    const style = await page.evaluate(() => {
      const map = window.harness.ref.current!.getMap()!;
      return { layers: map.getStyle().layers.length, canvas: map.getCanvas().className };
    });
    expect(style.layers).toBeGreaterThan(3);
    expect(style.canvas).toContain('maplibregl-canvas');
    // Every camera change was told to onMove, the last one with where the map is.
    const moves = await events(page, 'move');
    expect(moves.length).toBeGreaterThan(2);
    expect(moves.at(-1)!.detail).toEqual(await viewState(page));
    expect(await liveWebGLContexts(page)).toMatchObject({ alive: 1 });
    expect(console.errors).toEqual([]);
  });
});

test('controlled: the map shows viewState, follows it without a new map, and springs back from a gesture the state ignores', async ({ mapPage: page }) => {
  const console = watchConsole(page);
  await open(page, { controlled: { viewState: { longitude: 10, latitude: 50, zoom: 4 }, follow: true } });
  await expectView(page, { longitude: 10, latitude: 50, zoom: 4 });
  const contexts = await liveWebGLContexts(page);

  // The app's state moves the map.
  await setProps(page, { controlled: { viewState: { longitude: 2.35, latitude: 48.86, zoom: 5, bearing: 30 }, follow: true } });
  await expectView(page, { longitude: 2.35, latitude: 48.86, zoom: 5, bearing: 30 });

  // A drag the app follows stays where the user left the map, and the app's state has it.
  await drag(page, -200, 0);
  await waitForMapState(page, 'idle'); // the drag's glide has ended
  const dragged = await viewState(page);
  expect(dragged.longitude).toBeGreaterThan(4);
  const state = await page.evaluate(() => window.harness.viewState!);
  expect(state.longitude).toBeCloseTo(dragged.longitude, 6);

  // An app that ignores onMove keeps the map where its state says: the drag springs back.
  await setProps(page, { controlled: { viewState: { longitude: 2.35, latitude: 48.86, zoom: 5, bearing: 0 }, follow: false } });
  await expectView(page, { longitude: 2.35, latitude: 48.86, zoom: 5, bearing: 0 });
  await page.evaluate(() => window.harness.events.splice(0));
  await drag(page, -200, 0);
  await expectView(page, { longitude: 2.35, latitude: 48.86, zoom: 5 });
  // The drag did move the map (and told onMove) before it went back.
  const moved = (await events(page, 'move')).map((event) => (event.detail as { longitude: number }).longitude);
  expect(Math.max(...moved)).toBeGreaterThan(4);

  expect(await liveWebGLContexts(page)).toEqual(contexts);
  expect(console.errors).toEqual([]);
});

test('pins, pin styles and controls change on the live map: same WebGL context, camera and controls state', async ({ page }) => {
  const console = watchConsole(page);
  await open(page, { initialViewState: { longitude: 4, latitude: 46, zoom: 4.5 }, pins: PINS });
  await expect(page.locator('.pinmap-pin')).toHaveCount(3);
  const contexts = await liveWebGLContexts(page);
  expect(contexts.alive).toBe(1);
  await page.evaluate(() => window.harness.ref.current!.jumpTo({ longitude: 4.5, latitude: 46.5, zoom: 5 }));

  // New pins replace the old ones.
  const twoPins = { ...PINS, features: PINS.features.slice(1) };
  await setProps(page, { initialViewState: { longitude: 4, latitude: 46, zoom: 4.5 }, pins: twoPins });
  await expect(page.locator('.pinmap-pin')).toHaveCount(2);
  await expect(page.locator('.pinmap-pin[data-pin-id="paris"]')).toHaveCount(0);

  // A pin style per category recolours the pins.
  const fill = () => page.locator('.pinmap-pin[data-pin-id="lyon"] path').first().getAttribute('fill');
  const before = await fill();
  await setProps(page, { initialViewState: { longitude: 4, latitude: 46, zoom: 4.5 }, pins: twoPins, pinStyles: { city: { markerColor: '#C62828' } } });
  await expect.poll(fill).toBe('#C62828');
  expect(before).not.toBe('#C62828');

  // Controls move corners and go away.
  await setProps(page, {
    initialViewState: { longitude: 4, latitude: 46, zoom: 4.5 },
    pins: twoPins,
    pinStyles: { city: { markerColor: '#C62828' } },
    controls: { navigation: 'bottom-left', geolocate: false },
  });
  await expect(page.locator('[data-corner="bottom-left"] .pinmap-navigation')).toHaveCount(1);
  await expect(page.locator('.pinmap-geolocate')).toHaveCount(0);

  // The theme: the map's look and the controls' go dark on the same map.
  await setProps(page, {
    initialViewState: { longitude: 4, latitude: 46, zoom: 4.5 },
    pins: twoPins,
    pinStyles: { city: { markerColor: '#C62828' } },
    controls: { navigation: 'bottom-left', geolocate: false },
    theme: 'dark',
  });
  await expect(page.locator('.pinmap')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('.pinmap-pin')).toHaveCount(2);

  // No pins: none shown.
  await setProps(page, { initialViewState: { longitude: 4, latitude: 46, zoom: 4.5 } });
  await expect(page.locator('.pinmap-pin')).toHaveCount(0);

  // All of it on the same map, where the camera stayed.
  await expectView(page, { longitude: 4.5, latitude: 46.5, zoom: 5 });
  expect(await liveWebGLContexts(page)).toEqual(contexts);
  expect(await events(page, 'load')).toHaveLength(1);

  // A change only a new map can take (the zoom range) makes one: the old context goes, one is alive.
  await setProps(page, { initialViewState: { longitude: 4, latitude: 46, zoom: 4.5 }, config: { maxZoom: 12 } });
  await expect.poll(() => liveWebGLContexts(page)).toEqual({ created: contexts.created + 1, alive: 1 });
  await waitForMapState(page, 'idle', 60_000);
  expect(await events(page, 'load')).toHaveLength(2);
  expect(console.errors).toEqual([]);
});

test('the ref updates pins by id: the open popup stays on its moved pin, the camera and the WebGL context stay', async ({ mapPage: page }) => {
  const console = watchConsole(page);
  await open(page, { initialViewState: { longitude: 4, latitude: 46, zoom: 4.5 }, pins: PINS, config: { style: PLAIN_STYLE } });
  const contexts = await liveWebGLContexts(page);
  await page.evaluate(() => window.harness.ref.current!.openPin('lyon'));
  await expect(page.locator('.pinmap-popup')).toHaveAttribute('data-pin-id', 'lyon');
  const camera = await viewState(page);
  await page.evaluate(() =>
    window.harness.ref.current!.updatePins({
      update: [{ type: 'Feature', id: 'lyon', geometry: { type: 'Point', coordinates: [5.5, 45.5] }, properties: { title: 'Lyon', category: 'city' } }],
      add: [{ type: 'Feature', id: 'dijon', geometry: { type: 'Point', coordinates: [5.04, 47.32] }, properties: { title: 'Dijon' } }],
      remove: ['nice'],
    }),
  );
  await expect(page.locator('.pinmap-pin[data-pin-id="nice"]')).toHaveCount(0);
  await expect(page.locator('.pinmap-pin[data-pin-id="dijon"]')).toHaveCount(1);
  await expect(page.locator('.pinmap-popup')).toHaveAttribute('data-pin-id', 'lyon');
  const pin = (await page.locator('.pinmap-pin[data-pin-id="lyon"]').boundingBox())!;
  const popup = (await page.locator('.pinmap-popup').boundingBox())!;
  expect(Math.abs(popup.x + popup.width / 2 - (pin.x + pin.width / 2))).toBeLessThan(2);
  expect(await viewState(page)).toEqual(camera);
  expect(await liveWebGLContexts(page)).toEqual(contexts);
  expect(console.errors).toEqual([]);
});

test('events as props: pin click, popup open and close, and errors', async ({ mapPage: page }) => {
  await open(page, { initialViewState: { longitude: 4, latitude: 46, zoom: 4.5 }, pins: PINS });
  await page.locator('.pinmap-pin[data-pin-id="lyon"]').click();
  await expect(page.locator('.pinmap-popup')).toBeVisible();
  await page.locator('.pinmap-pin[data-pin-id="nice"]').focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => events(page, 'popupOpen')).toHaveLength(2);
  await page.keyboard.press('Escape');
  await expect.poll(() => events(page, 'popupClose')).toHaveLength(2);
  // The ref opens a popup too: an open without a click.
  await page.evaluate(() => window.harness.ref.current!.openPin('paris'));
  await page.evaluate(() => window.harness.ref.current!.closePin());
  await expect.poll(() => events(page)).toEqual(
    expect.arrayContaining([
      { type: 'pinClick', detail: 'lyon' },
      { type: 'pinClick', detail: 'nice' },
    ]),
  );
  const pinEvents = (await events(page)).filter((event) => event.type !== 'move' && event.type !== 'load');
  expect(pinEvents).toEqual([
    { type: 'pinClick', detail: 'lyon' },
    { type: 'popupOpen', detail: 'lyon' },
    { type: 'pinClick', detail: 'nice' },
    { type: 'popupClose', detail: 'lyon' },
    { type: 'popupOpen', detail: 'nice' },
    { type: 'popupClose', detail: 'nice' },
    { type: 'popupOpen', detail: 'paris' },
    { type: 'popupClose', detail: 'paris' },
  ]);

  await setProps(page, { config: { maxZoom: 'far' } });
  await waitForMapState(page, 'error');
  await expect.poll(() => events(page, 'error')).toEqual([{ type: 'error', detail: expect.stringContaining('maxZoom') }]);
});

test('the ref opens a pre-tiled pin by id: looked up in the archive\'s pin index, the popup opens when it answers', async ({ mapPage: page }) => {
  const console = watchConsole(page);
  await open(page, { initialViewState: { longitude: 2.35, latitude: 48.86, zoom: 5 }, pins: 'pmtiles://pins/cities.pmtiles' });
  expect(await page.evaluate(() => window.harness.ref.current!.openPin('paris-fr'))).toBe(true);
  await expect(page.locator('.pinmap-popup')).toContainText('Capital of France');
  await expect(page.locator('.pinmap-popup')).toHaveAttribute('data-pin-id', 'paris-fr');
  // An id the archive does not have: nothing opens, and the console says why.
  await page.evaluate(() => window.harness.ref.current!.closePin());
  await page.evaluate(() => window.harness.ref.current!.openPin('no-such-pin'));
  await expect.poll(() => console.warnings.some((w) => w.includes('there is no pin with the id "no-such-pin" in the pin archive'))).toBe(true);
  await expect(page.locator('.pinmap-popup')).toHaveCount(0);
  expect(console.errors).toEqual([]);
});

/** Three stores with their hours, which the config has each pin keep (`popupFields`). */
const STORES = {
  type: 'FeatureCollection',
  features: PINS.features.map((feature, index) => ({ ...feature, properties: { ...feature.properties, hours: ['9:00–19:00', '10:00–18:00', '8:30–20:00'][index] } })),
};

/** The store locator of tests/pages/react-api.tsx (`store`) on a plain style, Lyon low in a small map. */
function storeProps(view: 'vector' | 'hybrid'): Props {
  return { store: true, initialViewState: { longitude: 4, latitude: 47, zoom: 4.5 }, config: { style: PLAIN_STYLE, view, popupFields: ['hours'] }, pins: STORES };
}

const CLOSE_BUTTON = '.maplibregl-popup-close-button, .pinmap-popup-close';

for (const view of ['vector', 'hybrid'] as const) {
  test(`${view} view: renderPopup's content has the app's context and handlers, inside the popup's frame, focus and Escape`, async ({ page }) => {
    const console = watchConsole(page);
    await page.setViewportSize({ width: 480, height: 400 });
    await open(page, storeProps(view));
    const popup = page.locator('.pinmap-popup');
    const lyon = page.locator('.pinmap-pin[data-pin-id="lyon"]');

    // Opened by pointer: the app's card, with the pin's hours, and the focus in the popup.
    await lyon.click();
    await expect(popup.locator('.store-card h3')).toHaveText('Lyon');
    await expect(popup).toContainText('Open 10:00–18:00');
    await expect(popup).toHaveAttribute('role', 'dialog');
    await expect(popup.locator(CLOSE_BUTTON)).toHaveCount(1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.pinmap-popup') != null)).toBe(true);

    // The button changes the app's state through its context: the card and the page show it.
    await popup.getByRole('button', { name: 'Add to basket' }).click();
    await expect(popup.locator('.basket-count')).toHaveText('1 in basket');
    await expect(page.locator('.app-basket')).toHaveText('1 in basket');

    // Content that grows: the popup is placed again, its tip still on the pin, the focus kept.
    const more = popup.getByRole('button', { name: 'More' });
    const narrow = (await popup.boundingBox())!;
    await more.click();
    await expect(popup.locator('.store-more')).toBeVisible();
    await expect.poll(async () => (await popup.boundingBox())!.height).toBeGreaterThan(narrow.height + 20);
    await expect.poll(() => tipOffset(page)).toBeLessThan(2);
    await expect(more).toBeFocused();
    await page.screenshot({ path: test.info().outputPath(`react-popup-${view}.png`) });

    // Escape closes it and the focus goes back to the pin.
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    await expect(lyon).toBeFocused();

    // Opened from the keyboard: the focus goes to the close button; its click closes the popup.
    await page.locator('.pinmap-pin[data-pin-id="paris"]').focus();
    await page.keyboard.press('Enter');
    await expect(popup.locator('.store-card h3')).toHaveText('Paris');
    await expect(popup.locator(CLOSE_BUTTON)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(popup).toHaveCount(0);
    await expect(page.locator('.pinmap-pin[data-pin-id="paris"]')).toBeFocused();
    expect(await events(page, 'select')).toEqual([
      { type: 'select', detail: 'lyon' },
      { type: 'select', detail: null },
      { type: 'select', detail: 'paris' },
      { type: 'select', detail: null },
    ]);
    expect(console.errors).toEqual([]);
  });
}

/** How far (px) the open popup's tip is from its pin's middle, across. */
function tipOffset(page: Page): Promise<number> {
  return page.evaluate(() => {
    const popup = document.querySelector<HTMLElement>('.pinmap-popup')!;
    const tip = popup.querySelector('.maplibregl-popup-tip, .leaflet-popup-tip')!.getBoundingClientRect();
    const pin = document.querySelector(`.pinmap-pin[data-pin-id="${popup.dataset.pinId}"]`)!.getBoundingClientRect();
    return Math.abs(tip.left + tip.width / 2 - (pin.left + pin.width / 2));
  });
}

test('controlled selection: the app\'s own list selects a store (the map flies to it and opens it), the map\'s picks come back through onSelect', async ({ page }) => {
  const console = watchConsole(page);
  await page.setViewportSize({ width: 480, height: 400 });
  await open(page, { ...storeProps('vector'), initialViewState: { longitude: -40, latitude: 20, zoom: 3 } });
  const popup = page.locator('.pinmap-popup');
  const list = page.getByRole('list', { name: 'Stores' });

  await list.getByRole('button', { name: 'nice' }).click();
  await expect(popup.locator('.store-card h3')).toHaveText('Nice');
  await expect(list.getByRole('button', { name: 'nice' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.pinmap-pin[data-open]')).toHaveAttribute('data-pin-id', 'nice');
  expect(await page.locator('.pinmap-pin[data-pin-id="nice"]').evaluate((pin) => getComputedStyle(pin).filter)).toContain('drop-shadow');
  const inView = await page.evaluate(() => {
    const map = document.querySelector('.pinmap-map')!.getBoundingClientRect();
    const pin = document.querySelector('.pinmap-pin[data-pin-id="nice"]')!.getBoundingClientRect();
    return pin.left >= map.left && pin.right <= map.right && pin.top >= map.top && pin.bottom <= map.bottom;
  });
  expect(inView).toBe(true);

  // A pick on the map is the app's selection too; another pick in the list moves it.
  await page.locator('.pinmap-pin[data-pin-id="lyon"]').click();
  await expect(popup.locator('.store-card h3')).toHaveText('Lyon');
  await expect(list.getByRole('button', { name: 'lyon' })).toHaveAttribute('aria-pressed', 'true');
  await list.getByRole('button', { name: 'paris' }).click();
  await expect(popup.locator('.store-card h3')).toHaveText('Paris');
  await popup.locator(CLOSE_BUTTON).click();
  await expect(popup).toHaveCount(0);
  await expect(list.getByRole('button', { name: 'paris' })).toHaveAttribute('aria-pressed', 'false');
  await expect(page.locator('.pinmap-pin[data-open]')).toHaveCount(0);
  // The same store again, once its popup closed, opens it again.
  await list.getByRole('button', { name: 'paris' }).click();
  await expect(popup.locator('.store-card h3')).toHaveText('Paris');
  expect(console.errors).toEqual([]);
});

test('hydration: the server\'s markup of <Pinmap/> is hydrated without a mismatch, and the map, its pins and its popups start then', async ({ page }) => {
  const console = watchConsole(page);
  await page.setViewportSize({ width: 480, height: 400 });
  await open(page, storeProps('vector'), '&hydrate');
  await expect(page.locator('.pinmap-map canvas.maplibregl-canvas')).toHaveCount(1);
  await page.getByRole('list', { name: 'Stores' }).getByRole('button', { name: 'lyon' }).click();
  await expect(page.locator('.pinmap-popup .store-card h3')).toHaveText('Lyon');
  expect(console.errors).toEqual([]);
  expect(console.warnings.filter((warning) => /hydrat/i.test(warning))).toEqual([]);
});

/** The three pins with a price, which the config has each pin keep (`popupFields`) for its tag. */
const PRICED = {
  type: 'FeatureCollection',
  features: PINS.features.map((feature, index) => ({ ...feature, properties: { ...feature.properties, price: ['180', '120', '90'][index] } })),
};

/** Where a point is on the page (CSS px), as the map's MapLibre map (the whole map, or the hybrid view's vector layer) projects it. */
function pagePoint(page: Page, lngLat: [number, number]): Promise<{ x: number; y: number }> {
  return page.evaluate((lngLat) => {
    const map = window.harness.ref.current!.getMap()!;
    const at = map.project(lngLat);
    const box = map.getCanvas().getBoundingClientRect();
    return { x: box.left + at.x, y: box.top + at.y };
  }, lngLat);
}

/** Whether anything is drawn in the box a pin icon takes above `point` (its tip): more than the backdrop's one colour. */
async function drawnAbove(page: Page, point: { x: number; y: number }): Promise<boolean> {
  const shot = PNG.sync.read(await page.screenshot({ clip: { x: Math.round(point.x) - 6, y: Math.round(point.y) - 26, width: 12, height: 22 } }));
  const first = shot.data.readUInt32BE(0);
  for (let i = 4; i < shot.data.length; i += 4) if (shot.data.readUInt32BE(i) !== first) return true;
  return false;
}

test.describe('renderPin and highlightedPins', () => {
  test.use({ viewport: { width: 480, height: 400 } });
  const LYON: [number, number] = [4.84, 45.76];
  const NICE: [number, number] = [7.27, 43.7];
  const PARIS: [number, number] = [2.35, 48.86];

  // The vector view with GPU pins (`domPinLimit: 0`), and the hybrid view's DOM pins.
  for (const view of ['vector', 'hybrid'] as const) {
    test(`${view} view: a price tag at its pin's place in place of the pin, its click opens the popup, a new list moves it on the same map, reached and named from the keyboard, the ring on the tag`, async ({ mapPage: page }) => {
      const console = watchConsole(page);
      await open(page, { priceTags: true, highlightedPins: ['lyon'], initialViewState: { longitude: 4, latitude: 47, zoom: 4.5 }, config: { style: PLAIN_STYLE, view, domPinLimit: 0, popupFields: ['price'] }, pins: PRICED });
      const tag = page.locator('.price-tag');
      await expect(tag).toHaveText('€120');
      await page.evaluate(() => Object.assign(window, { firstMap: window.harness.ref.current!.getMap() }));

      // Its bottom centre is the pin's place, as a pin's tip is.
      const lyon = await pagePoint(page, LYON);
      const box = (await tag.boundingBox())!;
      expect(Math.abs(box.x + box.width / 2 - lyon.x)).toBeLessThan(1.5);
      expect(Math.abs(box.y + box.height - lyon.y)).toBeLessThan(1.5);
      // Under the tag no pin is drawn; Paris, not named, is a pin as before.
      await page.addStyleTag({ content: '.price-tag { visibility: hidden }' });
      expect(await drawnAbove(page, lyon)).toBe(false);
      expect(await drawnAbove(page, await pagePoint(page, PARIS))).toBe(true);
      await page.addStyleTag({ content: '.price-tag { visibility: visible }' });

      // Another list: the tag moves to Nice, Lyon is a pin again, on the same map.
      await setProps(page, { priceTags: true, highlightedPins: ['nice'], initialViewState: { longitude: 4, latitude: 47, zoom: 4.5 }, config: { style: PLAIN_STYLE, view, domPinLimit: 0, popupFields: ['price'] }, pins: PRICED });
      await expect(tag).toHaveText('€90');
      const nice = await pagePoint(page, NICE);
      const moved = (await tag.boundingBox())!;
      expect(Math.abs(moved.x + moved.width / 2 - nice.x)).toBeLessThan(1.5);
      expect(Math.abs(moved.y + moved.height - nice.y)).toBeLessThan(1.5);
      await expect.poll(() => drawnAbove(page, lyon)).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { firstMap: unknown }).firstMap === window.harness.ref.current!.getMap())).toBe(true);

      // A click on the tag does what a click on the pin does.
      await tag.click();
      await expect(page.locator('.pinmap-popup')).toContainText('Nice');
      await expect(page.locator('.pinmap-popup')).toHaveAttribute('data-pin-id', 'nice');
      await expect.poll(() => events(page, 'pinClick')).toEqual([{ type: 'pinClick', detail: 'nice' }]);
      await page.keyboard.press('Escape');
      await expect(page.locator('.pinmap-popup')).toHaveCount(0);

      // From the keyboard: the skip link, the map, then its pins; End reaches the last in reading order, Nice, by its name, and Enter opens it.
      await page.locator('.pinmap-skip-link').focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await waitForMapState(page, 'idle');
      await page.keyboard.press('End');
      await expect(page.locator('.pinmap-pin:focus')).toHaveAttribute('aria-label', 'Nice, city');
      // The focus ring is on the tag, and no pin icon is drawn over it (the tag and its ring hidden, nothing is drawn above Nice).
      await expect(page.locator('.pinmap-pin-app', { has: tag })).toHaveCSS('outline-style', 'solid');
      const hidden = await page.addStyleTag({ content: '.price-tag { visibility: hidden } .pinmap-pin-app { outline: none !important }' });
      expect(await drawnAbove(page, nice), 'a pin icon over the focused tag').toBe(false);
      await hidden.evaluate((style) => (style as Element).remove());
      await page.keyboard.press('Enter');
      await expect(page.locator('.pinmap-popup')).toHaveAttribute('data-pin-id', 'nice');
      await page.keyboard.press('Escape');
      await expect(page.locator('.pinmap-popup')).toHaveCount(0);

      // More than 100 ids: the first 100 are drawn, and the console says so once.
      const many = ['nice', ...Array.from({ length: 120 }, (_, i) => `missing-${String(i)}`)];
      await setProps(page, { priceTags: true, highlightedPins: many, initialViewState: { longitude: 4, latitude: 47, zoom: 4.5 }, config: { style: PLAIN_STYLE, view, domPinLimit: 0, popupFields: ['price'] }, pins: PRICED });
      await setProps(page, { priceTags: true, highlightedPins: [...many, 'lyon'], initialViewState: { longitude: 4, latitude: 47, zoom: 4.5 }, config: { style: PLAIN_STYLE, view, domPinLimit: 0, popupFields: ['price'] }, pins: PRICED });
      await expect.poll(() => console.warnings.filter((warning) => warning.includes('more than 100 pins'))).toHaveLength(1);
      await expect(tag).toHaveText('€90');
      expect(console.errors).toEqual([]);
    });
  }
});
