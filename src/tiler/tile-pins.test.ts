import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTiles, type Source } from 'pmtiles';
import { afterAll, describe, expect, it } from 'vitest';
import { CLUSTER_MAX_ZOOM } from '../config/constants.ts';
import { PIN_ARCHIVE, pinBucket, type PinArchiveMetadata, type PinIndexEntry } from '../pins/archive-format.ts';
import { parsePins } from '../pins/data.ts';
import { cityLngLats, feature } from '../testing/pin-features.testing.ts';
import { PinGrouping } from '../pins/grouping/grouping.ts';
import { legendEntries } from '../pins/legend.ts';
import { tilePins } from './tile-pins.ts';
import { pinTileOf } from './zoom-tiles.ts';
import { pinArchiveTile } from '../testing/pin-archive.testing.ts';

const folder = mkdtempSync(join(tmpdir(), 'pinmap-tile-pins-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function memorySource(bytes: Buffer): Source {
  return {
    getKey: () => 'memory',
    getBytes: async (offset, length) => ({ data: bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length) as ArrayBuffer }),
  };
}

/** Tiles `collection` (streamed from its JSON text) and opens the archive with the `pmtiles` reader. */
async function tile(collection: unknown, name: string, options: { indexPartPins?: number } = {}) {
  const path = join(folder, `${name}.pmtiles`);
  const result = await tilePins(Readable.from([JSON.stringify(collection)]), path, { name, keep: 1000, ...options });
  const bytes = readFileSync(path);
  return { result, bytes, archive: new PMTiles(memorySource(bytes)) };
}

/** The features of the `pins` layer of one tile, as [properties, tile x, tile y]. */
async function featuresOf(archive: PMTiles, z: number, x: number, y: number) {
  const data = await pinArchiveTile(archive, z, x, y);
  if (!data) return [];
  const layer = new VectorTile(new PbfReader(data)).layers[PIN_ARCHIVE.layer];
  if (!layer) return [];
  return Array.from({ length: layer.length }, (_, k) => layer.feature(k)).map((f) => ({ properties: f.properties, point: f.loadGeometry()[0]![0]! }));
}

/** Every entry of the archive's pin index (the section after the tile data, before the search index), bucket by bucket, checking each is in its id's bucket. */
async function indexOf(archive: PMTiles, bytes: Buffer): Promise<PinIndexEntry[]> {
  const header = await archive.getHeader();
  const { pinmap } = (await archive.getMetadata()) as { pinmap: PinArchiveMetadata };
  const at = header.tileDataOffset + header.tileDataLength!;
  // The search index follows the pin index, and the bubbles' pins follow it, to the end of the file.
  expect(at + pinmap.index.length + pinmap.search!.length + pinmap.leaves!.length).toBe(bytes.length);
  const entries: PinIndexEntry[] = [];
  for (let bucket = 0; bucket < pinmap.index.buckets; bucket++) {
    const start = bytes.readDoubleLE(at + bucket * 8);
    const end = bytes.readDoubleLE(at + bucket * 8 + 8);
    const inBucket = JSON.parse(gunzipSync(bytes.subarray(at + start, at + end)).toString('utf8')) as PinIndexEntry[];
    for (const entry of inBucket) expect(pinBucket(entry[0], pinmap.index.buckets)).toBe(bucket);
    entries.push(...inBucket);
  }
  return entries;
}

/** A deterministic crowd of `count` pins in a box around Europe, in a few categories, some with options of their own. */
function crowd(count: number) {
  let state = 7;
  const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const categories = ['cafe', 'museum', 'park'];
  return {
    type: 'FeatureCollection',
    pinStyles: { cafe: { markerColor: '#6D4C41' }, museum: { markerColor: '#8E24AA', iconClasses: 'fa-solid fa-landmark' } },
    features: Array.from({ length: count }, (_, i) =>
      feature(`p${i}`, {
        category: categories[i % 3],
        description: i % 2 ? `Pin number ${i}` : undefined,
        url: i % 5 === 0 ? `https://example.com/${i}` : undefined,
        ...(i % 97 === 0 ? { pin: { label: String(i % 10) } } : {}),
      }, { geometry: { type: 'Point', coordinates: [-5 + random() * 25, 40 + random() * 15] } }),
    ),
  };
}

