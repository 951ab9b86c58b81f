import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { expect, test, type Page } from './test.ts';
import { tilePins } from '../src/tiler/tile-pins.ts';
import { PLAIN_STYLE, serveJson, waitForMapState, watchConsole } from './helpers.ts';

/**
 * Your own data (README, "Your own data"), as a user meets it: `pinmap serve` spawned as a user
 * runs it, on CSV files this test writes, the page it serves in a real browser (the pins shown,
 * the view fitted to them, their popups); the view fitted across the antimeridian in both views
 * and "Show all pins"; and each mistake named in the page (a pin or config URL that is missing
 * or answered by an HTML page, an unknown config key, pins without categories in the legend, a
 * deep link straight to a high zoom over a pin archive).
 */

const folder = mkdtempSync(join(tmpdir(), 'pinmap-own-data-'));
test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Cities around the Pacific, on both sides of the antimeridian, with a population column (decimal commas, semicolons). */
const PACIFIC_CSV = [
  'id;Name;Latitude;Longitude;Population;Country',
  'suva;Suva;-18,1416;178,4419;93970;Fiji',
  'apia;Apia;-13,8333;-171,7667;37391;Samoa',
  'nukualofa;"Nukuʻalofa";-21,1394;-175,2018;23221;Tonga',
  'broken;Nowhere;not a number;170;1;',
  '',
].join('\r\n');

/** `node dist/cli/pinmap.js serve …` as a user runs it; resolves with its address and what it printed, once it listens. */
async function startServe(args: string[]): Promise<{ url: string; output: string; process: ChildProcess }> {
  const child = spawn(process.execPath, ['dist/cli/pinmap.js', 'serve', ...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pinmap serve printed no address in 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const address = /Pinmap: (http:\/\/\S+)/.exec(output);
      if (!address) return;
      clearTimeout(timer);
      resolve({ url: address[1]!, output, process: child });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`pinmap serve exited with ${code}:\n${output}`)));
  });
}

/** The map's camera as the address says it (`#map=zoom/lat/lng/…`). */
async function cameraOf(page: Page): Promise<{ zoom: number; lat: number; lng: number }> {
  const [zoom, lat, lng] = (await page.evaluate(() => location.hash)).replace('#map=', '').split('/').map(Number);
  return { zoom: zoom!, lat: lat!, lng: lng! };
}

/** Whether every pin element is inside the map's box. */
async function pinsInside(page: Page): Promise<boolean[]> {
  const frame = (await page.locator('.pinmap').boundingBox())!;
  return page.locator('.pinmap-pin').evaluateAll(
    (pins, box) =>
      pins.map((pin) => {
        const r = pin.getBoundingClientRect();
        return r.left >= box.x && r.right <= box.x + box.width && r.top >= box.y && r.bottom <= box.y + box.height;
      }),
    frame,
  );
}

test.describe('pinmap serve', () => {
  test('serves a CSV file: prints the skipped row by line, and the page shows the pins fitted across the antimeridian, each popup with its popup fields', async ({ mapPage: page }) => {
    const csv = join(folder, 'pacific.csv');
    writeFileSync(csv, PACIFIC_CSV);
    const config = join(folder, 'config.json');
    writeFileSync(config, JSON.stringify({ popupFields: ['Population', 'Country'], controls: { list: true } }));
    const served = await startServe([csv, '--config', config]);
    try {
      expect(served.output).toContain(`${csv}: 3 pins, 1 skipped:`);
      expect(served.output).toContain('line 5 ("Nowhere"): latitude must be a number (its "Latitude" column has "not a number")');
      const console = watchConsole(page);
      await page.goto(served.url);
      await waitForMapState(page, 'idle', 45_000);
      await expect(page.locator('.pinmap-pin')).toHaveCount(3);
      // The root address it prints opens these pins, with the search on though the config names only the list.
      await expect(page.getByRole('combobox', { name: 'Search the pins' })).toBeVisible();
      // Fitted: every pin in view, the camera on the Pacific, zoomed in far beyond the world view.
      expect(await pinsInside(page)).toEqual([true, true, true]);
      const camera = await cameraOf(page);
      expect(camera.zoom).toBeGreaterThan(4);
      expect(Math.abs(camera.lng)).toBeGreaterThan(170);
      await page.locator('.pinmap-pin[data-pin-id="apia"]').click();
      const popup = page.locator('.pinmap-popup');
      await expect(popup.locator('.pinmap-popup-title')).toHaveText('Apia');
      await expect(popup.locator('.pinmap-popup-fields')).toHaveText('Population37391CountrySamoa');
      await page.screenshot({ path: test.info().outputPath('csv-popup.png') });
      expect(console.errors).toEqual([]);
    } finally {
      served.process.kill();
    }
  });

  test('serves a pin archive with Range requests, the page fitted to its metadata; a path that is no file is a 404, not the page', async ({ mapPage: page, request }) => {
    const csv = join(folder, 'archive.csv');
    writeFileSync(csv, PACIFIC_CSV);
    const archive = join(folder, 'pacific.pmtiles');
    await tilePins(Readable.from([readFileSync(csv)]), archive, { name: 'pacific' });
    const served = await startServe([archive]);
    try {
      expect(served.output).toContain(`${archive}: a pin archive of 3 pins`);
      const ranges: string[] = [];
      page.on('response', (response) => {
        if (response.url().endsWith('/data/pacific.pmtiles')) ranges.push(`${response.status()} ${response.request().headers()['range']}`);
      });
      await page.goto(served.url);
      await waitForMapState(page, 'idle', 45_000);
      expect(ranges.length).toBeGreaterThan(0);
      expect(ranges.every((range) => /^206 bytes=\d+-\d+$/.test(range))).toBe(true);
      const camera = await cameraOf(page);
      expect(camera.zoom).toBeGreaterThan(4);
      expect(Math.abs(camera.lng)).toBeGreaterThan(170);
      const missing = await request.get(new URL('/data/other.csv', served.url).href);
      expect(missing.status()).toBe(404);
      expect(await missing.text()).toBe('not found: /data/other.csv\n');
    } finally {
      served.process.kill();
    }
  });
});

