import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layers, namedFlavor } from '@protomaps/basemaps';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from './main.ts';
import { rawRequest } from './raw-request.testing.ts';
import { serve, servedPolicy, type Serving } from './serve.ts';
import { writeStyleFolder } from './style-folder.testing.ts';

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
      expect(serving.summaries).toEqual([{ file: csv, pins: 1, skippedCount: 1, skipped: [{ index: 3, id: '3', reason: 'line 3 ("B"): latitude 95 is outside -90..90' }], warningCount: 0, items: 2, columns: { lat: 'lat', lng: 'lng', title: 'title' } }]);
      const base = new URL(serving.url);
      expect(serving.url).toBe(`http://127.0.0.1:${base.port}/`);
      const config = await fetch(new URL('/pinmap-serve.json', base));
      expect(await config.json()).toEqual({ controls: { list: true, legend: true, search: true }, pins: 'data/places.csv' });
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
      expect(await (await fetch(new URL('/pinmap-serve.json', base))).json()).toEqual({ popupFields: ['Note'], zoom: 5, controls: { list: true, legend: true, search: true }, pins: 'data/pins.geojson', style: 'style/style.json' });
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

describe('pinmap serve: what it answers, and to whom', () => {
  const csv = write('secure.csv', 'title,lat,lng\nA,1,2\n');
  const config = write('secure-config.json', JSON.stringify({ accessToken: 'TOKEN-SECRET' }));
  const home = writeStyleFolder(join(folder, 'secure'));

  it("serves from a style's folder only what the style refers to: never a file beside it, a dotfile, a subfolder it does not name, or anything a symlink leads out to", async () => {
    const serving = await serve({ files: [csv], style: home.style, config, port: 0, host: '127.0.0.1', appDir });
    const { port } = new URL(serving.url);
    try {
      for (const [path, text] of Object.entries(home.referred)) {
        const answer = await rawRequest(Number(port), `/style/${encodeURI(path)}`);
        expect([answer.status, answer.body], path).toEqual([200, text]);
      }
      for (const path of Object.keys(home.secrets)) {
        const answer = await rawRequest(Number(port), `/style/${encodeURI(path)}`);
        expect(answer.status, path).toBe(404);
        expect(answer.body, path).toBe(`not found: /style/${encodeURI(path)}\n`);
      }
      // A tile of another zoom than the file has is a plain 404 too.
      expect((await rawRequest(Number(port), '/style/tiles/9/9/9.pbf')).status).toBe(404);
    } finally {
      await serving.close();
    }
  });

  it('answers only its own names (421 otherwise, saying why), GET and HEAD only (405 with Allow), each answer with nosniff', async () => {
    const serving = await serve({ files: [csv], config, port: 0, host: '127.0.0.1', appDir });
    const port = Number(new URL(serving.url).port);
    try {
      for (const host of ['127.0.0.1', `127.0.0.1:${port}`, 'localhost', `LOCALHOST:${port}`, '[::1]', `[::1]:${port}`]) {
        const answer = await rawRequest(port, '/pinmap-serve.json', { host });
        expect(answer.status, host).toBe(200);
        expect(answer.headers['x-content-type-options'], host).toBe('nosniff');
      }
      for (const host of ['evil.test', `evil.test:${port}`, `127.0.0.1.evil.test:${port}`, `localhost.evil.test`, '']) {
        const answer = await rawRequest(port, '/pinmap-serve.json', { host });
        expect(answer.status, host).toBe(421);
        expect(answer.headers['content-type'], host).toMatch(/^text\/plain/);
        expect(answer.headers['x-content-type-options'], host).toBe('nosniff');
        expect(answer.body, host).toBe('misdirected request: this server answers only to its own names (127.0.0.1, localhost, [::1]), so that no other site can read it\n');
      }
      for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
        const answer = await rawRequest(port, '/pinmap-serve.json', { method });
        expect(answer.status, method).toBe(405);
        expect(answer.headers.allow, method).toBe('GET, HEAD');
        expect(answer.headers['x-content-type-options'], method).toBe('nosniff');
        expect(answer.body, method).not.toContain('TOKEN-SECRET');
      }
      const head = await rawRequest(port, '/data/secure.csv', { method: 'HEAD' });
      expect([head.status, head.body]).toEqual([200, '']);
      for (const path of ['/', '/index.html', '/data/secure.csv', '/no/such/file']) expect((await rawRequest(port, path)).headers['x-content-type-options'], path).toBe('nosniff');
    } finally {
      await serving.close();
    }
  });

  it('answers to the --host it listens on too, and warns when that is beyond this machine', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const lines = async (host: string) => {
      out.length = 0;
      err.length = 0;
      const onServing = (serving: Serving) => {
        const port = Number(new URL(serving.url).port);
        void rawRequest(port, '/pinmap-serve.json', { host: `${host}:${port}`, address: host === '0.0.0.0' ? '127.0.0.1' : host }).then(
          (answer) => {
            out.push(`status ${answer.status}`);
            return serving.close();
          },
          () => serving.close(),
        );
      };
      const code = main(['serve', csv, '--host', host, '--port', '0'], (line) => out.push(line), (line) => err.push(line), { onServing, appDir });
      expect(await code).toBe(0);
      return [...out, ...err].join('\n');
    };
    const loopback = await lines('127.0.0.2');
    expect(loopback).toContain('status 200');
    expect(loopback).not.toContain('warning');
    const everywhere = await lines('0.0.0.0');
    expect(everywhere).toContain('status 200');
    expect(everywhere).toContain('pinmap serve: warning: --host 0.0.0.0 listens beyond this machine: anyone who can reach it can read the pin files, the config and the style it serves');
  });
});

