import { gunzipSync } from 'node:zlib';
import { Compression, PMTiles, type DecompressFunc, type RangeResponse, type Source } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { HEADER_BYTES, writePmtiles, type PmtilesOptions, type PmtilesTile } from './pmtiles-writer.ts';

/** The `pmtiles` reader's view of an archive held in memory (what a range request would return). */
class BufferSource implements Source {
  readonly requests: [number, number][] = [];
  constructor(private readonly archive: Buffer) {}
  getKey(): string {
    return 'memory';
  }
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    this.requests.push([offset, length]);
    const slice = this.archive.subarray(offset, offset + length);
    return { data: slice.buffer.slice(slice.byteOffset, slice.byteOffset + slice.byteLength) as ArrayBuffer };
  }
}

/**
 * Gzip undone with zlib: the reader's own default goes through a web stream per tile, about
 * half a millisecond each, which for the 21,845 tiles read back below was most of this file's time.
 */
const gunzip: DecompressFunc = (data, compression) =>
  Promise.resolve(compression === Compression.Gzip ? new Uint8Array(gunzipSync(new Uint8Array(data))).buffer : data);

const OPTIONS: PmtilesOptions = {
  tileType: 'mvt',
  bounds: [-180, -85.0511287, 180, 85.0511287],
  center: [10.5, 46.25, 3],
  metadata: { name: 'Test', vector_layers: [{ id: 'land', fields: { name: 'String' } }], attribution: 'Ünïcode © test' },
};

/** Every tile of zooms 0..maxZoom: mostly distinct bytes, with runs and repeats of one "ocean" tile. */
function pyramid(maxZoom: number): PmtilesTile[] {
  const tiles: PmtilesTile[] = [];
  const ocean = Uint8Array.from([1, 2, 3, 4, 5]);
  for (let z = 0; z <= maxZoom; z++) {
    for (let x = 0; x < 2 ** z; x++) {
      for (let y = 0; y < 2 ** z; y++) {
        const data = (x + y) % 3 === 0 ? ocean : new TextEncoder().encode(`tile ${z}/${x}/${y} `.repeat(1 + ((x * 7 + y) % 5)));
        tiles.push({ z, x, y, data });
      }
    }
  }
  return tiles;
}

/** Reads every tile back with the `pmtiles` reader and expects the bytes given to the writer. */
async function expectEveryTile(reader: PMTiles, tiles: PmtilesTile[]): Promise<void> {
  for (const tile of tiles) {
    const got = await reader.getZxy(tile.z, tile.x, tile.y);
    expect(got, `${tile.z}/${tile.x}/${tile.y}`).toBeDefined();
    expect(Buffer.from(got!.data).equals(Buffer.from(tile.data)), `${tile.z}/${tile.x}/${tile.y}`).toBe(true);
  }
}

describe('PMTiles writer', () => {
  it('writes an archive the pmtiles reader reads back: header, metadata and every tile, with the root directory in the first 16 KiB', async () => {
    const tiles = pyramid(5);
    const archive = writePmtiles(tiles, OPTIONS);
    const source = new BufferSource(archive);
    const reader = new PMTiles(source, undefined, gunzip);
    const header = await reader.getHeader();
    expect(archive.subarray(0, 7).toString('ascii')).toBe('PMTiles');
    expect(header).toMatchObject({
      specVersion: 3,
      rootDirectoryOffset: HEADER_BYTES,
      numAddressedTiles: tiles.length,
      clustered: true,
      internalCompression: 2,
      tileCompression: 2,
      tileType: 1,
      minZoom: 0,
      maxZoom: 5,
      minLon: -180,
      minLat: -85.0511287,
      maxLon: 180,
      maxLat: 85.0511287,
      centerZoom: 3,
      centerLon: 10.5,
      centerLat: 46.25,
    });
    expect(header.rootDirectoryOffset + header.rootDirectoryLength).toBeLessThanOrEqual(16_384);
    expect(header.leafDirectoryLength).toBe(0);
    // The "ocean" tile is stored once however often it appears.
    const distinct = new Set(tiles.map((t) => Buffer.from(t.data).toString('hex'))).size;
    expect(header.numTileContents).toBe(distinct);
    expect(header.numTileEntries).toBeLessThan(tiles.length);
    expect(header.tileDataOffset + (header.tileDataLength ?? 0)).toBe(archive.length);
    expect(await reader.getMetadata()).toEqual(OPTIONS.metadata);
    await expectEveryTile(reader, tiles);
    expect(await reader.getZxy(6, 0, 0)).toBeUndefined();
  });

  it('puts a directory too big for the first fetch into leaf directories, and every tile is still found', async () => {
    const tiles = pyramid(7);
    const archive = writePmtiles(tiles, OPTIONS);
    const reader = new PMTiles(new BufferSource(archive), undefined, gunzip);
    const header = await reader.getHeader();
    expect(header.leafDirectoryLength).toBeGreaterThan(0);
    expect(header.rootDirectoryOffset + header.rootDirectoryLength).toBeLessThanOrEqual(16_384);
    expect(header.numAddressedTiles).toBe(tiles.length);
    await expectEveryTile(reader, tiles);
  });

  it('stores tiles uncompressed when asked, and says so in the header', async () => {
    const tiles = pyramid(2);
    const archive = writePmtiles(tiles, { ...OPTIONS, tileType: 'png', tileCompression: 'none' });
    const reader = new PMTiles(new BufferSource(archive), undefined, gunzip);
    const header = await reader.getHeader();
    expect(header.tileCompression).toBe(1);
    expect(header.tileType).toBe(2);
    const first = tiles[0]!;
    expect(archive.subarray(header.tileDataOffset, header.tileDataOffset + first.data.length).equals(Buffer.from(first.data))).toBe(true);
    await expectEveryTile(reader, tiles);
  });

  it('is deterministic: the same tiles, in any order, and the same metadata give the same bytes', () => {
    const tiles = pyramid(4);
    const a = writePmtiles(tiles, OPTIONS);
    const b = writePmtiles([...tiles].reverse(), { ...OPTIONS, metadata: { attribution: 'Ünïcode © test', vector_layers: [{ fields: { name: 'String' }, id: 'land' }], name: 'Test' } });
    expect(a.equals(b)).toBe(true);
    // gzip without a time stamp or file name: bytes 4..7 (mtime) are zero.
    const header = new PMTiles(new BufferSource(a)).getHeader();
    return header.then((h) => {
      const metadata = a.subarray(h.jsonMetadataOffset, h.jsonMetadataOffset + h.jsonMetadataLength);
      expect(metadata.readUInt32LE(4)).toBe(0);
      expect(JSON.parse(gunzipSync(metadata).toString('utf8'))).toEqual(OPTIONS.metadata);
    });
  });

  it('refuses an empty pyramid and a tile given twice', () => {
    expect(() => writePmtiles([], OPTIONS)).toThrow(/at least one tile/);
    const tile = { z: 1, x: 1, y: 0, data: new Uint8Array([1]) };
    expect(() => writePmtiles([tile, tile], OPTIONS)).toThrow(/1\/1\/0 is given twice/);
  });
});
