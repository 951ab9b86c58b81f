import { gzipSync } from 'node:zlib';
import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { expect } from './test.ts';
import { basemapTile } from './basemap-tiles.ts';
import { CORS, sendJson, test, type HostileServers } from './hostile-servers.ts';
import { serveJson, waitForMapState } from './helpers.ts';

/**
 * Fuzz in the browser: the app against a provider whose pin file and tiles misbehave at random
 * (any status, redirects to another origin, bodies cut short, answers that stall, gzip that
 * inflates past the limit, text that is not JSON or not pins). Whatever comes, the page throws
 * nothing uncaught, every failure it shows names what failed, and the map still answers its
 * controls. A few seeded cases in `npm test`; `PINMAP_FUZZ_SEED` and `PINMAP_FUZZ_SCALE` (as for
 * `npm run fuzz`) choose others and more.
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
    test(`case ${index + 1}: pins ${JSON.stringify(fuzzCase.pins).slice(0, 60)}, tiles ${JSON.stringify(fuzzCase.tiles).slice(0, 60)}, ${fuzzCase.view} view`, async ({ page, servers }) => {
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
      // Whatever failed is named: every notice says what it is about.
      for (const text of await page.locator('.pinmap-notice-text').allInnerTexts()) expect(text).toMatch(/pins|tiles|archive|map|style/i);
      if (fuzzCase.pins.kind !== 'good') await expect(page.getByRole('alert').first()).toContainText(new RegExp(`Could not (load|show) the pins from ${servers.provider}/pins.geojson`));
      // The map still answers its controls.
      await page.getByRole('button', { name: 'Zoom in', exact: true }).click();
      await waitForMapState(page, 'idle', 45_000);
      expect(thrown, 'uncaught errors').toEqual([]);
      expect(servers.requests.filter((r) => r.server === 'attacker' && r.headers['x-token'] !== undefined), 'the token at the other origin').toEqual([]);
    });
  });
});
