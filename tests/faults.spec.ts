import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page, type Request, type Route } from './test.ts';
import { PNG } from 'pngjs';
import { compareImages } from '../visual/compare.ts';
import { BASEMAP_ARCHIVE } from './basemap-tiles.ts';
import { serveJson, waitForMapState, watchConsole } from './helpers.ts';

// The basemap's own style, tiles, fonts and sprite are what fail here, and what must stay drawn.
test.use({ basemap: 'embedded' });

/**
 * Network faults, injected with Playwright's request routing into the production build: a style
 * document that fails or never answers, tiles that fail or crawl, and fonts, sprites and pin
 * files that fail. Each test prints its figures (faults injected, requests checked) as one
 * `faults:` line and as an annotation.
 */

const STYLE_PATH = '/basemap/style.json';
/** The embedded basemap's tiles: range requests to its one archive (each range is one tile, a directory or the header). */
const TILE_PATH = /^\/basemap\/basemap\.pmtiles$/;
const FONT_PATH = /^\/basemap\/fonts\/[^/]+\.woff2$/;

/** The style's own colours: water (the background), land, and the countries' tints. */
const WATER = '#d3e5f0';
const LAND = ['#f7f4ec', '#f3f1e6', '#f6efe9', '#f0f2ea', '#f4efe2', '#f7f3e8'];

/** Prints a test's figures and keeps them with its result. */
function report(name: string, figures: Record<string, number | string>): void {
  const line = `faults: ${name}: ${Object.entries(figures).map(([key, value]) => `${key} ${value}`).join(', ')}`;
  console.log(line);
  test.info().annotations.push({ type: 'figures', description: line });
}

/** Opens the app with `config` served as `?config=`, at `address` (e.g. `#map=3/46/10`). */
async function openApp(page: Page, config: Record<string, unknown>, address = ''): Promise<void> {
  await serveJson(page, '/__faults/config.json', config);
  await page.goto(`/?config=/__faults/config.json${address}`);
}

/** Console errors that are not the browser's own line about a failed response (it logs every one). */
function uncaught(errors: string[]): string[] {
  return errors.filter((e) => !/^Failed to load resource: /.test(e));
}

/** The map's canvas as a PNG (needs `preserveDrawingBuffer`). */
async function canvasPng(page: Page): Promise<Buffer> {
  const url = await page.locator('canvas.maplibregl-canvas').evaluate((canvas: HTMLCanvasElement) => canvas.toDataURL('image/png'));
  return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
}

/** Shares of the map's pixels that are the style's water colour and one of its land colours. */
async function geometryShares(page: Page): Promise<{ water: number; land: number }> {
  const png = PNG.sync.read(await page.locator('.pinmap-map').screenshot());
  const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  const near = (data: Buffer, i: number, [r, g, b]: [number, number, number]) => Math.abs(data[i]! - r) + Math.abs(data[i + 1]! - g) + Math.abs(data[i + 2]! - b) <= 6;
  const water = rgb(WATER);
  const land = LAND.map(rgb);
  let waterPixels = 0;
  let landPixels = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    if (near(png.data, i, water)) waterPixels++;
    else if (land.some((colour) => near(png.data, i, colour))) landPixels++;
  }
  const total = png.data.length / 4;
  return { water: waterPixels / total, land: landPixels / total };
}

/** Dark pixels on the map: the labels' ink (nothing else in the basemap is that dark). */
async function labelInk(page: Page): Promise<number> {
  const png = PNG.sync.read(await page.locator('.pinmap-map').screenshot());
  let dark = 0;
  for (let i = 0; i < png.data.length; i += 4) if (png.data[i]! + png.data[i + 1]! + png.data[i + 2]! < 200) dark++;
  return dark;
}

/** Expects the basemap's geometry on screen: water and land, each a real share of the map. */
async function expectGeometry(page: Page): Promise<{ water: number; land: number }> {
  const shares = await geometryShares(page);
  expect(shares.water, 'share of the map drawn as water').toBeGreaterThan(0.1);
  expect(shares.land, 'share of the map drawn as land').toBeGreaterThan(0.1);
  return shares;
}

/** Fulfils a route, ignoring a request the page has given up on meanwhile. */
async function settle(action: Promise<void>): Promise<void> {
  await action.catch(() => {});
}

