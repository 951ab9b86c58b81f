import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { expect, test, type Page } from '@playwright/test';
import { zxyToTileId } from 'pmtiles';
import { gzipSync } from 'node:zlib';
import { compareImages, isUniform } from '../visual/compare.ts';
import { COMPRESSION, PmtilesWriter, TILE_TYPE } from '../src/tiler/pmtiles-writer.ts';
import { tilePins } from '../src/tiler/tile-pins.ts';
import { generatePins } from '../scripts/synthetic-pins.ts';
import { serveJson, waitForMapState, watchConsole } from './helpers.ts';

/**
 * Pre-tiled pins (`pins: "pmtiles://…"`, README "Pre-tiled pins") in the vector view, against
 * the production build: the committed archive of the default pins (`fixtures/pins/cities.pmtiles`,
 * made by `npm run tile-pins` from `fixtures/pins/cities.geojson`) drawn beside the same file as
 * inline GPU pins, popups, `?pin=`, and the archive faults.
 */

const ARCHIVE = 'pmtiles://pins/cities.pmtiles';
const GEOJSON = 'pins/cities.geojson';
const noControls = { navigation: false, geolocate: false, scale: false, fullscreen: false, attribution: false };
/** Test settings: no fade, a readable canvas, one device pixel per CSS pixel. */
const still = { fadeDuration: 0, preserveDrawingBuffer: true, pixelRatio: 1, controls: noControls };

async function openApp(page: Page, config: Record<string, unknown>, address = ''): Promise<void> {
  await serveJson(page, '/__archive/config.json', config);
  await page.goto(`/?config=/__archive/config.json${address}`);
  await waitForMapState(page, 'idle');
}

/** The map's canvas as a PNG. */
async function canvasPng(page: Page): Promise<Buffer> {
  const url = await page.locator('canvas.maplibregl-canvas').evaluate((canvas: HTMLCanvasElement) => canvas.toDataURL('image/png'));
  return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
}

