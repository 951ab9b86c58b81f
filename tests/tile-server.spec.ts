import { expect, test, type Page } from './test.ts';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { CSP_DIRECTIVES, serializeCsp } from '../src/config/csp.ts';
import { compareImages } from '../visual/compare.ts';
import { watchCsp } from './csp-violations.ts';
import { waitForMapState, watchConsole } from './helpers.ts';

// The embedded basemap, from a tile server and from its archive, is the subject here.
test.use({ basemap: 'embedded' });

/**
 * README, "Hosting", "With a tile server": the embedded basemap's archive served by a real tile
 * server (tileserver-gl-light, installed from the registry into examples/tile-server on first
 * use: it builds SQLite from source, about two minutes), and a site page whose style reads the
 * basemap from the server's TileJSON, with the app's Content Security Policy adapted as the README
 * says (the server's origin added to `connect-src`). The map must draw the same pixels as the same
 * page on the archive itself, with every tile from the server and no policy violation.
 */

const ROOT = process.cwd();
const EXAMPLE = path.join(ROOT, 'examples/tile-server');
const BIN = path.join(EXAMPLE, 'node_modules/.bin/tileserver-gl');
const run = promisify(execFile);

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let tileServer: ChildProcess | undefined;
let tileOrigin = '';
let serverLog = '';

test.describe.configure({ mode: 'serial', timeout: 60_000 });

test.beforeAll(async () => {
  test.setTimeout(10 * 60_000);
  if (!existsSync(BIN)) {
    try {
      await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: EXAMPLE, maxBuffer: 64 * 1024 * 1024 });
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      throw new Error(`could not install the tile server example (npm ci in examples/tile-server):\n${stdout}\n${stderr}`);
    }
  }
  const port = await freePort();
  tileOrigin = `http://127.0.0.1:${port}`;
  tileServer = spawn(BIN, ['--config', 'config.json', '--port', String(port)], { cwd: EXAMPLE, stdio: ['ignore', 'pipe', 'pipe'] });
  tileServer.on('error', (error) => (serverLog += `could not start ${BIN}: ${error.message}\n`));
  tileServer.stdout?.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
  tileServer.stderr?.on('data', (chunk: Buffer) => (serverLog += chunk.toString()));
  await expect
    .poll(
      async () => {
        if (tileServer?.exitCode !== null || serverLog.startsWith('could not start')) throw new Error(`the tile server stopped:\n${serverLog}`);
        return fetch(`${tileOrigin}/data/basemap.json`).then((response) => response.status, () => 0);
      },
      { timeout: 60_000, message: 'the tile server never answered' },
    )
    .toBe(200);
});

test.afterAll(() => {
  tileServer?.kill();
});

/**
 * The embedded basemap's style with its sources (the basemap, and the places past its zooms, both
 * from the one archive) taken from `source`; served beside the original, so its fonts resolve alike.
 */
