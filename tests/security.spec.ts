import { readFileSync } from 'node:fs';
import { createGzip, gzipSync } from 'node:zlib';
import { expect, type Page } from '@playwright/test';
import { BASEMAP_ARCHIVE, basemapTile } from './basemap-tiles.ts';
import { CORS, sendJson, sendRange, test, type HostileServers } from './hostile-servers.ts';
import { openEmbedPage, serveJson, waitForMapState, watchConsole, type EmbedWindow } from './helpers.ts';

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
  for (const carrier of CARRIERS) {
    test(`token as ${carrier.name}: provider tiles that redirect to another origin reach it without the token`, async ({ page, servers }) => {
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
      const leaked = servers.requests.filter((r) => r.server === 'attacker' && holdsToken(r));
      expect(leaked.map((r) => `${r.method} ${r.path}`), 'requests to the other origin that carry the token').toEqual([]);
    });
  }

  test('token as a custom header: a basemap archive on the provider whose range reads redirect to another origin reaches it without the token', async ({ page, servers }) => {
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
    const leaked = servers.requests.filter((r) => r.server === 'attacker' && holdsToken(r));
    expect(leaked.map((r) => `${r.method} ${r.path} ${String(r.headers.range)}`), 'requests to the other origin that carry the token').toEqual([]);
  });
});

test.describe('finding 3: the token in every spelling is blanked', () => {
  for (const token of ["tok~en!x'y(z)", 'tok en*1']) {
    test(`a style that fails shows its URL with the token ${JSON.stringify(token)} blanked, in the panel and the console`, async ({ page, servers }) => {
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
  test('as pre-tiled pins: the notice says the archive is damaged, not a network fault', async ({ page, servers }) => {
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

  test('as the basemap: a notice names the archive and says it is damaged', async ({ page, servers }) => {
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

