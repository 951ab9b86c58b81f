import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzParameters, fuzzTimeout } from '../testing/fuzz.testing.ts';
import { fetchBytes, RequestError, type RequestFailure } from './request-path.ts';

/**
 * Fuzz: random server behaviour against the request path, with real HTTP servers on this
 * machine: any status, redirects (to the same origin, to another origin, in a loop), bodies cut
 * short, answers that never start or stall half-way, and gzip that inflates past the limit.
 * Every request ends within its timeouts with the bytes or a `RequestError` naming why; a token
 * sent as a header never reaches the other origin.
 */

/** What the server does with one request. */
type Behaviour =
  | { kind: 'status'; status: number }
  | { kind: 'redirect'; status: 301 | 302 | 303 | 307 | 308; to: 'same' | 'other' | 'loop' }
  | { kind: 'truncate'; announced: number; sent: number }
  | { kind: 'stall'; after: number }
  | { kind: 'bomb'; size: number }
  | { kind: 'ok'; size: number };

const behaviour: fc.Arbitrary<Behaviour> = fc.oneof(
  fc.record({ kind: fc.constant('status' as const), status: fc.constantFrom(200, 204, 206, 304, 400, 401, 403, 404, 410, 416, 429, 500, 502, 503) }),
  fc.record({ kind: fc.constant('redirect' as const), status: fc.constantFrom(301, 302, 303, 307, 308), to: fc.constantFrom('same' as const, 'other' as const, 'loop' as const) }),
  fc.record({ kind: fc.constant('truncate' as const), announced: fc.integer({ min: 100, max: 5000 }), sent: fc.integer({ min: 0, max: 99 }) }),
  fc.record({ kind: fc.constant('stall' as const), after: fc.integer({ min: 0, max: 2000 }) }),
  fc.record({ kind: fc.constant('bomb' as const), size: fc.integer({ min: 20_001, max: 2_000_000 }) }),
  fc.record({ kind: fc.constant('ok' as const), size: fc.integer({ min: 0, max: 20_000 }) }),
);

const LIMIT = 20_000;
const TIMEOUT = 250;
const FAILURES: RequestFailure[] = ['http', 'network', 'redirect', 'timeout', 'stalled', 'too-large'];

let provider: Server;
let other: Server;
let providerUrl = '';
let otherUrl = '';
/** The behaviour of the next request, by path. */
const behaviours = new Map<string, Behaviour>();
/** Headers the other origin saw. */
const seenElsewhere: Record<string, unknown>[] = [];

function answer(request: IncomingMessage, response: ServerResponse): void {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  const does = behaviours.get(path) ?? { kind: 'ok', size: 10 };
  switch (does.kind) {
    case 'status':
      response.writeHead(does.status, { 'content-type': 'application/octet-stream' });
      return void response.end(does.status === 204 || does.status === 304 ? undefined : 'x'.repeat(50));
    case 'redirect': {
      const to = does.to === 'other' ? `${otherUrl}${path}` : does.to === 'same' ? `${providerUrl}/ok${path}` : `${providerUrl}${path}`;
      response.writeHead(does.status, { location: to });
      return void response.end();
    }
    case 'truncate':
      response.writeHead(200, { 'content-length': does.announced });
      response.write('y'.repeat(does.sent));
      return void response.destroy();
    case 'stall':
      response.writeHead(200, { 'content-length': does.after + 10 });
      return void response.write('z'.repeat(does.after)); // and nothing more
    case 'bomb':
      response.writeHead(200, { 'content-encoding': 'gzip' });
      return void response.end(gzipSync(Buffer.alloc(does.size, 0x20)));
    case 'ok':
      response.writeHead(200, { 'content-length': does.size });
      return void response.end(Buffer.alloc(does.size, 0x61));
  }
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  provider = createServer((request, response) => {
    if (request.url?.startsWith('/ok/')) {
      response.writeHead(200, { 'content-length': 3 });
      return void response.end('abc');
    }
    answer(request, response);
  });
  other = createServer((request, response) => {
    seenElsewhere.push({ ...request.headers });
    response.writeHead(200, { 'content-length': 5 });
    response.end('other');
  });
  providerUrl = await listen(provider);
  otherUrl = await listen(other);
});

afterAll(async () => {
  for (const server of [provider, other]) server.closeAllConnections();
  await Promise.all([provider, other].map((server) => new Promise((resolve) => server.close(resolve))));
});

let run = 0;

describe('fuzz: random server behaviour', () => {
  it('ends every request within its timeouts, with the bytes or a named RequestError; a header token never reaches another origin', async () => {
    await fc.assert(
      fc.asyncProperty(behaviour, fc.boolean(), async (does, withToken) => {
        const path = `/file-${++run}`;
        behaviours.set(path, does);
        const started = performance.now();
        const headers = withToken ? { 'X-Token': 'fuzz-secret' } : undefined;
        try {
          const { bytes } = await fetchBytes(`${providerUrl}${path}`, { headers, timeout: TIMEOUT, maxBytes: LIMIT });
          expect(bytes.length).toBeLessThanOrEqual(LIMIT);
        } catch (error) {
          expect(error, String(error)).toBeInstanceOf(RequestError);
          expect(FAILURES).toContain((error as RequestError).failure);
          expect(`${(error as Error).message}${(error as RequestError).status}`.length).toBeGreaterThan(3);
        }
        expect(performance.now() - started, 'the request ended in time').toBeLessThan(TIMEOUT * 8 + 1500);
        expect(seenElsewhere.filter((seen) => seen['x-token'] !== undefined)).toEqual([]);
      }),
      fuzzParameters(80),
    );
  }, fuzzTimeout(30000));
});
