import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { expect, test, type Page, type Response } from './test.ts';
import { zxyToTileId } from 'pmtiles';
import { gunzipSync, gzipSync } from 'node:zlib';
import { compareImages, isUniform } from '../visual/compare.ts';
import { COMPRESSION, PmtilesWriter, TILE_TYPE } from '../src/tiler/pmtiles-writer.ts';
import { tilePins } from '../src/tiler/tile-pins.ts';
import { generatePins } from '../scripts/synthetic-pins.ts';
import { EMBEDDED_STYLE_PATH } from '../src/config/constants.ts';
import { arrowToPin, disableWebGL, PLAIN_STYLE, serveArchive, serveJson, waitForMapState, watchConsole, watchForNothing } from './helpers.ts';

/**
 * Pre-tiled pins (`pins: "pmtiles://…"`, README "Pre-tiled pins") in both views, against the
 * production build: the committed archive of the default pins (`fixtures/pins/cities.pmtiles`,
 * made by `npm run tile-pins` from `fixtures/pins/cities.geojson`) drawn beside the same file
 * inline (GPU pins in the vector view, Leaflet markers in the hybrid view), popups, keyboard,
 * `?pin=`, bubbles, hidden categories, and the archive faults.
 */

const ARCHIVE = 'pmtiles://pins/cities.pmtiles';
const GEOJSON = 'pins/cities.geojson';
const noControls = { navigation: false, geolocate: false, scale: false, fullscreen: false, attribution: false };
/** Test settings: no fade, a readable canvas, one device pixel per CSS pixel, a plain style (the pins are what is compared). */
const still = { style: PLAIN_STYLE, fadeDuration: 0, preserveDrawingBuffer: true, pixelRatio: 1, controls: noControls };

async function openApp(page: Page, config: Record<string, unknown>, address = ''): Promise<void> {
  await serveJson(page, '/__archive/config.json', config);
  await page.goto(`/?config=/__archive/config.json${address}`);
  await waitForMapState(page, 'idle');
}

/**
 * The cities archive at `/__archive/pins.pmtiles`, answering 404 until `retry`: `expectNotice`
 * checks the pin-file alert that names its URL; `retry` lets the archive answer and presses Retry.
 */
async function serveArchiveAfter404(page: Page) {
  let fail = true;
  // Routes registered later are asked first: the 404 until it is lifted, then the archive.
  await serveArchive(page, '/__archive/pins.pmtiles', readFileSync('fixtures/pins/cities.pmtiles'));
  await page.route((url) => url.pathname === '/__archive/pins.pmtiles', (route) => (fail ? route.fulfill({ status: 404, body: 'not found' }) : route.fallback()));
  const notice = page.locator('.pinmap-notice');
  return {
    notice,
    async expectNotice(baseURL: string | undefined) {
      await expect(notice).toHaveAttribute('role', 'alert');
      await expect(notice).toContainText(`Could not load the pins from ${baseURL}/__archive/pins.pmtiles: the server answered HTTP 404`);
      await expect(page.locator('.pinmap-error')).toHaveCount(0);
    },
    /** The archive answers from now on; Retry takes the notice away. */
    async retry() {
      fail = false;
      await notice.getByRole('button', { name: 'Retry' }).click();
      await expect(notice).toHaveCount(0);
      await waitForMapState(page, 'idle');
    },
  };
}

