import { readFileSync } from 'node:fs';
import path from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { PbfReader } from 'pbf';
import { PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { listFiles } from './fixture-files.ts';
import { compareWithGenerator } from './fixture-inputs.ts';
import { ARCHIVE_FILE, DEFAULT_OUT_DIR, EMPTY_LAYER_NAMES, LAYER_NAMES, MAX_ZOOM, MIN_ZOOM, SOURCE, generateOpenMapTiles } from './generate-openmaptiles.ts';

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

const readTile = async (z: number, x: number, y: number): Promise<VectorTile> => new VectorTile(new PbfReader(new Uint8Array((await archive.getZxy(z, x, y))!.data)));
const propertiesOf = (tile: VectorTile, layer: string) => Array.from({ length: tile.layers[layer]?.length ?? 0 }, (_, i) => tile.layers[layer]!.feature(i).properties);

type Style = { sources: Record<string, { url?: string }>; sprite?: string; glyphs?: string; 'font-faces': Record<string, { url: string }[]>; layers: { id: string; source?: string; 'source-layer'?: string; layout?: Record<string, unknown> }[] };
const style = JSON.parse(readFileSync(path.join(DEFAULT_OUT_DIR, 'style.json'), 'utf8')) as Style;

describe('OpenMapTiles-schema fixture (fixtures/openmaptiles)', () => {
  it(
    'is up to date: its files are what its generator makes of its inputs now, checked by the record of them or made again (else run `npm run fixtures`)',
    async () => {
      const { onlyOneSide, differing } = await compareWithGenerator('scripts/generate-openmaptiles.ts', DEFAULT_OUT_DIR, generateOpenMapTiles);
      expect(onlyOneSide).toEqual([]);
      expect(differing).toEqual([]);
    },
    180_000,
  );

  it("has the schema's layers and fields: ocean water, ice, country borders and places by class", async () => {
    const header = await archive.getHeader();
    expect(header).toMatchObject({ specVersion: 3, tileType: 1, minZoom: MIN_ZOOM, maxZoom: MAX_ZOOM });
    const metadata = (await archive.getMetadata()) as { vector_layers: { id: string }[] };
    expect(metadata.vector_layers.map((layer) => layer.id)).toEqual([...LAYER_NAMES, ...EMPTY_LAYER_NAMES]);

    // The Netherlands at zoom 6.
    const tile = await readTile(6, 32, 21);
    expect(propertiesOf(tile, 'water').map((p) => p.class)).toEqual(['ocean']);
    expect(propertiesOf(tile, 'boundary').every((p) => p.admin_level === 2 && p.maritime === 0 && p.disputed === 0)).toBe(true);
    const places = propertiesOf(tile, 'place');
    const byName = new Map(places.map((p) => [p.name, p]));
    expect(byName.get('Amsterdam')).toMatchObject({ class: 'city', name_en: 'Amsterdam', 'name:latin': 'Amsterdam', capital: 2 });
    expect(propertiesOf(await readTile(2, 2, 1), 'place')).toContainEqual(expect.objectContaining({ class: 'country', name: 'Germany', 'name:latin': 'Germany' }));
    expect(places.some((p) => p.class === 'town')).toBe(true);
    expect(propertiesOf(await readTile(1, 0, 1), 'landcover')).toContainEqual({ class: 'ice', subclass: 'glacier' });
  });

  it('has a valid style, in the manner of a hosted one, whose source, layers and fonts point into the folder', () => {
    expect(validateStyleMin(style as never)).toEqual([]);
    expect(style.glyphs).toBeUndefined();
    expect(style.sources[SOURCE]?.url).toBe(`pmtiles://${ARCHIVE_FILE}`);
    const sourceLayers = new Set(style.layers.map((layer) => layer['source-layer']).filter(Boolean));
    for (const layer of ['water', 'landcover', 'boundary', 'place', 'transportation', 'water_name']) expect(sourceLayers).toContain(layer);
    const files = new Set(listFiles(DEFAULT_OUT_DIR));
    for (const faces of Object.values(style['font-faces'])) for (const face of faces) expect(files.has(face.url), face.url).toBe(true);
  });
});
