import { readFileSync } from 'node:fs';
import { createGzip, gzipSync } from 'node:zlib';
import { expect, type Page } from './test.ts';
import { BASEMAP_ARCHIVE, basemapTile } from './basemap-tiles.ts';
import { CORS, sendJson, sendRange, test, type HostileServers } from './hostile-servers.ts';
import { PLAIN_STYLE, openEmbedPage, serveJson, waitForMapState, watchConsole, type EmbedWindow } from './helpers.ts';

/**
 * Pinmap against hostile servers (issue "Nothing leaks, nothing hangs"): real HTTPS servers for a
 * maps provider and an attacker (tests/hostile-servers.ts), reached by the browser's own network
 * stack, so redirects, compression and stalls behave as on the web.
 */

const TOKEN = 'pk.Hostile+Token/9=';

/** A provider style whose vector tiles are the embedded basemap's, served from the provider at `/tiles/{z}/{x}/{y}.pbf`. */
function providerStyle(servers: HostileServers) {
  return {
    version: 8,
    sources: { basemap: { type: 'vector', tiles: [`${servers.provider}/tiles/{z}/{x}/{y}.pbf`], maxzoom: 6 } },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': '#cfe3f0' } },
      { id: 'land', type: 'fill', source: 'basemap', 'source-layer': 'land', paint: { 'fill-color': '#f4f1e8' } },
    ],
  };
}

/** The provider answers its style, and its tiles with the basemap's; `tile` may answer a tile first. */
function serveProvider(servers: HostileServers): void {
  servers.on('provider', async (_request, response, url) => {
    if (url.pathname === '/style.json') return sendJson(response, providerStyle(servers));
    const tile = await basemapTile(url.pathname);
    if (!tile) return false;
    response.writeHead(200, { ...CORS, 'content-type': 'application/x-protobuf' });
    response.end(tile);
  });
}

/** The token rule's carriers: the query parameter, a header of the site's, and Authorization (Bearer). */
const CARRIERS = [
  { name: 'the access_token parameter', header: undefined },
  { name: 'a custom header', header: 'X-Token' },
  { name: 'the Authorization header', header: 'Authorization' },
] as const;

/** Whether a request the attacker saw holds the token in any form: its path, or any header. */
function holdsToken(request: { path: string; headers: Record<string, unknown> }): boolean {
  const forms = [TOKEN, encodeURIComponent(TOKEN), new URLSearchParams({ t: TOKEN }).toString().slice(2)];
  const texts = [request.path, ...Object.values(request.headers).map(String)];
  return texts.some((text) => forms.some((form) => text.includes(form)));
}

async function openApp(page: Page, config: Record<string, unknown>, address = ''): Promise<void> {
  await serveJson(page, '/__security/config.json', config);
  await page.goto(`/?config=/__security/config.json${address}`);
}