/** Serves `bytes` at `path` with HTTP range requests, as a static host does. */
async function serveArchive(page: Page, path: string, bytes: Buffer): Promise<void> {
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

/** The archive `pinmap-tile-pins` makes of `count` synthetic pins (generatePins, seed 1). */
async function syntheticArchive(count: number): Promise<Buffer> {
  const folder = mkdtempSync(join(tmpdir(), 'pinmap-synthetic-'));
  try {
    const path = join(folder, 'pins.pmtiles');
    await tilePins(Readable.from([JSON.stringify(generatePins(count, 1))]), path, { name: 'synthetic' });
    return readFileSync(path);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** An archive another tool could have made: one vector tile with a `pins` layer, and metadata without Pinmap's `pinmap` member. */
function foreignArchive(): Buffer {
  const folder = mkdtempSync(join(tmpdir(), 'pinmap-foreign-'));
  try {
    const writer = new PmtilesWriter();
    // An empty but valid vector tile body: pbf of no layers.
    writer.addTile(zxyToTileId(0, 0, 0), gzipSync(Buffer.alloc(0)));
    const path = join(folder, 'foreign.pmtiles');
    writer.finish(
      path,
      { tileCompression: COMPRESSION.gzip, tileType: TILE_TYPE.mvt, minZoom: 0, maxZoom: 0, bounds: [-180, -85, 180, 85], center: [0, 0, 0] },
      { name: 'pins', vector_layers: [{ id: 'pins', fields: { name: 'String' } }] },
    );
    return readFileSync(path);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

test.describe('pre-tiled pins', () => {
  for (const view of [
    { zoom: 1, center: [10, 30] },
    { zoom: 3, center: [10, 48] },
    { zoom: 5, center: [4, 48] },
  ]) {
    test(`at zoom ${view.zoom} they draw the same pixels as the same pins inline (GPU pins)`, async ({ page }) => {
      const console = watchConsole(page);
      await openApp(page, { ...still, ...view, pins: GEOJSON, domPinLimit: 0 });
      const inline = await canvasPng(page);
      await openApp(page, { ...still, ...view, pins: ARCHIVE });
      const tiled = await canvasPng(page);
      expect(isUniform(tiled), 'the pre-tiled map is blank').toBe(false);
      const comparison = compareImages(inline, tiled, { threshold: 0, maxDiffPixels: 0, maxDiffRatio: 0 });
      if (comparison.diffPixels > 0) {
        for (const [name, body] of [['inline', inline], ['pre-tiled', tiled], ['diff', comparison.diff]] as const) {
          const path = test.info().outputPath(`${name}.png`);
          writeFileSync(path, body);
          await test.info().attach(`${name}.png`, { path, contentType: 'image/png' });
        }
      }
      expect(comparison.diffPixels, 'pixels that differ between inline and pre-tiled pins').toBe(0);
      expect(console.errors).toEqual([]);
    });
  }

  test('a click on a pin opens its popup (from the archive\'s pin index); ?pin=<id> flies to a pin and opens it', async ({ page }) => {
    await openApp(page, { ...still, center: [2.3488, 48.8534], zoom: 8, pins: ARCHIVE });
    const box = (await page.locator('.pinmap-map').boundingBox())!;
    // The pin's head, above its tip on the centre.
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2 - 30);
    const popup = page.locator('.pinmap-popup');
    await expect(popup).toContainText('Paris');
    await expect(popup).toContainText('Capital of France');
    await expect(popup.getByRole('link')).toHaveAttribute('href', 'https://www.geonames.org/2988507');
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);

    await openApp(page, { ...still, hash: true, center: [0, 20], zoom: 1, pins: ARCHIVE }, '&pin=rome-it');
    await expect(popup).toContainText('Rome');
    await expect(popup).toHaveAttribute('data-pin-id', 'rome-it');
    expect(new URL(page.url()).searchParams.get('pin')).toBe('rome-it');
  });

  test('an archive of 30,000 pins: ?pin=<id> opens that pin\'s popup from its pin index with a few KB of range requests; a click on a pin opens its popup; an unknown id is the same notice as for inline pins', async ({ page }) => {
    test.setTimeout(120_000);
    const console = watchConsole(page);
    const bytes = await syntheticArchive(30_000);
    await serveArchive(page, '/__archive/big.pmtiles', bytes);
    const ranges: number[] = [];
    page.on('request', (request) => {
      const range = /bytes=(\d+)-(\d+)/.exec(request.headers()['range'] ?? '');
      if (request.url().endsWith('/__archive/big.pmtiles') && range) ranges.push(Number(range[2]) - Number(range[1]) + 1);
    });
    const pins = 'pmtiles:///__archive/big.pmtiles';
    await openApp(page, { ...still, hash: true, center: [0, 20], zoom: 1, pins }, '&pin=pin-23456');
    const popup = page.locator('.pinmap-popup');
    await expect(popup).toHaveAttribute('data-pin-id', 'pin-23456');
    await expect(popup).toContainText('Pin 23457');
    await expect(popup).toContainText('Synthetic pin 23457 of 30000');
    await expect(popup.getByRole('link')).toHaveAttribute('href', 'https://example.com/pins/23456');
    // Header, metadata and the tiles in view aside, no request read more than 16 KB: the index is read a bucket at a time.
    expect(Math.max(...ranges.filter((length) => length < 100_000))).toBeLessThanOrEqual(16_384);
    // A click on the pin, now centred, opens its popup again (closed first).
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    await waitForMapState(page, 'idle');
    const box = (await page.locator('.pinmap-map').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2 - 30);
    await expect(popup).toHaveAttribute('data-pin-id', 'pin-23456');
    await expect(popup).toContainText('Synthetic pin 23457 of 30000');
    expect(console.errors).toEqual([]);

    // An id the archive does not have: the same notice as inline pins give.
    await openApp(page, { ...still, hash: true, center: [0, 20], zoom: 1, pins }, '&pin=no-such-pin');
    await expect(page.locator('.pinmap-notice')).toContainText('There is no pin "no-such-pin" on this map.');
    await expect(popup).toHaveCount(0);
    await serveJson(page, '/__archive/inline.json', generatePins(3, 1));
    await openApp(page, { ...still, hash: true, center: [0, 20], zoom: 1, pins: '/__archive/inline.json' }, '&pin=no-such-pin');
    await expect(page.locator('.pinmap-notice')).toContainText('There is no pin "no-such-pin" on this map.');
  });

  test('the hybrid view says that pre-tiled pins show in the Map view, and works', async ({ page }) => {
    await openApp(page, { ...still, pins: ARCHIVE }, '&view=hybrid');
    await expect(page.locator('.pinmap-notice')).toContainText('Pre-tiled pins show in the Map view only');
    await expect(page.locator('.pinmap-error')).toHaveCount(0);
  });

  test('an archive that answers 404 is the pin-file alert naming its URL, with Retry; the basemap works meanwhile', async ({ page, baseURL }) => {
    const archive = readFileSync('fixtures/pins/cities.pmtiles');
    let fail = true;
    // Routes registered later are asked first: the 404 until it is lifted, then the archive.
    await serveArchive(page, '/__archive/pins.pmtiles', archive);
    await page.route((url) => url.pathname === '/__archive/pins.pmtiles', (route) => {
      if (fail) return route.fulfill({ status: 404, body: 'not found' });
      return route.fallback();
    });
    await openApp(page, { ...still, center: [2.3488, 48.8534], zoom: 8, pins: 'pmtiles:///__archive/pins.pmtiles' });
    const notice = page.locator('.pinmap-notice');
    await expect(notice).toHaveAttribute('role', 'alert');
    await expect(notice).toContainText(`Could not load the pins from ${baseURL}/__archive/pins.pmtiles: HTTP 404`);
    await expect(page.locator('.pinmap-error')).toHaveCount(0);
    fail = false;
    await notice.getByRole('button', { name: 'Retry' }).click();
    await expect(notice).toHaveCount(0);
    await waitForMapState(page, 'idle');
    const box = (await page.locator('.pinmap-map').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2 - 30);
    await expect(page.locator('.pinmap-popup')).toContainText('Paris');
  });

  test('an archive made by another tool, without Pinmap\'s properties, is an error naming what it lacks; the map goes on', async ({ page, baseURL }) => {
    const console = watchConsole(page);
    await serveArchive(page, '/__archive/foreign.pmtiles', foreignArchive());
    await openApp(page, { ...still, pins: 'pmtiles://__archive/foreign.pmtiles' });
    const notice = page.locator('.pinmap-notice');
    await expect(notice).toContainText(`${baseURL}/__archive/foreign.pmtiles has no "pinmap" member in its metadata; pins need an archive made by pinmap-tile-pins`);
    expect(console.errors.some((e) => e.includes('PinArchiveError') || e.includes('has no "pinmap" member'))).toBe(true);
    await expect(page.locator('.pinmap-error')).toHaveCount(0);
    await waitForMapState(page, 'idle');
    expect(isUniform(await canvasPng(page))).toBe(false);
  });
});
