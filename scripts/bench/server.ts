import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

/**
 * A minimal static server for the pin benchmark: folders mounted at URL prefixes (answering
 * byte ranges, as the basemap archive is read), plus files held in memory (the generated pins
 * and configs). Listens on 127.0.0.1 at `port` (0: any free
 * port), so it never competes with the test suites' fixed ports.
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.geojson': 'application/geo+json',
  '.map': 'application/json',
  '.pbf': 'application/x-protobuf',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ico': 'image/x-icon',
};

export interface StaticServer {
  origin: string;
  /** Serves `body` at `path` (starting with '/') from memory, `delayMs` after each request. */
  put(path: string, body: string | Buffer, options?: { type?: string; delayMs?: number }): void;
  close(): Promise<void>;
}

/**
 * `mounts`: URL prefix ('/' or '/x/') → folder. The longest matching prefix wins. `onRequest`
 * hears the path of every request (for counting).
 */
export async function startStaticServer(mounts: Record<string, string>, port = 0, onRequest?: (path: string) => void): Promise<StaticServer> {
  const memory = new Map<string, { body: Buffer; type: string; delayMs: number }>();
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);

  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    onRequest?.(path);
    const held = memory.get(path);
    if (held) {
      setTimeout(() => {
        response.writeHead(200, { 'content-type': held.type, 'content-length': held.body.length, 'cache-control': 'no-store' });
        response.end(held.body);
      }, held.delayMs);
      return;
    }
    const prefix = prefixes.find((p) => path.startsWith(p));
    if (prefix === undefined) return notFound(response);
    const root = mounts[prefix]!;
    let file = normalize(join(root, path.slice(prefix.length)));
    if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) return notFound(response);
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const size = statSync(file).size;
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      // A byte range (PMTiles archives are read with range requests), as any static host answers it.
      const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '');
      if (range) {
        const start = Number(range[1]);
        const end = Math.min(range[2] ? Number(range[2]) : size - 1, size - 1);
        if (start > end) {
          response.writeHead(416, { 'content-range': `bytes */${size}` });
          response.end();
          return;
        }
        response.writeHead(206, { 'content-type': type, 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${size}`, 'accept-ranges': 'bytes', 'cache-control': 'no-store' });
        createReadStream(file, { start, end }).pipe(response);
        return;
      }
      response.writeHead(200, { 'content-type': type, 'content-length': size, 'accept-ranges': 'bytes', 'cache-control': 'no-store' });
      createReadStream(file).pipe(response);
    } catch {
      notFound(response);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: actual } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${actual}`,
    put(path, body, { type = TYPES[extname(path)] ?? 'application/octet-stream', delayMs = 0 } = {}) {
      memory.set(path, { body: typeof body === 'string' ? Buffer.from(body) : body, type, delayMs });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function notFound(response: import('node:http').ServerResponse): void {
  response.writeHead(404, { 'content-type': 'text/plain' });
  response.end('not found');
}