test.describe('finding 1: a redirect never carries the token to another origin', () => {
  test.use({ viewport: { width: 480, height: 360 } });

  for (const carrier of CARRIERS) {
    test(`token as ${carrier.name}: provider tiles that redirect to another origin ${carrier.header ? 'are refused (a warning says why) and that origin is never asked' : 'are followed, and reach it without the token'}`, async ({ mapPage: page, servers }) => {
      // Every tile the provider is asked for answers 302 to the same path on the attacker's origin.
      servers.on('provider', (_request, response, url) => {
        if (!url.pathname.startsWith('/tiles/')) return false;
        response.writeHead(302, { ...CORS, location: `${servers.attacker}${url.pathname}` });
        response.end();
      });
      serveProvider(servers);
      servers.on('attacker', async (_request, response, url) => {
        const tile = await basemapTile(url.pathname);
        if (!tile) return false;
        response.writeHead(200, { ...CORS, 'content-type': 'application/x-protobuf' });
        response.end(tile);
      });
      const console = watchConsole(page);
      await openApp(page, {
        style: `${servers.provider}/style.json`,
        accessToken: TOKEN,
        ...(carrier.header ? { accessTokenHeader: carrier.header } : {}),
        center: [10, 50],
        zoom: 3,
      });
      await waitForMapState(page, 'idle');
      // A header token: the redirect is refused, and the warning says so.
      if (carrier.header) expect(console.warnings.some((w) => /redirect/.test(w)), console.warnings.join('\n')).toBe(true);
      const toProvider = servers.requests.filter((r) => r.server === 'provider' && r.method === 'GET');
      expect(toProvider.filter((r) => r.path.startsWith('/tiles/')).length, 'tiles asked of the provider').toBeGreaterThan(2);
      for (const request of toProvider) expect(holdsToken(request), `the provider's ${request.path} carries the token`).toBe(true);
      const toAttacker = servers.requests.filter((r) => r.server === 'attacker');
      if (carrier.header) {
        // With the token in a header the redirect is not followed: nothing reaches the other origin.
        expect(toAttacker.map((r) => `${r.method} ${r.path}`), 'requests that reached the other origin').toEqual([]);
      } else {
        // With the token in the address the redirect is followed: the tiles reached the other origin, without it.
        expect(toAttacker.filter((r) => r.method === 'GET' && r.path.startsWith('/tiles/')).length, 'redirected tile requests that reached the other origin').toBeGreaterThan(2);
        expect(toAttacker.filter(holdsToken).map((r) => `${r.method} ${r.path}`), 'requests to the other origin that carry the token').toEqual([]);
      }
    });
  }

  test('token as a custom header: a basemap archive on the provider whose range reads redirect to another origin is not read through the redirect (a notice says so) and that origin is never asked', async ({ mapPage: page, servers }) => {
    servers.on('provider', (_request, response, url) => {
      if (url.pathname === '/style.json') {
        return sendJson(response, { ...providerStyle(servers), sources: { basemap: { type: 'vector', url: `pmtiles://${servers.provider}/world.pmtiles` } } });
      }
      if (url.pathname !== '/world.pmtiles') return false;
      response.writeHead(302, { ...CORS, location: `${servers.attacker}/world.pmtiles` });
      response.end();
    });
    servers.on('attacker', (request, response, url) => {
      if (url.pathname !== '/world.pmtiles') return false;
      sendRange(request, response, BASEMAP_ARCHIVE);
    });
    await openApp(page, { style: `${servers.provider}/style.json`, accessToken: TOKEN, accessTokenHeader: 'X-Token', center: [10, 50], zoom: 3 });
    // The archive cannot be read through the redirect: a notice names it, and the map goes on.
    await expect(page.getByRole('alert')).toContainText(/redirect/);
    expect(servers.requests.some((r) => r.server === 'provider' && r.path === '/world.pmtiles' && r.method === 'GET')).toBe(true);
    const toAttacker = servers.requests.filter((r) => r.server === 'attacker');
    expect(toAttacker.map((r) => `${r.method} ${r.path} ${String(r.headers.range)}`), 'requests that reached the other origin').toEqual([]);
  });
});

