import { readFileSync } from 'node:fs';
import { PMTiles, type RangeResponse, type Source } from 'pmtiles';

/** The embedded basemap's archive, as committed. */
export const BASEMAP_ARCHIVE = readFileSync(new URL('../fixtures/basemap/basemap.pmtiles', import.meta.url));

/** The archive read in the test process with the `pmtiles` reader (ranges of the file in memory). */
export const basemapReader = new PMTiles(
  new (class implements Source {
    getKey = () => 'basemap.pmtiles';
    getBytes = async (offset: number, length: number): Promise<RangeResponse> => ({
      data: BASEMAP_ARCHIVE.buffer.slice(BASEMAP_ARCHIVE.byteOffset + offset, BASEMAP_ARCHIVE.byteOffset + offset + length) as ArrayBuffer,
    });
  })(),
);

/**
 * One tile of the embedded basemap as a loose `.pbf` file would be (uncompressed), for tests that
 * play a tile server with `{z}/{x}/{y}` URLs. Undefined where the pyramid has no tile.
 */
export async function basemapTile(path: string): Promise<Buffer | undefined> {
  const match = /(\d+)\/(\d+)\/(\d+)\.pbf$/.exec(path);
  if (!match) return undefined;
  const tile = await basemapReader.getZxy(Number(match[1]), Number(match[2]), Number(match[3]));
  return tile ? Buffer.from(tile.data) : undefined;
}