describe('pin tiler', () => {
  it('the committed fixture archive is up to date: tiling fixtures/pins/cities.geojson again gives the same bytes (else run `npm run fixtures:pin-archive`)', async () => {
    const path = join(folder, 'cities.pmtiles');
    await tilePins(Readable.from([readFileSync('fixtures/pins/cities.geojson')]), path, { name: 'cities' });
    expect(readFileSync(path).equals(readFileSync('fixtures/pins/cities.pmtiles'))).toBe(true);
  });

  it('checks every feature with the page\'s rules: the same features are skipped, with their index and reason, and the rest kept', async () => {
    const features = [
      feature('ok-1'),
      feature('no-title', { title: undefined }),
      feature('ok-2', { url: 'javascript:alert(1)' }),
      feature('far', {}, { geometry: { type: 'Point', coordinates: [2, 95] } }),
      feature('ok-1'),
      feature(undefined),
      'not a feature',
      feature('line', {}, { geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] } }),
      feature('ok-3', { pin: { markerColor: 'not a colour', iconSize: 20 } }),
    ];
    const collection = { type: 'FeatureCollection', features };
    const inPage = parsePins(collection);
    const { result, archive, bytes } = await tile(collection, 'checked');
    expect(result.skipped).toEqual(inPage.skipped);
    expect(result.skipped.map((s) => s.index)).toEqual([1, 3, 4, 5, 6, 7]);
    expect(result.skippedCount).toBe(6);
    expect(result.warnings).toEqual(inPage.warnings);
    expect(result.pins).toBe(inPage.pins.length);
    const meta = (await archive.getMetadata()) as { pinmap: PinArchiveMetadata };
    const index = await indexOf(archive, bytes);
    expect(index.map((entry) => entry[0]).sort()).toEqual(inPage.pins.map((pin) => pin.id).sort());
    // The bad URL was dropped as the page drops it; the valid option was kept, the bad one not.
    expect(index.find((entry) => entry[0] === 'ok-2')![6]).toBeNull();
    expect(meta.pinmap.looks).toContainEqual({ pin: { iconSize: 20 } });
  });

  it('counts the pins of each category in the metadata, in the order the categories first appear: the legend the page makes of the same pins inline', async () => {
    const features = [
      feature('a', { category: 'museum' }),
      feature('b'),
      feature('c', { category: 'cafe', pin: { label: '1' } }),
      feature('d', { category: '2' }),
      feature('e', { category: 'museum', pin: { markerColor: '#000000' } }),
      feature('f', { category: 'cafe' }),
      feature('skipped', { category: 'park' }, { geometry: { type: 'Point', coordinates: [2, 95] } }),
      feature('g', { category: 'museum' }),
      feature('h', { category: '1' }),
    ];
    const collection = { type: 'FeatureCollection', pinStyles: { park: { markerColor: '#2E7D32' }, cafe: { markerColor: '#6D4C41' } }, features };
    const { archive } = await tile(collection, 'categories');
    const meta = (await archive.getMetadata()) as { pinmap: PinArchiveMetadata };
    // The file's styled categories in its order (a skipped pin is not counted), then the others as
    // they first appear; numeric names keep their place (an object's keys would put them first).
    expect(meta.pinmap.categories).toEqual([['park', 0], ['cafe', 2], ['museum', 3], ['2', 1], ['1', 1]]);
    const inPage = parsePins(collection);
    const counted = meta.pinmap.categories!.map(([category, count]) => ({ category, count }));
    expect(legendEntries([], inPage.pinStyles, counted)).toEqual(legendEntries(inPage.pins, inPage.pinStyles));
  });

  it('reads a CSV file (told from JSON by its first characters) into the same archive as the same pins in GeoJSON, naming bad rows by line', async () => {
    const rows = [
      ['a', 'Alpha', '48,85', '2,35', 'cafe'],
      ['b', 'Beta', '95', '2', ''],
      ['c', 'Gamma', '45,76', '4,84', ''],
    ];
    const text = `\uFEFFid;Name;Lat;Lon;Category\r\n${rows.map((row) => row.join(';')).join('\r\n')}\r\n`;
    const fromCsv = join(folder, 'from-csv.pmtiles');
    const result = await tilePins(Readable.from([Buffer.from(text)]), fromCsv, { name: 'same' });
    expect(result.pins).toBe(2);
    expect(result.features).toBe(3);
    expect(result.skipped.map((skipped) => skipped.reason)).toEqual(['line 3 ("Beta"): latitude 95 is outside -90..90']);
    const collection = { type: 'FeatureCollection', features: [feature('a', { title: 'Alpha', category: 'cafe' }, { geometry: { type: 'Point', coordinates: [2.35, 48.85] } }), feature('c', { title: 'Gamma' }, { geometry: { type: 'Point', coordinates: [4.84, 45.76] } })] };
    const fromJson = join(folder, 'from-json.pmtiles');
    await tilePins(Readable.from([JSON.stringify(collection)]), fromJson, { name: 'same' });
    expect(readFileSync(fromCsv).equals(readFileSync(fromJson))).toBe(true);
  });

  it('is an error naming the problem for a CSV file that cannot be pins', async () => {
    await expect(tilePins(Readable.from(['title,lat\nA,1\n']), join(folder, 'no-lng.pmtiles'))).rejects.toThrow('the CSV file has no longitude column');
  });

  it('keeps the smallest box around the pins in the metadata, across the antimeridian when narrower', async () => {
    const at = (id: string, lng: number, lat: number) => feature(id, {}, { geometry: { type: 'Point', coordinates: [lng, lat] } });
    const { archive } = await tile({ type: 'FeatureCollection', features: [at('fiji', 178, -18), at('samoa', -172, -14), at('tonga', -175, -21)] }, 'pacific');
    const { pinmap } = (await archive.getMetadata()) as { pinmap: PinArchiveMetadata };
    expect(pinmap.bounds).toEqual([178, -21, 188, -14]);
  });

  it('is an error naming the problem for input that is not a FeatureCollection', async () => {
    await expect(tile({ type: 'Feature', features: [] }, 'not-a-collection')).rejects.toThrow('pins must be a GeoJSON FeatureCollection (got type "Feature")');
    await expect(tile({ type: 'FeatureCollection', features: { a: 1 } }, 'no-array')).rejects.toThrow('whose "features" is an array (got an object)');
    await expect(tile([{ type: 'Feature' }], 'top-array')).rejects.toThrow('pins must be a GeoJSON FeatureCollection (got an array)');
    const path = join(folder, 'broken.pmtiles');
    await expect(tilePins(Readable.from(['{"type": "FeatureCollection", "features": [']), path)).rejects.toThrow('the file is not JSON: it ends early, in the "features" array');
    expect(existsSync(path)).toBe(false);
  });

  it('at every zoom the tiles hold exactly the bubbles (counts, ids, where they split) and lone pins of the page\'s grouping, in more than one zoom range', async () => {
    const collection = crowd(10_500);
    // And pins where tiles and the tiler's boxes meet: on the antimeridian from both sides, on the
    // edges of zoom-7 tiles, at the poles' limits and beyond them.
    const edges: [number, number][] = [[180, 0], [-180, 0], [180, 60], [-180, -60], [0, 0], [360 / 128 - 180, 10], [-360 / 128, -10], [90, 85.0511287798066], [-90, -85.0511287798066], [45, 89.9], [-45, -89.9], [180, 85.0511287798066]];
    edges.forEach(([lng, lat], k) => collection.features.push(feature(`edge${k}`, {}, { geometry: { type: 'Point', coordinates: [lng, lat] } })));
    const { pins } = parsePins(collection);
    const grouping = new PinGrouping({ lngLats: Float64Array.from(pins.flatMap((pin) => pin.lngLat)) });
    const { result, archive } = await tile(collection, 'crowd');
    expect(result.pins).toBe(10_500 + edges.length);
    const header = await archive.getHeader();
    // It ends at the first zoom without bubbles, below the last there can be.
    expect([header.minZoom, header.maxZoom]).toEqual([0, firstZoomWithoutBubbles(Float64Array.from(pins.flatMap((pin) => pin.lngLat)))]);
    expect(header.maxZoom).toBeLessThan(PIN_ARCHIVE.maxZoom);

    for (let zoom = 0; zoom <= header.maxZoom; zoom++) {
      const expected: string[] = [];
      const tiles = new Set<string>();
      const tileOf = (lng: number, lat: number) => {
        const size = 2 ** zoom;
        const sin = Math.sin((lat * Math.PI) / 180);
        const y = Math.min(1, Math.max(0, 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI));
        // 180° is drawn at -180°, as a GeoJSON source draws it.
        tiles.add(`${Math.floor(((lng / 360 + 0.5) % 1) * size)}/${Math.min(size - 1, Math.floor(y * size))}`);
      };
      grouping.visit([-180, -90, 180, 90], zoom, {
        pin: (i) => {
          // Pins are put in tiles by their place on the finest grid (a few centimetres off).
          tiles.add(pinTileOf(...pins[i]!.lngLat, zoom).join('/'));
          expected.push(`pin ${pins[i]!.id}`);
        },
        bubble: (lng, lat, count, id) => {
          tileOf(lng, lat);
          expected.push(`bubble ${id} of ${count} splits at ${grouping.expansionZoom(id)}`);
        },
      });
      const found: string[] = [];
      for (const key of tiles) {
        const [x, y] = key.split('/').map(Number) as [number, number];
        for (const { properties: p } of await featuresOf(archive, zoom, x, y)) {
          found.push(p.cluster ? `bubble ${String(p.cluster_id)} of ${String(p.point_count)} splits at ${String(p.expansion_zoom)}` : `pin ${String(p.id)}`);
        }
      }
      expect(found.sort(), `zoom ${zoom}`).toEqual(expected.sort());
      if (zoom <= CLUSTER_MAX_ZOOM && zoom >= 1 && zoom <= 4) expect(expected.some((e) => e.startsWith('bubble')), `zoom ${zoom} has bubbles`).toBe(true);
    }
  }, 120_000);

  it('keeps what the popup needs in the pin index, each pin\'s id, title and look in the tiles, and each look once', async () => {
    const collection = crowd(300);
    const { archive, bytes } = await tile(collection, 'popup');
    const meta = (await archive.getMetadata()) as { pinmap: PinArchiveMetadata; vector_layers: { id: string }[] };
    expect(meta.vector_layers.map((layer) => layer.id)).toEqual(['pins']);
    expect(meta.pinmap.count).toBe(300);
    expect(meta.pinmap.pinStyles).toEqual(collection.pinStyles);
    // Three categories without options of their own, and the four labelled pins' looks (pins 0, 97, 194, 291), each once.
    expect(meta.pinmap.looks).toHaveLength(7);
    expect(new Set(meta.pinmap.looks.map((look) => JSON.stringify(look))).size).toBe(7);
    expect(meta.pinmap.looks).toContainEqual({ category: 'museum', pin: { label: '7' } });
    const index = await indexOf(archive, bytes);
    expect(index).toHaveLength(300);
    expect(meta.pinmap.index.buckets).toBe(Math.ceil(300 / PIN_ARCHIVE.pinsPerBucket));
    const entry = index.find((e) => e[0] === 'p5')!;
    const look = meta.pinmap.looks.findIndex((l) => l.category === 'park' && !l.pin);
    expect(entry).toEqual(['p5', expect.any(Number), expect.any(Number), expect.any(Number), 'Pin p5', 'Pin number 5', 'https://example.com/5', 'park', look]);
    const [, lng, lat] = entry;
    const z = (await archive.getHeader()).maxZoom;
    const size = 2 ** z;
    const sin = Math.sin((lat * Math.PI) / 180);
    const x = Math.floor((lng / 360 + 0.5) * size);
    const y = Math.floor((0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI) * size);
    const features = await featuresOf(archive, z, x, y);
    const pin = features.find((f) => f.properties.id === 'p5')!;
    expect(pin.properties).toEqual({ id: 'p5', title: 'Pin p5', look });
    // It stands alone from the zoom its tiles first hold it alone.
    const aloneMask = entry[3];
    for (let zoom = 0; zoom <= z; zoom++) {
      const [tx, ty] = [Math.floor((lng / 360 + 0.5) * 2 ** zoom), Math.floor((0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI) * 2 ** zoom)];
      const here = (await featuresOf(archive, zoom, tx, ty)).some((f) => f.properties.id === 'p5');
      expect(here, `zoom ${zoom}`).toBe(Boolean(aloneMask & (1 << zoom)));
    }
  });

  it('writes the same pin index however many parts it is written in (parts hold a share of the pins in memory)', async () => {
    const collection = crowd(3000);
    const whole = await tile(collection, 'parts');
    const inParts = await tile(collection, 'parts', { indexPartPins: 200 });
    expect(inParts.bytes.equals(whole.bytes)).toBe(true);
    const index = await indexOf(inParts.archive, inParts.bytes);
    expect(index.map((entry) => entry[0]).sort()).toEqual(Array.from({ length: 3000 }, (_, i) => `p${i}`).sort());
  });
});