test.describe('finding 2: pins on the provider get the token', () => {
  const ARCHIVE = readFileSync('fixtures/pins/cities.pmtiles');
  const GEOJSON = readFileSync('fixtures/pins/cities.geojson');
  for (const view of ['vector', 'hybrid'] as const) {
    for (const carrier of [CARRIERS[0], CARRIERS[1]]) {
      test(`${view} view, token as ${carrier.name}: a pin archive and a GeoJSON pin file on the provider that need the token load`, async ({ mapPage: page, servers }) => {
        /** The provider answers only with the token: 401 without it. */
        const authorised = (request: { url?: string | undefined; headers: Record<string, unknown> }) =>
          carrier.header ? request.headers[carrier.header.toLowerCase()] === TOKEN : new URL(request.url ?? '/', 'https://x').searchParams.get('access_token') === TOKEN;
        servers.on('provider', (request, response, url) => {
          if (url.pathname !== '/pins.pmtiles' && url.pathname !== '/pins.geojson') return false;
          if (!authorised(request)) {
            response.writeHead(401, { ...CORS, 'content-type': 'text/plain' });
            return void response.end('a token is needed');
          }
          if (url.pathname === '/pins.geojson') {
            response.writeHead(200, { ...CORS, 'content-type': 'application/geo+json' });
            return void response.end(GEOJSON);
          }
          sendRange(request, response, ARCHIVE);
        });
        const console = watchConsole(page);
        const base = { view, providerOrigin: servers.provider, accessToken: TOKEN, ...(carrier.header ? { accessTokenHeader: carrier.header } : {}), fadeDuration: 0 };
        await openApp(page, { ...base, pins: `pmtiles://${servers.provider}/pins.pmtiles` }, '#map=4/48.86/2.35');
        await waitForMapState(page, 'idle');
        await expect(page.getByRole('alert')).toHaveCount(0);
        await openApp(page, { ...base, pins: `${servers.provider}/pins.geojson` }, '#map=4/48.86/2.35');
        await waitForMapState(page, 'idle');
        await expect(page.getByRole('alert')).toHaveCount(0);
        await expect(page.locator('.pinmap-pin[data-pin-id="paris-fr"], .pinmap-cluster').first()).toBeAttached();
        const reads = servers.requests.filter((r) => r.server === 'provider' && r.method === 'GET');
        expect(reads.filter((r) => r.path.startsWith('/pins.pmtiles')).length).toBeGreaterThan(0);
        expect(reads.filter((r) => r.path.startsWith('/pins.geojson')).length).toBeGreaterThan(0);
        for (const read of reads) expect(holdsToken(read), `${read.path} carries the token`).toBe(true);
        expect(console.errors.filter((e) => !/^Failed to load resource/.test(e))).toEqual([]);
      });
    }
  }
});

test.describe('finding 3: the token in every spelling is blanked', () => {
  for (const token of ["tok~en!x'y(z)", 'tok en*1']) {
    test(`a style that fails shows its URL with the token ${JSON.stringify(token)} blanked, in the panel and the console`, async ({ mapPage: page, servers }) => {
      servers.on('provider', (_request, response, url) => {
        if (url.pathname !== '/style.json') return false;
        response.writeHead(500, { ...CORS, 'content-type': 'text/plain' });
        response.end('down');
      });
      const messages: string[] = [];
      page.on('console', (message) => messages.push(message.text()));
      await openApp(page, { style: `${servers.provider}/style.json`, accessToken: token });
      await waitForMapState(page, 'error');
      const panel = page.getByRole('alert');
      await expect(panel).toContainText(`Could not load the map style from ${servers.provider}/style.json`);
      const spellings = [token, encodeURIComponent(token), new URLSearchParams({ t: token }).toString().slice(2), new URL(`https://x/?t=${token}`).search.slice(3)];
      const texts = [await page.locator('.pinmap').innerText(), await page.content(), ...messages];
      for (const text of texts) for (const spelled of spellings) expect(text, `the page or console shows ${spelled}`).not.toContain(spelled);
    });
  }
});

/** A gzip stream of `size` bytes of spaces after the start of a FeatureCollection: about a thousandth of it on the wire. */
let bomb: Promise<Buffer> | undefined;
function gzipBomb(size = 1024 ** 3): Promise<Buffer> {
  bomb ??= new Promise((resolve, reject) => {
    const gzip = createGzip({ level: 9 });
    const parts: Buffer[] = [];
    gzip.on('data', (part: Buffer) => parts.push(part));
    gzip.on('end', () => resolve(Buffer.concat(parts)));
    gzip.on('error', reject);
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    gzip.write('{"type":"FeatureCollection","features":[');
    let written = 0;
    const more = () => {
      while (written < size) {
        written += chunk.length;
        if (!gzip.write(chunk)) return void gzip.once('drain', more);
      }
      gzip.end();
    };
    more();
  });
  return bomb;
}