test.describe('style document faults', () => {
  type StyleFault = { name: string; reason: RegExp; inject: (route: Route) => Promise<void> };
  const faults: StyleFault[] = [
    { name: 'HTTP 404', reason: /: HTTP 404/, inject: (route) => route.fulfill({ status: 404, body: 'not found' }) },
    { name: 'HTTP 500', reason: /: HTTP 500/, inject: (route) => route.fulfill({ status: 500, body: 'server error' }) },
    { name: 'invalid JSON', reason: /JSON/, inject: (route) => route.fulfill({ contentType: 'application/json', body: '{"version": 8, "sources": {' }) },
    { name: 'a refused connection', reason: /Failed to fetch/, inject: (route) => route.abort('connectionrefused') },
  ];

  for (const fault of faults) {
    test(`a style that fails with ${fault.name} shows an error naming its URL, and Retry loads it once it is served`, async ({ mapPage: page, baseURL }) => {
      const console = watchConsole(page);
      let styleRequests = 0;
      let injected = 0;
      let failing = true;
      await page.route((url) => url.pathname === STYLE_PATH, async (route) => {
        styleRequests++;
        if (!failing) return route.continue();
        injected++;
        return fault.inject(route);
      });
      await openApp(page, { style: STYLE_PATH, center: [10, 46], zoom: 3 });
      await waitForMapState(page, 'error');
      const panel = page.getByRole('alert');
      await expect(panel).toContainText('The map could not be loaded');
      await expect(panel).toContainText(`Could not load the map style from ${baseURL}${STYLE_PATH}`);
      await expect(panel).toContainText(fault.reason);

      // Retry while the style still fails: the error comes back, naming it again.
      await panel.getByRole('button', { name: 'Retry' }).click();
      await expect(panel).toContainText(`Could not load the map style from ${baseURL}${STYLE_PATH}`);
      await waitForMapState(page, 'error');
      expect(injected).toBe(2);

      failing = false;
      await panel.getByRole('button', { name: 'Retry' }).click();
      await waitForMapState(page, 'idle');
      await expect(page.getByRole('alert')).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Zoom in' })).toBeVisible();
      const shares = await expectGeometry(page);
      expect(uncaught(console.errors)).toEqual([]);
      expect(styleRequests).toBe(3);
      report(`style ${fault.name}`, { 'style requests': styleRequests, 'faults injected': injected, retries: 2, 'water share': shares.water.toFixed(2), 'land share': shares.land.toFixed(2) });
    });
  }

  for (const view of ['vector', 'hybrid'] as const) {
    test(`${view} view: a style that does not answer for 10 s is an error that says so before the answer comes; its request is aborted, and Retry loads it`, async ({ mapPage: page, baseURL }) => {
      test.setTimeout(90_000);
      const console = watchConsole(page);
      let styleRequests = 0;
      let stalled = 0;
      let stallOver = false;
      const aborted: string[] = [];
      page.on('requestfailed', (request) => {
        if (new URL(request.url()).pathname === STYLE_PATH) aborted.push(request.failure()?.errorText ?? '');
      });
      await page.route((url) => url.pathname === STYLE_PATH, async (route) => {
        styleRequests++;
        if (styleRequests > 1) return route.continue();
        stalled++;
        await new Promise((resolve) => setTimeout(resolve, 10_000));
        stallOver = true;
        await settle(route.continue());
      });
      await openApp(page, { view, style: STYLE_PATH, center: [10, 46], zoom: 3 });
      await waitForMapState(page, 'error', 20_000);
      await expect(page.locator('.pinmap')).toHaveAttribute('data-view', view);
      // The answer is still 10 s away: the page does not wait for it.
      expect(stallOver, 'the error showed only after the stalled answer came').toBe(false);
      const panel = page.getByRole('alert');
      await expect(panel).toContainText(`Could not load the map style from ${baseURL}${STYLE_PATH}: the server did not answer within 8 s`);
      await expect.poll(() => aborted.length, { message: 'the stalled style request was aborted' }).toBe(1);

      await panel.getByRole('button', { name: 'Retry' }).click();
      await waitForMapState(page, 'idle');
      await expect(page.getByRole('alert')).toHaveCount(0);
      await expectGeometry(page);
      // The stalled answer, when it finally comes, changes nothing.
      await expect.poll(() => stallOver, { timeout: 15_000 }).toBe(true);
      await waitForMapState(page, 'idle');
      await expect(page.getByRole('alert')).toHaveCount(0);
      expect(uncaught(console.errors)).toEqual([]);
      report(`style stalled 10 s, ${view} view`, { 'style requests': styleRequests, 'stalled (faults injected)': stalled, 'aborted by the page': aborted.length, retries: 1 });
    });
  }

  test('destroying a map whose style has not answered aborts the request', async ({ mapPage: page }) => {
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>embed</title><link rel="stylesheet" href="/lib/pinmap.css"></head>
<body><div id="map" style="width: 640px; height: 400px"></div>
<script type="module">import { createPinmap } from '/lib/pinmap-embed.js'; window.createPinmap = createPinmap;</script></body></html>`;
    await page.route((url) => url.pathname === '/__faults/embed.html', (route) => route.fulfill({ contentType: 'text/html', body: html }));
    const aborted: string[] = [];
    page.on('requestfailed', (request) => {
      if (new URL(request.url()).pathname === '/__faults/stalled-style.json') aborted.push(request.failure()?.errorText ?? '');
    });
    let stalled = 0;
    const release: (() => void)[] = [];
    await page.route((url) => url.pathname === '/__faults/stalled-style.json', async (route) => {
      stalled++;
      await new Promise<void>((resolve) => release.push(resolve));
      await settle(route.fulfill({ status: 503, body: 'gone' }));
    });
    await page.goto('/__faults/embed.html');
    await page.waitForFunction(() => 'createPinmap' in window);
    await page.evaluate(() => {
      const w = window as unknown as { createPinmap: (id: string, config: object) => { destroy(): void }; handle: { destroy(): void } };
      w.handle = w.createPinmap('map', { style: '/__faults/stalled-style.json' });
    });
    await expect.poll(() => stalled).toBe(1);
    await expect(page.locator('#map .pinmap')).toHaveAttribute('data-map-state', 'loading');
    await page.evaluate(() => (window as unknown as { handle: { destroy(): void } }).handle.destroy());
    await expect.poll(() => aborted.length, { message: 'the style request was aborted when the map was destroyed' }).toBe(1);
    await expect(page.locator('#map canvas')).toHaveCount(0);
    release.forEach((resolve) => resolve());
    report('style stalled, map destroyed', { 'style requests': stalled, 'aborted by destroy': aborted.length });
  });
});

/** Pins spread over Europe, apart at zoom 3, so each is its own button. */
const EUROPE_PINS = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', id: 'paris', geometry: { type: 'Point', coordinates: [2.35, 48.86] }, properties: { title: 'Paris', description: 'Capital of France' } },
    { type: 'Feature', id: 'rome', geometry: { type: 'Point', coordinates: [12.5, 41.9] }, properties: { title: 'Rome' } },
    { type: 'Feature', id: 'madrid', geometry: { type: 'Point', coordinates: [-3.7, 40.42] }, properties: { title: 'Madrid' } },
    { type: 'Feature', id: 'berlin', geometry: { type: 'Point', coordinates: [13.4, 52.52] }, properties: { title: 'Berlin' } },
  ],
};

/** The camera as the address shows it: `#map=zoom/lat/lng/bearing/pitch`. */
async function addressCamera(page: Page) {
  const hash = await page.evaluate(() => location.hash);
  const [zoom, lat, lng, bearing = 0, pitch = 0] = (/map=([^&]+)/.exec(hash)?.[1] ?? '').split('/').map(Number);
  return { zoom: zoom!, lat: lat!, lng: lng!, bearing, pitch };
}

type TileOutcome = 'pending' | 'ok' | 'failed' | 'aborted';

/**
 * Tile faults on every request whose path matches `pattern`: while `on`, requests 0, 1 and 2 of
 * every 10 fail with HTTP 500 at once and the other 7 are answered after 1 s. Keeps the latest
 * outcome of each tile path as the page saw it.
 */
async function injectTileFaults(page: Page, pattern: RegExp) {
  const state = {
    on: true,
    requests: 0,
    failed: 0,
    delayed: 0,
    aborted: 0,
    /** Requests for a tile whose earlier request failed: the map asking again. */
    retried: 0,
    latest: new Map<string, TileOutcome>(),
    failedPaths: new Set<string>(),
  };
  const pathOf = (request: Request) => new URL(request.url()).pathname;
  await page.route((url) => pattern.test(url.pathname), async (route) => {
    const path = tileKey(route.request());
    const n = state.requests++;
    if (state.failedPaths.has(path)) state.retried++;
    state.latest.set(path, 'pending');
    if (!state.on) return settle(route.continue());
    if (n % 10 < 3) {
      state.failed++;
      state.failedPaths.add(path);
      return settle(route.fulfill({ status: 500, contentType: 'text/plain', body: 'tile server error' }));
    }
    state.delayed++;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await settle(route.continue());
  });
  page.on('requestfinished', async (request) => {
    if (!pattern.test(pathOf(request))) return;
    const status = (await request.response())?.status();
    state.latest.set(tileKey(request), status === 200 || status === 206 ? 'ok' : 'failed');
  });
  page.on('requestfailed', (request) => {
    if (!pattern.test(pathOf(request))) return;
    state.aborted++;
    state.latest.set(tileKey(request), 'aborted');
  });
  return state;
}

/** A tile request's identity: its path, and for the basemap archive the byte range it asks for. */
function tileKey(request: Request): string {
  const range = request.headers()['range'];
  return `${new URL(request.url()).pathname}${range ? ` ${range}` : ''}`;
}

/** Where the basemap archive's tiles start: ranges before it are its header, directory and metadata. */
const TILE_DATA_OFFSET = Number(BASEMAP_ARCHIVE.readBigUInt64LE(56));

/** Whether a tile key is a tile: a raster tile, or a range of the archive's tile data. */
function isTile(key: string): boolean {
  const start = /bytes=(\d+)-/.exec(key)?.[1];
  return start === undefined || Number(start) >= TILE_DATA_OFFSET;
}

/**
 * Opens `config` at `address` in a page of its own with no faults, and returns the tile paths it
 * loaded and its canvas once idle: what the faulted map must come back to.
 */
async function faultFreeRender(page: Page, config: Record<string, unknown>, address: string, pattern: RegExp) {
  const clean = await page.context().newPage();
  const tiles = new Set<string>();
  clean.on('requestfinished', (request) => {
    if (pattern.test(new URL(request.url()).pathname)) tiles.add(tileKey(request));
  });
  await openApp(clean, config, address);
  await waitForMapState(clean, 'idle');
  const png = await canvasPng(clean);
  await clean.close();
  return { tiles: [...tiles].filter(isTile).sort(), png };
}

const RASTER_PATH = /^\/raster\/hatch\/\d+\/\d+\/\d+\.png$/;
const ANY_TILE_PATH = new RegExp(`${TILE_PATH.source}|${RASTER_PATH.source}`);

test.describe('tile faults', () => {
  test.use({ reducedMotion: 'no-preference' }); // animations cut short by faults
  for (const view of ['vector', 'hybrid'] as const) {
    test(`${view} view: with 30% of tile requests failing and the rest taking 1 s the map stays usable, and once the faults stop every visible tile loads`, async ({ mapPage: page }) => {
      test.setTimeout(180_000);
      const config = {
        view,
        fadeDuration: 0,
        preserveDrawingBuffer: true,
        pins: EUROPE_PINS,
        // The hybrid view's raster tiles fail and crawl too (the app's hatch over land, half see-through).
        ...(view === 'hybrid' ? { rasterLayers: [{ url: '/raster/hatch/{z}/{x}/{y}.png', placement: 'above', opacity: 0.5, maxTileZoom: 5 }] } : {}),
      };
      const home = '#map=3/46/10';
      const reference = await faultFreeRender(page, config, home, ANY_TILE_PATH);
      expect(reference.tiles.filter((key) => TILE_PATH.test(key.split(' ')[0]!)).length, 'vector tiles in view (ranges of the archive)').toBeGreaterThan(3);
      if (view === 'hybrid') expect(reference.tiles.filter((key) => RASTER_PATH.test(key)).length, 'raster tiles in view').toBeGreaterThan(3);

      const console = watchConsole(page);
      const faults = await injectTileFaults(page, ANY_TILE_PATH);
      let interactions = 0;
      await openApp(page, config, home);
      await expect(page.locator('.pinmap')).toHaveAttribute('data-view', view);
      await expect(page.locator('.pinmap-pin')).toHaveCount(EUROPE_PINS.features.length, { timeout: 30_000 });
      await expect(page.getByRole('button', { name: 'Zoom in' })).toBeVisible();

      // Drag the map.
      const box = (await page.locator('.pinmap-map').boundingBox())!;
      const middle = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      let camera = await addressCamera(page);
      await page.mouse.move(middle.x, middle.y);
      await page.mouse.down();
      await page.mouse.move(middle.x - 150, middle.y + 60, { steps: 8 });
      await page.mouse.up();
      await expect.poll(async () => (await addressCamera(page)).lng, { message: 'a drag moves the map' }).toBeGreaterThan(camera.lng + 5);
      interactions++;

      // Wheel.
      camera = await addressCamera(page);
      await page.mouse.wheel(0, -300);
      await expect.poll(async () => (await addressCamera(page)).zoom, { message: 'the wheel zooms in' }).toBeGreaterThan(camera.zoom + 0.2);
      // The wheel's zoom eases on over several frames (longer on a loaded machine): the buttons
      // come once it has ended, or their animation is cut short by it, as a gesture's would be.
      // Settled: the same zoom in three readings 300 ms apart (two were once fooled by one slow frame).
      let lastZoom = Number.NaN;
      let unchanged = 0;
      await expect
        .poll(
          async () => {
            const zoom = (await addressCamera(page)).zoom;
            unchanged = zoom === lastZoom ? unchanged + 1 : 0;
            lastZoom = zoom;
            return unchanged >= 2;
          },
          { message: 'the wheel zoom ends', intervals: [300] },
        )
        .toBe(true);
      interactions++;

      // Zoom buttons.
      const navigation = page.locator('.pinmap-navigation');
      await expect(navigation).toHaveAttribute('data-state', 'idle');
      camera = await addressCamera(page);
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await expect(navigation).toHaveAttribute('data-last-animation', 'zoomIn ended');
      await expect.poll(async () => (await addressCamera(page)).zoom).toBeCloseTo(camera.zoom + 1, 1);
      await page.getByRole('button', { name: 'Zoom out' }).click();
      await expect(navigation).toHaveAttribute('data-last-animation', 'zoomOut ended');
      await expect.poll(async () => (await addressCamera(page)).zoom).toBeCloseTo(camera.zoom, 1);
      interactions += 2;

      // The compass, after a rotation (the hybrid view cannot rotate: its compass says so).
      const compass = page.locator('.pinmap-compass');
      if (view === 'vector') {
        await page.evaluate(() => (location.hash = '#map=3/46/10/40/0'));
        await expect.poll(async () => (await addressCamera(page)).bearing).toBe(40);
        await compass.click();
        await expect(navigation).toHaveAttribute('data-last-animation', 'resetNorth ended');
        // The address follows the camera a moment later on a busy page.
        await expect.poll(async () => (await addressCamera(page)).bearing).toBe(0);
      } else {
        await expect(compass).toBeDisabled();
        await expect(compass).toHaveAttribute('title', 'Rotation is not available in this view');
      }
      interactions++;

      // A pin and its popup.
      await page.locator('.pinmap-pin[data-pin-id="paris"]').click();
      await expect(page.locator('.pinmap-popup')).toContainText('Capital of France');
      await page.keyboard.press('Escape');
      await expect(page.locator('.pinmap-popup')).toHaveCount(0);
      interactions++;

      // Fullscreen in and out.
      const fullscreen = page.locator('.pinmap-fullscreen');
      await page.getByRole('button', { name: 'Enter fullscreen' }).click();
      await expect(fullscreen).toHaveAttribute('data-state', 'on');
      await page.getByRole('button', { name: 'Exit fullscreen' }).click();
      await expect(fullscreen).toHaveAttribute('data-state', 'off');
      interactions += 2;

      // The scale, round its three units.
      const scale = page.locator('.pinmap-scale');
      for (const unit of ['imperial', 'nautical', 'metric']) {
        await scale.click();
        await expect(scale).toHaveAttribute('data-state', unit);
        interactions++;
      }

      await expect(page.locator('.pinmap')).not.toHaveAttribute('data-map-state', 'error');
      await expect(page.getByRole('alert')).toHaveCount(0);
      expect(faults.failed, 'faults were injected while the user worked the map').toBeGreaterThan(3);

      // Back to the reference camera, and the faults stop.
      await page.evaluate((home) => (location.hash = home), home);
      await expect.poll(async () => addressCamera(page)).toEqual({ zoom: 3, lat: 46, lng: 10, bearing: 0, pitch: 0 });
      faults.on = false;
      await expect
        .poll(() => reference.tiles.filter((path) => faults.latest.get(path) !== 'ok'), { message: 'visible tiles not loaded since the faults stopped', timeout: 45_000 })
        .toEqual([]);
      await waitForMapState(page, 'idle');
      const actual = await canvasPng(page);
      // The hybrid view's vector canvas follows Leaflet's whole-pixel layout, so after pans it can
      // sit a fraction of a pixel off a fresh load (within the pixel of alignment the view
      // promises): a few line edges then differ. A tile missing would be thousands of pixels.
      const comparison = compareImages(reference.png, actual, view === 'hybrid' ? { maxDiffRatio: 1e-4 } : {});
      if (comparison.diffPixels > 0) {
        for (const [name, body] of [['expected', reference.png], ['actual', actual], ['diff', comparison.diff]] as const) {
          const path = test.info().outputPath(`${name}.png`);
          writeFileSync(path, body);
          await test.info().attach(name, { path, contentType: 'image/png' });
        }
      }
      expect(comparison.diffPixels, 'pixels of the vector map that differ from the fault-free map at the same camera').toBeLessThanOrEqual(comparison.allowedPixels);
      if (view === 'hybrid') {
        // Every raster tile in the page is drawn: none left empty by a failure.
        const rasterTiles = await page.locator('.pinmap-raster-layer img.leaflet-tile').evaluateAll((images: HTMLImageElement[]) =>
          images.map((image) => ({ src: image.src, drawn: image.classList.contains('leaflet-tile-loaded') && image.complete && image.naturalWidth > 0 })),
        );
        expect(rasterTiles.filter((tile) => !tile.drawn).map((tile) => tile.src)).toEqual([]);
        expect(rasterTiles.length).toBeGreaterThan(3);
      }

      expect(uncaught(console.errors)).toEqual([]);
      const tileWarnings = console.warnings.filter((w) => /tile .*could not be loaded; it is tried again/.test(w)).length;
      report(`tiles, ${view} view`, {
        'tile requests': faults.requests,
        'failed with 500 (faults injected)': faults.failed,
        'answered after 1 s': faults.delayed,
        'aborted by the map': faults.aborted,
        'asked again after a failure': faults.retried,
        'user interactions during faults': interactions,
        'visible tiles checked': reference.tiles.length,
        'canvas pixels compared': comparison.width * comparison.height,
        'pixels differing from the fault-free map': `${comparison.diffPixels} (allowed ${comparison.allowedPixels})`,
        'tile warnings': tileWarnings,
      });
    });
  }
});

test.describe('font faults', () => {
  test("fonts that fail leave the map drawn, and each failure is a console message naming the font's URL", async ({ mapPage: page, baseURL }) => {
    const console = watchConsole(page);
    // In turn: a server error, no connection, a file that is not a font, a missing file.
    const faults: ((route: Route) => Promise<void>)[] = [
      (route) => route.fulfill({ status: 500, body: 'font server error' }),
      (route) => route.abort('connectionrefused'),
      (route) => route.fulfill({ contentType: 'font/woff2', body: Buffer.from('this is not a font file') }),
      (route) => route.fulfill({ status: 404, body: 'no such font' }),
    ];
    const faulted: string[] = [];
    await page.route((url) => FONT_PATH.test(url.pathname), async (route) => {
      const fault = faults[faulted.length % faults.length]!;
      faulted.push(route.request().url());
      await fault(route);
    });
    await openApp(page, { fadeDuration: 0 }, '#map=3/46/10');
    await waitForMapState(page, 'idle');
    const shares = await expectGeometry(page);
    // The labels are still drawn, in a fallback font.
    const ink = await labelInk(page);
    expect(ink, 'dark label pixels').toBeGreaterThan(200);
    expect(faulted.length, 'font files asked for').toBeGreaterThan(1);
    for (const url of faulted) {
      expect(url.startsWith(`${baseURL}/basemap/fonts/`)).toBe(true);
      await expect.poll(() => console.warnings.filter((w) => w.includes(url)).length, { message: `one console message naming ${url}` }).toBe(1);
    }
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(uncaught(console.errors)).toEqual([]);
    report('fonts', { 'font requests failed (faults injected)': faulted.length, 'messages naming the font': faulted.length, 'label pixels': ink, 'water share': shares.water.toFixed(2), 'land share': shares.land.toFixed(2) });
  });
});

test.describe('sprite faults', () => {
  /** The embedded basemap with a sprite, whose star icon marks the capitals. */
  const spriteStyle = (() => {
    const style = JSON.parse(readFileSync(new URL('../fixtures/basemap/style.json', import.meta.url), 'utf8')) as { layers: unknown[]; sprite?: string };
    style.sprite = '/__faults/sprite/basemap';
    style.layers.push({ id: 'capital-stars', type: 'symbol', source: 'basemap', 'source-layer': 'places', filter: ['==', ['get', 'capital'], true], layout: { 'icon-image': 'star', 'icon-allow-overlap': true } });
    return style;
  })();
  const spriteJson = { star: { x: 0, y: 0, width: 16, height: 16, pixelRatio: 1 } };
  const spritePng = (() => {
    const png = new PNG({ width: 16, height: 16 });
    for (let i = 0; i < png.data.length; i += 4) png.data.set([200, 30, 30, 255], i);
    return PNG.sync.write(png);
  })();

  type SpriteFault = { name: string; file: 'json' | 'png'; inject: (route: Route) => Promise<void> };
  const faults: SpriteFault[] = [
    { name: 'sprite JSON HTTP 404', file: 'json', inject: (route) => route.fulfill({ status: 404, body: 'not found' }) },
    { name: 'sprite image HTTP 500', file: 'png', inject: (route) => route.fulfill({ status: 500, body: 'server error' }) },
    { name: 'sprite JSON that is not JSON', file: 'json', inject: (route) => route.fulfill({ contentType: 'application/json', body: '{"star": {"x": 0,' }) },
    { name: 'sprite image that is not an image', file: 'png', inject: (route) => route.fulfill({ contentType: 'image/png', body: Buffer.from('not a png') }) },
    { name: 'sprite JSON refused', file: 'json', inject: (route) => route.abort('connectionrefused') },
  ];

  test('a sprite that fails leaves the map drawn, and the console message names the sprite file', async ({ mapPage: page, baseURL }) => {
    test.setTimeout(120_000);
    await serveJson(page, '/basemap/sprite-style.json', spriteStyle);
    const figures: Record<string, number> = { 'page loads': 0, 'faults injected': 0, 'messages naming the file': 0 };
    let current: SpriteFault | undefined;
    await page.route((url) => /^\/__faults\/sprite\/basemap\.(json|png)$/.test(url.pathname), async (route) => {
      const file = route.request().url().endsWith('.json') ? 'json' : 'png';
      if (current?.file === file) {
        figures['faults injected']!++;
        return current.inject(route);
      }
      return file === 'json' ? route.fulfill({ contentType: 'application/json', body: JSON.stringify(spriteJson) }) : route.fulfill({ contentType: 'image/png', body: spritePng });
    });
    // First without a fault: the stars show, so the style really uses its sprite.
    for (current of [undefined, ...faults]) {
      await page.goto('about:blank'); // a fresh page each time, not a jump within the same address
      const console = watchConsole(page);
      await openApp(page, { style: '/basemap/sprite-style.json', fadeDuration: 0 }, '#map=3/46/10');
      await waitForMapState(page, 'idle');
      figures['page loads']!++;
      const shares = await expectGeometry(page);
      const stars = await starPixels(page);
      expect(uncaught(console.errors), current?.name ?? 'no fault').toEqual([]);
      await expect(page.getByRole('alert')).toHaveCount(0);
      if (!current) {
        expect(stars, 'star pixels on the fault-free map').toBeGreaterThan(50);
        expect(console.warnings).toEqual([]);
        continue;
      }
      const url = `${baseURL}/__faults/sprite/basemap.${current.file}`;
      await expect
        .poll(() => console.warnings.filter((w) => w.includes(url)).length, { message: `${current.name}: a console message naming ${url} (got: ${console.warnings.join(' | ')})` })
        .toBeGreaterThan(0);
      figures['messages naming the file']!++;
      expect(stars, `${current.name}: no stars without the sprite`).toBe(0);
      expect(shares.land).toBeGreaterThan(0.1);
    }
    report('sprites', figures);
  });

  /** Pixels of the star icon's red on the map. */
  async function starPixels(page: Page): Promise<number> {
    const png = PNG.sync.read(await page.locator('.pinmap-map').screenshot());
    let count = 0;
    for (let i = 0; i < png.data.length; i += 4) if (Math.abs(png.data[i]! - 200) + Math.abs(png.data[i + 1]! - 30) + Math.abs(png.data[i + 2]! - 30) < 20) count++;
    return count;
  }
});

test.describe('pin data faults', () => {
  test('pins that fail to load are an error naming the URL with Retry, over the basemap; Retry loads them once they are served', async ({ mapPage: page, baseURL }) => {
    const console = watchConsole(page);
    const pinsUrl = `${baseURL}/__faults/pins.geojson`;
    type PinFault = { name: string; reason: string; inject: (route: Route) => Promise<void> };
    const faults: PinFault[] = [
      { name: 'HTTP 404', reason: 'not found (HTTP 404)', inject: (route) => route.fulfill({ status: 404, body: 'not found' }) },
      { name: 'HTTP 500', reason: 'HTTP 500', inject: (route) => route.fulfill({ status: 500, body: 'server error' }) },
      { name: 'invalid JSON', reason: 'the file is not valid JSON', inject: (route) => route.fulfill({ contentType: 'application/geo+json', body: '{"type": "FeatureCollection", "features": [' }) },
      { name: 'a refused connection', reason: 'Failed to fetch', inject: (route) => route.abort('connectionrefused') },
    ];
    let requests = 0;
    await page.route((url) => url.pathname === '/__faults/pins.geojson', async (route) => {
      const fault = faults[requests++];
      if (fault) return fault.inject(route);
      return route.fulfill({ contentType: 'application/geo+json', body: JSON.stringify(EUROPE_PINS) });
    });
    await openApp(page, { pins: '/__faults/pins.geojson', fadeDuration: 0 }, '#map=3/46/10');
    const notice = page.locator('.pinmap-notice');
    for (const [index, fault] of faults.entries()) {
      await expect(notice).toHaveAttribute('role', 'alert');
      await expect(notice, fault.name).toContainText(`Could not load the pins from ${pinsUrl}: ${fault.reason}`);
      await expect.poll(() => console.errors.filter((e) => e.includes(`Could not load the pins from ${pinsUrl}`)).length, { message: fault.name }).toBe(index + 1);
      // The basemap stays, and works: no error panel, the map idle and drawn, its controls there.
      await waitForMapState(page, 'idle');
      await expect(page.locator('.pinmap-error')).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Zoom in' })).toBeEnabled();
      await expect(page.locator('.pinmap-pin')).toHaveCount(0);
      await expectGeometry(page);
      await notice.getByRole('button', { name: 'Retry' }).click();
    }
    await expect(page.locator('.pinmap-pin')).toHaveCount(EUROPE_PINS.features.length);
    await expect(notice).toHaveCount(0);
    await waitForMapState(page, 'idle');
    await page.locator('.pinmap-pin[data-pin-id="paris"]').click();
    await expect(page.locator('.pinmap-popup')).toContainText('Capital of France');
    expect(uncaught(console.errors).filter((e) => !e.includes(`Could not load the pins from ${pinsUrl}`))).toEqual([]);
    report('pin data', { 'pin requests': requests, 'faults injected': faults.length, retries: faults.length, 'errors naming the URL': faults.length, 'pins shown after the last retry': EUROPE_PINS.features.length });
  });

  test('a pin file that fails can also be dismissed, and the map goes on without it', async ({ mapPage: page }) => {
    await page.route((url) => url.pathname === '/__faults/gone.geojson', (route) => route.fulfill({ status: 503, body: 'unavailable' }));
    await openApp(page, { pins: '/__faults/gone.geojson' }, '#map=3/46/10');
    const notice = page.locator('.pinmap-notice');
    await expect(notice).toContainText('HTTP 503');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect(notice).toHaveCount(0);
    await waitForMapState(page, 'idle');
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect(page.locator('.pinmap-navigation')).toHaveAttribute('data-last-animation', 'zoomIn ended');
    report('pin data dismissed', { 'faults injected': 1 });
  });
});