test.describe('the view fitted to the pins', () => {
  for (const view of ['vector', 'hybrid'] as const) {
    test(`opens on pins at 170°E and 170°W in a 20° box, not the world, and "Show all pins" comes back to them (${view} view)`, async ({ mapPage: page }) => {
      const pins = {
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', id: 'east', geometry: { type: 'Point', coordinates: [170, -10] }, properties: { title: 'East' } },
          { type: 'Feature', id: 'west', geometry: { type: 'Point', coordinates: [-170, 10] }, properties: { title: 'West' } },
        ],
      };
      await serveJson(page, '/__own/config.json', { view, pins, controls: { list: true } });
      await page.goto('/?config=/__own/config.json');
      await waitForMapState(page, 'idle', 45_000);
      const fitted = await cameraOf(page);
      // A 20° box: zoom 3 or more on an 800 × 600 map (the world box would be about zoom 1).
      expect(fitted.zoom).toBeGreaterThan(3);
      expect(Math.abs(fitted.lng)).toBeCloseTo(180, 0);
      expect(await pinsInside(page)).toEqual([true, true]);
      await page.evaluate(() => (location.hash = '#map=6/40/10'));
      await expect.poll(async () => (await cameraOf(page)).zoom).toBe(6);
      await waitForMapState(page, 'idle');
      await page.getByRole('button', { name: 'List the pins in view' }).click();
      await expect(page.getByRole('button', { name: 'Show all pins' })).toBeVisible();
      await page.getByRole('button', { name: 'Show all pins' }).click();
      await expect.poll(async () => Math.round((await cameraOf(page)).zoom * 10) / 10, { timeout: 20_000 }).toBe(Math.round(fitted.zoom * 10) / 10);
      await expect.poll(() => pinsInside(page)).toEqual([true, true]);
    });
  }

  test('keeps the camera the config or the address gives, and fitPins: false keeps the default', async ({ page }) => {
    await page.setViewportSize({ width: 480, height: 360 });
    const pins = { type: 'FeatureCollection', features: [{ type: 'Feature', id: 'a', geometry: { type: 'Point', coordinates: [100, 10] }, properties: { title: 'A' } }] };
    await serveJson(page, '/__own/config.json', { style: PLAIN_STYLE, pins });
    await page.goto('/?config=/__own/config.json#map=3/20/30');
    await waitForMapState(page, 'idle');
    expect(await cameraOf(page)).toEqual({ zoom: 3, lat: 20, lng: 30 });
    // The config's camera, with no address: kept, not fitted to the pins (one in view, one at 100° E).
    const twoPins = { ...pins, features: [...pins.features, { type: 'Feature', id: 'b', geometry: { type: 'Point', coordinates: [-40, -15] }, properties: { title: 'B' } }] };
    await serveJson(page, '/__own/camera.json', { style: PLAIN_STYLE, pins: twoPins, center: [-40, -15], zoom: 4 });
    await page.goto('/?config=/__own/camera.json');
    await expect(page.locator('.pinmap-pin[data-pin-id="b"]')).toBeVisible();
    await waitForMapState(page, 'idle');
    expect(await cameraOf(page)).toEqual({ zoom: 4, lat: -15, lng: -40 });
    await serveJson(page, '/__own/off.json', { style: PLAIN_STYLE, pins, fitPins: false });
    await page.goto('/?config=/__own/off.json');
    await waitForMapState(page, 'idle');
    expect(await cameraOf(page)).toEqual({ zoom: 1, lat: 20, lng: 0 });
  });
});

