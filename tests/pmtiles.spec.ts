import { expect, test, type Page, type Route } from './test.ts';
import { namedFlavor } from '@protomaps/basemaps';
import { PNG } from 'pngjs';
import { COLOURS as OPENMAPTILES_COLOURS } from '../scripts/generate-openmaptiles.ts';
import { writePmtiles, type PmtilesTile } from '../scripts/pmtiles-writer.ts';
import { BASEMAP_ARCHIVE as ARCHIVE, basemapReader as reader } from './basemap-tiles.ts';
import { blockExternalNetwork, serveJson, waitForMapState, watchConsole } from './helpers.ts';

// The embedded basemap's archive, its tiles and what they draw are the subject here.
test.use({ basemap: 'embedded' });

/**
 * PMTiles archives (`pmtiles://` sources) in a real browser: the embedded basemap read with range
 * requests, the access-token rule for the archive's range requests (both views), and archives or
 * servers that are broken in each way the format allows, each a named notice on the page while
 * the rest of the map (controls, pins) keeps working.
 */

const ARCHIVE_PATH = '/basemap/basemap.pmtiles';

/** The basemap's water (background) and its land and country tints. */
const WATER = '#d3e5f0';
const LAND = ['#f7f4ec', '#f3f1e6', '#f6efe9', '#f0f2ea', '#f4efe2', '#f7f3e8'];

/** Shares of the map's pixels drawn as water and as land. */
async function geometryShares(page: Page): Promise<{ water: number; land: number }> {
  const png = PNG.sync.read(await page.locator('.pinmap-map').screenshot());
  const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  const near = (i: number, [r, g, b]: [number, number, number]) => Math.abs(png.data[i]! - r) + Math.abs(png.data[i + 1]! - g) + Math.abs(png.data[i + 2]! - b) <= 6;
  let water = 0;
  let land = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    if (near(i, rgb(WATER))) water++;
    else if (LAND.some((colour) => near(i, rgb(colour)))) land++;
  }
  const total = png.data.length / 4;
  return { water: water / total, land: land / total };
}

/**
 * Answers requests for `path` with `bytes` as a static host would: `Range` honoured with 206 and
 * `Content-Range`, 416 for a range past the end; or, with `ignoreRange`, the whole file with 200.
 * Returns the Range headers seen.
 */
async function serveArchive(page: Page, path: string, bytes: Buffer, { ignoreRange = false } = {}): Promise<string[]> {
  const ranges: string[] = [];
  await page.route((url) => url.pathname === path, (route) => {
    const range = route.request().headers()['range'] ?? '';
    ranges.push(range);
    const match = /^bytes=(\d+)-(\d+)$/.exec(range);
    if (ignoreRange || !match) return route.fulfill({ status: 200, body: bytes, headers: { 'content-type': 'application/octet-stream', 'accept-ranges': 'none' } });
    const from = Number(match[1]);
    const to = Math.min(Number(match[2]), bytes.length - 1);
    if (from >= bytes.length) return route.fulfill({ status: 416, headers: { 'content-range': `bytes */${bytes.length}` } });
    return route.fulfill({
      status: 206,
      body: bytes.subarray(from, to + 1),
      headers: { 'content-type': 'application/octet-stream', 'content-range': `bytes ${from}-${to}/${bytes.length}`, 'accept-ranges': 'bytes' },
    });
  });
  return ranges;
}

/** Opens the app on the embedded basemap, with one pin at (10, 50), in `view` at `address`. */
async function openWithPin(page: Page, view: 'vector' | 'hybrid', address = '#map=2/40/10'): Promise<void> {
  await serveJson(page, '/__pmtiles/config.json', {
    view,
    pins: { type: 'FeatureCollection', features: [{ type: 'Feature', id: 'p', geometry: { type: 'Point', coordinates: [10, 50] }, properties: { title: 'Still here' } }] },
  });
  await page.goto(`/?config=/__pmtiles/config.json${address}`);
}

/** The rest of the map works: the pin is there and opens its popup, and zooming in ends idle. */
async function expectMapStillWorks(page: Page): Promise<void> {
  await page.locator('.pinmap-pin[data-pin-id="p"]').click();
  await expect(page.locator('.pinmap-popup')).toContainText('Still here');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await waitForMapState(page, 'idle');
  await expect(page.locator('.pinmap')).toHaveAttribute('data-map-state', 'idle');
}