function styleWith(source: Record<string, unknown>): Record<string, unknown> {
  const style = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/basemap/style.json'), 'utf8')) as { sources: Record<string, Record<string, unknown>> };
  const sources = Object.fromEntries(
    Object.entries(style.sources).map(([name, { tiles: _tiles, minzoom: _min, maxzoom: _max, ...rest }]) => [name, { ...rest, ...source }]),
  );
  return { ...style, sources };
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.woff2': 'font/woff2', '.woff': 'font/woff' };

/**
 * A site: a server of its own (a page fulfilled by the test would have no address, and Chromium
 * lets only a page on this machine reach a server on it) with the built library and basemap from
 * dist/, and the site's page, script, style sheet and map style, every response with `policy`.
 */
function serveSite(policy: string, config: unknown, style: unknown): Promise<{ server: Server; origin: string }> {
  const own: Record<string, string> = {
    '/site.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>site</title><link rel="stylesheet" href="/lib/pinmap.css"><link rel="stylesheet" href="/site.css"></head>
<body><div id="map"></div><script type="module" src="/site.js"></script></body></html>`,
    '/site.css': 'body { margin: 0 } #map { width: 800px; height: 500px }',
    '/site.js': `import { createPinmap } from '/lib/pinmap-embed.js';\ncreatePinmap('map', ${JSON.stringify(config)});\n`,
    '/basemap/style-site.json': JSON.stringify(style),
  };
  const dist = path.join(ROOT, 'dist');
  const server = createHttpServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const headers = { 'content-security-policy': policy, 'content-type': TYPES[path.extname(pathname)] ?? 'application/octet-stream' };
    if (pathname === '/favicon.ico') return void response.writeHead(204, headers).end();
    const body = own[pathname];
    if (body !== undefined) return void response.writeHead(200, headers).end(body);
    const file = path.join(dist, pathname);
    if (!file.startsWith(dist) || !existsSync(file) || !statSync(file).isFile()) return void response.writeHead(404, headers).end();
    response.writeHead(200, headers);
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

/** The map of the site's page: no controls but the attribution. */
const SITE_CONFIG = { style: '/basemap/style-site.json', center: [10, 48], zoom: 3.5, controls: { navigation: false, geolocate: false, scale: false, fullscreen: false } };

/**
 * Opens the site's page with the map on `style`, served with the app's policy plus `connectSrc`
 * (what the README tells site owners); resolves, with the site's server, once the map is idle.
 */
async function openSitePage(page: Page, style: unknown, connectSrc: string[]): Promise<Server> {
  const policy = serializeCsp({ ...CSP_DIRECTIVES, 'connect-src': [...CSP_DIRECTIVES['connect-src']!, ...connectSrc] });
  const { server, origin } = await serveSite(policy, SITE_CONFIG, style);
  await page.goto(`${origin}/site.html`);
  await waitForMapState(page, 'idle', 45_000);
  return server;
}

test('the basemap from a tile server (tileserver-gl-light) draws what the archive draws, every tile from the server, under the adapted policy', async ({ page, browser }) => {
  const consoleLog = watchConsole(page);
  const csp = await watchCsp(page);
  const fromServer: { url: string; status: number }[] = [];
  const fromArchive: string[] = [];
  page.on('response', (response) => {
    const url = response.url();
    if (url.startsWith(`${tileOrigin}/data/basemap/`)) fromServer.push({ url, status: response.status() });
    if (url.includes('basemap.pmtiles')) fromArchive.push(url);
  });
  const site = await openSitePage(page, styleWith({ url: `${tileOrigin}/data/basemap.json` }), [tileOrigin]);
  const other = await browser.newPage({ viewport: page.viewportSize() ?? { width: 1280, height: 720 } });
  try {
    expect(fromServer.length, 'tiles fetched from the tile server').toBeGreaterThan(0);
    expect(fromServer.filter((tile) => tile.status !== 200), 'tiles the server did not give').toEqual([]);
    expect(fromArchive, 'requests to the archive itself').toEqual([]);
    // The credit comes from the server's TileJSON (the archive's metadata, passed on).
    await expect(page.locator('[data-corner="bottom-right"]')).toContainText('Natural Earth');
    expect(csp.violations, 'policy violations').toEqual([]);
    expect(consoleLog.errors, 'console errors').toEqual([]);
    const served = await page.locator('.pinmap').screenshot();

    // The same page on the archive itself.
    const archiveSite = await openSitePage(other, styleWith({ url: 'pmtiles://basemap.pmtiles' }), []);
    archiveSite.close();
    const archived = await other.locator('.pinmap').screenshot();
    const comparison = compareImages(archived, served, { threshold: 0, maxDiffPixels: 0, maxDiffRatio: 0 });
    console.log(`tile server: ${fromServer.length} tiles from ${tileOrigin}, ${comparison.diffPixels} pixels differ from the archive's map`);
    expect(comparison.diffPixels, 'pixels that differ between the tile server and the archive').toBe(0);
  } finally {
    await other.close();
    site.close();
  }
});

test('without the server\'s origin in connect-src the policy refuses its TileJSON; a warning names it and the map still answers', async ({ mapPage: page }) => {
  const consoleLog = watchConsole(page);
  const csp = await watchCsp(page);
  const policy = serializeCsp(CSP_DIRECTIVES);
  expect(policy).not.toContain(tileOrigin);
  const { server, origin } = await serveSite(policy, { style: '/basemap/style-site.json' }, styleWith({ url: `${tileOrigin}/data/basemap.json` }));
  try {
    await page.goto(`${origin}/site.html`);
    await expect.poll(() => csp.violations.some((violation) => violation.blocked.startsWith(tileOrigin)), { message: 'the policy refused the tile server' }).toBe(true);
    await expect.poll(() => consoleLog.warnings.some((line) => line.includes(`${tileOrigin}/data/basemap.json`)), { message: 'a warning names the TileJSON' }).toBe(true);
    await expect(page.getByRole('button', { name: 'Zoom in' })).toBeVisible();
  } finally {
    server.close();
  }
});
