import { VectorTile } from '@mapbox/vector-tile';
import fc from 'fast-check';
import { PbfReader } from 'pbf';
import { PMTiles, type Source } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { PIN_ARCHIVE, tileExtent, type PinArchiveMetadata } from '../pins/archive-format.ts';
import { fromVectorTileJs as fromVectorTile } from '@maplibre/vt-pbf';
import { cutPinTile } from '../pins/archive-cut.ts';
import { PinGrouping } from '../pins/grouping/grouping.ts';
import { pinArchiveTile, tileCollection } from '../testing/pin-archive.testing.ts';
import { feature } from '../testing/pin-features.testing.ts';
import { pinTileOf } from './zoom-tiles.ts';
import { tileOf } from './zoom-groups.ts';

function memoryArchive(bytes: Buffer): PMTiles {
  const source: Source = { getKey: () => 'cut', getBytes: async (offset, length) => ({ data: bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length) as ArrayBuffer }) };
  return new PMTiles(source);
}

/** Each feature of the `pins` layer of a tile's bytes: what it is, and where in the world (0 to 1 across and down) it is drawn. */
function featuresIn(bytes: Uint8Array | undefined, z: number, x: number, y: number): { name: string; worldX: number; worldY: number }[] {
  const layer = bytes && bytes.length > 0 ? new VectorTile(new PbfReader(bytes)).layers[PIN_ARCHIVE.layer] : undefined;
  if (!layer) return [];
  return Array.from({ length: layer.length }, (_, k) => {
    const f = layer.feature(k);
    const point = f.loadGeometry()[0]![0]!;
    const name = f.properties.cluster ? `bubble ${String(f.properties.cluster_id)} of ${String(f.properties.point_count)}` : `pin ${String(f.properties.id)}`;
    return { name, worldX: (x + point.x / layer.extent) / 2 ** z, worldY: (y + point.y / layer.extent) / 2 ** z };
  });
}

const mercator = (lat: number) => {
  const sin = Math.sin((lat * Math.PI) / 180);
  return 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
};

