import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedClock } from '../testing/clock.testing.ts';
import { refreshPins } from './pin-refresh.ts';
import { PinLoadError, refreshPinSet } from './pin-source.ts';

/** A pin file on a local server that honours If-None-Match, as a static host does; the test edits it. */
let server: Server;
let base: string;
const file = { body: '', etag: '', status: 200, answer: (): void => {} };
const requests: IncomingMessage[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request);
    file.answer();
    if (file.status !== 200) return response.writeHead(file.status).end();
    if (request.headers['if-none-match'] === file.etag) return response.writeHead(304, { ETag: file.etag }).end();
    response.writeHead(200, { 'Content-Type': 'text/csv', ETag: file.etag }).end(file.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
});
afterAll(() => server.close());

const edit = (body: string, etag: string) => Object.assign(file, { body, etag, status: 200, answer: () => {} });

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

describe('refreshPins (pinsRefresh), on a simulated clock against a local server', () => {
  it('reads the file every pinsRefresh seconds, counted from the end of the last reading, with its last ETag, through failures', async () => {
    edit('id,title,lat,lng\nbus-1,Line 1,50,1\n', '"v1"');
    const clock = simulatedClock();
    const stop = new AbortController();
    const asked: { at: number; ifNoneMatch: string | undefined }[] = [];
    const found: string[] = [];
    let etag: string | undefined = '"v1"'; // as the first reading left it
    const readings = [
      () => {},
      // The server takes 5 s to answer: the next wait starts when the answer is in.
      () => (file.answer = () => ((clock.now += 5000), (file.answer = () => {}))),
      () => edit('id,title,lat,lng\nbus-1,Line 1,50.5,1\n', '"v2"'),
      () => (file.status = 500),
      () => (file.status = 200),
    ];
    const start = requests.length;
    await refreshPins({
      every: 30,
      signal: stop.signal,
      wait: clock.wait,
      read: async () => {
        readings[asked.length]!();
        asked.push({ at: clock.now, ifNoneMatch: undefined });
        try {
          const read = await refreshPinSet('buses.csv', etag, {}, base, stop.signal);
          asked.at(-1)!.ifNoneMatch = requests.at(-1)!.headers['if-none-match'];
          if (read) etag = read.etag;
          found.push(read ? read.set.pins.map((pin) => `${pin.id} ${pin.lngLat.join(' ')}`).join() : '304');
        } catch (error) {
          asked.at(-1)!.ifNoneMatch = requests.at(-1)!.headers['if-none-match'];
          found.push((error as Error).message);
          throw error;
        } finally {
          if (asked.length === readings.length) stop.abort();
        }
      },
    });
    expect(requests.length - start).toBe(5);
    expect(clock.waits).toEqual([30_000, 30_000, 30_000, 30_000, 30_000]);
    expect(asked).toEqual([
      { at: 30_000, ifNoneMatch: '"v1"' },
      { at: 60_000, ifNoneMatch: '"v1"' },
      { at: 95_000, ifNoneMatch: '"v1"' },
      { at: 125_000, ifNoneMatch: '"v2"' },
      { at: 155_000, ifNoneMatch: '"v2"' },
    ]);
    expect(found).toEqual(['304', '304', 'bus-1 1 50.5', `Could not load the pins from ${base}buses.csv: HTTP 500`, '304']);
  });

  it('stops waiting, and reads no more, when its signal aborts', async () => {
    const stop = new AbortController();
    stop.abort();
    let reads = 0;
    await refreshPins({ every: 1, signal: stop.signal, read: () => Promise.resolve(reads++) });
    expect(reads).toBe(0);
  });
});