/** The map's canvas as a PNG. */
async function canvasPng(page: Page): Promise<Buffer> {
  const url = await page.locator('canvas.maplibregl-canvas').evaluate((canvas: HTMLCanvasElement) => canvas.toDataURL('image/png'));
  return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
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

/**
 * The legend a user expects of `fixtures/pins/cities.geojson`, counted here from the file: its
 * `pinStyles` categories in order, then any other category in the order it first appears, each
 * with its number of pins.
 */
function fixtureLegend(): [string, number][] {
  const collection = JSON.parse(readFileSync('fixtures/pins/cities.geojson', 'utf8')) as { pinStyles?: Record<string, unknown>; features: { properties?: { category?: string } }[] };
  const counts = new Map<string, number>(Object.keys(collection.pinStyles ?? {}).map((category) => [category, 0]));
  for (const { properties } of collection.features) {
    if (typeof properties?.category === 'string') counts.set(properties.category, (counts.get(properties.category) ?? 0) + 1);
  }
  return [...counts];
}

/** The legend as a user reads it: each entry's name, the count it shows, and what a screen reader hears of the count. */
async function legendAsRead(page: Page) {
  const panel = page.locator('.pinmap-legend-panel');
  await expect(panel).toBeVisible();
  return panel.locator('.pinmap-legend-entry').evaluateAll((entries) =>
    entries.map((entry) => ({
      name: entry.querySelector('.pinmap-legend-name')?.textContent ?? '',
      shown: entry.querySelector('.pinmap-legend-count')?.textContent ?? null,
      spoken: entry.querySelector('.pinmap-visually-hidden')?.textContent ?? null,
    })),
  );
}

/**
 * `bytes` (an archive `pinmap-tile-pins` made) as an archive made before archives kept their
 * legend counts: its metadata without `pinmap.categories`, written where it was (shorter, so it
 * fits) with its new length in the header (bytes 32..40); nothing else moves.
 */
function withoutCounts(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  const at = Number(copy.readBigUInt64LE(24));
  const length = Number(copy.readBigUInt64LE(32));
  const metadata = JSON.parse(gunzipSync(copy.subarray(at, at + length)).toString('utf8')) as { pinmap: Record<string, unknown> };
  delete metadata.pinmap.categories;
  const shorter = gzipSync(JSON.stringify(metadata));
  if (shorter.length > length) throw new Error('the metadata without counts does not fit where it was');
  shorter.copy(copy, at);
  copy.writeBigUInt64LE(BigInt(shorter.length), 32);
  return copy;
}

/**
 * The pin list as a user reads it: how many pins it says, its note, and the entries rendered (by
 * pin id, in order). Opened on a resting map, it lists the view at once.
 */
async function listAsRead(page: Page) {
  const panel = page.locator('.pinmap-list-panel');
  if ((await panel.count()) === 0) await page.locator('.pinmap-list-button').click();
  await expect(panel).toBeVisible();
  // One read of the whole panel: the list's entries are rendered a frame after its count (the
  // virtualised list measures its scroller first), so wait until a non-empty list shows entries.
  const read = () =>
    panel.evaluate((root) => {
      const notes = [...root.querySelectorAll('.pinmap-list-note')].map((note) => note.textContent ?? '');
      return {
        count: Number(root.querySelector('.pinmap-list-count')?.getAttribute('data-count')),
        note: notes.length === 0 ? null : notes.join(' '),
        ids: [...root.querySelectorAll('.pinmap-list-item:not(.pinmap-list-bubble)')].map((item) => item.getAttribute('data-pin-id')!),
      };
    });
  await expect.poll(async () => { const list = await read(); return list.count === 0 || list.ids.length > 0; }).toBe(true);
  return read();
}

test.describe('pre-tiled pins', () => {
  for (const view of [
    { zoom: 1, center: [10, 30] },
    { zoom: 3, center: [10, 48] },
    { zoom: 5, center: [4, 48] },
    // Above the archive's cutFrom (10): tiles cut from the tiles above them (three cities of Manila).
    { zoom: 12, center: [121.0509, 14.6488] },
  ]) {
    test(`at zoom ${view.zoom} they draw the same pixels as the same pins inline (GPU pins)`, async ({ mapPage: page }) => {
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

  for (const view of ['vector', 'hybrid'] as const) {
    test(`${view} view: the legend shows each category's count from the archive, the same as the file's; unchecking a category hides its pins`, async ({ mapPage: page }) => {
      const console = watchConsole(page);
      await openApp(page, { ...still, view, center: [2.3488, 48.8534], zoom: 8, pins: ARCHIVE, controls: { ...noControls, legend: 'top-right' } });
      const expected = fixtureLegend();
      expect(expected.length).toBeGreaterThan(1);
      expect(await legendAsRead(page)).toEqual(
        expected.map(([name, count]) => ({ name, shown: count.toLocaleString('en-US'), spoken: count === 1 ? '1 pin' : `${count.toLocaleString('en-US')} pins` })),
      );
      const shot = test.info().outputPath('legend.png');
      await page.locator('.pinmap').screenshot({ path: shot });
      await test.info().attach('legend.png', { path: shot, contentType: 'image/png' });

      // Paris (a capital) opens; with "capital" unchecked in the legend its pin is gone.
      const box = (await page.locator('.pinmap-map').boundingBox())!;
      const clickParis = () => page.mouse.click(box.x + box.width / 2, box.y + box.height / 2 - 30);
      await clickParis();
      await expect(page.locator('.pinmap-popup[data-pin-id="paris-fr"]')).toBeVisible();
      await page.keyboard.press('Escape');
      await page.locator('.pinmap-legend-entry[data-category="capital"] input').uncheck();
      await expect(page.locator('.pinmap-legend-entry[data-category="capital"]')).toHaveAttribute('data-hidden', 'true');
      await waitForMapState(page, 'idle');
      if (view === 'hybrid') await expect(page.locator('.pinmap-pin[data-pin-id="paris-fr"]')).toHaveCount(0);
      // The GPU layer's filter is applied a frame after the legend renders, and its tiles are laid
      // out again: a click opens nothing once they are.
      await expect
        .poll(async () => {
          const watch = await watchForNothing(page, { appears: '.pinmap-popup' });
          await clickParis();
          const opened = (await watch.changes()).filter((change) => change.includes('.pinmap-popup')).length;
          if ((await page.locator('.pinmap-popup').count()) > 0) await page.keyboard.press('Escape');
          return opened;
        })
        .toBe(0);
      // The counts stay those of the archive: hiding is a filter, not fewer pins.
      expect((await legendAsRead(page)).map((entry) => entry.shown)).toEqual(expected.map(([, count]) => count.toLocaleString('en-US')));
      expect(console.errors).toEqual([]);
    });
  }

  test('an archive made before archives kept legend counts still opens: its legend lists its categories, without counts, and still hides them', async ({ mapPage: page }) => {
    const console = watchConsole(page);
    await serveArchive(page, '/__archive/old.pmtiles', withoutCounts(readFileSync('fixtures/pins/cities.pmtiles')));
    await openApp(page, { ...still, view: 'hybrid', center: [2.3488, 48.8534], zoom: 8, pins: 'pmtiles:///__archive/old.pmtiles', controls: { ...noControls, legend: 'top-right' } });
    // Every category, in the order its first pin came (the metadata kept no other), none with a count.
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect((await legendAsRead(page)).sort(byName)).toEqual(fixtureLegend().map(([name]) => ({ name, shown: null, spoken: null })).sort(byName));
    await expect(page.locator('.pinmap-pin[data-pin-id="paris-fr"]')).toHaveCount(1);
    await page.locator('.pinmap-legend-entry[data-category="capital"] input').uncheck();
    await expect(page.locator('.pinmap-pin[data-pin-id="paris-fr"]')).toHaveCount(0);
    expect(console.errors).toEqual([]);
  });

  for (const view of ['vector', 'hybrid'] as const) {
    test(`${view} view: the pin list shows the pins drawn in view, says so, follows the view, and an entry opens its pin`, async ({ mapPage: page }) => {
      const console = watchConsole(page);
      const controls = { ...noControls, list: 'top-right' };
      const byBubble = 'Pins in bubbles are listed by bubble: choose one to zoom in';
      // Around Paris at zoom 7 every pin stands alone: the same list as the same file inline.
      const paris = { ...still, view, hash: true, center: [2.3488, 48.8534], zoom: 7, controls };
      await openApp(page, { ...paris, pins: GEOJSON });
      const inline = await listAsRead(page);
      await openApp(page, { ...paris, pins: ARCHIVE });
      const tiled = await listAsRead(page);
      expect(inline.count).toBeGreaterThan(0);
      expect(inline.note).toBeNull();
      expect(tiled).toEqual(inline);

      // Europe at zoom 3: the lone pins drawn are listed, the pins in bubbles by their bubble (tests/pin-archive-panels.spec.ts).
      const europe = { ...still, view, hash: true, center: [10, 48], zoom: 3, controls };
      await openApp(page, { ...europe, pins: GEOJSON });
      const inlineEurope = await listAsRead(page);
      await openApp(page, { ...europe, pins: ARCHIVE });
      const tiledEurope = await listAsRead(page);
      expect(tiledEurope.count).toBeGreaterThan(0);
      expect(tiledEurope.count).toBeLessThan(inlineEurope.count);
      expect(tiledEurope.note).toBe(byBubble);
      const shot = test.info().outputPath('list.png');
      await page.locator('.pinmap').screenshot({ path: shot });
      await test.info().attach('list.png', { path: shot, contentType: 'image/png' });
      if (view === 'hybrid') {
        // Its pins are exactly the pin buttons whose tips are in the map and the pins of the bubbles whose middles are.
        const markers = await hybridMarkers(page);
        const inMap = ({ x, y }: { x: number; y: number }) => x >= 0 && x <= 800 && y >= 0 && y <= 600;
        const inFrame = markers.pins.filter(inMap);
        expect(tiledEurope.count).toBe(inFrame.length + markers.bubbles.filter(inMap).reduce((sum, bubble) => sum + bubble.count, 0));
        for (const id of tiledEurope.ids) expect(inFrame.map((pin) => pin.id)).toContain(id);
      }

      // It follows the view: back to Paris by the address, the list is Paris's again.
      await page.goto(page.url().replace(/#map=[^&]*/, '#map=7/48.8534/2.3488'));
      // The same page (a new address in it, no reload): the panel stayed open.
      await expect(page.locator('.pinmap-list-panel')).toBeVisible();
      await waitForMapState(page, 'idle');
      await expect.poll(() => listAsRead(page)).toEqual(inline);

      // An entry flies to its pin and opens its popup, from the archive's pin index.
      const first = page.locator('.pinmap-list-item').first();
      const id = await first.getAttribute('data-pin-id');
      await first.click();
      await expect(page.locator(`.pinmap-popup[data-pin-id="${id}"]`)).toBeVisible();
      expect(console.errors).toEqual([]);
    });
  }

  test('a deep link straight to zoom 16.5, past the archive\'s last zoom, warns of nothing in either view, whether its server answers each range or sends the whole file, or the browser\'s cache answers a range short', async ({ mapPage: page }) => {
    const bytes = readFileSync('fixtures/pins/cities.pmtiles');
    const whole = '/__archive/whole.pmtiles';
    // A server without Range: every read is the whole file.
    await page.route((url) => url.pathname === whole, (route) => route.fulfill({ status: 200, body: bytes, headers: { 'content-type': 'application/octet-stream' } }));
    // What Chromium's in-memory HTTP cache answers to one of several range requests in flight for
    // one file (as the vector view asks for an overzoomed tile's parent several times at once): a
    // 206 that declares the whole range and brings its bytes only up to the next 4 KiB block. Each
    // range past the first 16 KiB is answered so the first time (routing turns Chromium's cache
    // off, so the page is given its answer here); see PAST_THE_CACHE in src/map/pmtiles.ts.
    const cachedShort = '/__archive/cached-short.pmtiles';
    const answeredShort = new Set<string>();
    await page.route((url) => url.pathname === cachedShort, (route) => {
      const [, from = 0, to = 0] = (/^bytes=(\d+)-(\d+)$/.exec(route.request().headers()['range'] ?? '') ?? []).map(Number);
      const end = Math.min(to, bytes.length - 1);
      const short = from >= 16_384 && !answeredShort.has(`${from}-${end}`);
      if (short) answeredShort.add(`${from}-${end}`);
      const body = bytes.subarray(from, short ? Math.min(end + 1, (Math.floor(from / 4096) + 1) * 4096) : end + 1);
      return route.fulfill({ status: 206, body, headers: { 'content-type': 'application/octet-stream', 'content-range': `bytes ${from}-${end}/${bytes.length}` } });
    });
    // The preview server (vite preview, as `npm start` serves) answers each range, unencoded: a
    // browser asks for ranges so (else it would gzip a type it does not know). The vector view
    // over its ranges: tests/own-data.spec.ts.
    const cases = [
      { server: 'range', path: '/pins/cities.pmtiles', view: 'hybrid' },
      { server: 'whole', path: whole, view: 'vector' },
      { server: 'cached-short', path: cachedShort, view: 'vector' },
      { server: 'cached-short', path: cachedShort, view: 'hybrid' },
    ];
    for (const { server, path, view } of cases) {
      const what = `${view} view, ${server} server`;
      answeredShort.clear();
      const console = watchConsole(page);
      const answers: Promise<string>[] = [];
      const onResponse = (response: Response) => {
        if (new URL(response.url()).pathname === path) answers.push(response.allHeaders().then((headers) => `${response.status()} ${headers['content-encoding'] ?? 'identity'}`));
      };
      page.on('response', onResponse);
      // A plain backdrop: the archive's reads are all there is to see.
      const style = { version: 8, sources: {}, layers: [{ id: 'backdrop', type: 'background', paint: { 'background-color': '#e9eef2' } }] };
      await openApp(page, { ...still, style, view, pins: `pmtiles://${path}` }, '#map=16.5/48.8534/2.3488');
      // Paris, from the archive's last tiles, is drawn at the centre: its popup opens from the pin index.
      const box = (await page.locator('.pinmap-map').boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2 - 30);
      await expect(page.locator('.pinmap-popup'), what).toContainText('Capital of France');
      await expect(page.locator('.pinmap-notice, [role="alert"]').filter({ hasText: /archive|truncated|pins/i }), what).toHaveCount(0);
      expect([...console.warnings, ...console.errors].filter((text) => /truncated|could not be read|damaged/i.test(text)), what).toEqual([]);
      const answered = await Promise.all(answers);
      expect(answered.length, what).toBeGreaterThan(0);
      expect(answered.every((answer) => answer === (server === 'whole' ? '200 identity' : '206 identity')), `${what}: ${answered.join(', ')}`).toBe(true);
      if (server === 'cached-short') expect(answeredShort.size, `${what}: ranges answered short`).toBeGreaterThan(0);
      page.off('response', onResponse);
    }
  });

  test('a click on a pin opens its popup (from the archive\'s pin index); ?pin=<id> flies to a pin and opens it', async ({ mapPage: page }) => {
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

  test('a hidden category\'s pins leave the GPU layer (the bubbles keep their tiled counts); the others still open', async ({ mapPage: page }) => {
    const at = { ...still, center: [2.3488, 48.8534], zoom: 8, pins: ARCHIVE };
    await openApp(page, at);
    const shown = await canvasPng(page);
    await openApp(page, { ...at, hiddenCategories: ['capital'] });
    const hidden = await canvasPng(page);
    expect(compareImages(shown, hidden, { threshold: 0, maxDiffPixels: 0, maxDiffRatio: 0 }).diffPixels, 'Paris is still drawn').toBeGreaterThan(200);
    const box = (await page.locator('.pinmap-map').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2 - 30);
    await expect(page.locator('.pinmap-popup')).toHaveCount(0);
    await openApp(page, { ...at, hiddenCategories: ['city'] });
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2 - 30);
    await expect(page.locator('.pinmap-popup')).toContainText('Paris');
  });

  test('an archive of 30,000 pins: ?pin=<id> opens that pin\'s popup from its pin index with a few KB of range requests; a click on a pin opens its popup; an unknown id is the same notice as for inline pins', async ({ mapPage: page }) => {
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

  test.describe(() => {
    test.use({ basemap: 'embedded' }); // the basemap works meanwhile
    test('an archive that answers 404 is the pin-file alert naming its URL, with Retry; the basemap works meanwhile', async ({ mapPage: page, baseURL }) => {
      const archive = await serveArchiveAfter404(page);
      await openApp(page, { ...still, style: EMBEDDED_STYLE_PATH, center: [2.3488, 48.8534], zoom: 8, pins: 'pmtiles:///__archive/pins.pmtiles' });
      await archive.expectNotice(baseURL);
      await archive.retry();
      const box = (await page.locator('.pinmap-map').boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2 - 30);
      await expect(page.locator('.pinmap-popup')).toContainText('Paris');
    });
  });

  test.describe(() => {
    test.use({ basemap: 'embedded' }); // the basemap is drawn meanwhile
    test('an archive made by another tool, without Pinmap\'s properties, is an error naming what it lacks; the map goes on', async ({ mapPage: page, baseURL }) => {
      const console = watchConsole(page);
      await serveArchive(page, '/__archive/foreign.pmtiles', foreignArchive());
      await openApp(page, { ...still, style: EMBEDDED_STYLE_PATH, pins: 'pmtiles://__archive/foreign.pmtiles' });
      const notice = page.locator('.pinmap-notice');
      await expect(notice).toContainText(`${baseURL}/__archive/foreign.pmtiles has no "pinmap" member in its metadata; pins need an archive made by pinmap-tile-pins`);
      expect(console.errors.some((e) => e.includes('PinArchiveError') || e.includes('has no "pinmap" member'))).toBe(true);
      await expect(page.locator('.pinmap-error')).toHaveCount(0);
      await waitForMapState(page, 'idle');
      expect(isUniform(await canvasPng(page))).toBe(false);
    });
  });

  test('the keyboard reaches the pre-tiled pins drawn in view, and Enter opens a pin\'s popup from the pin index', async ({ mapPage: page }) => {
    const console = watchConsole(page);
    await openApp(page, { ...still, center: [2.3488, 48.8534], zoom: 8, pins: ARCHIVE });
    await expect(page.locator('.pinmap-pin')).toHaveCount(0); // drawn on the GPU
    await page.keyboard.press('Tab'); // the skip link
    await page.keyboard.press('Tab');
    await expect(page.locator('.maplibregl-canvas')).toBeFocused();
    const paris = page.locator('.pinmap-standin[data-pin-id="paris-fr"]');
    // Tab into the pins (one Tab stop), the arrows to Paris.
    await page.keyboard.press('Tab');
    await arrowToPin(page, paris);
    await expect(paris).toHaveAccessibleName(/^Paris/);
    await page.keyboard.press('Enter');
    const popup = page.locator('.pinmap-popup[data-pin-id="paris-fr"]');
    await expect(popup).toContainText('Capital of France');
    await expect(popup.getByRole('button', { name: 'Close popup' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    await expect(paris).toBeFocused();
    expect(console.errors).toEqual([]);
  });
});

/** The pins and bubbles the hybrid view shows, as a user finds them: each pin's id and tip, each bubble's count and centre. */
async function hybridMarkers(page: Page) {
  const frame = (await page.locator('.pinmap-map').boundingBox())!;
  return page.evaluate(
    ({ left, top }) => {
      const inFrame = (box: DOMRect) => box.right > left && box.bottom > top && box.left < left + 800 && box.top < top + 600;
      const pins = [...document.querySelectorAll<HTMLElement>('.pinmap-pin')]
        .map((element) => ({ id: element.dataset.pinId!, box: element.getBoundingClientRect() }))
        .filter(({ box }) => inFrame(box))
        .map(({ id, box }) => ({ id, x: box.left + box.width / 2 - left, y: box.bottom - top }))
        .sort((a, b) => a.id.localeCompare(b.id));
      const bubbles = [...document.querySelectorAll<HTMLElement>('.pinmap-cluster')]
        .map((element) => ({ count: Number(element.dataset.count), box: element.getBoundingClientRect() }))
        .filter(({ box }) => inFrame(box))
        .map(({ count, box }) => ({ count, x: box.left + box.width / 2 - left, y: box.top + box.height / 2 - top }))
        .sort((a, b) => a.x - b.x || a.y - b.y);
      return { pins, bubbles };
    },
    { left: frame.x, top: frame.y },
  );
}

/** The map area (Leaflet, its layers, the pins) as a PNG. */
async function mapPng(page: Page): Promise<Buffer> {
  return page.locator('.pinmap-map').screenshot({ animations: 'disabled', caret: 'hide' });
}

test.describe('pre-tiled pins in the hybrid view', () => {
  const hybrid = { ...still, view: 'hybrid' };

  for (const view of [
    { zoom: 1, center: [10, 30] },
    { zoom: 3, center: [10, 48] },
    { zoom: 5, center: [4, 48] },
    // Above the archive's cutFrom (10): tiles cut from the tiles above them (three cities of Manila).
    { zoom: 12, center: [121.0509, 14.6488] },
  ]) {
    test(`at zoom ${view.zoom} they are the same pin buttons and bubbles, in the same places, as the same pins inline`, async ({ mapPage: page }) => {
      const messages = watchConsole(page);
      await openApp(page, { ...hybrid, ...view, pins: GEOJSON });
      const inline = await hybridMarkers(page);
      const inlinePng = await mapPng(page);
      await openApp(page, { ...hybrid, ...view, pins: ARCHIVE });
      const tiled = await hybridMarkers(page);
      const tiledPng = await mapPng(page);
      expect(tiled.pins.length + tiled.bubbles.length, 'nothing drawn').toBeGreaterThan(0);
      // The same lone pins and bubbles (counts); their places come from the tiles' grid (1/16 px at
      // the tile's zoom), which Leaflet rounds to whole pixels: at most a pixel apart.
      expect(tiled.pins.map((p) => p.id)).toEqual(inline.pins.map((p) => p.id));
      tiled.pins.forEach((pin, i) => {
        expect(Math.abs(pin.x - inline.pins[i]!.x), pin.id).toBeLessThanOrEqual(1);
        expect(Math.abs(pin.y - inline.pins[i]!.y), pin.id).toBeLessThanOrEqual(1);
      });
      expect(tiled.bubbles.map((b) => b.count)).toEqual(inline.bubbles.map((b) => b.count));
      tiled.bubbles.forEach((bubble, i) => {
        expect(Math.abs(bubble.x - inline.bubbles[i]!.x)).toBeLessThanOrEqual(1);
        expect(Math.abs(bubble.y - inline.bubbles[i]!.y)).toBeLessThanOrEqual(1);
      });
      const comparison = compareImages(inlinePng, tiledPng, { threshold: 0, maxDiffPixels: 0, maxDiffRatio: 0 });
      console.log(`zoom ${view.zoom}: ${tiled.pins.length} pins, ${tiled.bubbles.length} bubbles; ${comparison.diffPixels} pixels differ from the inline pins`);
      if (comparison.diffPixels > 0) {
        for (const [name, body] of [['inline', inlinePng], ['pre-tiled', tiledPng], ['diff', comparison.diff]] as const) {
          const path = test.info().outputPath(`${name}.png`);
          writeFileSync(path, body);
          await test.info().attach(`${name}.png`, { path, contentType: 'image/png' });
        }
      }
      expect(messages.errors).toEqual([]);
    });
  }

  test('a click or Enter on a pin opens its popup; Esc closes it and focus goes back to the pin', async ({ mapPage: page }) => {
    const console = watchConsole(page);
    await openApp(page, { ...hybrid, center: [2.3488, 48.8534], zoom: 8, pins: ARCHIVE });
    await expect(page.locator('.pinmap-notice')).toHaveCount(0);
    const paris = page.locator('.pinmap-pin[data-pin-id="paris-fr"]');
    await expect(paris).toHaveAccessibleName('Paris, capital');
    await paris.click();
    const popup = page.locator('.pinmap-popup[data-pin-id="paris-fr"]');
    await expect(popup).toHaveClass(/pinmap-leaflet-popup/);
    await expect(popup).toContainText('Paris');
    await expect(popup).toContainText('Capital of France');
    await expect(popup.getByRole('link')).toHaveAttribute('href', 'https://www.geonames.org/2988507');
    expect(new URL(page.url()).searchParams.get('pin')).toBe('paris-fr');
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    await expect(paris).toBeFocused();

    // The keyboard alone: Tab reaches the pins (one Tab stop), the arrows Paris, Enter opens, focus goes to the close button.
    await page.locator('.pinmap-leaflet').focus();
    await page.keyboard.press('Tab');
    await arrowToPin(page, paris);
    await page.keyboard.press('Enter');
    await expect(popup).toBeVisible();
    await expect(popup.getByRole('button', { name: 'Close popup' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    await expect(paris).toBeFocused();
    expect(console.errors).toEqual([]);
  });

  test('switching views keeps the camera and the open pre-tiled pin\'s popup, both ways', async ({ mapPage: page }) => {
    await openApp(page, { ...still, hash: true, center: [2.3488, 48.8534], zoom: 8, pins: ARCHIVE, controls: { ...noControls, view: 'top-left' } });
    const box = (await page.locator('.pinmap-map').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2 - 30);
    const popup = page.locator('.pinmap-popup[data-pin-id="paris-fr"]');
    await expect(popup).toBeVisible();
    await waitForMapState(page, 'idle');
    const hash = new URL(page.url()).hash;
    const switcher = page.getByRole('group', { name: 'Map view' });
    await switcher.getByRole('button', { name: 'Hybrid' }).click();
    await expect(page.locator('.pinmap')).toHaveAttribute('data-view', 'hybrid');
    await waitForMapState(page, 'idle');
    await expect(popup).toBeVisible();
    await expect(popup).toHaveClass(/pinmap-leaflet-popup/);
    await expect(page.locator('.pinmap-pin[data-pin-id="paris-fr"]')).toBeVisible();
    expect(new URL(page.url()).hash).toBe(hash);
    await switcher.getByRole('button', { name: 'Map' }).click();
    await expect(page.locator('.pinmap')).toHaveAttribute('data-view', 'vector');
    await waitForMapState(page, 'idle');
    await expect(popup).toBeVisible();
    expect(new URL(page.url()).hash).toBe(hash);
  });

  test('?pin=<id> flies to the pin, at a zoom where it stands alone, and opens it', async ({ mapPage: page }) => {
    await openApp(page, { ...hybrid, hash: true, center: [0, 20], zoom: 1, pins: ARCHIVE }, '&pin=rome-it');
    const popup = page.locator('.pinmap-popup[data-pin-id="rome-it"]');
    await expect(popup).toContainText('Rome', { timeout: 15_000 });
    await waitForMapState(page, 'idle');
    expect(new URL(page.url()).searchParams.get('pin')).toBe('rome-it');
    await expect(page.locator('.pinmap-pin[data-pin-id="rome-it"]')).toBeVisible();
    // Ringed while its popup is open (the hybrid view's ring), and no longer once it closes.
    await expect(page.locator('.pinmap-pin-highlight[data-pin-id="rome-it"]')).toBeVisible();
    const [, zoom, lat, lng] = /#map=([\d.]+)\/([-\d.]+)\/([-\d.]+)/.exec(new URL(page.url()).hash)!.map(Number);
    expect(Math.abs(lng! - 12.4964)).toBeLessThan(1);
    expect(Math.abs(lat! - 41.9028)).toBeLessThan(1);
    expect(zoom).toBeGreaterThan(1);
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    await expect(page.locator('.pinmap-pin-highlight')).toHaveCount(0);
  });

  test('a bubble zooms in to where it splits, as the same bubble of inline pins does', async ({ mapPage: page }) => {
    const zoomAfterClick = async (pins: string) => {
      await openApp(page, { ...hybrid, hash: true, center: [10, 48], zoom: 3, pins });
      const { bubbles } = await hybridMarkers(page);
      // The biggest bubble in view (the first of them, left to right).
      const biggest = bubbles.reduce((best, bubble) => (bubble.count > best.count ? bubble : best));
      const frame = (await page.locator('.pinmap-map').boundingBox())!;
      await page.mouse.click(frame.x + biggest.x, frame.y + biggest.y);
      await expect.poll(() => Number(/#map=([\d.]+)/.exec(new URL(page.url()).hash)?.[1])).toBeGreaterThan(3);
      await waitForMapState(page, 'idle');
      return { count: biggest.count, zoom: /#map=([^/]+\/[^/]+\/[^/]+)/.exec(new URL(page.url()).hash)?.[1], markers: await hybridMarkers(page) };
    };
    const inline = await zoomAfterClick(GEOJSON);
    const tiled = await zoomAfterClick(ARCHIVE);
    expect(tiled.count).toBe(inline.count);
    expect(tiled.zoom).toBe(inline.zoom);
    expect(tiled.markers.pins.map((p) => p.id)).toEqual(inline.markers.pins.map((p) => p.id));
    expect(tiled.markers.bubbles.map((b) => b.count)).toEqual(inline.markers.bubbles.map((b) => b.count));
  });

  test('a hidden category leaves the map (the bubbles keep their tiled counts); shown again, its pins come back', async ({ mapPage: page }) => {
    const paris = page.locator('.pinmap-pin[data-pin-id="paris-fr"]');
    await openApp(page, { ...hybrid, center: [2.3488, 48.8534], zoom: 8, pins: ARCHIVE, hiddenCategories: ['capital'] });
    await expect(paris).toHaveCount(0);
    // Live, from the legend.
    const capital = { markerColor: '#C62828', iconClasses: 'fa-solid fa-landmark-flag' };
    await openApp(page, { ...hybrid, center: [2.3488, 48.8534], zoom: 8, pins: ARCHIVE, pinStyles: { capital }, controls: { ...noControls, legend: true } });
    await expect(paris).toHaveCount(1);
    const checkbox = page.locator('.pinmap-legend-entry[data-category="capital"] input');
    await checkbox.uncheck();
    await expect(paris).toHaveCount(0);
    await waitForMapState(page, 'idle');
    await checkbox.check();
    await expect(paris).toHaveCount(1);
    await paris.click();
    await expect(page.locator('.pinmap-popup[data-pin-id="paris-fr"]')).toBeVisible();
  });

  test('without WebGL the pre-tiled pins still show and open, with the WebGL notice', async ({ mapPage: page }) => {
    await disableWebGL(page);
    await openApp(page, { ...hybrid, center: [2.3488, 48.8534], zoom: 8, pins: ARCHIVE });
    await expect(page.locator('.pinmap-notice')).toContainText('Failed to initialize WebGL');
    await page.locator('.pinmap-pin[data-pin-id="paris-fr"]').click();
    await expect(page.locator('.pinmap-popup[data-pin-id="paris-fr"]')).toContainText('Capital of France');
  });

  test.describe(() => {
    test.use({ basemap: 'embedded' }); // the basemap is drawn meanwhile
    test('an archive that answers 404 is the pin-file alert naming its URL, with Retry; the rest of the map works', async ({ mapPage: page, baseURL }) => {
      const archive = await serveArchiveAfter404(page);
      await openApp(page, { ...hybrid, style: EMBEDDED_STYLE_PATH, hash: true, center: [2.3488, 48.8534], zoom: 8, pins: 'pmtiles:///__archive/pins.pmtiles', controls: { ...noControls, navigation: 'top-right' } });
      await archive.expectNotice(baseURL);
      await expect(page.locator('.pinmap-pin')).toHaveCount(0);
      // The rest of the map works: the vector layer is drawn and the zoom button zooms.
      expect(isUniform(await canvasPng(page))).toBe(false);
      await page.locator('.pinmap-zoom-in').click();
      await expect.poll(() => /#map=([\d.]+)/.exec(new URL(page.url()).hash)?.[1]).toBe('9');
      await waitForMapState(page, 'idle');
      await archive.retry();
      await page.locator('.pinmap-pin[data-pin-id="paris-fr"]').click();
      await expect(page.locator('.pinmap-popup')).toContainText('Paris');
    });
  });
});

test.describe('pre-tiled pin archives damaged after their metadata', () => {
  test.use({ basemap: 'embedded' }); // the basemap stays drawn
  /**
   * The committed archive, damaged: a pin tile that cannot be read is the map tiles archive
   * notice; an archive cut short is found when it is opened, and is the pin-file alert.
   */
  const damagedArchives = [
    {
      name: 'has tiles that are not gzip though its header says so',
      notice: 'Could not read the map tiles archive',
      reason: 'a tile is not gzip-compressed, though its header says it is',
      bytes: () => {
        const copy = Buffer.from(readFileSync('fixtures/pins/cities.pmtiles'));
        copy[98] = 2; // tile compression: gzip (they are stored uncompressed)
        return copy;
      },
    },
    {
      name: 'has tiles that are not vector tiles',
      hybridOnly: true,
      notice: 'Could not read the map tiles archive',
      reason: 'its pin tiles are not vector tiles',
      bytes: () => {
        const copy = Buffer.from(readFileSync('fixtures/pins/cities.pmtiles'));
        const at = Number(copy.readBigUInt64LE(56));
        copy.fill(0xff, at, at + Number(copy.readBigUInt64LE(64))); // the tile data: the header, directories, metadata and pin index are whole
        return copy;
      },
    },
    {
      name: 'is truncated',
      notice: 'Could not load the pins from',
      opens: false,
      reason: /the archive is truncated: its header describes \d+ bytes, the file has \d+/,
      bytes: () => {
        const whole = readFileSync('fixtures/pins/cities.pmtiles');
        return whole.subarray(0, Number(whole.readBigUInt64LE(56)) + 4096);
      },
    },
  ];
  // The vector view's notice for the same faults comes from the map's own error events
  // (`watchMapErrors`); a tile MapLibre cannot decode is only a console warning there.
  for (const [fault, view] of damagedArchives.flatMap((fault) => (fault.hybridOnly ? [[fault, 'hybrid']] : [[fault, 'hybrid'], [fault, 'vector']]) as [typeof fault, string][])) {
    const tiles = fault.opens === false ? '' : ', the tiles are asked for again';
    test(`${view} view: an archive that ${fault.name} is a notice naming it and the reason, once; the map pans, its controls answer${tiles}`, async ({ mapPage: page, baseURL }) => {
      await serveArchive(page, '/__archive/damaged.pmtiles', fault.bytes());
      let requests = 0;
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/__archive/damaged.pmtiles') requests++;
      });
      await openApp(page, { ...still, style: EMBEDDED_STYLE_PATH, view, hash: true, center: [2.3488, 48.8534], zoom: 8, pins: 'pmtiles:///__archive/damaged.pmtiles', controls: { ...noControls, navigation: 'top-right' } });
      const notice = page.locator('.pinmap-notice-alert');
      await expect(notice).toContainText(`${fault.notice} ${baseURL}/__archive/damaged.pmtiles: `);
      await expect(notice).toContainText(fault.reason);
      await expect(notice).toHaveCount(1);
      await expect(page.locator('.pinmap-error')).toHaveCount(0);
      await expect(page.locator('.pinmap-pin')).toHaveCount(0);
      // The vector layer is drawn.
      expect(isUniform(await canvasPng(page))).toBe(false);
      const shot = test.info().outputPath('notice.png');
      await page.locator('.pinmap').screenshot({ path: shot });
      await test.info().attach('notice.png', { path: shot, contentType: 'image/png' });
      // Dismissed, it stays away while the same fault goes on.
      await notice.getByRole('button', { name: 'Dismiss' }).click();
      await expect(notice).toHaveCount(0);

      // The map pans (a drag), and the tiles of the new view are asked for again.
      const hashAt = () => /#map=([^&]+)/.exec(new URL(page.url()).hash)?.[1];
      const before = hashAt();
      const asked = requests;
      const box = (await page.locator('.pinmap-map').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 - 300, box.y + box.height / 2 - 200, { steps: 10 });
      await page.mouse.up();
      await waitForMapState(page, 'idle');
      expect(hashAt()).not.toBe(before);
      if (fault.opens !== false) expect(requests, 'requests to the archive after the pan').toBeGreaterThan(asked);
      // The zoom button zooms.
      await page.locator('.pinmap-zoom-in').click();
      await expect.poll(() => /#map=([\d.]+)/.exec(new URL(page.url()).hash)?.[1]).toBe('9');
      await waitForMapState(page, 'idle');
      await expect(notice).toHaveCount(0);
    });
  }
});
