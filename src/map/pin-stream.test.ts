import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { PinChangesChecked } from '../config/pin-changes.ts';
import { simulatedClock, type SimulatedClock } from '../testing/clock.testing.ts';
import { readPinStream, reconnectDelay } from './pin-stream.ts';

describe('reconnectDelay', () => {
  it('waits 1 s after a drop, doubling for each failed attempt in a row, at most 60 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => reconnectDelay(attempt, undefined))).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
  });

  it("starts from the server's retry: and lets it be longer than the cap", () => {
    expect([1, 2, 3].map((attempt) => reconnectDelay(attempt, 250))).toEqual([250, 500, 1000]);
    expect(reconnectDelay(1, 120_000)).toBe(120_000);
    expect(reconnectDelay(3, 120_000)).toBe(120_000);
  });
});

const bus = (id: string, lng: number) => ({ type: 'Feature', id, geometry: { type: 'Point', coordinates: [lng, 50] }, properties: { title: id } });

/**
 * A local server whose answers the test writes, one handler per connection in turn; `at` is when
 * each request came on the simulated clock the stream waits by.
 */
let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
async function serveInTurn(handlers: Handler[], clock?: SimulatedClock): Promise<{ url: string; requests: IncomingMessage[]; at: number[] }> {
  const requests: IncomingMessage[] = [];
  const at: number[] = [];
  server = createServer((request, response) => {
    requests.push(request);
    if (clock) at.push(clock.now);
    const handler = handlers[requests.length - 1];
    if (handler) handler(request, response);
    else response.writeHead(200, { 'Content-Type': 'text/event-stream' }).flushHeaders(); // held open, silent
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/live`, requests, at };
}

const stream = (text: string, end = true): Handler => (_, response) => {
  response.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8' });
  response.write(text);
  if (end) response.end();
};
const busy: Handler = (_, response) => response.writeHead(503, { 'Content-Type': 'text/plain' }).end('busy');

/**
 * Reads a stream until `until` says the test has seen enough; the stream is then stopped. Its
 * waits are taken on `clock` (simulated: at once), so the real figures are read, not waited out.
 */
async function read(url: string, until: (seen: { changes: PinChangesChecked[]; notices: (string | undefined)[] }) => boolean, options: { maxEventSize?: number; clock?: SimulatedClock } = {}) {
  const seen = { changes: [] as PinChangesChecked[], notices: [] as (string | undefined)[] };
  const stop = new AbortController();
  let check = () => {};
  const enough = new Promise<void>((done) => (check = () => until(seen) && done()));
  const reading = readPinStream({
    url,
    signal: stop.signal,
    wait: (options.clock ?? simulatedClock()).wait,
    maxEventSize: options.maxEventSize,
    onChanges: (changes) => {
      seen.changes.push(changes);
      check();
      return Promise.resolve(changes.remove.includes('ghost') ? ['remove: there is no pin "ghost" to remove'] : []);
    },
    onNotice: (text) => {
      seen.notices.push(text);
      check();
    },
  });
  const ended = await Promise.race([enough.then(() => false), reading.then(() => true)]);
  stop.abort();
  await reading;
  return { ...seen, ended };
}

describe('readPinStream, against a local server', () => {
  it('applies events in order, names a malformed one and goes on, and 1 s after a drop reads again from the last event id', async () => {
    const clock = simulatedClock();
    const { url, requests, at } = await serveInTurn([
      stream(`id: 1\ndata: ${JSON.stringify({ add: [bus('a', 1)] })}\n\n` + 'id: 2\ndata: {"update": [\n\n' + `id: 3\ndata: ${JSON.stringify({ update: [bus('a', 2)] })}\n\n`),
      stream(`id: 4\ndata: ${JSON.stringify({ remove: ['a'] })}\n\n`, false),
    ], clock);
    const seen = await read(url, ({ changes }) => changes.length === 3, { clock });
    expect(at).toEqual([0, 1000]);
    expect(seen.changes).toEqual([
      { add: [bus('a', 1)], update: [], remove: [] },
      { add: [], update: [bus('a', 2)], remove: [] },
      { add: [], update: [], remove: ['a'] },
    ]);
    expect(seen.notices[0]).toMatch(new RegExp(`^The pin stream ${url} sent a malformed event \\(event 2, id "2"\\): it is not JSON \\(.+\\)\\. The other events are applied\\.$`));
    expect(requests).toHaveLength(2);
    expect(requests[0]!.headers.accept).toBe('text/event-stream');
    expect(requests[0]!.headers['last-event-id']).toBeUndefined();
    expect(requests[1]!.headers['last-event-id']).toBe('3');
  });

  it('waits 1 s, 2 s, 4 s … at most 60 s between failed attempts in a row, and 1 s again once a connection was made', async () => {
    const clock = simulatedClock();
    const { url, at } = await serveInTurn([...Array<Handler>(8).fill(busy), stream(`data: ${JSON.stringify({ remove: ['x'] })}\n\n`), busy], clock);
    // Eight 503s, a stream that ends, a 503, then a connection held open.
    const seen = await read(url, ({ notices }) => notices.length === 11, { clock });
    expect(clock.waits).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 1000, 2000]);
    expect(at).toEqual([0, 1000, 3000, 7000, 15_000, 31_000, 63_000, 123_000, 183_000, 184_000, 186_000]);
    const trying = (wait: string) => `The pin stream ${url} could not be read: HTTP 503 (Service Unavailable). Trying again in ${wait}.`;
    expect(seen.notices).toEqual([...['1 s', '2 s', '4 s', '8 s', '16 s', '32 s', '60 s', '60 s'].map(trying), undefined, trying('2 s'), undefined]);
  });

  it("honours the server's retry: as the first wait, doubled from there, and longer than 60 s when it says so", async () => {
    const clock = simulatedClock();
    // A stream that sets 5 s and then breaks, two 503s, one held open.
    const broken: Handler = (_, response) => {
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.write('retry: 5000\n\n', () => response.destroy());
    };
    const { url, at } = await serveInTurn([broken, busy, busy], clock);
    const seen = await read(url, ({ notices }) => notices.length === 4, { clock });
    expect(clock.waits).toEqual([5000, 10_000, 20_000]);
    expect(at).toEqual([0, 5000, 15_000, 35_000]);
    expect(seen.notices.map((text) => text?.match(/Trying again in .*/)?.[0])).toEqual(['Trying again in 5 s.', 'Trying again in 10 s.', 'Trying again in 20 s.', undefined]);

    server!.closeAllConnections();
    server!.close();
    const slow = simulatedClock();
    const long = await serveInTurn([stream('retry: 120000\n\n'), busy, busy], slow);
    await read(long.url, ({ notices }) => notices.length === 3, { clock: slow });
    expect(slow.waits).toEqual([120_000, 120_000, 120_000]);
    expect(long.at).toEqual([0, 120_000, 240_000, 360_000]);
  });

  it('tries a 503 again with a notice that the next connection clears', async () => {
    const { url } = await serveInTurn([busy, stream(`data: ${JSON.stringify({ remove: ['x'] })}\n\n`, false)]);
    const seen = await read(url, ({ changes }) => changes.length === 1);
    expect(seen.notices).toEqual([`The pin stream ${url} could not be read: HTTP 503 (Service Unavailable). Trying again in 1 s.`, undefined]);
  });

  it('stops with a notice naming the stream for a 404 and for an answer that is not an event stream', async () => {
    const missing = await serveInTurn([(_, response) => response.writeHead(404).end()]);
    const gone = await read(missing.url, () => false);
    expect(gone.ended).toBe(true);
    expect(gone.notices).toEqual([`The pin stream ${missing.url} could not be read: not found (HTTP 404)`]);
    expect(missing.requests).toHaveLength(1);
    server!.closeAllConnections();
    server!.close();

    const json = await serveInTurn([(_, response) => response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}')]);
    const wrong = await read(json.url, () => false);
    expect(wrong.ended).toBe(true);
    expect(wrong.notices).toEqual([`The pin stream ${json.url} is not an event stream: it was answered as "application/json", not "text/event-stream"`]);
  });

  it('refuses an event over the size limit, naming it, and applies the rest', async () => {
    const big = JSON.stringify({ add: [bus('x'.repeat(300), 1)] });
    const { url } = await serveInTurn([stream(`data: ${big}\n\n` + `data: ${JSON.stringify({ remove: ['y'] })}\n\n`, false)]);
    const seen = await read(url, ({ changes }) => changes.length === 1, { maxEventSize: 200 });
    expect(seen.changes).toEqual([{ add: [], update: [], remove: ['y'] }]);
    expect(seen.notices).toEqual([`The pin stream ${url} sent an event larger than 200 characters (event 1), which was refused (the maxPinBytes limit). The other events are applied.`]);
  });

  it('names the changes that could not be applied', async () => {
    const { url } = await serveInTurn([stream(`data: ${JSON.stringify({ remove: ['ghost'] })}\n\n`, false)]);
    const seen = await read(url, ({ notices }) => notices.length === 1);
    expect(seen.notices).toEqual([`The pin stream ${url}: event 1 was applied in part: remove: there is no pin "ghost" to remove`]);
  });

  it('shows what the sender left out until it says nothing is', async () => {
    const { url } = await serveInTurn([stream(`data: {"skipped": ["line 3 (\\"B\\"): latitude 95 is outside -90..90"]}\n\ndata: {"skipped": []}\n\n`, false)]);
    const seen = await read(url, ({ changes }) => changes.length === 2);
    expect(seen.notices).toEqual([`The pin stream ${url} left out a pin: line 3 ("B"): latitude 95 is outside -90..90`, undefined]);
  });

  it('stops reading, and closes its connection, when its signal aborts', async () => {
    const { url } = await serveInTurn([]);
    const closed = new Promise<void>((done) => server!.on('connection', (socket) => socket.on('close', () => done())));
    const asked = new Promise<void>((done) => server!.once('request', () => done()));
    const stop = new AbortController();
    const reading = readPinStream({ url, signal: stop.signal, onChanges: () => Promise.resolve([]), onNotice: () => {} });
    await asked;
    stop.abort();
    await reading;
    await closed;
  });
});
