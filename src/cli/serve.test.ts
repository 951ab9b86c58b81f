import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './main.ts';
import { serve, servedPolicy } from './serve.ts';

const folder = mkdtempSync(join(tmpdir(), 'pinmap-serve-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A stand-in for the built app: its page and its basemap folder. */
const appDir = join(folder, 'app');
mkdirSync(join(appDir, 'basemap'), { recursive: true });
writeFileSync(join(appDir, 'index.html'), '<!doctype html><title>Pinmap</title>');

const write = (name: string, text: string) => {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
};

describe('pinmap serve', () => {
  it('serves the app, the config naming the one pin file as it is, the file with Range requests, and a plain 404 for any other path, all under the app policy', async () => {
    const csv = write('places.csv', 'title,lat,lng\nA,1,2\nB,95,2\n');
    const serving = await serve({ files: [csv], port: 0, host: '127.0.0.1', appDir });
    try {
      expect(serving.summaries).toEqual([{ file: csv, pins: 1, skippedCount: 1, skipped: [{ index: 3, id: '3', reason: 'line 3 ("B"): latitude 95 is outside -90..90' }], warningCount: 0 }]);
      const base = new URL(serving.url);
      expect(base.search).toBe('?config=pinmap-serve.json');
      const config = await fetch(new URL('/pinmap-serve.json', base));
      expect(await config.json()).toEqual({ pins: 'data/places.csv' });
      expect(config.headers.get('content-security-policy')).toBe(servedPolicy(undefined));
      const range = await fetch(new URL('/data/places.csv', base), { headers: { Range: 'bytes=0-12' } });
      expect(range.status).toBe(206);
      expect(await range.text()).toBe('title,lat,lng');
      expect((await fetch(new URL('/', base))).headers.get('content-type')).toMatch(/^text\/html/);
      for (const path of ['/data/other.csv', '/no/such/pins.geojson', '/data/../places.csv']) {
        const missing = await fetch(new URL(path, base));
        expect(missing.status, path).toBe(404);
        expect(missing.headers.get('content-type'), path).toMatch(/^text\/plain/);
      }
    } finally {
      await serving.close();
    }
  });

  it('merges several GeoJSON and CSV files into one collection of their good pins, and takes the config file and a style file', async () => {
    const csv = write('a.csv', 'id;Name;Lat;Lng;Note\nx;X;1,5;2,5;hello\n');
    const geojson = write('b.geojson', JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', id: 'y', geometry: { type: 'Point', coordinates: [3, 4] }, properties: { title: 'Y' } }, { type: 'Feature', id: 'z', geometry: null, properties: { title: 'Z' } }] }));
    const config = write('config.json', JSON.stringify({ popupFields: ['Note'], zoom: 5 }));
    mkdirSync(join(folder, 'style'), { recursive: true });
    const style = join(folder, 'style', 'style.json');
    writeFileSync(style, JSON.stringify({ version: 8, sources: {}, layers: [] }));
    const serving = await serve({ files: [csv, geojson], config, style, port: 0, host: '127.0.0.1', appDir });
    try {
      expect(serving.summaries.map((s) => [s.pins, s.skipped.map((k) => k.reason)])).toEqual([
        [1, []],
        [1, ['feature 1 ("z"): has no geometry (a pin needs a Point)']],
      ]);
      const base = new URL(serving.url);
      expect(await (await fetch(new URL('/pinmap-serve.json', base))).json()).toEqual({ popupFields: ['Note'], zoom: 5, pins: 'data/pins.geojson', style: 'style/style.json' });
      const merged = (await (await fetch(new URL('/data/pins.geojson', base))).json()) as { features: { id: string; properties: Record<string, unknown> }[] };
      expect(merged.features.map((f) => [f.id, f.properties])).toEqual([
        ['x', { title: 'X', Note: 'hello' }],
        ['y', { title: 'Y' }],
      ]);
      expect((await fetch(new URL('/style/style.json', base))).status).toBe(200);
    } finally {
      await serving.close();
    }
  });

  it("adds a style's http origin to the policy (https ones are allowed already)", () => {
    expect(servedPolicy('http://tiles.local:8080/style.json')).toContain("connect-src 'self' https: http://tiles.local:8080;");
    expect(servedPolicy('https://tiles.example.com/style.json')).toBe(servedPolicy(undefined));
  });

  it('says what is wrong: no file, an archive among other files, a config with errors (with the key it is likely a slip for)', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const run = (...args: string[]) => main(['serve', ...args, '--port', '0'], (line) => out.push(line), (line) => err.push(line));
    expect(await run(join(folder, 'nowhere.csv'))).toBe(1);
    const csv = write('c.csv', 'title,lat,lng\nA,1,2\n');
    const archive = write('d.pmtiles', 'not really');
    expect(await run(csv, archive)).toBe(1);
    const config = write('bad.json', JSON.stringify({ centre: [1, 2] }));
    expect(await run(csv, '--config', config)).toBe(1);
    expect(await main(['bogus'], () => {}, (line) => err.push(line))).toBe(2);
    expect(err.join('\n')).toContain(`pinmap serve: ${join(folder, 'nowhere.csv')}: no such file`);
    expect(err.join('\n')).toContain('pinmap serve: a .pmtiles archive is served alone');
    expect(err.join('\n')).toContain('centre: is not a known option; did you mean center?');
    expect(err.join('\n')).toContain('pinmap: "bogus" is not a command');
  });
});
