import { readFileSync } from 'node:fs';
import path from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { layers, namedFlavor } from '@protomaps/basemaps';
import { describe, expect, it } from 'vitest';
import { listFiles } from './fixture-files.ts';
import { compareWithGenerator } from './fixture-inputs.ts';
import { ARCHIVE_FILE, DEFAULT_OUT_DIR, EMPTY_LAYER_NAMES, FLAVORS, LAYER_NAMES, MAX_ZOOM, MIN_ZOOM, SOURCE, generateProtomaps } from './generate-protomaps.ts';

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

/** Every feature's properties of a layer of a tile. */
const propertiesOf = (tile: VectorTile, layer: string) => Array.from({ length: tile.layers[layer]?.length ?? 0 }, (_, i) => tile.layers[layer]!.feature(i).properties);

type Style = { sources: Record<string, { url?: string }>; sprite?: string; glyphs?: string; 'font-faces': Record<string, { url: string }[]>; layers: { id: string; 'source-layer'?: string; layout?: Record<string, unknown> }[] };
const readStyle = (flavor: string): Style => JSON.parse(readFileSync(path.join(DEFAULT_OUT_DIR, `style-${flavor}.json`), 'utf8')) as Style;

describe('Protomaps-schema fixture (fixtures/protomaps)', () => {
  it(
    'is up to date: its files are what its generator makes of its inputs now, checked by the record of them or made again (else run `npm run fixtures`)',
    async () => {
      const { onlyOneSide, differing } = await compareWithGenerator('scripts/generate-protomaps.ts', DEFAULT_OUT_DIR, generateProtomaps);
      expect(onlyOneSide).toEqual([]);
      expect(differing).toEqual([]);
    },
    180_000,
  );

  it('is one small archive of zooms 0..5 with the schema layers, named in its metadata', async () => {
    const header = await archive.getHeader();
    expect(header).toMatchObject({ specVersion: 3, tileType: 1, minZoom: MIN_ZOOM, maxZoom: MAX_ZOOM, numAddressedTiles: (4 ** (MAX_ZOOM + 1) - 1) / 3 });
    const metadata = (await archive.getMetadata()) as { vector_layers: { id: string }[] };
    expect(metadata.vector_layers.map((layer) => layer.id)).toEqual([...LAYER_NAMES, ...EMPTY_LAYER_NAMES]);
    expect(readFileSync(path.join(DEFAULT_OUT_DIR, ARCHIVE_FILE)).byteLength).toBeLessThan(3 * 1024 * 1024);
  });

  it('carries the properties the @protomaps/basemaps layers read', async () => {
    // Central Europe at zoom 5 and the world at zoom 0.
    const europe = await readTile(5, 16, 10);
    const world = await readTile(0, 0, 0);
    expect(Object.keys(europe.layers).sort()).toEqual([...LAYER_NAMES].sort());
    expect(propertiesOf(world, 'earth').every((p) => p.kind === 'earth')).toBe(true);
    expect(propertiesOf(world, 'water')).toEqual([{ kind: 'ocean' }]);
    expect(propertiesOf(europe, 'boundaries').every((p) => p.kind === 'country' && p.kind_detail === 2)).toBe(true);
    const places = propertiesOf(europe, 'places');
    const country = places.find((p) => p.kind === 'country' && p.name === 'Germany');
    expect(country).toMatchObject({ 'name:en': 'Germany', min_zoom: expect.any(Number), population_rank: expect.any(Number), sort_key: expect.any(Number) });
    const amsterdam = places.find((p) => p.kind === 'locality' && p.name === 'Amsterdam');
    expect(amsterdam).toMatchObject({ kind_detail: 'city', capital: 'yes', population_rank: expect.any(Number), min_zoom: expect.any(Number) });
    const hamburg = places.find((p) => p.name === 'Hamburg');
    expect(hamburg?.capital).toBeUndefined();
    // A place is only in the tiles of its own min_zoom and above.
    for (const tile of [world, europe]) for (const p of propertiesOf(tile, 'places')) expect(Number(p.min_zoom)).toBeLessThanOrEqual(tile === world ? 0 : 5);
  });

  it.each(FLAVORS)('style-%s.json is the package\'s layers over the archive, with every font and icon it names in the folder', (flavor) => {
    const style = readStyle(flavor);
    expect(style.sources[SOURCE]?.url).toBe(`pmtiles://${ARCHIVE_FILE}`);
    expect(style.glyphs).toBeUndefined();
    expect(style.layers).toEqual(JSON.parse(JSON.stringify(layers(SOURCE, namedFlavor(flavor), { lang: 'en' }))));
    const files = new Set(listFiles(DEFAULT_OUT_DIR));
    for (const faces of Object.values(style['font-faces'])) for (const face of faces) expect(files.has(face.url), face.url).toBe(true);
    // The fonts the layers ask for (plain font lists, and those inside `case` expressions).
    const fonts = new Set<string>();
    for (const layer of style.layers) JSON.stringify(layer.layout?.['text-font'] ?? []).replace(/"(Noto Sans [^"]+)"/g, (_, name: string) => (fonts.add(name), ''));
    fonts.delete('Noto Sans Devanagari Regular v1'); // only for features with a Devanagari `script`, which this data has none of
    expect([...fonts].sort()).toEqual(Object.keys(style['font-faces']).sort());
    const sprite = JSON.parse(readFileSync(path.join(DEFAULT_OUT_DIR, `${style.sprite}.json`), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(sprite).sort()).toEqual(['capital', 'townspot']);
    expect(files.has(`${style.sprite}@2x.png`)).toBe(true);
    // The source layers the styles draw from: the schema's, and what a full extract adds.
    const drawn = new Set(style.layers.map((layer) => layer['source-layer']).filter(Boolean));
    for (const name of LAYER_NAMES) expect(drawn.has(name)).toBe(true);
    for (const name of drawn) expect([...LAYER_NAMES, ...EMPTY_LAYER_NAMES]).toContain(name);
  });
});