test.describe('the embedded basemap from one archive', () => {
  for (const view of ['vector', 'hybrid'] as const) {
    test(`${view} view: the basemap is drawn from basemap.pmtiles with range requests, and no loose tile is asked for`, async ({ mapPage: page }) => {
      const console = watchConsole(page);
      const requests: { path: string; range: string | undefined }[] = [];
      page.on('request', (request) => requests.push({ path: new URL(request.url()).pathname, range: request.headers()['range'] }));
      await openWithPin(page, view, '#map=3/46/10');
      await waitForMapState(page, 'idle');
      const archiveRequests = requests.filter((r) => r.path === ARCHIVE_PATH);
      expect(archiveRequests.length, 'range requests to the archive').toBeGreaterThan(3);
      for (const request of archiveRequests) expect(request.range).toMatch(/^bytes=\d+-\d+$/);
      expect(requests.filter((r) => r.path.endsWith('.pbf') || r.path.endsWith('.mvt'))).toEqual([]);
      const shares = await geometryShares(page);
      expect(shares.water, 'water').toBeGreaterThan(0.1);
      expect(shares.land, 'land').toBeGreaterThan(0.1);
      await expect(page.locator('.pinmap-notice')).toHaveCount(0);
      expect(console.errors.filter((e) => !/^Failed to load resource/.test(e))).toEqual([]);
    });
  }
});

test.describe('the access token and a pmtiles:// archive', () => {
  for (const view of ['vector', 'hybrid'] as const) {
    for (const carrier of ['query', 'header'] as const) {
      test(`${view} view, token as ${carrier === 'query' ? 'the access_token parameter' : 'a header'}: the provider's archive gets it with every range request, an archive on another origin never`, async ({ mapPage: page }) => {
        const token = 'pk.Range+Token/9=';
        const provider = 'https://tiles.provider.test';
        const cdn = 'https://cdn.other.test';
        const seen: { url: string; headers: Record<string, string> }[] = [];
        await page.route(
          (url) => url.origin === provider || url.origin === cdn,
          async (route: Route) => {
            const url = new URL(route.request().url());
            const cors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'Content-Range, ETag' };
            if (url.pathname === '/style.json') {
              return route.fulfill({
                headers: cors,
                json: {
                  version: 8,
                  sources: {
                    world: { type: 'vector', url: `pmtiles://${provider}/archives/world.pmtiles` },
                    borders: { type: 'vector', url: `pmtiles://${cdn}/borders.pmtiles` },
                  },
                  layers: [
                    { id: 'water', type: 'background', paint: { 'background-color': WATER } },
                    { id: 'land', type: 'fill', source: 'world', 'source-layer': 'land', paint: { 'fill-color': LAND[0]! } },
                    { id: 'borders', type: 'line', source: 'borders', 'source-layer': 'boundaries', paint: { 'line-color': '#555555' } },
                  ],
                },
              });
            }
            seen.push({ url: url.href, headers: route.request().headers() });
            const range = route.request().headers()['range'];
            const match = /^bytes=(\d+)-(\d+)$/.exec(range ?? '');
            if (!match) return route.fulfill({ status: 400, headers: cors, body: 'a range request was expected' });
            const from = Number(match[1]);
            const to = Math.min(Number(match[2]), ARCHIVE.length - 1);
            return route.fulfill({ status: 206, headers: { ...cors, 'content-range': `bytes ${from}-${to}/${ARCHIVE.length}` }, body: ARCHIVE.subarray(from, to + 1) });
          },
        );
        const header = carrier === 'header' ? 'X-Api-Key' : undefined;
        await serveJson(page, '/__pmtiles/token.json', { style: `${provider}/style.json`, accessToken: token, ...(header ? { accessTokenHeader: header } : {}), view, center: [10, 50], zoom: 3 });
        const messages: string[] = [];
        page.on('console', (message) => messages.push(message.text()));
        await page.goto('/?config=/__pmtiles/token.json');
        await waitForMapState(page, 'idle');
        await page.getByRole('button', { name: 'Zoom in' }).click();
        await waitForMapState(page, 'idle');

        const toProvider = seen.filter((r) => new URL(r.url).origin === provider);
        const toCdn = seen.filter((r) => new URL(r.url).origin === cdn);
        expect(toProvider.length, 'range requests to the provider archive').toBeGreaterThan(2);
        expect(toCdn.length, 'range requests to the other archive').toBeGreaterThan(2);
        for (const { url, headers } of toProvider) {
          expect(new URL(url).pathname).toBe('/archives/world.pmtiles');
          expect(header ? headers[header.toLowerCase()] : new URL(url).searchParams.get('access_token'), url).toBe(token);
          if (header) expect(url).not.toContain('access_token');
        }
        for (const { url, headers } of toCdn) {
          expect(url).toBe(`${cdn}/borders.pmtiles`);
          expect(Object.values(headers).some((value) => value.includes(token)), `headers of ${url}`).toBe(false);
        }
        expect((await geometryShares(page)).land, 'land from the provider archive').toBeGreaterThan(0.05);
        expect(messages.filter((m) => m.includes(token) || m.includes(encodeURIComponent(token)))).toEqual([]);
        expect(page.url()).not.toContain('access_token');
        expect(await page.content()).not.toContain(token);
      });
    }
  }
});