test.describe('mistakes named in the page', () => {
  test('a pin file that is missing, or answered by an HTML page, says so with its URL', async ({ mapPage: page }) => {
    await page.route((url) => url.pathname === '/__own/missing.geojson', (route) => route.fulfill({ status: 404, body: 'no' }));
    await page.route((url) => url.pathname === '/__own/page.csv', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>app</title>' }));
    for (const [file, reason] of [
      ['missing.geojson', 'not found (HTTP 404)'],
      ['page.csv', 'the server answered an HTML page, not CSV: is the path right?'],
    ]) {
      await serveJson(page, '/__own/config.json', { pins: `/__own/${file}` });
      await page.goto('/?config=/__own/config.json');
      await waitForMapState(page, 'idle');
      await expect(page.locator('.pinmap-notice')).toContainText(`Could not load the pins from http://127.0.0.1:${new URL(page.url()).port}/__own/${file}: ${reason}`);
    }
  });

  test('a pin file path the server answers with its app page (vite preview does) is named as an HTML page, not as JSON that does not parse', async ({ mapPage: page }) => {
    await serveJson(page, '/__own/config.json', { pins: 'no/such/pins.geojson' });
    await page.goto('/?config=/__own/config.json');
    await waitForMapState(page, 'idle');
    await expect(page.locator('.pinmap-notice')).toContainText('no/such/pins.geojson: the server answered an HTML page, not JSON: is the path right?');
  });

  test('a config URL that is missing or answered by an HTML page says so', async ({ mapPage: page }) => {
    await page.route((url) => url.pathname === '/__own/gone.json', (route) => route.fulfill({ status: 404, body: 'no' }));
    await page.goto('/?config=/__own/gone.json');
    await expect(page.locator('.pinmap-error')).toContainText('/__own/gone.json: not found (HTTP 404)');
    await page.goto('/?config=no/such/config.json');
    await expect(page.locator('.pinmap-error')).toContainText('no/such/config.json: the server answered an HTML page, not JSON: is the path right?');
  });

  test('an unknown config key names the known one it is likely a slip for', async ({ mapPage: page }) => {
    await serveJson(page, '/__own/config.json', { centre: [2.35, 48.85] });
    await page.goto('/?config=/__own/config.json');
    await waitForMapState(page, 'error');
    await expect(page.locator('.pinmap-error')).toContainText('centre');
    await expect(page.locator('.pinmap-error')).toContainText('is not a known option; did you mean center?');
  });

  test('pins without categories have a legend line with their count', async ({ mapPage: page }) => {
    const features = ['a', 'b', 'c'].map((id, i) => ({ type: 'Feature', id, geometry: { type: 'Point', coordinates: [i, i] }, properties: { title: id } }));
    await serveJson(page, '/__own/config.json', { pins: { type: 'FeatureCollection', features }, controls: { legend: true } });
    await page.goto('/?config=/__own/config.json');
    await waitForMapState(page, 'idle');
    const line = page.locator('.pinmap-legend-entry[data-uncategorised]');
    await expect(line.locator('.pinmap-legend-name')).toHaveText('Pins');
    await expect(line.locator('.pinmap-legend-count')).toHaveText('3');
    await expect(line.locator('input')).toHaveCount(0);
  });

  test('a deep link straight to zoom 16.5 over a pin archive shows its pins with no archive warning', async ({ page }) => {
    await page.setViewportSize({ width: 480, height: 360 });
    const console = watchConsole(page);
    await serveJson(page, '/__own/config.json', { style: PLAIN_STYLE, pins: 'pmtiles://pins/cities.pmtiles', controls: { list: true } });
    // Over Paris's pin (2.3488, 48.8534 in fixtures/pins/cities.geojson), past the archive's last zoom.
    await page.goto('/?config=/__own/config.json#map=16.5/48.8534/2.3488');
    await waitForMapState(page, 'idle', 45_000);
    expect(await cameraOf(page)).toMatchObject({ zoom: 16.5 });
    // Its pin is drawn on the GPU: the list of the pins in view says which it shows.
    await page.getByRole('button', { name: 'List the pins in view' }).click();
    await expect(page.locator('.pinmap-list-count')).toHaveText('1 pin in view');
    await expect(page.locator('.pinmap-list-item[data-pin-id="paris-fr"] .pinmap-list-title')).toHaveText('Paris');
    await expect(page.locator('.pinmap-notice')).toHaveCount(0);
    expect([...console.warnings, ...console.errors].filter((text) => /truncated|archive/i.test(text))).toEqual([]);
  });
});
