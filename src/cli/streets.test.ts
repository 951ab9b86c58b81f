import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PMTiles, tileIdToZxy, zxyToTileId, type Source } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESSION, PmtilesWriter, TILE_TYPE } from '../tiler/pmtiles-writer.ts';
import { main } from './main.ts';
import { batches, checkBBox, extractStreets, StreetsError, type BBox } from './streets.ts';

/**
 * `pinmap streets` against a real HTTP server with Range support on 127.0.0.1: the Protomaps-
 * schema fixture (zooms 0..5, every directory in the root), and an archive made here with leaf
 * directories (zooms 0..8, a distinct tile each).
 */

const FIXTURE = fileURLToPath(new URL('../../fixtures/protomaps/protomaps.pmtiles', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'pinmap-streets-test-'));

/** Every request the server was sent: its path and headers. */
const requests: { path: string; headers: IncomingHttpHeaders }[] = [];
let server: Server;
let base: string;
/** Whether the server answers Range requests (off: it sends the whole file, as some do). */
let ranges = true;
const files = new Map<string, Buffer>();

beforeAll(async () => {
  files.set('/protomaps.pmtiles', readFileSync(FIXTURE));
  files.set('/leaves.pmtiles', readFileSync(writeLeafArchive()));
  files.set('/page.html', Buffer.from('<!doctype html><title>Not an archive</title>'.padEnd(20000, ' ')));
  server = createServer((request, response) => {
    requests.push({ path: request.url ?? '', headers: request.headers });
    const file = files.get(request.url ?? '');
    if (!file) return void response.writeHead(404).end();
    const match = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
    if (!match || !ranges) return void response.writeHead(200, { 'Content-Length': file.length }).end(file);
    const start = Number(match[1]);
    if (start >= file.length) return void response.writeHead(416, { 'Content-Range': `bytes */${file.length}` }).end();
    const end = Math.min(Number(match[2]), file.length - 1);
    response.writeHead(206, { 'Content-Range': `bytes ${start}-${end}/${file.length}`, 'Content-Length': end - start + 1 }).end(file.subarray(start, end + 1));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise((done) => server.close(done));
  rmSync(folder, { recursive: true, force: true });
});

/** An archive of every tile at zooms 0..8, each distinct (its id as text): too many entries for the root, so it has leaf directories. */
function writeLeafArchive(): string {
  const writer = new PmtilesWriter();
  const last = zxyToTileId(9, 0, 0);
  // Tiles of uneven lengths, so that the directory does not compress into the root's 16 KiB.
  for (let id = 0; id < last; id++) writer.addTile(id, new TextEncoder().encode(`tile ${id}`.padEnd(10 + (Math.imul(id ^ (id >>> 7), 0x9e3779b1) >>> 24), '.')));
  const path = join(folder, 'leaves.pmtiles');
  writer.finish(path, { tileCompression: COMPRESSION.none, tileType: TILE_TYPE.mvt, minZoom: 0, maxZoom: 8, bounds: [-180, -85, 180, 85], center: [0, 0, 0] }, { attribution: 'made here', vector_layers: [{ id: 'earth', fields: {} }] });
  return path;
}

function fileArchive(path: string): PMTiles {
  const source: Source = { getKey: () => path, getBytes: async (offset, length) => ({ data: new Uint8Array(readFileSync(path).subarray(offset, offset + length)).buffer }) };
  return new PMTiles(source);
}

/** The tiles of zooms 0..maxZoom whose box overlaps `bbox` (worked out from each tile's corners, not as the command does). */
function expectedTiles(bbox: BBox, maxZoom: number): number[] {
  const lng = (x: number, z: number) => (x / 2 ** z) * 360 - 180;
  const lat = (y: number, z: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** z))) * 180) / Math.PI;
  const ids: number[] = [];
  for (let z = 0; z <= maxZoom; z++) {
    for (let x = 0; x < 2 ** z; x++) {
      for (let y = 0; y < 2 ** z; y++) {
        if (lng(x + 1, z) > bbox[0] && lng(x, z) < bbox[2] && lat(y, z) > bbox[1] && lat(y + 1, z) < bbox[3]) ids.push(zxyToTileId(z, x, y));
      }
    }
  }
  return ids.sort((a, b) => a - b);
}

/** Every tile id of an archive's zooms, found by asking for each one. */
async function tileIdsOf(archive: PMTiles, maxZoom: number): Promise<number[]> {
  const ids: number[] = [];
  for (let z = 0; z <= maxZoom; z++) for (let x = 0; x < 2 ** z; x++) for (let y = 0; y < 2 ** z; y++) if (await archive.getZxy(z, x, y)) ids.push(zxyToTileId(z, x, y));
  return ids;
}