/** A copy of the basemap archive with header bytes changed. */
function patched(changes: Record<number, number>): Buffer {
  const copy = Buffer.from(ARCHIVE);
  for (const [at, value] of Object.entries(changes)) copy[Number(at)] = value;
  return copy;
}

/** The basemap's tiles of zooms 0..2, stored uncompressed, in an archive whose header says gzip. */
async function archiveWithFalseGzipHeader(): Promise<Buffer> {
  const tiles: PmtilesTile[] = [];
  for (let z = 0; z <= 2; z++) {
    for (let x = 0; x < 2 ** z; x++) {
      for (let y = 0; y < 2 ** z; y++) tiles.push({ z, x, y, data: new Uint8Array((await reader.getZxy(z, x, y))!.data) });
    }
  }
  const archive = writePmtiles(tiles, { tileType: 'mvt', tileCompression: 'none', bounds: [-180, -85, 180, 85], center: [0, 0, 0], metadata: await reader.getMetadata() as Record<string, unknown> });
  archive[98] = 2; // tile compression: gzip
  return archive;
}

test.describe('archive faults', () => {
  type Fault = { name: string; reason: RegExp; serve: (page: Page) => Promise<unknown> };
  const faults: Fault[] = [
    { name: 'answers 404', reason: /the server answered HTTP 404/, serve: (page) => page.route((url) => url.pathname === ARCHIVE_PATH, (route) => route.fulfill({ status: 404, body: 'not found' })) },
    {
      name: 'answers 416 to every range',
      reason: /the server refused the byte range 0–16383 \(HTTP 416\): the file has \d+ bytes/,
      serve: (page) => page.route((url) => url.pathname === ARCHIVE_PATH, (route) => route.fulfill({ status: 416, headers: { 'content-range': `bytes */${ARCHIVE.length}` } })),
    },
    { name: 'is truncated', reason: new RegExp(`the archive is truncated: its header describes ${ARCHIVE.length} bytes, the file has 200000`), serve: (page) => serveArchive(page, ARCHIVE_PATH, ARCHIVE.subarray(0, 200_000)) },
    { name: 'has a wrong magic number', reason: /it is not a PMTiles archive \(wrong magic number\)/, serve: (page) => serveArchive(page, ARCHIVE_PATH, patched({ 0: 0x50, 1: 0x4b })) },
    { name: 'is PMTiles version 2', reason: /it is PMTiles version 2; only version 3 is supported/, serve: (page) => serveArchive(page, ARCHIVE_PATH, patched({ 7: 2 })) },
    { name: 'has tiles that are not gzip though its header says so', reason: /a tile is not gzip-compressed, though its header says it is/, serve: async (page) => serveArchive(page, ARCHIVE_PATH, await archiveWithFalseGzipHeader()) },
  ];

  for (const fault of faults) {
    for (const view of ['vector', 'hybrid'] as const) {
      // Each fault in the vector view; the hybrid view's notice comes from the same code, so two of them there.
      if (view === 'hybrid' && !/404|gzip/.test(fault.name)) continue;
      test(`${view} view: an archive that ${fault.name} is a notice naming it and the reason; pins and controls keep working`, async ({ mapPage: page, baseURL }) => {
        await fault.serve(page);
        await openWithPin(page, view, '#map=1/30/10');
        const notice = page.locator('.pinmap-notice-alert');
        await expect(notice).toContainText(`Could not read the map tiles archive ${baseURL}${ARCHIVE_PATH}: `);
        await expect(notice).toContainText(fault.reason);
        await expect(notice).toHaveCount(1);
        await waitForMapState(page, 'idle');
        await expectMapStillWorks(page);
        // Dismissed, it stays away while the same fault goes on.
        await notice.getByRole('button', { name: 'Dismiss' }).click();
        await expect(notice).toHaveCount(0);
      });
    }
  }

  test('an archive that answers 404 and then comes back heals the map: its tiles are tried again while in view', async ({ mapPage: page }) => {
    let failing = true;
    let failed = 0;
    await page.route((url) => url.pathname === ARCHIVE_PATH, (route) => {
      if (!failing) return route.continue();
      failed++;
      return route.fulfill({ status: 404, body: 'not found' });
    });
    await openWithPin(page, 'vector', '#map=3/46/10');
    await expect(page.locator('.pinmap-notice-alert')).toContainText('the server answered HTTP 404');
    await waitForMapState(page, 'idle');
    expect((await geometryShares(page)).land, 'no land while the archive fails').toBeLessThan(0.01);
    failing = false;
    await expect.poll(async () => (await geometryShares(page)).land, { timeout: 20_000, message: 'land once the archive is back' }).toBeGreaterThan(0.1);
    expect(failed).toBeGreaterThan(0);
  });

  test('a server that ignores Range and sends the whole file still gives the whole map (read once), with a console warning', async ({ mapPage: page }) => {
    const console = watchConsole(page);
    const ranges = await serveArchive(page, ARCHIVE_PATH, ARCHIVE, { ignoreRange: true });
    await openWithPin(page, 'vector', '#map=3/46/10');
    await waitForMapState(page, 'idle');
    const shares = await geometryShares(page);
    expect(shares.water).toBeGreaterThan(0.1);
    expect(shares.land).toBeGreaterThan(0.1);
    await expect(page.locator('.pinmap-notice')).toHaveCount(0);
    expect(ranges, 'requests to the archive: the whole file came with the first').toHaveLength(1);
    expect(console.warnings.filter((w) => w.includes(`ignores Range requests; the whole archive (${ARCHIVE.length} bytes) was read at once`))).toHaveLength(1);
    await expectMapStillWorks(page);
  });
});