test.describe('finding 4: a pin file that inflates without end stops at the size limit', () => {
  test('a 1 MB gzip file that inflates to 1 GiB is a notice naming the limit; the page and the basemap go on', async ({ mapPage: page, servers }) => {
    test.setTimeout(120_000);
    const body = await gzipBomb();
    servers.on('provider', (_request, response, url) => {
      if (url.pathname !== '/pins.geojson') return false;
      response.writeHead(200, { ...CORS, 'content-type': 'application/geo+json', 'content-encoding': 'gzip', 'content-length': body.length });
      response.end(body);
    });
    await openApp(page, { pins: `${servers.provider}/pins.geojson` }, '#map=3/46/10');
    const notice = page.getByRole('alert');
    await expect(notice).toContainText(`Could not load the pins from ${servers.provider}/pins.geojson`, { timeout: 30_000 });
    await expect(notice).toContainText('larger than 200 MB once decompressed (the maxPinBytes limit)');
    await waitForMapState(page, 'idle');
    // The page answers: the map zooms.
    await page.getByRole('button', { name: 'Zoom in', exact: true }).click();
    await waitForMapState(page, 'idle');
    await expect(page.locator('.pinmap-error')).toHaveCount(0);
  });
});

test.describe('finding 5: a server that never answers is a timeout, not a map loading for ever', () => {
  /** The provider takes the request and never answers it. */
  const hang = (servers: HostileServers, path: string) =>
    servers.on('provider', (_request, _response, url) => {
      if (url.pathname !== path) return false;
    });

  test('pins that never come: after pinsTimeout (default 10 s) a notice says so, with Retry, and the map is idle', async ({ mapPage: page, servers }) => {
    hang(servers, '/pins.geojson');
    await openApp(page, { pins: `${servers.provider}/pins.geojson` }, '#map=3/46/10');
    const notice = page.getByRole('alert');
    await expect(notice).toContainText(`Could not load the pins from ${servers.provider}/pins.geojson: the server did not answer within 10 s`, { timeout: 20_000 });
    await expect(notice.getByRole('button', { name: 'Retry' })).toBeVisible();
    await waitForMapState(page, 'idle');
  });

  test('a ?config= that never comes: after 10 s the page says the config did not answer', async ({ mapPage: page }) => {
    // On the page's own origin: a link's config from another origin is refused (addressConfig).
    await page.route((url) => url.pathname === '/__security/never-config.json', () => {});
    await page.goto('/?config=/__security/never-config.json');
    await waitForMapState(page, 'error', 20_000);
    await expect(page.getByRole('alert')).toContainText(/Could not load the config from http:\/\/[^ ]+\/__security\/never-config\.json: the server did not answer within 10 s/);
  });

  test('embed: ready settles when the pins never come (pinsTimeout), with a notice', async ({ mapPage: page }) => {
    // The embed page is served by the test itself, which Chromium counts as a public page that may
    // not reach this machine's servers: the pin file that never comes is the test's too.
    await page.route((url) => url.pathname === '/__test/never-pins.geojson', () => {});
    await openEmbedPage(page);
    const result = await page.evaluate(async (pins) => {
      const w = window as unknown as EmbedWindow;
      w.handle = w.Pinmap.createPinmap('map', { pins, pinsTimeout: 1500 } as never);
      const outcome = await Promise.race([w.handle.ready.then(() => 'resolved', (error: Error) => `rejected: ${error.message}`), new Promise((resolve) => setTimeout(() => resolve('never settled'), 15_000))]);
      return { outcome, status: w.handle.status };
    }, '/__test/never-pins.geojson');
    expect(result).toEqual({ outcome: 'resolved', status: 'idle' });
    await expect(page.getByRole('alert')).toContainText('the server did not answer within 1.5 s');
  });
});