describe('pinmap serve, as a new user meets it', () => {
  /** Runs `pinmap serve` with `args`; closes it once it is up; resolves with its exit code and what it printed. */
  async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['serve', ...args, '--port', '0'], (line) => out.push(line), (line) => err.push(line), { appDir, env, onServing: (serving) => void serving.close() });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it("opens the user's pins at the root address, with the pin list, legend and search on unless the config or --no-panels says otherwise", async () => {
    const csv = write('root.csv', 'title,lat,lng\nA,1,2\n');
    const config = write('root-config.json', JSON.stringify({ controls: { legend: false, search: 'top-right' } }));
    const controlsOf = async (options: { config?: string; panels?: boolean }) => {
      const serving = await serve({ files: [csv], port: 0, host: '127.0.0.1', appDir, ...options });
      try {
        return ((await (await fetch(new URL('/pinmap-serve.json', serving.url))).json()) as { controls?: unknown }).controls;
      } finally {
        await serving.close();
      }
    };
    expect(await controlsOf({})).toEqual({ list: true, legend: true, search: true });
    expect(await controlsOf({ config })).toEqual({ list: true, legend: false, search: 'top-right' });
    expect(await controlsOf({ panels: false })).toBeUndefined();
    expect((await run([csv, '--no-panels'])).code).toBe(0);

    const serving = await serve({ files: [csv], port: 0, host: '127.0.0.1', appDir });
    const port = Number(new URL(serving.url).port);
    try {
      for (const [path, location] of [
        ['/', '/?config=pinmap-serve.json'],
        ['/?view=hybrid', '/?view=hybrid&config=pinmap-serve.json'],
      ]) {
        const answer = await rawRequest(port, path!);
        expect([answer.status, answer.headers.location], path).toEqual([302, location]);
      }
      const page = await rawRequest(port, '/?config=pinmap-serve.json');
      expect([page.status, page.body]).toEqual([200, '<!doctype html><title>Pinmap</title>']);
    } finally {
      await serving.close();
    }
  });

  it('prints the config it read (or none) and the columns it took for latitude, longitude and title', async () => {
    const csv = write('columns.csv', 'Ort;Breite;Länge\nA;1,5;2\n');
    const config = write('columns.json', JSON.stringify({ csv: { lat: 'Breite', lng: 'Länge', title: 'Ort' } }));
    const withConfig = await run([csv, '--config', config]);
    expect(withConfig.err).toBe('');
    expect(withConfig.code).toBe(0);
    expect(withConfig.out).toContain(`config: ${config}\n${csv}: 1 pin\n  columns: latitude "Breite", longitude "Länge", title "Ort"\nPinmap: http://127.0.0.1:`);
    const plainCsv = write('columns-plain.csv', 'Name,Latitude,Lon\nA,1,2\n');
    expect((await run([plainCsv])).out).toContain(`config: none\n${plainCsv}: 1 pin\n  columns: latitude "Latitude", longitude "Lon", title "Name"`);
  });

  it('names a spreadsheet, an image or a PDF for what it is (by its first bytes, whatever its name), not as a file that is not JSON or CSV', async () => {
    const bytes = (name: string, ...parts: (string | number[])[]) => {
      const path = join(folder, name);
      writeFileSync(path, Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part)))));
      return path;
    };
    const zip = [0x50, 0x4b, 0x03, 0x04];
    const cases: [string, string][] = [
      [bytes('places.xlsx', zip, '\x14\x00\x06\x00[Content_Types].xml...xl/workbook.xml'), 'is an Excel workbook: save it as CSV'],
      [bytes('export.csv', zip, '\x14\x00\x06\x00[Content_Types].xml...xl/workbook.xml'), 'is an Excel workbook: save it as CSV'],
      [bytes('old.xls', [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), 'is an Excel workbook (the older .xls kind): save it as CSV'],
      [bytes('sheet.ods', zip, 'mimetypeapplication/vnd.oasis.opendocument.spreadsheet'), 'is an OpenDocument spreadsheet: save it as CSV'],
      [bytes('map.png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'is a PNG image: pins come from a GeoJSON or CSV file'],
      [bytes('photo.csv', [0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'is a JPEG image'],
      [bytes('pins.geojson', 'GIF89a\x01\x00'), 'is a GIF image'],
      [bytes('list.pdf', '%PDF-1.7\n'), 'is a PDF document'],
      [bytes('utf16.csv', [0xff, 0xfe, 0x74, 0x00]), 'is UTF-16 text: save it as UTF-8'],
    ];
    for (const [file, message] of cases) {
      const result = await run([file]);
      expect(result.code, file).toBe(1);
      expect(result.err, file).toContain(`pinmap serve: ${file} ${message}`);
      expect(result.err, file).not.toMatch(/not JSON|JSON at position|no latitude column/);
    }
    const config = bytes('config.xlsx', zip, 'xl/');
    expect((await run([write('ok.csv', 'title,lat,lng\nA,1,2\n'), '--config', config])).err).toContain(`pinmap serve: ${config} is an Excel workbook, not a config (a JSON file)`);
  });

  it("refuses a file with no valid pin, with the reason, the first rows' problems and the likely slip", async () => {
    const swapped = write('swapped.csv', 'title,lat,lng\nTokyo,139.69,35.68\nSydney,151.21,-33.87\nHonolulu,-157.86,21.31\n');
    const result = await run([swapped]);
    expect(result.code).toBe(1);
    expect(result.err).toBe(
      [
        `pinmap serve: ${swapped} has no pin to show: all 3 rows were skipped:`,
        '  line 2 ("Tokyo"): latitude 139.69 is outside -90..90',
        '  line 3 ("Sydney"): latitude 151.21 is outside -90..90',
        '  line 4 ("Honolulu"): latitude -157.86 is outside -90..90',
        'Are latitude and longitude swapped? A latitude is -90..90; the latitude column read was "lat", the longitude column "lng".',
      ].join('\n'),
    );
    expect(result.out).not.toContain('Pinmap: http');

    const polygons = write('areas.geojson', JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', id: 'park', geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] }, properties: { title: 'Park' } }] }));
    const areas = await run([polygons]);
    expect(areas.code).toBe(1);
    expect(areas.err).toContain(`pinmap serve: ${polygons} has no pin to show: its one feature was skipped:\n  feature 0 ("park"): geometry is a Polygon, not a Point\nA pin is a Point`);
    const empty = write('empty.geojson', '{"type":"FeatureCollection","features":[]}');
    expect((await run([empty])).err).toBe(`pinmap serve: ${empty} has no pin to show: its "features" array is empty`);
  });

  it('reads a relative path from the folder the command was run in (INIT_CWD, which npm run sets), and says where it looked', async () => {
    const where = join(folder, 'where-i-am');
    mkdirSync(where, { recursive: true });
    writeFileSync(join(where, 'mine.csv'), 'title,lat,lng\nA,1,2\n');
    writeFileSync(join(where, 'mine.json'), '{}');
    const result = await run(['mine.csv', '--config', 'mine.json'], { INIT_CWD: where });
    expect(result.code).toBe(0);
    expect(result.out).toContain(`config: ${join(where, 'mine.json')}\n${join(where, 'mine.csv')}: 1 pin`);
    const missing = await run(['nowhere.csv'], { INIT_CWD: where });
    expect([missing.code, missing.err]).toEqual([1, `pinmap serve: nowhere.csv: no such file (in ${where})`]);
  });

  it('names the option an unknown one is likely a slip for', async () => {
    const csv = write('flags.csv', 'title,lat,lng\nA,1,2\n');
    for (const [flag, message] of [
      ['--prot', '--prot: did you mean --port?'],
      ['--Port', '--Port: did you mean --port?'],
      ['--no-panel', '--no-panel: did you mean --no-panels?'],
      ['--stlye=x.json', '--stlye: did you mean --style?'],
      ['--colour', '--colour is not an option of pinmap serve'],
    ]) {
      const result = await run([csv, flag!]);
      expect(result.code, flag).toBe(2);
      expect(result.err.split('\n')[0], flag).toBe(`pinmap serve: ${message}`);
    }
  });
});

describe('pinmap serve --streets', () => {
  /** The built app's Protomaps styles, fonts and sprite, as `npm run build` copies them from fixtures/protomaps. */
  const protomaps = new URL('../../fixtures/protomaps/', import.meta.url);
  cpSync(protomaps, join(appDir, 'protomaps'), { recursive: true });
  const area = join(folder, 'area.pmtiles');
  copyFileSync(new URL('protomaps.pmtiles', protomaps), area);

  it('gives the page the archive as config streets (the page shows it in the app\'s Protomaps styles), serves it with Range requests and nothing else under /streets/', async () => {
    const csv = write('streets.csv', 'title,lat,lng\nA,52.37,4.89\n');
    const lines: string[] = [];
    let serving: Serving | undefined;
    const done = main(['serve', csv, '--streets', area, '--port', '0'], (line) => lines.push(line), (line) => lines.push(line), { appDir, onServing: (s) => (serving = s) });
    await vi.waitFor(() => expect(serving).toBeDefined());
    try {
      expect(lines).toContain(`streets: ${area} (the Protomaps light and dark styles; the config's theme picks one)`);
      const base = new URL(serving!.url);
      const config = (await (await fetch(new URL('/pinmap-serve.json', base))).json()) as Record<string, unknown>;
      expect(config).toMatchObject({ pins: 'data/streets.csv', streets: 'streets/area.pmtiles' });
      expect(config).not.toHaveProperty('style');
      // The styles the page builds the map from, with their fonts and sprite: the app's own files.
      for (const flavor of ['light', 'dark'] as const) {
        const style = (await (await fetch(new URL(`/protomaps/style-${flavor}.json`, base))).json()) as { layers: unknown[]; 'font-faces': Record<string, { url: string }[]>; sprite: string };
        expect(style.layers).toEqual(layers('protomaps', namedFlavor(flavor), { lang: 'en' }));
        const font = style['font-faces']['Noto Sans Regular']![0]!.url;
        expect((await fetch(new URL(`/protomaps/${font}`, base))).headers.get('content-type'), font).toMatch(/font\/woff2/);
        expect((await fetch(new URL(`/protomaps/${style.sprite}.png`, base))).status).toBe(200);
      }
      const range = await fetch(new URL('/streets/area.pmtiles', base), { headers: { Range: 'bytes=0-6' } });
      expect(range.status).toBe(206);
      expect(await range.text()).toBe('PMTiles');
      expect((await fetch(new URL('/streets/.hidden', base))).status).toBe(404);
      expect((await fetch(new URL('/streets/style-light.json', base))).status).toBe(404);
    } finally {
      await serving?.close();
      await done;
    }
  });

  it('takes the config\'s streets as --streets: a file relative to the config file, served the same; a URL given to the page as it is; a flag wins over it', async () => {
    const csv = write('streets-config.csv', 'title,lat,lng\nA,52.37,4.89\n');
    const configFolder = join(folder, 'conf');
    mkdirSync(configFolder, { recursive: true });
    copyFileSync(area, join(configFolder, 'city.pmtiles'));
    const configFile = join(configFolder, 'map.json');
    const configOf = async (serving: Serving) => (await (await fetch(new URL('/pinmap-serve.json', serving.url))).json()) as Record<string, unknown>;
    const served = async (config: Record<string, unknown>, flags: { streets?: string; style?: string } = {}) => {
      writeFileSync(configFile, JSON.stringify(config));
      return serve({ files: [csv], config: configFile, ...flags, port: 0, host: '127.0.0.1', appDir });
    };

    let serving = await served({ streets: 'city.pmtiles', theme: 'dark' });
    try {
      expect(serving.streets).toBe(join(configFolder, 'city.pmtiles'));
      expect(await configOf(serving)).toMatchObject({ streets: 'streets/city.pmtiles', theme: 'dark' });
      const range = await fetch(new URL('/streets/city.pmtiles', serving.url), { headers: { Range: 'bytes=0-6' } });
      expect(await range.text()).toBe('PMTiles');
    } finally {
      await serving.close();
    }

    serving = await served({ streets: 'https://maps.example.org/area.pmtiles' });
    try {
      expect(await configOf(serving)).toMatchObject({ streets: 'https://maps.example.org/area.pmtiles' });
      expect((await fetch(new URL('/streets/area.pmtiles', serving.url))).status).toBe(404);
    } finally {
      await serving.close();
    }

    // --streets wins over the config's streets and style; --style over its streets.
    serving = await served({ streets: 'https://maps.example.org/other.pmtiles', style: 'https://tiles.example.com/style.json', darkStyle: 'https://tiles.example.com/dark.json' }, { streets: area });
    try {
      const config = await configOf(serving);
      expect(config).toMatchObject({ streets: 'streets/area.pmtiles' });
      expect(config).not.toHaveProperty('style');
      expect(config).not.toHaveProperty('darkStyle');
    } finally {
      await serving.close();
    }
    serving = await served({ streets: 'city.pmtiles' }, { style: 'https://tiles.example.com/style.json' });
    try {
      const config = await configOf(serving);
      expect(config).toMatchObject({ style: 'https://tiles.example.com/style.json' });
      expect(config).not.toHaveProperty('streets');
      expect(serving.streets).toBeUndefined();
    } finally {
      await serving.close();
    }

    // The config's own mistakes, named as the page would name them, or as --streets is.
    await expect(served({ streets: 'city.pmtiles', style: 'https://tiles.example.com/style.json' })).rejects.toThrow('streets: cannot be given with style: the street map is the basemap');
    await expect(served({ streets: 'nowhere.pmtiles' })).rejects.toThrow(`the config's streets nowhere.pmtiles: no such file (${join(configFolder, 'nowhere.pmtiles')})`);
    await expect(served({ streets: 7 })).rejects.toThrow('streets: must be the URL of a street map archive (.pmtiles)');
  });

  it('names what is wrong with --streets: no such file, a pin archive, an archive of another schema, both --streets and --style', async () => {
    const csv = write('streets-bad.csv', 'title,lat,lng\nA,52.37,4.89\n');
    const failing = (streets: string, style?: string) => serve({ files: [csv], streets, style, port: 0, host: '127.0.0.1', appDir });
    await expect(failing(join(folder, 'no-area.pmtiles'))).rejects.toThrow('no such file (make it with `pinmap streets <pins file> -o');
    await expect(failing(fileURLToPath(new URL('../../fixtures/pins/cities.pmtiles', import.meta.url)))).rejects.toThrow('is a pin archive: give it as the pin file');
    await expect(failing(fileURLToPath(new URL('../../fixtures/basemap/basemap.pmtiles', import.meta.url)))).rejects.toThrow('is not in the Protomaps basemap schema (its metadata lists no earth, water, roads layer)');
    await expect(failing(area, 'https://tiles.example.com/style.json')).rejects.toThrow('give --streets or --style, not both');
  });
});
