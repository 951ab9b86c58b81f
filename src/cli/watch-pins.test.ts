import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serve } from './serve.ts';
import { byId, diffFeatures } from './watch-pins.ts';

const folder = mkdtempSync(join(tmpdir(), 'pinmap-watch-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const appDir = join(folder, 'app');
mkdirSync(join(appDir, 'basemap'), { recursive: true });
writeFileSync(join(appDir, 'index.html'), '<!doctype html><title>Pinmap</title>');

const point = (id: string, lng: number, title = id) => ({ type: 'Feature', id, geometry: { type: 'Point', coordinates: [lng, 1] }, properties: { title } });

describe('diffFeatures', () => {
  it('finds the pins added, changed and removed, by id', () => {
    const before = byId([point('a', 1), point('b', 2), point('c', 3)]);
    const after = byId([point('a', 1), point('b', 2.5), point('d', 4), point('c', 3, 'C')]);
    expect(diffFeatures(before, after)).toEqual({ add: [point('d', 4)], update: [point('b', 2.5), point('c', 3, 'C')], remove: [] });
    expect(diffFeatures(after, byId([point('a', 1)]))).toEqual({ add: [], update: [], remove: ['b', 'd', 'c'] });
    expect(diffFeatures(after, after)).toEqual({ add: [], update: [], remove: [] });
  });
});

/** Reads server-sent events from a stream's body until `count` data lines have come. */
async function events(body: ReadableStream<Uint8Array>, count: number): Promise<{ ids: string[]; data: unknown[] }> {
  const reader = (body as ReadableStream).pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  const seen = { ids: [] as string[], data: [] as unknown[] };
  while (seen.data.length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
    const blocks = text.split('\n\n');
    text = blocks.pop()!;
    for (const block of blocks) {
      for (const line of block.split('\n')) {
        if (line.startsWith('id: ')) seen.ids.push(line.slice(4));
        if (line.startsWith('data: ')) seen.data.push(JSON.parse(line.slice(6)));
      }
    }
  }
  await reader.cancel();
  return seen;
}

/** Saves a file as editors and spreadsheets do: a new file renamed over the old one. */
function saveByRename(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

describe('pinmap serve --watch', () => {
  it('streams what changes in a CSV file saved by rename, by pin id, with a row that turned bad named, and names the stream in its config', async () => {
    const csv = join(folder, 'buses.csv');
    writeFileSync(csv, 'id,title,lat,lng\nbus-1,Line 1,50,1\nbus-2,Line 2,51,2\nbus-3,Line 3,52,3\n');
    const lines: string[] = [];
    const serving = await serve({ files: [csv], port: 0, host: '127.0.0.1', appDir, watch: true, onWatchChange: (line) => lines.push(line) });
    try {
      const base = new URL(serving.url);
      expect(await (await fetch(new URL('/pinmap-serve.json', base))).json()).toMatchObject({ pins: 'data/buses.csv', pinsStream: 'pinmap-serve-stream' });
      const stream = await fetch(new URL('/pinmap-serve-stream', base));
      expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');

      // bus-1 moves, bus-2's latitude turns bad, bus-3 is unchanged, bus-4 comes.
      saveByRename(csv, 'id,title,lat,lng\nbus-1,Line 1,50.5,1\nbus-2,Line 2,95,2\nbus-3,Line 3,52,3\nbus-4,Line 4,53,4\n');
      const { ids, data } = await events(stream.body!, 1);
      expect(ids).toEqual(['1']);
      expect(data).toEqual([
        {
          add: [{ type: 'Feature', id: 'bus-4', geometry: { type: 'Point', coordinates: [4, 53] }, properties: { title: 'Line 4' } }],
          update: [{ type: 'Feature', id: 'bus-1', geometry: { type: 'Point', coordinates: [1, 50.5] }, properties: { title: 'Line 1' } }],
          remove: ['bus-2'],
          skipped: ['buses.csv: line 3 ("Line 2"): latitude 95 is outside -90..90'],
        },
      ]);
      expect(lines).toEqual(['buses.csv: 1 added, 1 updated, 1 removed, skipped: buses.csv: line 3 ("Line 2"): latitude 95 is outside -90..90']);

      // A map that reconnects after event 1 is sent only what came after it.
      saveByRename(csv, 'id,title,lat,lng\nbus-1,Line 1,50.5,1\nbus-2,Line 2,51,2\nbus-3,Line 3,52,3\nbus-4,Line 4,53,4\n');
      const again = await fetch(new URL('/pinmap-serve-stream', base), { headers: { 'Last-Event-ID': '1' } });
      const replayed = await events(again.body!, 1);
      expect(replayed).toEqual({ ids: ['2'], data: [{ add: [{ type: 'Feature', id: 'bus-2', geometry: { type: 'Point', coordinates: [2, 51] }, properties: { title: 'Line 2' } }], update: [], remove: [], skipped: [] }] });
    } finally {
      await serving.close();
    }
  });

  it('refuses to watch a pin archive', async () => {
    const archive = join(folder, 'pins.pmtiles');
    writeFileSync(archive, 'PMTiles');
    await expect(serve({ files: [archive], port: 0, host: '127.0.0.1', appDir, watch: true })).rejects.toThrow('--watch follows GeoJSON and CSV files: a .pmtiles archive stays as it was tiled');
  });
});