/**
 * The archive with its root directory replaced by a well-formed gzip of one entry that points a
 * terabyte past the end of the file: a good header, a corrupt directory.
 */
function withCorruptDirectory(archive: Buffer): Buffer {
  const varint = (value: number) => {
    const bytes: number[] = [];
    while (value >= 0x80) {
      bytes.push((value % 0x80) | 0x80);
      value = Math.floor(value / 0x80);
    }
    bytes.push(value);
    return bytes;
  };
  // One entry: tile id 0, run length 0 (a leaf directory), length and offset 2^40.
  const directory = gzipSync(Buffer.from([...varint(1), ...varint(0), ...varint(0), ...varint(2 ** 40), ...varint(2 ** 40 + 1)]));
  const bytes = Buffer.from(archive);
  const rootLength = Number(bytes.readBigUInt64LE(16));
  expect(directory.length).toBeLessThan(rootLength);
  directory.copy(bytes, 127);
  bytes.writeBigUInt64LE(BigInt(directory.length), 16);
  return bytes;
}

test.describe('finding 6: an archive with a good header and a corrupt directory says it is damaged', () => {
  test('as pre-tiled pins: the notice says the archive is damaged, not a network fault', async ({ mapPage: page, servers }) => {
    const corrupt = withCorruptDirectory(readFileSync('fixtures/pins/cities.pmtiles'));
    servers.on('provider', (request, response, url) => {
      if (url.pathname !== '/pins.pmtiles') return false;
      sendRange(request, response, corrupt);
    });
    await openApp(page, { pins: `pmtiles://${servers.provider}/pins.pmtiles` }, '#map=3/46/10');
    const notice = page.getByRole('alert');
    await expect(notice).toContainText(`${servers.provider}/pins.pmtiles`, { timeout: 30_000 });
    await expect(notice).toContainText(/directory is damaged/);
    await expect(notice).not.toContainText(/Failed to fetch/);
    await waitForMapState(page, 'idle');
  });

  test('as the basemap: a notice names the archive and says it is damaged', async ({ mapPage: page, servers }) => {
    const corrupt = withCorruptDirectory(BASEMAP_ARCHIVE);
    servers.on('provider', (request, response, url) => {
      if (url.pathname === '/style.json') return sendJson(response, { ...providerStyle(servers), sources: { basemap: { type: 'vector', url: `pmtiles://${servers.provider}/world.pmtiles` } } });
      if (url.pathname !== '/world.pmtiles') return false;
      sendRange(request, response, corrupt);
    });
    await openApp(page, { style: `${servers.provider}/style.json`, center: [10, 46], zoom: 3 });
    const notice = page.getByRole('alert');
    await expect(notice).toContainText(`Could not read the map tiles archive ${servers.provider}/world.pmtiles`, { timeout: 30_000 });
    await expect(notice).toContainText(/directory is damaged/);
  });
});

