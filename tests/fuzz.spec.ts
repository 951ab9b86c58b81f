import { gzipSync } from 'node:zlib';
import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { expect } from './test.ts';
import { basemapTile } from './basemap-tiles.ts';
import { CORS, sendJson, test, type HostileServers } from './hostile-servers.ts';
import { PLAIN_STYLE, serveJson, waitForMapState } from './helpers.ts';

/**
 * Fuzz in the browser: the app against a provider whose pin file and tiles misbehave at random
 * (any status, redirects to another origin, bodies cut short, answers that stall, gzip that
 * inflates past the limit, text that is not JSON or not pins). Whatever comes, the page throws
 * nothing uncaught, every failure it shows names what failed, and the map still answers its
 * controls. A few seeded cases in `npm test`; `PINMAP_FUZZ_SEED` and `PINMAP_FUZZ_SCALE` (as for
 * `npm run fuzz`) choose others and more. Beside them, fixed cases that every run meets whatever
 * the seed draws (a redirect to the other origin, a gzip bomb, an HTML page, good pins), each
 * with the exact notice it must show.
 */

type Answer =
  | { kind: 'status'; status: number }
  | { kind: 'redirect' }
  | { kind: 'truncate' }
  | { kind: 'stall' }
  | { kind: 'bomb' }
  | { kind: 'text'; body: string }
  | { kind: 'good' };

const answer: fc.Arbitrary<Answer> = fc.oneof(
  fc.record({ kind: fc.constant('status' as const), status: fc.constantFrom(204, 301, 401, 404, 416, 500, 503) }),
  fc.constant({ kind: 'redirect' as const }),
  fc.constant({ kind: 'truncate' as const }),
  fc.constant({ kind: 'stall' as const }),
  fc.constant({ kind: 'bomb' as const }),
  fc.record({ kind: fc.constant('text' as const), body: fc.oneof(fc.json({ maxDepth: 3 }), fc.string({ maxLength: 40 })) }),
  fc.constant({ kind: 'good' as const }),
);
const scenario = fc.record({ pins: answer, tiles: answer, view: fc.constantFrom('vector' as const, 'hybrid' as const) });

const seed = Number(process.env.PINMAP_FUZZ_SEED ?? 35);
const cases = fc.sample(scenario, { seed, numRuns: Math.round(4 * Number(process.env.PINMAP_FUZZ_SCALE ?? 1)) });

const PINS = { type: 'FeatureCollection', features: [{ type: 'Feature', id: 'a', geometry: { type: 'Point', coordinates: [10, 46] }, properties: { title: 'A' } }] };

/** Answers a request as `does` says; `good` is what the file should be. */
function misbehave(response: ServerResponse, does: Answer, good: () => Buffer | Promise<Buffer | undefined>, servers: HostileServers, path: string): void | Promise<void> {
  switch (does.kind) {
    case 'status':
      response.writeHead(does.status, { ...CORS, ...(does.status === 301 ? { location: `${servers.attacker}${path}` } : {}) });
      return void response.end(does.status === 204 ? undefined : 'no');
    case 'redirect':
      response.writeHead(302, { ...CORS, location: `${servers.attacker}${path}` });
      return void response.end();
    case 'truncate':
      response.writeHead(200, { ...CORS, 'content-length': 5000 });
      response.write('{"type":"Feat');
      return void response.destroy();
    case 'stall':
      response.writeHead(200, { ...CORS, 'content-length': 5000 });
      return void response.write('{');
    case 'bomb':
      response.writeHead(200, { ...CORS, 'content-encoding': 'gzip' });
      return void response.end(gzipSync(Buffer.alloc(5_000_000, 0x20)));
    case 'text':
      response.writeHead(200, { ...CORS, 'content-type': 'application/json' });
      return void response.end(does.body);
    case 'good':
      return Promise.resolve(good()).then((body) => {
        response.writeHead(body ? 200 : 404, CORS);
        response.end(body);
      });
  }
}

