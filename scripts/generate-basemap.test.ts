import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { listFiles } from './fixture-files.ts';
import { compareWithGenerator } from './fixture-inputs.ts';
import { ARCHIVE_FILE, DEFAULT_OUT_DIR, LAYER_NAMES, MAX_ZOOM, MIN_ZOOM, PLACES_MAX_ZOOM, PLACES_MIN_ZOOM, generateBasemap } from './generate-basemap.ts';

/** The committed archive, read with the `pmtiles` reader as the map reads it (ranges of the file). */
const archive = new PMTiles(
  new (class implements Source {
    private readonly bytes = readFileSync(path.join(DEFAULT_OUT_DIR, ARCHIVE_FILE));
    getKey = () => ARCHIVE_FILE;
    getBytes = async (offset: number, length: number): Promise<RangeResponse> => {
      const slice = this.bytes.subarray(offset, offset + length);
      return { data: slice.buffer.slice(slice.byteOffset, slice.byteOffset + slice.byteLength) as ArrayBuffer };
    };
  })(),
);

const readTile = async (z: number, x: number, y: number): Promise<VectorTile> => {
  const tile = await archive.getZxy(z, x, y);
  if (!tile) throw new Error(`no tile ${z}/${x}/${y} in the archive`);
  return new VectorTile(new PbfReader(new Uint8Array(tile.data)));
};

const featureCount = (tile: VectorTile, layer: string): number => tile.layers[layer]?.length ?? 0;

/** The properties of every place in a tile. */
const placesOf = (tile: VectorTile) => Array.from({ length: featureCount(tile, 'places') }, (_, i) => tile.layers.places!.feature(i).properties);