test.describe('finding 7: ?pins= in a link is taken from the page\'s own origin only, unless config allows more', () => {
  const SITE = { center: [2.35, 48.86], zoom: 4, pins: 'pins/cities.geojson' };

  test('?pins= on another origin is refused: a notice says so, the site\'s pins stay, and the other origin is never asked', async ({ mapPage: page, servers }) => {
    servers.on('attacker', (_request, response, url) => {
      if (url.pathname !== '/pins.geojson') return false;
      sendJson(response, { type: 'FeatureCollection', features: [{ type: 'Feature', id: 'evil', geometry: { type: 'Point', coordinates: [2.35, 48.86] }, properties: { title: 'Log in here', url: 'https://evil.example/' } }] });
    });
    await serveJson(page, '/__security/site.json', SITE);
    await page.goto(`/?config=/__security/site.json&pins=${encodeURIComponent(`${servers.attacker}/pins.geojson`)}`);
    await waitForMapState(page, 'idle');
    await expect(page.getByRole('status').filter({ hasText: 'pins' })).toContainText(`The pins of this link (${servers.attacker}/pins.geojson) are not shown: this map takes pins from its own site only`);
    await expect(page.locator('.pinmap-pin[data-pin-id="paris-fr"]')).toBeAttached();
    await expect(page.locator('.pinmap-pin[data-pin-id="evil"]')).toHaveCount(0);
    expect(servers.requests.filter((r) => r.server === 'attacker')).toEqual([]);
  });

  test('?pins=javascript:… is a notice, not the config error panel, and the site\'s pins stay', async ({ mapPage: page }) => {
    await serveJson(page, '/__security/site.json', SITE);
    await page.goto(`/?config=/__security/site.json&pins=${encodeURIComponent('javascript:alert(1)')}`);
    await waitForMapState(page, 'idle');
    await expect(page.getByRole('status').filter({ hasText: 'pins' })).toContainText('The pins of this link (javascript:alert(1)) are not shown: it is not an http(s) URL or a path');
    await expect(page.locator('.pinmap-pin[data-pin-id="paris-fr"]')).toBeAttached();
  });

  test('addressPins lists the origins a link may take pins from; ?pins= on the page\'s own origin needs nothing', async ({ mapPage: page, servers }) => {
    servers.on('attacker', (_request, response, url) => {
      if (url.pathname !== '/pins.geojson') return false;
      sendJson(response, { type: 'FeatureCollection', features: [{ type: 'Feature', id: 'theirs', geometry: { type: 'Point', coordinates: [2.35, 48.86] }, properties: { title: 'Theirs' } }] });
    });
    await serveJson(page, '/__security/site.json', { ...SITE, addressPins: [servers.attacker] });
    await page.goto(`/?config=/__security/site.json&pins=${encodeURIComponent(`${servers.attacker}/pins.geojson`)}`);
    await waitForMapState(page, 'idle');
    await expect(page.locator('.pinmap-pin[data-pin-id="theirs"]')).toBeAttached();
    await serveJson(page, '/__security/own.json', { type: 'FeatureCollection', features: [{ type: 'Feature', id: 'own', geometry: { type: 'Point', coordinates: [2.35, 48.86] }, properties: { title: 'Own' } }] });
    await page.goto('/?config=/__security/site.json&pins=/__security/own.json');
    await waitForMapState(page, 'idle');
    await expect(page.locator('.pinmap-pin[data-pin-id="own"]')).toBeAttached();
  });
});

test.describe("?config= in a link is taken from the page's own origin only, unless the site allows more", () => {
  test.use({ viewport: { width: 480, height: 360 } });

  test("?config= on another origin is refused: a notice names it and why, the site's own map and pins show, and the other origin is never asked", async ({ mapPage: page, servers }) => {
    servers.on('attacker', (_request, response, url) => {
      if (url.pathname !== '/site.json') return false;
      sendJson(response, { style: PLAIN_STYLE, addressPins: 'any', pins: `${servers.attacker}/pins.geojson` });
    });
    const config = `${servers.attacker}/site.json`;
    await page.goto(`/?config=${encodeURIComponent(config)}#map=4/48.86/2.35`);
    await waitForMapState(page, 'idle');
    await expect(page.getByRole('status').filter({ hasText: 'config' })).toContainText(`The config of this link (${config}) is not used, the site's own is: this map takes configs from its own site only`);
    await expect(page.locator('.pinmap-pin[data-pin-id="paris-fr"]')).toBeAttached();
    expect(servers.requests.filter((r) => r.server === 'attacker')).toEqual([]);
  });

  test('?config=javascript:… is a notice naming why, not "Failed to fetch", and the site\'s map shows', async ({ mapPage: page }) => {
    await page.goto(`/?config=${encodeURIComponent('javascript:alert(1)')}#map=4/48.86/2.35`);
    await waitForMapState(page, 'idle');
    await expect(page.getByRole('status').filter({ hasText: 'config' })).toContainText("The config of this link (javascript:alert(1)) is not used, the site's own is: it is not an http(s) URL or a path");
    await expect(page.locator('.pinmap-pin[data-pin-id="paris-fr"]')).toBeAttached();
  });
});