describe('pinmap streets', () => {
  it('cuts a bbox out of the Protomaps-schema fixture over HTTP: its bounds and zooms, exactly the tiles over the area with the source\'s bytes, the metadata kept, only Range requests', async () => {
    requests.length = 0;
    const bbox: BBox = [4.3, 50.7, 6.1, 52.6];
    const out = join(folder, 'area.pmtiles');
    const progress: number[] = [];
    const result = await extractStreets({ bbox, from: `${base}/protomaps.pmtiles`, maxZoom: 5, out, onProgress: (p) => progress.push(p.tiles) });

    const archive = fileArchive(out);
    const header = await archive.getHeader();
    expect([header.minLon, header.minLat, header.maxLon, header.maxLat]).toEqual(bbox);
    expect([header.minZoom, header.maxZoom, result.minZoom, result.maxZoom]).toEqual([0, 5, 0, 5]);
    const expected = expectedTiles(bbox, 5);
    expect(await tileIdsOf(archive, 5)).toEqual(expected);
    expect(result.tiles).toBe(expected.length);
    const source = fileArchive(FIXTURE);
    for (let z = 0; z <= 5; z++) {
      for (let x = 0; x < 2 ** z; x++) {
        for (let y = 0; y < 2 ** z; y++) {
          if (!expected.includes(zxyToTileId(z, x, y))) continue;
          const [mine, theirs] = await Promise.all([archive.getZxy(z, x, y), source.getZxy(z, x, y)]);
          expect(Buffer.from(mine!.data).equals(Buffer.from(theirs!.data)), `${z}/${x}/${y}`).toBe(true);
        }
      }
    }
    const metadata = (await archive.getMetadata()) as { attribution: string; vector_layers: { id: string }[] };
    expect(metadata).toEqual(await source.getMetadata());
    expect(result.attribution).toBe(metadata.attribution);

    expect(requests.length).toBe(result.requests);
    for (const request of requests) expect(request.headers.range, request.path).toMatch(/^bytes=\d+-\d+$/);
    const size = statSync(FIXTURE).size;
    expect(result.sourceBytes).toBe(size);
    // The header and root (16 KiB), the metadata, and the tiles: the world's tiles of zooms 0..2 are most of it.
    expect(result.bytesRead).toBeLessThan(size / 6);
    expect(progress.at(-1)).toBe(expected.length);
    expect(result.outputBytes).toBe(statSync(out).size);
  });

  it('reads only the leaf directories the area needs, and every tile of the area from them', async () => {
    requests.length = 0;
    const bbox: BBox = [-74.1, 40.6, -73.8, 40.9];
    const out = join(folder, 'leaves-area.pmtiles');
    const source = fileArchive(join(folder, 'leaves.pmtiles'));
    const sourceHeader = await source.getHeader();
    expect(sourceHeader.leafDirectoryLength, 'the archive has leaf directories').toBeGreaterThan(0);
    const result = await extractStreets({ bbox, from: `${base}/leaves.pmtiles`, out });
    const archive = fileArchive(out);
    expect((await archive.getHeader()).maxZoom).toBe(8);
    const expected = expectedTiles(bbox, 8);
    // Every tile of the area, with its own bytes, and no other (as many tiles as the area has).
    for (const id of expected) {
      const [z, x, y] = tileIdToZxy(id);
      const tile = await archive.getZxy(z, x, y);
      expect(new TextDecoder().decode(tile!.data).replace(/\.+$/, ''), `${z}/${x}/${y}`).toBe(`tile ${id}`);
    }
    expect((await archive.getHeader()).numAddressedTiles).toBe(expected.length);
    for (const request of requests) expect(request.headers.range).toMatch(/^bytes=\d+-\d+$/);
    // The leaves read are a few of them (each holds 4,096 entries): those whose tile ids include the area's.
    const read = requests.map((request) => request.headers.range!.slice('bytes='.length).split('-').map(Number) as [number, number]);
    const leafBytes = read.filter(([start]) => start >= sourceHeader.leafDirectoryOffset && start < sourceHeader.tileDataOffset).reduce((sum, [start, end]) => sum + end - start + 1, 0);
    expect(leafBytes).toBeGreaterThan(0);
    expect(leafBytes).toBeLessThan(sourceHeader.leafDirectoryLength! / 4);
    expect(result.bytesRead).toBeLessThan(statSync(join(folder, 'leaves.pmtiles')).size / 50);
  });

  it('names what is wrong: an unreachable source, no PMTiles, a server without Range requests, no such file there, a bad or too large bbox, no tiles there', async () => {
    const out = join(folder, 'never.pmtiles');
    const fails = (options: { bbox?: BBox; from: string; maxZoom?: number }) => extractStreets({ bbox: [4.3, 50.7, 6.1, 52.6], out, ...options });
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise((done) => closed.close(done));
    await expect(fails({ from: `http://127.0.0.1:${closedPort}/planet.pmtiles` })).rejects.toThrow(`cannot reach http://127.0.0.1:${closedPort}/planet.pmtiles: ECONNREFUSED`);
    await expect(fails({ from: `${base}/page.html` })).rejects.toThrow(/page\.html is not a PMTiles archive \(version 3\)/);
    await expect(fails({ from: `${base}/gone.pmtiles` })).rejects.toThrow('no such file on the server (404)');
    await expect(fails({ from: join(folder, 'nothing-here.pmtiles') })).rejects.toThrow('nothing-here.pmtiles: no such file');
    ranges = false;
    try {
      await expect(fails({ from: `${base}/protomaps.pmtiles` })).rejects.toThrow('does not answer Range requests');
    } finally {
      ranges = true;
    }
    await expect(fails({ from: `${base}/protomaps.pmtiles`, bbox: [10, 60, 5, 70] })).rejects.toThrow("the bbox's west (10) must be less than its east (5)");
    await expect(extractStreets({ bbox: [-180, -85, 180, 85], from: `${base}/leaves.pmtiles`, out })).rejects.toThrow(/the area needs 87,381 tiles at zooms 0\.\.8, more than the 50,000 one extract may have: give a smaller bbox or a lower --maxzoom/);
    expect(() => checkBBox([1, 2, 3])).toThrow(StreetsError);
    expect(() => checkBBox([1, 95, 3, 96])).toThrow('latitudes must be within -90..90');
    expect(() => checkBBox([200, 1, 201, 2])).toThrow('longitudes must be within -180..180');
  });

  it('merges nearby tiles into one range and reads each distinct tile once', () => {
    const tiles = [
      { offset: 0, length: 10 },
      { offset: 10, length: 5 },
      { offset: 0, length: 10 },
      { offset: 100, length: 5 },
      { offset: 1000, length: 5 },
    ];
    expect(batches(tiles, 100).map(({ offset, length, tiles }) => [offset, length, tiles.length])).toEqual([
      [0, 105, 3],
      [1000, 5, 1],
    ]);
  });

  it('the command: the area around a CSV file\'s pins, a little larger; progress and what was read against what was written; a file of no pin refused', async () => {
    const csv = join(folder, 'places.csv');
    writeFileSync(csv, 'title,lat,lng\nA,52.37,4.89\nB,52.09,5.12\nC,95,0\n');
    const lines: string[] = [];
    const errors: string[] = [];
    const code = await main(['streets', csv, '--from', `${base}/protomaps.pmtiles`, '--maxzoom', '4', '-o', join(folder, 'cli.pmtiles')], (line) => lines.push(line), (line) => errors.push(line));
    expect(errors).toEqual([]);
    expect(code).toBe(0);
    expect(lines[0]).toBe(`${csv}: 2 pins in 4.8900,52.0900,5.1200,52.3700; the area, a little larger: 4.8670,52.0620,5.1430,52.3980`);
    const total = expectedTiles([4.867, 52.062, 5.143, 52.398], 4).length;
    expect(lines.filter((line) => line.startsWith('tiles ')).at(-1)).toMatch(new RegExp(`^tiles ${total} / ${total}, 0\\.\\d\\d MB read$`));
    expect(lines.find((line) => line.startsWith('read '))).toMatch(/^read 0\.\d\d MB in \d+ requests of the 1\.00 MB source; wrote 0\.\d\d MB$/);
    expect(lines.at(-1)).toBe(`next: pinmap serve ${csv} --streets ${join(folder, 'cli.pmtiles')}`);
    const header = await fileArchive(join(folder, 'cli.pmtiles')).getHeader();
    expect([header.minZoom, header.maxZoom]).toEqual([0, 4]);

    const empty = join(folder, 'empty.csv');
    writeFileSync(empty, 'title,lat,lng\nC,95,0\n');
    errors.length = 0;
    expect(await main(['streets', empty, '--from', `${base}/protomaps.pmtiles`, '-o', join(folder, 'x.pmtiles')], () => {}, (line) => errors.push(line))).toBe(1);
    expect(errors).toEqual([`pinmap streets: ${empty} has no pin (1 rows, none a valid pin): nothing to cut the streets around`]);
    errors.length = 0;
    expect(await main(['streets', '--bbox', '4,52,x,53', '--from', `${base}/protomaps.pmtiles`, '-o', join(folder, 'x.pmtiles')], () => {}, (line) => errors.push(line))).toBe(1);
    expect(errors[0]).toMatch(/^pinmap streets: the bbox must be four numbers: west,south,east,north/);
    expect(await main(['streets', csv, '--bbox', '4,52,5,53', '-o', 'x.pmtiles'], () => {}, () => {})).toBe(2);
  });
});
