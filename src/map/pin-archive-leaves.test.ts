import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTiles, type Source } from 'pmtiles';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PIN_ARCHIVE } from '../pins/archive-format.ts';
import { PinGrouping } from '../pins/grouping/grouping.ts';
import { openServedArchive, pinArchiveTile, tileCollection, withMetadata, type ServedRange } from '../testing/pin-archive.testing.ts';
import { clumpedLngLats, feature } from '../testing/pin-features.testing.ts';
import { BUBBLE_PINS_LISTED } from './pin-archive.ts';

const HOST = 'https://pins.example.org';
const CATEGORIES = ['cafe', 'museum', 'park'];
const lngLats = clumpedLngLats(12_000);
let bytes: Buffer;
beforeAll(async () => {
  const features = lngLats.map((coordinates, i) => feature(`p${i}`, { title: `Pin ${i}`, category: CATEGORIES[i % 3] }, { geometry: { type: 'Point', coordinates } }));
  bytes = await tileCollection({ type: 'FeatureCollection', features });
}, 120_000);

let served: ServedRange[];
/** Opens `archive` as the page does (see `openServedArchive`); `served` lists its range requests. */
async function open(archive: Buffer) {
  const opened = await openServedArchive(archive, HOST);
  served = opened.served;
  return opened.archive;
}
afterEach(() => vi.unstubAllGlobals());

/** The tile at `zoom` a longitude and latitude are in (Web Mercator). */
function tileOf(lng: number, lat: number, zoom: number): [number, number] {
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  return [Math.floor((lng / 360 + 0.5) * 2 ** zoom), Math.floor(y * 2 ** zoom)];
}

/** The bubbles in the tiles at `zoom` that hold a pin, read from the archive's bytes. */
async function bubblesAt(zoom: number): Promise<Record<string, unknown>[]> {
  const source: Source = { getKey: () => 'pins', getBytes: async (offset, length) => ({ data: bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length) as ArrayBuffer }) };
  const tiles = new PMTiles(source);
  const keys = new Set(lngLats.map(([lng, lat]) => tileOf(lng, lat, zoom).join('/')));
  const found: Record<string, unknown>[] = [];
  for (const key of keys) {
    const [x, y] = key.split('/').map(Number);
    const data = await pinArchiveTile(tiles, zoom, x!, y!);
    const layer = data && new VectorTile(new PbfReader(data)).layers[PIN_ARCHIVE.layer];
    for (let k = 0; layer && k < layer.length; k++) if (layer.feature(k).properties.cluster === true) found.push(layer.feature(k).properties);
  }
  return found;
}

describe("a pre-tiled archive's bubbles' pins", () => {
  it('are, for bubbles of every range of zooms, the pins the grouping put in them', async () => {
    const archive = await open(bytes);
    expect(archive.metadata.version).toBe(PIN_ARCHIVE.version);
    const grouping = new PinGrouping({ lngLats: Float64Array.from(lngLats.flat()) });
    let large = 0;
    for (const zoom of [2, 5, 8, 10, 12, 14]) {
      const bubbles = await bubblesAt(zoom);
      expect(bubbles.length, `zoom ${zoom}`).toBeGreaterThan(0);
      for (const properties of bubbles.slice(0, 40)) {
        const pins = await archive.bubblePins!(properties, [0, 0], new Set());
        const leaves = new Set(Array.from(grouping.leaves(properties.cluster_id as number).pins, (i) => `p${i}`));
        const points = properties.point_count as number;
        expect(pins.length, `bubble ${String(properties.cluster_id)} at zoom ${zoom}`).toBe(Math.min(points, BUBBLE_PINS_LISTED));
        expect(new Set(pins.map((pin) => pin.id)).size).toBe(pins.length);
        for (const pin of pins) {
          expect(leaves.has(pin.id), `${pin.id} in bubble ${String(properties.cluster_id)} at zoom ${zoom}`).toBe(true);
          const i = Number(pin.id.slice(1));
          expect(pin).toMatchObject({ title: `Pin ${i}`, category: CATEGORIES[i % 3] });
        }
        if (points > BUBBLE_PINS_LISTED) large++;
        else expect(pins.length).toBe(leaves.size);
      }
    }
    expect(large).toBeGreaterThan(0);
  });

  it("read a bubble's first page with a few range requests, and leave out hidden categories", async () => {
    const archive = await open(bytes);
    const [bubble] = (await bubblesAt(14)).sort((a, b) => (b.point_count as number) - (a.point_count as number));
    const before = served.length;
    const pins = await archive.bubblePins!(bubble!, [0, 0], new Set(['cafe']));
    expect(served.length - before).toBeLessThanOrEqual(4);
    expect(pins.length).toBeGreaterThan(0);
    expect(pins.every((pin) => pin.category !== 'cafe')).toBe(true);
    const all = await archive.bubblePins!(bubble!, [0, 0], new Set());
    expect(all.filter((pin) => pin.category !== 'cafe')).toEqual(pins);
  });

  it('are not listed from an archive made before archives kept them (version 3)', async () => {
    const archive = await open(
      withMetadata(bytes, (pinmap) => {
        pinmap.version = 3;
        delete pinmap.leaves;
      }),
    );
    expect(archive.bubblePins).toBeUndefined();
  });
});
