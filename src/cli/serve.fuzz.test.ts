import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzParameters, fuzzTimeout, reportFuzz } from '../testing/fuzz.testing.ts';
import { rawRequest } from './raw-request.testing.ts';
import { serve, type Serving } from './serve.ts';
import { writeStyleFolder, type StyleFolder } from './style-folder.testing.ts';

/**
 * Fuzz: random requests against a real `pinmap serve` with a style file in a home folder: paths
 * in traversal spellings (`..`, `%2e%2e`, `%252e`, `%2f`, backslashes, `//`, NUL) over the names of
 * what must never come back (a key beside the style, dotfiles, a folder the style does not name,
 * symlinks out of the folder or to a dotfile), any Host header and any method. Whatever comes
 * back is one of the files it serves; a secret never does; another Host is a 421, another method
 * a 405, each answer with nosniff.
 */

const folder = mkdtempSync(join(tmpdir(), 'pinmap-serve-fuzz-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let serving: Serving;
let home: StyleFolder;
let port = 0;
/** Every body that may come back to a request with the server's own name. */
const servable = new Set<string>();

beforeAll(async () => {
  const appDir = join(folder, 'app');
  mkdirSync(join(appDir, 'basemap'), { recursive: true });
  writeFileSync(join(appDir, 'index.html'), '<!doctype html><title>Pinmap</title>');
  writeFileSync(join(appDir, 'basemap', 'style.json'), '{"version":8}');
  home = writeStyleFolder(join(folder, 'secure'));
  const csv = join(folder, 'places.csv');
  writeFileSync(csv, 'title,lat,lng\nA,1,2\n');
  const config = join(folder, 'config.json');
  writeFileSync(config, JSON.stringify({ accessToken: 'TOKEN-SECRET' }));
  serving = await serve({ files: [csv], style: home.style, config, port: 0, host: '127.0.0.1', appDir });
  port = Number(new URL(serving.url).port);
  for (const text of [...Object.values(home.referred), '<!doctype html><title>Pinmap</title>', '{"version":8}', 'title,lat,lng\nA,1,2\n', '']) servable.add(text);
  servable.add(await (await fetch(new URL('/pinmap-serve.json', serving.url))).text());
});
afterAll(() => serving.close());

const SEGMENTS = [
  '..', '%2e%2e', '%2E%2e', '.%2e', '%2e.', '%252e%252e', '..%2f', '..%5c', '..\\', '%2f', '%5c', '', '.', '%00', '%c0%ae%c0%ae',
  'style', 'data', 'home', 'outside', 'secure', 'passwd', 'id_ed25519', '.env', '%2eenv', '.ssh', 'config', 'documents', 'notes.txt',
  'tiles', '0', '1', '5.pbf', '0.pbf', '.hidden.pbf', 'sprites', 'sprite@2x.png', 'sprite.png', 'fonts', 'Noto%20Sans%20Regular', '256-511.pbf', '0-255.pbf', '.cache',
  'tilejson', 't', 'tiles.json', 'style.json', 'places.csv', 'pinmap-serve.json', 'index.html', 'basemap',
];
const PREFIXES = ['/', '/style/', '/data/', '/style/tiles/', '/style/fonts/', '//', '/style/..', '/basemap/'];
const path = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...PREFIXES), fc.array(fc.constantFrom(...SEGMENTS), { minLength: 0, maxLength: 7 }), fc.constantFrom('/', '%2f', '%2F', '\\')).map(([prefix, segments, joiner]) => prefix + segments.join(joiner)) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...'./%2e5cf\\0aA'.split('')), maxLength: 30 }).map((s) => `/style/${s}`) },
);
const OWN = ['127.0.0.1', 'localhost', '[::1]', 'LocalHost'];
const host = fc.oneof(
  fc.constantFrom(...OWN).chain((name) => fc.constantFrom(name, `${name}:PORT`)),
  fc.constantFrom('evil.test', 'evil.test:PORT', '127.0.0.1.nip.io:PORT', 'localhost.evil.test', '127.0.0.1:PORT.evil.test', '', '0.0.0.0:PORT', '[::ffff:7f00:1]:PORT'),
);
const method = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'PROPFIND');

describe('pinmap serve (fuzz)', () => {
  it('returns nothing but what it serves, to its own names, for GET and HEAD', async () => {
    const secrets = Object.values(home.secrets);
    const started = performance.now();
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(path, host, method, async (path, rawHost, method) => {
        cases++;
        const hostHeader = rawHost.replace('PORT', String(port));
        const answer = await rawRequest(port, path, { host: hostHeader, method });
        expect(answer.headers['x-content-type-options']).toBe('nosniff');
        for (const secret of secrets) expect(answer.body).not.toContain(secret);
        const own = OWN.some((name) => hostHeader.toLowerCase() === name.toLowerCase() || hostHeader.toLowerCase() === `${name.toLowerCase()}:${port}`);
        if (!own) {
          expect(answer.status).toBe(421);
          expect(answer.body).not.toContain('TOKEN-SECRET');
          return;
        }
        if (method !== 'GET' && method !== 'HEAD') {
          expect(answer.status).toBe(405);
          expect(answer.headers.allow).toBe('GET, HEAD');
          return;
        }
        if (answer.status === 200) expect(servable.has(answer.body), `${method} ${path}`).toBe(true);
        else expect(answer.status === 302 || answer.status >= 400, `${method} ${path}: HTTP ${answer.status}`).toBe(true);
      }),
      {
        ...fuzzParameters<[string, string, string]>(300),
        // The probes the random ones grow from: each secret asked for straight, and through `..`.
        examples: [
          ['/style/id_ed25519', '127.0.0.1', 'GET'],
          ['/style/tiles/1/0/0.pbf', 'localhost:PORT', 'GET'],
          ['/style/tiles/0/0/5.pbf', '127.0.0.1', 'GET'],
          ['/style/fonts/.cache/0-255.pbf', '127.0.0.1', 'GET'],
          ['/style/%2e%2e/outside/passwd', '127.0.0.1', 'GET'],
          ['/style/sprites/sprite.png', 'evil.test', 'GET'],
          ['/pinmap-serve.json', 'evil.test:PORT', 'GET'],
          ['/pinmap-serve.json', '127.0.0.1', 'POST'],
          // A folder, named straight or through `..`: no file, so a 404 (not a redirect to it).
          ['/basemap', '127.0.0.1', 'GET'],
          ['/5.pbf%2f..', '127.0.0.1', 'GET'],
        ],
      },
    );
    reportFuzz({ suite: 'pinmap serve, random paths, hosts and methods', cases, seconds: (performance.now() - started) / 1000 });
  }, fuzzTimeout(60_000));
});