describe('tiles cut from the tiles above them', () => {
  it('read, at every zoom, as every bubble and lone pin of the grouping once, in its tile and at its place: however the pins lie (property)', async () => {
    // Pins in a few clumps a street across to a town across (bubbles to the grouping's last zoom
    // next to pins alone from zoom 10), some on one spot, some on the edges of tiles.
    const clump = fc.record({ lng: fc.double({ min: -20, max: 20, noNaN: true }), lat: fc.double({ min: -60, max: 60, noNaN: true }), spread: fc.constantFrom(0.0005, 0.01, 0.3, 3), count: fc.integer({ min: 1, max: 60 }), seed: fc.nat() });
    await fc.assert(
      fc.asyncProperty(fc.array(clump, { minLength: 1, maxLength: 5 }), async (clumps) => {
        const lngLats: [number, number][] = [];
        for (const { lng, lat, spread, count, seed } of clumps) {
          let state = seed;
          const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
          for (let i = 0; i < count; i++) {
            const edge = i % 7 === 3;
            // On a tile edge of zoom 12 (across), or a pin of the clump's centre (one spot).
            const x = edge ? Math.round(((lng + (random() - 0.5) * spread) / 360 + 0.5) * 4096) / 4096 * 360 - 180 : i % 5 === 0 ? lng : lng + (random() - 0.5) * spread;
            lngLats.push([x, i % 5 === 0 ? lat : lat + (random() - 0.5) * spread * 0.6]);
          }
        }
        const bytes = await tileCollection({ type: 'FeatureCollection', features: lngLats.map((coordinates, i) => feature(`p${i}`, {}, { geometry: { type: 'Point', coordinates } })) });
        const archive = memoryArchive(bytes);
        const header = await archive.getHeader();
        const { pinmap } = (await archive.getMetadata()) as { pinmap: PinArchiveMetadata };
        expect(pinmap.cutFrom).toBe(PIN_ARCHIVE.cutFrom);
        const grouping = new PinGrouping({ lngLats: Float64Array.from(lngLats.flat()) });
        /** The tiles of the zoom above that held something: their parts are read too (a cut would show what they held). */
        let above = new Set<string>();
        for (let zoom = 0; zoom <= header.maxZoom; zoom++) {
          const expected = new Map<string, [number, number, [number, number]]>();
          grouping.visit([-180, -90, 180, 90], zoom, {
            pin: (i) => expected.set(`pin p${i}`, [lngLats[i]![0] / 360 + 0.5, mercator(lngLats[i]![1]), pinTileOf(...lngLats[i]!, zoom)]),
            bubble: (lng, lat, count, id) => expected.set(`bubble ${id} of ${count}`, [lng / 360 + 0.5, mercator(lat), tileOf(lng, lat, zoom)]),
          });
          const tiles = new Set([...expected.values()].map(([, , tile]) => tile.join('/')));
          for (const key of above) {
            const [x, y] = key.split('/').map(Number) as [number, number];
            for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) tiles.add(`${2 * x + dx!}/${2 * y + dy!}`);
          }
          above = new Set();
          const found: string[] = [];
          for (const key of tiles) {
            const [x, y] = key.split('/').map(Number) as [number, number];
            for (const { name, worldX, worldY } of featuresIn(await pinArchiveTile(archive, zoom, x, y), zoom, x, y)) {
              found.push(name);
              above.add(key);
              const [wantX, wantY, [tx, ty]] = expected.get(name) ?? [NaN, NaN, [NaN, NaN]];
              expect([tx, ty], `${name} at zoom ${zoom}: its tile`).toEqual([x, y]);
              // Within a step of the grid (a zoom-16 tile's, or the zoom's own where coarser).
              const step = 1 / 2 ** Math.min(zoom, PIN_ARCHIVE.lowestLastZoom) / PIN_ARCHIVE.extent;
              expect(Math.abs(worldX - wantX), `${name} at zoom ${zoom}`).toBeLessThanOrEqual(step);
              expect(Math.abs(worldY - wantY), `${name} at zoom ${zoom}`).toBeLessThanOrEqual(step);
            }
          }
          expect(found.sort(), `zoom ${zoom}`).toEqual([...expected.keys()].sort());
        }
      }),
      { numRuns: 6, seed: 41 },
    );
  }, 120_000);

  it('are left out of the archive: pins spread out are written about once each past the zoom they stand alone from, not once per zoom', async () => {
    let state = 3;
    const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const lngLats = Array.from({ length: 400 }, () => [-10 + random() * 40, 35 + random() * 25] as [number, number]);
    const bytes = await tileCollection({ type: 'FeatureCollection', features: lngLats.map((coordinates, i) => feature(`p${i}`, {}, { geometry: { type: 'Point', coordinates } })) });
    const archive = memoryArchive(bytes);
    const header = await archive.getHeader();
    let written = 0;
    let read = 0;
    for (let zoom = PIN_ARCHIVE.cutFrom + 1; zoom <= header.maxZoom; zoom++) {
      for (const key of new Set(lngLats.map(([lng, lat]) => pinTileOf(lng, lat, zoom).join('/')))) {
        const [x, y] = key.split('/').map(Number) as [number, number];
        if (await archive.getZxy(zoom, x, y)) written++;
        read += featuresIn(await pinArchiveTile(archive, zoom, x, y), zoom, x, y).length;
      }
    }
    // Every pin is read at every zoom from cutFrom + 1 up; few of those tiles are in the archive.
    expect(read).toBe(lngLats.length * (header.maxZoom - PIN_ARCHIVE.cutFrom));
    expect(written).toBeLessThan(read / 10);
  });

  it('keeps a pin on the far edge of the tile above in the last of its tiles, and a pin on an edge within it in the tile after the edge', () => {
    const extent = tileExtent(PIN_ARCHIVE.cutFrom, PIN_ARCHIVE.cutFrom);
    // Zoom cutFrom, tile 0/0: a pin on its far corner, one on the edge between its children, one inside.
    const points = [[extent, extent, 'corner'], [extent / 2, 10, 'edge'], [3, 5, 'inside']] as const;
    const tile = {
      layers: {
        pins: {
          version: 2,
          name: 'pins',
          extent,
          length: points.length,
          feature: (i: number) => ({ type: 1 as const, id: undefined, extent, properties: { id: points[i]![2], look: 0 }, loadGeometry: () => [[{ x: points[i]![0], y: points[i]![1] }]] as never }),
        },
      },
    };
    const bytes = fromVectorTile(tile);
    const z = PIN_ARCHIVE.cutFrom + 1;
    const at = (x: number, y: number) => featuresIn(cutPinTile(bytes, { z: z - 1, x: 0, y: 0 }, { z, x, y }, PIN_ARCHIVE.cutFrom), z, x, y).map(({ name, worldX, worldY }) => [name, worldX * 2 ** (z - 1) * extent, worldY * 2 ** (z - 1) * extent]);
    expect(at(0, 0)).toEqual([['pin inside', 3, 5]]);
    expect(at(1, 0)).toEqual([['pin edge', extent / 2, 10]]);
    expect(at(0, 1)).toEqual([]);
    expect(at(1, 1)).toEqual([['pin corner', extent, extent]]);
  });
});
