import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PMTiles, tileIdToZxy, zxyToTileId, type Source } from 'pmtiles';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPRESSION, PmtilesWriter, TILE_TYPE, type ArchiveInfo } from './pmtiles-writer.ts';

/** A `pmtiles` reader source over bytes in memory. */
function memorySource(bytes: Buffer): Source {
  return {
    getKey: () => 'memory',
    getBytes: async (offset, length) => ({ data: bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length) as ArrayBuffer }),
  };
}

const folder = mkdtempSync(join(tmpdir(), 'pinmap-writer-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const info: ArchiveInfo = {
  tileCompression: COMPRESSION.none,
  tileType: TILE_TYPE.mvt,
  minZoom: 0,
  maxZoom: 9,
  bounds: [-12.5, -33.25, 45.125, 61.5],
  center: [3.5, 40.25, 4],
};

/** Writes tiles (id → bytes) with `metadata`, and reads the archive back with the `pmtiles` reader. */
async function roundTrip(tiles: Map<number, Buffer>, metadata: unknown, maxZoom = info.maxZoom) {
  const writer = new PmtilesWriter();
  for (const [id, data] of [...tiles].sort((a, b) => a[0] - b[0])) writer.addTile(id, data);
  const path = join(folder, `archive-${tiles.size}.pmtiles`);
  const written = writer.finish(path, { ...info, maxZoom }, metadata);
  const bytes = readFileSync(path);
  return { written, bytes, reader: new PMTiles(memorySource(bytes)) };
}

/** Deterministic tile bodies of varied length (some empty-looking, some large). */
function tileBody(id: number): Buffer {
  const length = 1 + ((id * 7919) % 300);
  return Buffer.from(Array.from({ length }, (_, k) => (id * 31 + k * 17) % 256));
}

describe('PmtilesWriter', () => {
  it('writes an archive the pmtiles reader reads back: header, metadata and every tile (root directory only)', async () => {
    const tiles = new Map<number, Buffer>();
    for (let z = 0; z <= 3; z++) for (let x = 0; x < 2 ** z; x++) for (let y = 0; y < 2 ** z; y += 2) tiles.set(zxyToTileId(z, x, y), tileBody(zxyToTileId(z, x, y)));
    const metadata = { name: 'test', vector_layers: [{ id: 'pins' }], pinmap: { version: 1, note: 'ünïcödé ✓' } };
    const { written, reader, bytes } = await roundTrip(tiles, metadata);
    expect(written).toEqual({ bytes: bytes.length, tiles: tiles.size });

    const header = await reader.getHeader();
    expect(header).toMatchObject({
      specVersion: 3,
      clustered: true,
      internalCompression: COMPRESSION.gzip,
      tileCompression: COMPRESSION.none,
      tileType: TILE_TYPE.mvt,
      minZoom: 0,
      maxZoom: 9,
      minLon: -12.5,
      minLat: -33.25,
      maxLon: 45.125,
      maxLat: 61.5,
      centerLon: 3.5,
      centerLat: 40.25,
      centerZoom: 4,
      numAddressedTiles: tiles.size,
      numTileEntries: tiles.size,
      numTileContents: tiles.size,
      leafDirectoryLength: 0,
    });
    expect(await reader.getMetadata()).toEqual(metadata);
    for (const [id, body] of tiles) {
      const [z, x, y] = tileIdToZxy(id);
      const tile = await reader.getZxy(z, x, y);
      expect(Buffer.from(tile!.data), `tile ${z}/${x}/${y}`).toEqual(body);
    }
    // A tile that was not written is not there.
    expect(await reader.getZxy(3, 0, 1)).toBeUndefined();
  });

  it('splits a large directory into leaf directories that the reader follows to every tile', async () => {
    const tiles = new Map<number, Buffer>();
    // 40,000 tiles of zoom 12 at scattered places: their ids and lengths compress poorly, far
    // beyond what the 16 KiB root can hold.
    let state = 12345;
    const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
    while (tiles.size < 40_000) {
      const id = zxyToTileId(12, Math.floor(random() * 4096), Math.floor(random() * 4096));
      tiles.set(id, Buffer.from(Array.from({ length: 1 + Math.floor(random() * 40) }, () => Math.floor(random() * 256))));
    }
    const { reader, bytes } = await roundTrip(tiles, { name: 'leaves' }, 12);
    const header = await reader.getHeader();
    expect(header.leafDirectoryLength).toBeGreaterThan(0);
    expect(header.rootDirectoryLength).toBeLessThanOrEqual(16384 - 127);
    // The root directory and the header fit in the first 16 KiB, as readers ask for.
    expect(header.rootDirectoryOffset + header.rootDirectoryLength).toBeLessThanOrEqual(16384);
    expect(gunzipSync(bytes.subarray(header.jsonMetadataOffset, header.jsonMetadataOffset + header.jsonMetadataLength)).toString()).toBe('{"name":"leaves"}');
    for (const [id, body] of tiles) {
      const [z, x, y] = tileIdToZxy(id);
      const tile = await reader.getZxy(z, x, y);
      expect(tile && Buffer.from(tile.data).equals(body), `tile ${z}/${x}/${y}`).toBe(true);
    }
  }, 60_000);

  it('gives the same bytes for the same tiles and metadata', async () => {
    const tiles = new Map([[0, Buffer.from('a')], [1, Buffer.from('bc')], [5, Buffer.from('def')]]);
    const a = (await roundTrip(tiles, { name: 'same' })).bytes;
    const b = (await roundTrip(tiles, { name: 'same' })).bytes;
    expect(a.equals(b)).toBe(true);
  });

  it('refuses tiles out of order, twice, or empty', () => {
    const writer = new PmtilesWriter();
    writer.addTile(5, Buffer.from('x'));
    expect(() => writer.addTile(5, Buffer.from('y'))).toThrow('increasing tile id order (5 after 5)');
    expect(() => writer.addTile(4, Buffer.from('y'))).toThrow('increasing tile id order');
    expect(() => writer.addTile(6, Buffer.alloc(0))).toThrow('tile 6 is empty');
    writer.abandon();
    expect(() => writer.addTile(7, Buffer.from('z'))).toThrow('already finished');
  });
});