/** The first zoom from `PIN_ARCHIVE.lowestLastZoom` up at which the page's grouping of `pins` puts no pin in a bubble (`PIN_ARCHIVE.maxZoom` at the latest). */
function firstZoomWithoutBubbles(lngLats: Float64Array): number {
  const grouping = new PinGrouping({ lngLats });
  for (let zoom = PIN_ARCHIVE.lowestLastZoom; zoom < PIN_ARCHIVE.maxZoom; zoom++) {
    let bubbles = 0;
    grouping.visit([-180, -90, 180, 90], zoom, { pin: () => {}, bubble: () => bubbles++ });
    if (bubbles === 0) return zoom;
  }
  return PIN_ARCHIVE.maxZoom;
}

describe('where the archive ends', () => {
  it('pins spread over the world: at the first zoom where no pin is in a bubble, which holds every pin; the pin index knows the zooms up to it', async () => {
    let state = 11;
    const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const collection = { type: 'FeatureCollection', features: Array.from({ length: 2000 }, (_, i) => feature(`w${i}`, {}, { geometry: { type: 'Point', coordinates: [-180 + random() * 360, -60 + random() * 130] } })) };
    const { pins } = parsePins(collection);
    const last = firstZoomWithoutBubbles(Float64Array.from(pins.flatMap((pin) => pin.lngLat)));
    expect(last, 'the world-spread pins stand alone below the grouping\'s last zoom').toBeLessThan(CLUSTER_MAX_ZOOM);
    const { archive, bytes, result } = await tile(collection, 'world');
    const header = await archive.getHeader();
    expect([header.minZoom, header.maxZoom]).toEqual([0, last]);
    const meta = (await archive.getMetadata()) as { pinmap: PinArchiveMetadata; vector_layers: { maxzoom: number }[] };
    expect(meta.vector_layers[0]!.maxzoom).toBe(last);
    // Nothing past it: MapLibre zooms in on its tiles.
    const [lng, lat] = pins[0]!.lngLat;
    const tileAt = (zoom: number) => {
      const sin = Math.sin((lat * Math.PI) / 180);
      return [Math.floor((lng / 360 + 0.5) * 2 ** zoom), Math.floor((0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI) * 2 ** zoom)] as const;
    };
    expect(await archive.getZxy(last + 1, ...tileAt(last + 1))).toBeUndefined();
    // Its last zoom holds every pin, alone, and no bubble.
    const index = await indexOf(archive, bytes);
    expect(index).toHaveLength(pins.length);
    for (const entry of index) {
      const aloneMask = entry[3];
      expect(aloneMask & (1 << last), `${entry[0]} stands alone at zoom ${last}`).not.toBe(0);
      expect(aloneMask >>> (last + 1), `${entry[0]}: no zoom past the archive's last`).toBe(0);
    }
    const here = await featuresOf(archive, last, ...tileAt(last));
    expect(here.some((f) => f.properties.id === pins[0]!.id)).toBe(true);
    expect(here.some((f) => f.properties.cluster)).toBe(false);
    // Each of its zooms holds at most a tile a pin: none past it.
    expect(result.tiles).toBeLessThan(2000 * (last + 1));
  });

  it('pins in a city, where bubbles last to the grouping\'s last zoom: at the zoom above it, as before', async () => {
    const collection = { type: 'FeatureCollection', features: cityLngLats([4.835, 45.76]).map((coordinates, i) => feature(`c${i}`, {}, { geometry: { type: 'Point', coordinates } })) };
    const { pins } = parsePins(collection);
    expect(firstZoomWithoutBubbles(Float64Array.from(pins.flatMap((pin) => pin.lngLat)))).toBe(PIN_ARCHIVE.maxZoom);
    const { archive } = await tile(collection, 'city');
    const header = await archive.getHeader();
    expect([header.minZoom, header.maxZoom]).toEqual([0, PIN_ARCHIVE.maxZoom]);
  });

  it('a few pins far apart: not below PIN_ARCHIVE.lowestLastZoom, where the tiles\' grid (1/8192 of a tile) is a few centimetres', async () => {
    const collection = { type: 'FeatureCollection', features: [feature('a', {}, { geometry: { type: 'Point', coordinates: [2.35, 48.85] } }), feature('b', {}, { geometry: { type: 'Point', coordinates: [-74, 40.7] } })] };
    const { archive, bytes } = await tile(collection, 'two');
    const header = await archive.getHeader();
    expect([header.minZoom, header.maxZoom]).toEqual([0, PIN_ARCHIVE.lowestLastZoom]);
    const index = await indexOf(archive, bytes);
    // Alone at every zoom of the archive.
    for (const entry of index) expect(entry[3]).toBe(2 ** (PIN_ARCHIVE.lowestLastZoom + 1) - 1);
  });
});