test.describe('bring your own basemap: Protomaps layers over a PMTiles extract', () => {
  for (const flavor of ['light', 'dark'] as const) {
    test(`the ${flavor} flavour draws earth, ocean and labels from one archive, offline, with its fonts and icons and no console message`, async ({ mapPage: page }) => {
      const blocked = await blockExternalNetwork(page);
      const console = watchConsole(page);
      const requests: string[] = [];
      page.on('requestfinished', (request) => requests.push(new URL(request.url()).pathname));
      await serveJson(page, '/__pmtiles/protomaps.json', { style: `protomaps/style-${flavor}.json`, center: [12, 48], zoom: 3, controls: { navigation: false, geolocate: false, scale: false, fullscreen: false } });
      await page.goto('/?config=/__pmtiles/protomaps.json');
      await waitForMapState(page, 'idle');
      expect(blocked, 'requests that tried to leave the machine').toEqual([]);
      expect(console.errors).toEqual([]);
      expect(console.warnings).toEqual([]);
      expect(requests).toContain('/protomaps/protomaps.pmtiles');
      expect(requests).toContain('/protomaps/sprites/protomaps.png');
      expect(requests.filter((p) => /^\/protomaps\/fonts\/noto-sans-latin-(400-normal|500-normal|400-italic)\.woff2$/.test(p)).length, 'Regular, Medium (and Italic if shown)').toBeGreaterThanOrEqual(2);

      await expectProtomapsColours(page, flavor);
      await expect(page.locator('.pinmap-attrib')).toContainText('Protomaps');
    });
  }

  test('config streets: the archive alone, drawn in the Protomaps style of the theme on the embedded fonts, with the archive\'s own credit', async ({ mapPage: page }) => {
    const blocked = await blockExternalNetwork(page);
    const console = watchConsole(page);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    // The fixture archive under another name: the style's own source (protomaps.pmtiles beside it) is not what is read.
    await page.route('**/__streets/area.pmtiles', (route) => route.continue({ url: new URL('/protomaps/protomaps.pmtiles', page.url()).href }));
    await serveJson(page, '/__streets/config.json', { streets: '/__streets/area.pmtiles', theme: 'dark', center: [12, 48], zoom: 3, controls: { navigation: false, geolocate: false, scale: false, fullscreen: false } });
    await page.goto('/?config=/__streets/config.json');
    await waitForMapState(page, 'idle');
    expect(blocked, 'requests that tried to leave the machine').toEqual([]);
    expect(console.errors).toEqual([]);
    expect(console.warnings).toEqual([]);
    expect(requests).toContain('/protomaps/style-dark.json');
    expect(requests).not.toContain('/protomaps/style-light.json');
    expect(requests).toContain('/__streets/area.pmtiles');
    expect(requests).not.toContain('/protomaps/protomaps.pmtiles');
    expect(requests.filter((p) => /^\/protomaps\/fonts\/noto-sans-latin-(400-normal|500-normal|400-italic)\.woff2$/.test(p)).length).toBeGreaterThanOrEqual(2);
    await expectProtomapsColours(page, 'dark');
    // The archive's metadata's credit (this fixture's names its sources and the style).
    await expect(page.locator('.pinmap-attrib')).toContainText('GeoNames');
  });
});

