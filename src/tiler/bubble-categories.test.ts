import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTiles, type Source } from 'pmtiles';
import { afterAll, describe, expect, it } from 'vitest';
import { PIN_ARCHIVE, bubbleCategoryKey, hiddenCategoryIndices, shownBubbleCount, type PinArchiveMetadata } from '../pins/archive-format.ts';
import { feature } from '../testing/pin-features.testing.ts';
import { tilePins } from './tile-pins.ts';
import { pinArchiveTile } from '../testing/pin-archive.testing.ts';
import { tileOf } from './zoom-groups.ts';

const folder = mkdtempSync(join(tmpdir(), 'pinmap-bubble-categories-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Tiles `collection` and opens the archive. */
async function tile(collection: unknown, name: string) {
  const path = join(folder, `${name}.pmtiles`);
  await tilePins(Readable.from([JSON.stringify(collection)]), path, { name });
  const bytes = readFileSync(path);
  const source: Source = { getKey: () => name, getBytes: async (offset, length) => ({ data: bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length) as ArrayBuffer }) };
  const archive = new PMTiles(source);
  const { pinmap } = (await archive.getMetadata()) as { pinmap: PinArchiveMetadata };
  return { archive, pinmap };
}

/** Every feature's properties at zoom `z` in the tiles over `[west, south, east, north]`, each tile's once. */
async function featuresAt(archive: PMTiles, z: number, [west, south, east, north]: number[]) {
  const [x0, y0] = tileOf(west!, north!, z);
  const [x1, y1] = tileOf(east!, south!, z);
  const found: Record<string, unknown>[] = [];
  for (let x = x0; x <= x1; x++) {
    for (let y = y0; y <= y1; y++) {
      const data = await pinArchiveTile(archive, z, x, y);
      const layer = data && new VectorTile(new PbfReader(data)).layers[PIN_ARCHIVE.layer];
      for (let k = 0; layer && k < layer.length; k++) found.push(layer.feature(k).properties);
    }
  }
  return found;
}

describe('bubbles per category', () => {
  it('count each category\'s pins in the bubble; pins without a category in none', async () => {
    const at = { geometry: { type: 'Point', coordinates: [10, 50] } };
    const features = [
      feature('a1', { category: 'cafe' }, at),
      feature('a2', { category: 'cafe' }, at),
      feature('b1', { category: 'museum' }, at),
      feature('none', {}, at),
    ];
    const { archive, pinmap } = await tile({ type: 'FeatureCollection', pinStyles: { park: {} }, features }, 'one-spot');
    expect(pinmap.categories).toEqual([['park', 0], ['cafe', 2], ['museum', 1]]);
    const [bubble] = await featuresAt(archive, 3, [10, 50, 10, 50]);
    expect(bubble).toMatchObject({ cluster: true, point_count: 4, [bubbleCategoryKey(1)]: 2, [bubbleCategoryKey(2)]: 1 });
    expect(bubble).not.toHaveProperty(bubbleCategoryKey(0));

    // What the page shows of it with categories hidden: pins without a category always count.
    const shown = (...hidden: string[]) => shownBubbleCount(bubble!, hiddenCategoryIndices(pinmap, new Set(hidden)));
    expect(shown()).toBe(4);
    expect(shown('cafe')).toBe(2);
    expect(shown('museum', 'park')).toBe(3);
    expect(shown('cafe', 'museum')).toBe(1);
    expect(shown('elsewhere')).toBe(4);
  });

  it('add up, at every zoom, with the lone pins to each category\'s count', async () => {
    let state = 3;
    const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const categories = ['cafe', 'museum', 'park', undefined];
    const features = Array.from({ length: 3000 }, (_, i) =>
      feature(`p${i}`, { category: categories[i % 4] }, { geometry: { type: 'Point', coordinates: [5 + random() * 10, 45 + random() * 5] } }),
    );
    const { archive, pinmap } = await tile({ type: 'FeatureCollection', features }, 'crowd');
    const names = pinmap.categories!.map(([name]) => name);
    const categoryOfLook = pinmap.looks.map((look) => look.category);
    for (const zoom of [0, 4, 7, 10, 12]) {
      const counted = new Map<string | undefined, number>();
      const add = (category: string | undefined, n: number) => counted.set(category, (counted.get(category) ?? 0) + n);
      let bubbles = 0;
      for (const properties of await featuresAt(archive, zoom, [5, 45, 15, 50])) {
        if (properties.cluster !== true) {
          add(categoryOfLook[properties.look as number], 1);
          continue;
        }
        bubbles++;
        let inCategories = 0;
        names.forEach((name, k) => {
          const n = (properties[bubbleCategoryKey(k)] as number | undefined) ?? 0;
          inCategories += n;
          add(name, n);
        });
        add(undefined, (properties.point_count as number) - inCategories);
      }
      if (zoom < 12) expect(bubbles, `bubbles at zoom ${zoom}`).toBeGreaterThan(0);
      expect(Object.fromEntries(counted), `zoom ${zoom}`).toEqual({ cafe: 750, museum: 750, park: 750, undefined: 750 });
    }
  });

  it('are not counted when no pin has a category', async () => {
    const at = { geometry: { type: 'Point', coordinates: [10, 50] } };
    const { archive, pinmap } = await tile({ type: 'FeatureCollection', features: [feature('a', {}, at), feature('b', {}, at)] }, 'no-categories');
    expect(pinmap.categories).toEqual([]);
    const [bubble] = await featuresAt(archive, 3, [10, 50, 10, 50]);
    expect(Object.keys(bubble!).sort()).toEqual(['cluster', 'cluster_id', 'expansion_zoom', 'first', 'point_count', 'point_count_abbreviated']);
  });
});
