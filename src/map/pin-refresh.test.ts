import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PinLoadError, refreshPinSet } from './pin-source.ts';

/** A pin file on a local server that honours If-None-Match, as a static host does; the test edits it. */
let server: Server;
let base: string;
const file = { body: '', etag: '', status: 200 };
const requests: IncomingMessage[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request);
    if (file.status !== 200) return response.writeHead(file.status).end();
    if (request.headers['if-none-match'] === file.etag) return response.writeHead(304, { ETag: file.etag }).end();
    response.writeHead(200, { 'Content-Type': 'text/csv', ETag: file.etag }).end(file.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
});
afterAll(() => server.close());

const edit = (body: string, etag: string) => Object.assign(file, { body, etag, status: 200 });

describe('refreshPinSet (pinsRefresh)', () => {
  it('sends the last ETag, takes a 304 as no change, and reads a changed file with its new ETag', async () => {
    edit('id,title,lat,lng\nbus-1,Line 1,50,1\nbus-2,Line 2,51,2\n', '"v1"');
    const first = await refreshPinSet('buses.csv', undefined, {}, base, undefined);
    expect(requests.at(-1)!.headers['if-none-match']).toBeUndefined();
    expect(first?.etag).toBe('"v1"');
    expect(first?.set.pins.map((pin) => [pin.id, pin.lngLat])).toEqual([['bus-1', [1, 50]], ['bus-2', [2, 51]]]);

    expect(await refreshPinSet('buses.csv', first!.etag, {}, base, undefined)).toBeUndefined();
    expect(requests.at(-1)!.headers['if-none-match']).toBe('"v1"');

    edit('id,title,lat,lng\nbus-1,Line 1,50.5,1\n', '"v2"');
    const second = await refreshPinSet('buses.csv', first!.etag, {}, base, undefined);
    expect(second?.etag).toBe('"v2"');
    expect(second?.set.pins.map((pin) => [pin.id, pin.lngLat])).toEqual([['bus-1', [1, 50.5]]]);
  });

  it('rejects with a PinLoadError naming the URL and the cause', async () => {
    file.status = 500;
    const failed = refreshPinSet('buses.csv', '"v2"', {}, base, undefined);
    await expect(failed).rejects.toThrow(PinLoadError);
    await expect(failed).rejects.toThrow(`Could not load the pins from ${base}buses.csv: HTTP 500`);
    await expect(refreshPinSet('buses.csv', undefined, {}, 'http://127.0.0.1:9/', undefined)).rejects.toThrow(/^Could not load the pins from http:\/\/127\.0\.0\.1:9\/buses\.csv: /);
  });
});