test.describe('a hosted street map in the OpenMapTiles schema (a fixture archive and style, offline)', () => {
  for (const view of ['vector', 'hybrid'] as const) {
    test(`${view} view: the style draws land, water and borders from the archive's schema layers and labels countries and cities, with its fonts and no console message`, async ({ mapPage: page }) => {
      const blocked = await blockExternalNetwork(page);
      const console = watchConsole(page);
      const requests: string[] = [];
      page.on('requestfinished', (request) => requests.push(new URL(request.url()).pathname));
      await serveJson(page, '/__pmtiles/openmaptiles.json', { style: 'openmaptiles/style.json', view, center: [10, 48], zoom: 4, controls: { navigation: false, geolocate: false, scale: false, fullscreen: false } });
      await page.goto('/?config=/__pmtiles/openmaptiles.json');
      await waitForMapState(page, 'idle');
      expect(blocked, 'requests that tried to leave the machine').toEqual([]);
      expect(console.errors).toEqual([]);
      expect(console.warnings).toEqual([]);
      expect(requests).toContain('/openmaptiles/openmaptiles.pmtiles');
      expect(requests.filter((p) => /^\/openmaptiles\/fonts\/noto-sans-latin-(400-normal|700-normal)\.woff2$/.test(p)).length, 'Regular and Bold').toBe(2);

      const png = PNG.sync.read(await page.locator('.pinmap-map').screenshot());
      const share = (hex: string, tolerance = 6) => {
        const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
        let n = 0;
        for (let i = 0; i < png.data.length; i += 4) if (Math.abs(png.data[i]! - r!) + Math.abs(png.data[i + 1]! - g!) + Math.abs(png.data[i + 2]! - b!) <= tolerance) n++;
        return n / (png.data.length / 4);
      };
      expect(share(OPENMAPTILES_COLOURS.land), `land (the background) ${OPENMAPTILES_COLOURS.land}`).toBeGreaterThan(0.3);
      expect(share(OPENMAPTILES_COLOURS.water), `water ${OPENMAPTILES_COLOURS.water}`).toBeGreaterThan(0.1);
      expect(share(OPENMAPTILES_COLOURS.boundary, 30), `borders ${OPENMAPTILES_COLOURS.boundary}`).toBeGreaterThan(0.002);
      // Labels: the country names' colour, which nothing else draws, and dark text ink in all.
      expect(share(OPENMAPTILES_COLOURS.country, 30), `country names ${OPENMAPTILES_COLOURS.country}`).toBeGreaterThan(0.001);
      let ink = 0;
      for (let i = 0; i < png.data.length; i += 4) if (png.data[i]! + png.data[i + 1]! + png.data[i + 2]! < 300) ink++;
      expect(ink / (png.data.length / 4), 'dark label ink (countries and cities)').toBeGreaterThan(0.005);
      await expect(page.locator('.pinmap-attrib')).toContainText('OpenMapTiles');
    });
  }
});

/** The map shows the Protomaps style's `flavor`: its earth on at least 30% of the map, its water on at least 10%. */
async function expectProtomapsColours(page: Page, flavor: 'light' | 'dark'): Promise<void> {
  const colours = namedFlavor(flavor);
  const png = PNG.sync.read(await page.locator('.pinmap-map').screenshot());
  const share = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    let n = 0;
    for (let i = 0; i < png.data.length; i += 4) if (Math.abs(png.data[i]! - r!) + Math.abs(png.data[i + 1]! - g!) + Math.abs(png.data[i + 2]! - b!) <= 6) n++;
    return n / (png.data.length / 4);
  };
  expect(share(colours.earth), `earth ${colours.earth}`).toBeGreaterThan(0.3);
  expect(share(colours.water), `water ${colours.water}`).toBeGreaterThan(0.1);
}