test.describe('finding 9: a huge popup scrolls, and ?pin= keeps the camera on the map', () => {
  const title = `Huge ${'title '.repeat(200_000)}`;
  const pins = {
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', id: 'huge', geometry: { type: 'Point', coordinates: [0, 0] }, properties: { title, description: 'below the title' } },
      { type: 'Feature', id: 'near', geometry: { type: 'Point', coordinates: [5, 5] }, properties: { title: 'Near' } },
    ],
  };
  for (const view of ['vector', 'hybrid'] as const) {
    test(`${view} view: ?pin= of a pin at [0, 0] with a 1 MB title opens a popup no taller than the map, which scrolls, and the camera stays within the map's latitudes`, async ({ mapPage: page }) => {
      test.setTimeout(90_000);
      await serveJson(page, '/__security/huge.json', { view, fadeDuration: 0 });
      await serveJson(page, '/__security/huge-pins.json', pins);
      await page.goto('/?config=/__security/huge.json&pins=/__security/huge-pins.json&pin=huge#map=3/20/10');
      const popup = page.locator('.pinmap-popup[data-pin-id="huge"]');
      await expect(popup).toBeVisible({ timeout: 30_000 });
      await waitForMapState(page, 'idle');
      const map = (await page.locator('.pinmap-map').boundingBox())!;
      const box = (await popup.boundingBox())!;
      expect(box.height, 'the popup is no taller than the map').toBeLessThanOrEqual(map.height);
      const scroller = await popup.evaluate((element) => {
        const scrolling = [element, ...element.querySelectorAll('*')].find((e) => e.scrollHeight > e.clientHeight + 10 && /auto|scroll/.test(getComputedStyle(e).overflowY));
        return scrolling ? { scrollHeight: scrolling.scrollHeight, clientHeight: scrolling.clientHeight } : undefined;
      });
      expect(scroller, 'a part of the popup scrolls').toBeDefined();
      const latitude = Number(/#map=[\d.]+\/(-?[\d.]+)\//.exec(page.url())?.[1]);
      expect(Math.abs(latitude), `the camera's latitude (${page.url()})`).toBeLessThanOrEqual(85.06);
      // The camera stays by the pin: it is in view under its popup.
      const pin = (await page.locator('.pinmap-pin[data-pin-id="huge"]').boundingBox())!;
      expect(pin.y, 'the pin is in view').toBeGreaterThanOrEqual(map.y);
      expect(pin.y + pin.height, 'the pin is in view').toBeLessThanOrEqual(map.y + map.height + 1);
    });
  }
});

test.describe('finding 12: raster layers on the provider\'s origin get the token', () => {
  for (const carrier of [CARRIERS[0], CARRIERS[1]]) {
    test(`hybrid view, token as ${carrier.name}: the provider's raster tiles carry it, other raster layers never`, async ({ mapPage: page, servers, baseURL }) => {
      const hatch = readFileSync('fixtures/raster/hatch/2/2/1.png');
      servers.on('provider', (_request, response, url) => {
        if (!url.pathname.startsWith('/raster/')) return false;
        response.writeHead(200, { ...CORS, 'content-type': 'image/png' });
        response.end(hatch);
      });
      await openApp(page, {
        view: 'hybrid',
        providerOrigin: servers.provider,
        accessToken: TOKEN,
        ...(carrier.header ? { accessTokenHeader: carrier.header } : {}),
        center: [10, 46],
        zoom: 2,
        rasterLayers: [
          { url: `${servers.provider}/raster/{z}/{x}/{y}.png`, opacity: 0.5 },
          { url: `${baseURL}/raster/hatch/{z}/{x}/{y}.png`, maxTileZoom: 5 },
        ],
      });
      await waitForMapState(page, 'idle');
      const tiles = servers.requests.filter((r) => r.server === 'provider' && r.method === 'GET' && r.path.startsWith('/raster/'));
      expect(tiles.length).toBeGreaterThan(2);
      for (const tile of tiles) expect(holdsToken(tile), `${tile.path} carries the token`).toBe(true);
      await expect(page.locator('.pinmap-raster-layer img, .pinmap-raster-layer canvas').first()).toBeVisible();
    });
  }
});

