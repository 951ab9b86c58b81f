import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test as base } from './test.ts';
import { generate } from 'selfsigned';

/**
 * Real HTTPS servers on this machine standing in for a maps provider and for an attacker:
 * `https://127.0.0.2:<port>` (the provider) and `https://127.0.0.3:<port>` (the attacker), two
 * origins the browser keeps apart, over TLS with a self-signed certificate made here (the
 * browser is told to accept it: `ignoreHTTPSErrors`). Unlike Playwright's request routing, these
 * are reached by the browser's own network stack, so redirects, compression, stalls and the
 * headers that follow a request are the browser's real behaviour. Every request is logged with
 * its headers; a test answers the paths it cares about, and everything else is a 404. Every
 * answer may be read from any origin (CORS), as a provider's are.
 */

/** One request a server saw. */
export interface SeenRequest {
  /** `provider` or `attacker`. */
  server: ServerName;
  method: string;
  /** Path and query, as sent. */
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string | string[] | undefined>;
}

export type ServerName = 'provider' | 'attacker';

/** Answers a request, or returns false to leave it to the next handler (and in the end, a 404). */
export type Handler = (request: IncomingMessage, response: ServerResponse, url: URL) => boolean | void | Promise<boolean | void>;

export interface HostileServers {
  /** `https://127.0.0.2:<port>`. */
  provider: string;
  /** `https://127.0.0.3:<port>`. */
  attacker: string;
  /** Every request either server saw (preflights included), in order. */
  requests: SeenRequest[];
  /** Answers requests to `server` for which `handler` does not return false. */
  on(server: ServerName, handler: Handler): void;
}

/** The headers every answer carries: readable from any origin, preflights allowed for any header. */
export const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-expose-headers': '*',
} as const;

let certificate: Promise<{ key: string; cert: string }> | undefined;

/** One self-signed certificate per test worker, for both addresses. */
function certificateOnce(): Promise<{ key: string; cert: string }> {
  certificate ??= generate([{ name: 'commonName', value: 'pinmap-test' }], {
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.2' }, { type: 7, ip: '127.0.0.3' }, { type: 2, value: 'localhost' }] }],
  }).then((made) => ({ key: made.private, cert: made.cert }));
  return certificate;
}

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  return (server.address() as AddressInfo).port;
}

/** Starts both servers; `close` stops them (and drops the connections still open: stalled answers). */
export async function startHostileServers(): Promise<HostileServers & { close(): Promise<void> }> {
  const tls = await certificateOnce();
  const requests: SeenRequest[] = [];
  const handlers: Record<ServerName, Handler[]> = { provider: [], attacker: [] };
  const make = (name: ServerName) =>
    createServer(tls, async (request, response) => {
      requests.push({ server: name, method: request.method ?? 'GET', path: request.url ?? '/', headers: { ...request.headers } });
      if (request.method === 'OPTIONS') {
        response.writeHead(204, { ...CORS, 'access-control-max-age': '0' });
        return response.end();
      }
      const url = new URL(request.url ?? '/', `https://${request.headers.host}`);
      for (const handler of handlers[name]) {
        if ((await handler(request, response, url)) !== false) return;
      }
      response.writeHead(404, { ...CORS, 'content-type': 'text/plain' });
      response.end('not found');
    });
  const servers = [make('provider'), make('attacker')];
  const [providerPort, attackerPort] = [await listen(servers[0]!, '127.0.0.2'), await listen(servers[1]!, '127.0.0.3')];
  return {
    provider: `https://127.0.0.2:${providerPort}`,
    attacker: `https://127.0.0.3:${attackerPort}`,
    requests,
    on: (server, handler) => void handlers[server].push(handler),
    close: async () => {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

/** Playwright's `test` with `servers` (both started for the test, stopped after it) and TLS errors ignored. */
export const test = base.extend<{ servers: HostileServers }>({
  ignoreHTTPSErrors: true,
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none
  servers: async ({}, use) => {
    const servers = await startHostileServers();
    await use(servers);
    await servers.close();
  },
});

/** Sends `body` as JSON with CORS headers. */
export function sendJson(response: ServerResponse, body: unknown, status = 200): void {
  response.writeHead(status, { ...CORS, 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Serves `bytes` with range requests, as a static host serves a PMTiles archive. */
export function sendRange(request: IncomingMessage, response: ServerResponse, bytes: Uint8Array): void {
  const range = /bytes=(\d+)-(\d+)/.exec(String(request.headers.range ?? ''));
  if (!range) {
    response.writeHead(200, { ...CORS, 'content-type': 'application/octet-stream', 'content-length': bytes.length });
    return void response.end(bytes);
  }
  const start = Number(range[1]);
  const end = Math.min(Number(range[2]), bytes.length - 1);
  response.writeHead(206, { ...CORS, 'content-type': 'application/octet-stream', 'content-range': `bytes ${start}-${end}/${bytes.length}`, 'accept-ranges': 'bytes' });
  response.end(bytes.subarray(start, end + 1));
}