describe('long text', () => {
  it('is stored once: 8 pins with 200 kB titles make an archive of about their size, not one per zoom', async () => {
    const long = (i: number) => `${i} ${'Lorem ipsum dolor sit amet, '.repeat(200_000 / 28)}`;
    const features = Array.from({ length: 8 }, (_, i) => feature(`long-${i}`, { title: long(i) }, { geometry: { type: 'Point', coordinates: [i * 20 - 70, i * 8 - 30] } }));
    const { bytes, archive } = await tile({ type: 'FeatureCollection', features }, 'long-titles');
    const text = 8 * long(0).length;
    // The pin index holds each whole title once (gzipped); the tiles hold a short name per zoom.
    expect(bytes.length, `archive of ${bytes.length} bytes for ${text} characters of titles`).toBeLessThan(text / 4);
    const lone = (await featuresOf(archive, 15, ...tileOf(-70, -30, 15))).map((f) => f.properties.title as string);
    expect(lone[0]!.length).toBeLessThanOrEqual(PIN_ARCHIVE.tileTitleLength);
    expect(lone[0]!.endsWith('…')).toBe(true);
    const entries = await indexOf(archive, bytes);
    expect(entries.find((entry) => entry[0] === 'long-0')?.[4]).toBe(long(0));
  });
});

/** The x and y of the tile at zoom `z` that holds `[lng, lat]`. */
function tileOf(lng: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return [Math.floor(((lng + 180) / 360) * n), Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n)];
}