test.describe('every download: progress, and an abort tied to destroy()', () => {
  test('a large pin file says how far it has come, over the map and in the pin list, then shows its pins', async ({ mapPage: page, servers }) => {
    const features = Array.from({ length: 6000 }, (_, i) => ({
      type: 'Feature',
      id: `p${i}`,
      geometry: { type: 'Point', coordinates: [-170 + (i % 340), -60 + ((i * 7) % 120)] },
      properties: { title: `Pin ${i}`, description: 'A pin with some words to make the file large. '.repeat(8) },
    }));
    const body = Buffer.from(JSON.stringify({ type: 'FeatureCollection', features }));
    expect(body.length).toBeGreaterThan(2_000_000);
    servers.on('provider', (_request, response, url) => {
      if (url.pathname !== '/big.geojson') return false;
      response.writeHead(200, { ...CORS, 'content-type': 'application/geo+json', 'content-length': body.length });
      // Ten parts, half a second apart.
      const part = Math.ceil(body.length / 10);
      let sent = 0;
      const next = () => {
        if (response.destroyed) return;
        response.write(body.subarray(sent, sent + part));
        sent += part;
        if (sent < body.length) setTimeout(next, 500);
        else response.end();
      };
      next();
    });
    await openApp(page, { pins: `${servers.provider}/big.geojson`, controls: { list: true } }, '#map=2/0/0');
    const progress = page.locator('.pinmap-progress');
    await expect(progress).toHaveText(/^Loading pins… \d0 %$/);
    await expect(progress).toHaveAttribute('role', 'status');
    const first = (await progress.allTextContents())[0];
    await page.getByRole('button', { name: 'List the pins in view' }).click();
    await expect(page.locator('.pinmap-list-count')).toHaveText(/^Loading pins… \d0 %$/);
    // Each step it showed, until it goes: it rose.
    const seen = new Set<string>(first ? [first] : []);
    for (let texts = await progress.allTextContents(); texts.length > 0; texts = await progress.allTextContents()) {
      seen.add(texts[0]!);
      await page.waitForTimeout(100);
    }
    expect(seen.size, [...seen].join(', ')).toBeGreaterThan(1);
    await waitForMapState(page, 'idle');
    await expect(page.locator('.pinmap-list-count')).toHaveText(/pins in view$/);
  });

  test('embed: destroy() aborts the pin file and the style still on their way', async ({ mapPage: page }) => {
    // Served by the test and never answered (see "embed: ready settles …" for why not a server here).
    await page.route((url) => url.pathname === '/__test/slow-pins.geojson' || url.pathname === '/__test/slow-style.json', () => {});
    await openEmbedPage(page);
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(`${new URL(request.url()).pathname} ${request.failure()?.errorText}`));
    const pinsAsked = page.waitForRequest((request) => request.url().endsWith('/__test/slow-pins.geojson'));
    const styleAsked = page.waitForRequest((request) => request.url().endsWith('/__test/slow-style.json'));
    await page.evaluate(() => {
      const w = window as unknown as EmbedWindow;
      w.handle = w.Pinmap.createPinmap('map', { style: '/__test/slow-style.json', pins: '/__test/slow-pins.geojson' });
    });
    await Promise.all([pinsAsked, styleAsked]);
    await page.evaluate(() => (window as unknown as EmbedWindow).handle!.destroy());
    await expect.poll(() => failed.sort()).toEqual(['/__test/slow-pins.geojson net::ERR_ABORTED', '/__test/slow-style.json net::ERR_ABORTED']);
  });
});