describe('embedded basemap (fixtures/basemap)', () => {
  it(
    'is up to date: its files are what its generator makes of its inputs now, checked by the record of them or made again (else run `npm run fixtures`)',
    async () => {
      const { onlyOneSide, differing } = await compareWithGenerator('scripts/generate-basemap.ts', DEFAULT_OUT_DIR, generateBasemap);
      expect(onlyOneSide).toEqual([]);
      expect(differing).toEqual([]);
    },
    180_000,
  );

  it('stays under the 15 MB budget', () => {
    const bytes = listFiles(DEFAULT_OUT_DIR).reduce((sum, file) => sum + statSync(path.join(DEFAULT_OUT_DIR, file)).size, 0);
    expect(bytes).toBeLessThan(15 * 1024 * 1024);
  });

  it('is one PMTiles archive (no loose tiles) with every tile of the pyramid, places-only tiles past it, and metadata naming its layers', async () => {
    expect(listFiles(DEFAULT_OUT_DIR).filter((file) => file.endsWith('.pbf'))).toEqual([]);
    const header = await archive.getHeader();
    let pyramid = 0;
    for (let z = MIN_ZOOM; z <= MAX_ZOOM; z++) pyramid += 4 ** z;
    expect(header).toMatchObject({ specVersion: 3, tileType: 1, tileCompression: 2, minZoom: MIN_ZOOM, maxZoom: PLACES_MAX_ZOOM });
    expect(header.numAddressedTiles).toBeGreaterThan(pyramid);
    for (let z = MIN_ZOOM; z <= MAX_ZOOM; z++) {
      const last = 2 ** z - 1;
      for (const [x, y] of [[0, 0], [last, 0], [0, last], [last, last]] as const) expect(await archive.getZxy(z, x, y), `${z}/${x}/${y}`).toBeDefined();
    }
    const metadata = (await archive.getMetadata()) as { vector_layers: { id: string }[]; attribution: string };
    expect(metadata.vector_layers.map((layer) => layer.id)).toEqual([...LAYER_NAMES]);
    expect(metadata.attribution).toContain('Natural Earth');
  });

  it('decodes to the expected layers, with places only where their zoom allows', async () => {
    const world = await readTile(0, 0, 0);
    // Central Europe at zoom 5.
    const europe = await readTile(5, 16, 10);

    expect(Object.keys(world.layers).sort()).toEqual(LAYER_NAMES.filter((name) => name !== 'places').sort());
    expect(Object.keys(europe.layers).sort()).toEqual([...LAYER_NAMES].sort());
    for (const name of LAYER_NAMES.filter((layer) => layer !== 'places')) expect(featureCount(world, name)).toBeGreaterThan(0);

    expect(featureCount(world, 'places')).toBeLessThan(featureCount(europe, 'places'));
    expect(featureCount(europe, 'places')).toBeGreaterThanOrEqual(5);

    const places = placesOf(europe);
    for (const properties of places) {
      expect(properties.capital === undefined || properties.capital === true, `capital of ${properties.name}`).toBe(true);
      expect(Number(properties.minzoom)).toBeLessThanOrEqual(5);
      expect(Number(properties.rank)).toBeGreaterThanOrEqual(1);
      expect(Number(properties.rank)).toBeLessThanOrEqual(8);
    }
    expect(places.map((p) => p.name)).toContain('Hamburg');
  });

  it('names towns and villages down to city zoom: the tiles past the pyramid hold places only, every one of them at the last zoom', async () => {
    // Haarlem and the coast west of Amsterdam, in the tiles of the last zoom with every layer and past it.
    const [lon, lat] = [4.6, 52.38];
    const tileAt = (z: number): [number, number, number] => {
      const n = 2 ** z;
      const y = Math.floor(((1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI) / 2) * n);
      return [z, Math.floor(((lon + 180) / 360) * n), y];
    };
    const last = await readTile(...tileAt(MAX_ZOOM));
    expect(featureCount(last, 'coastline'), 'the coast in the last zoom with every layer').toBeGreaterThan(0);
    for (let z = PLACES_MIN_ZOOM; z <= PLACES_MAX_ZOOM; z++) {
      const tile = await readTile(...tileAt(z));
      expect(Object.keys(tile.layers), `zoom ${z}`).toEqual(['places']);
      for (const place of placesOf(tile)) expect(Number(place.minzoom), `${place.name} at zoom ${z}`).toBeLessThanOrEqual(z === PLACES_MAX_ZOOM ? Infinity : z);
    }
    const names = placesOf(await readTile(...tileAt(PLACES_MAX_ZOOM))).map((place) => place.name);
    // Haarlem (a city), Zandvoort (a town) and Overveen (a village of about 5,000 people).
    expect(names).toEqual(expect.arrayContaining(['Haarlem', 'Zandvoort', 'Overveen']));
  });

  it('has a style whose font faces and archive point into the folder', () => {
    const style = JSON.parse(readFileSync(path.join(DEFAULT_OUT_DIR, 'style.json'), 'utf8')) as {
      sources: Record<string, { url?: string; tiles?: string[] }>;
      'font-faces': Record<string, { url: string; 'unicode-range': string[] }[]>;
      layers: { type: string; layout?: Record<string, unknown> }[];
      glyphs?: string;
      sprite?: string;
    };
    expect(style.glyphs).toBeUndefined();
    expect(style.sprite).toBeUndefined();
    const files = new Set(listFiles(DEFAULT_OUT_DIR));
    expect(style.sources.basemap?.tiles).toEqual([`pmtiles://${ARCHIVE_FILE}/{z}/{x}/{y}`]);
    expect(style.sources.places?.tiles).toEqual([`pmtiles://${ARCHIVE_FILE}/{z}/{x}/{y}`]);
    expect(files.has(ARCHIVE_FILE)).toBe(true);
    for (const faces of Object.values(style['font-faces'])) {
      for (const face of faces) expect(files.has(face.url)).toBe(true);
    }
    for (const layer of style.layers.filter((l) => l.type === 'symbol')) {
      const font = layer.layout?.['text-font'] as string[];
      for (const name of font) expect(Object.keys(style['font-faces'])).toContain(name);
    }
  });
});