test.describe(`fuzz: misbehaving servers (seed ${seed})`, () => {
  cases.forEach((fuzzCase, index) => {
    test(`case ${index + 1}: pins ${JSON.stringify(fuzzCase.pins).slice(0, 60)}, tiles ${JSON.stringify(fuzzCase.tiles).slice(0, 60)}, ${fuzzCase.view} view`, async ({ mapPage: page, servers }) => {
      test.setTimeout(90_000);
      const thrown: string[] = [];
      page.on('pageerror', (error) => thrown.push(error.message));
      servers.on('provider', (_request, response, url) => {
        if (url.pathname === '/style.json') {
          return sendJson(response, {
            version: 8,
            sources: { basemap: { type: 'vector', tiles: [`${servers.provider}/tiles/{z}/{x}/{y}.pbf`], maxzoom: 6 } },
            layers: [
              { id: 'water', type: 'background', paint: { 'background-color': '#cfe3f0' } },
              { id: 'land', type: 'fill', source: 'basemap', 'source-layer': 'land', paint: { 'fill-color': '#f4f1e8' } },
            ],
          });
        }
        if (url.pathname === '/pins.geojson') return misbehave(response, fuzzCase.pins, () => Buffer.from(JSON.stringify(PINS)), servers, url.pathname);
        if (url.pathname.startsWith('/tiles/')) return misbehave(response, fuzzCase.tiles, () => basemapTile(url.pathname), servers, url.pathname);
        return false;
      });
      servers.on('attacker', (_request, response) => sendJson(response, PINS));
      await serveJson(page, '/__fuzz/config.json', {
        view: fuzzCase.view,
        style: `${servers.provider}/style.json`,
        accessToken: 'fuzz-token',
        accessTokenHeader: 'X-Token',
        pins: `${servers.provider}/pins.geojson`,
        pinsTimeout: 2000,
        maxPinBytes: 1_000_000,
        center: [10, 46],
        zoom: 3,
      });
      await page.goto('/?config=/__fuzz/config.json');
      await waitForMapState(page, 'idle', 45_000);
      // Whatever failed is named: the only notice is the pins' (tiles that fail are tried again, with
      // no notice), naming the file and why, and only when the pins failed.
      const pinsNotice = new RegExp(`^Could not (load|show) the pins from ${servers.provider.replace(/[.]/g, '\\.')}/pins\\.geojson: \\S.*$`);
      if (fuzzCase.pins.kind !== 'good') await expect(page.getByRole('alert').locator('.pinmap-notice-text')).toHaveText(pinsNotice);
      const notices = await page.locator('.pinmap-notice-text').allInnerTexts();
      expect(notices, 'the notices shown').toHaveLength(fuzzCase.pins.kind === 'good' ? 0 : 1);
      for (const text of notices) expect(text).toMatch(pinsNotice);
      // The map still answers its controls.
      await page.getByRole('button', { name: 'Zoom in', exact: true }).click();
      await waitForMapState(page, 'idle', 45_000);
      expect(thrown, 'uncaught errors').toEqual([]);
      expect(servers.requests.filter((r) => r.server === 'attacker' && r.headers['x-token'] !== undefined), 'the token at the other origin').toEqual([]);
    });
  });
});

test.describe('misbehaving servers: fixed cases', () => {
  test.use({ viewport: { width: 480, height: 360 } });

  test('a pin file on the provider that redirects to another origin, inflates past maxPinBytes, is an HTML page, or is good: each named exactly, the token never at the other origin', async ({ mapPage: page, servers }) => {
    const thrown: string[] = [];
    page.on('pageerror', (error) => thrown.push(error.message));
    const TOKEN = 'fixed-token';
    servers.on('provider', (_request, response, url) => {
      const does: Record<string, Answer> = {
        '/redirect.geojson': { kind: 'redirect' },
        '/bomb.geojson': { kind: 'bomb' },
        '/page.geojson': { kind: 'text', body: '<!doctype html><title>Provider</title><p>Sign in' },
        '/good.geojson': { kind: 'good' },
      };
      const answer = does[url.pathname];
      if (!answer) return false;
      return misbehave(response, answer, () => Buffer.from(JSON.stringify(PINS)), servers, url.pathname);
    });
    servers.on('attacker', (_request, response) => sendJson(response, PINS));
    const cases = [
      ['redirect', `the server answered with a redirect, which is not followed for a request that carries the access token in a header (it could take the token to another origin): serve the file without a redirect, or send the token as the access_token parameter`],
      ['bomb', 'the file is larger than 1 MB once decompressed (the maxPinBytes limit)'],
      ['page', 'the server answered an HTML page, not JSON: is the path right?'],
      ['good', undefined],
    ] as const;
    for (const [name, reason] of cases) {
      await test.step(name, async () => {
        await serveJson(page, `/__fuzz/${name}.json`, {
          style: PLAIN_STYLE,
          providerOrigin: servers.provider,
          accessToken: TOKEN,
          accessTokenHeader: 'X-Token',
          pins: `${servers.provider}/${name}.geojson`,
          pinsTimeout: 2000,
          maxPinBytes: 1_000_000,
          fadeDuration: 0,
          center: [10, 46],
          zoom: 3,
        });
        await page.goto(`/?config=/__fuzz/${name}.json`);
        await waitForMapState(page, 'idle');
        const asked = servers.requests.filter((r) => r.server === 'provider' && r.method === 'GET' && r.path === `/${name}.geojson`);
        expect(asked.map((r) => r.headers['x-token']), 'the token sent with the pins to the provider').toEqual([TOKEN]);
        if (reason) {
          await expect(page.locator('.pinmap-notice-text')).toHaveText([`Could not load the pins from ${servers.provider}/${name}.geojson: ${reason}`]);
        } else {
          await expect(page.locator('.pinmap-pin[data-pin-id="a"]')).toBeVisible();
          await expect(page.locator('.pinmap-notice-text')).toHaveCount(0);
        }
      });
    }
    // The redirect was sent, and not followed: the other origin was never asked, with the token or without.
    expect(servers.requests.filter((r) => r.server === 'attacker').map((r) => `${r.method} ${r.path} ${String(r.headers['x-token'])}`), 'requests that reached the other origin').toEqual([]);
    expect(thrown, 'uncaught errors').toEqual([]);
  });
});
