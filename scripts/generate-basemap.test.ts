import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { compareWithRegenerated, listFiles } from './fixture-files.ts';
import { DEFAULT_OUT_DIR, LAYER_NAMES, MAX_ZOOM, MIN_ZOOM, generateBasemap } from './generate-basemap.ts';

const readTile = (z: number, x: number, y: number): VectorTile =>
  new VectorTile(new PbfReader(readFileSync(path.join(DEFAULT_OUT_DIR, 'tiles', String(z), String(x), `${y}.pbf`))));

const featureCount = (tile: VectorTile, layer: string): number => tile.layers[layer]?.length ?? 0;

describe('embedded basemap (fixtures/basemap)', () => {
  it(
    'is up to date: regenerating it gives byte-identical files (else run `npm run fixtures`)',
    async () => {
      const { onlyOneSide, differing } = await compareWithRegenerated(DEFAULT_OUT_DIR, generateBasemap);
      expect(onlyOneSide).toEqual([]);
      expect(differing).toEqual([]);
    },
    180_000,
  );

  it('stays under the 15 MB budget', () => {
    const bytes = listFiles(DEFAULT_OUT_DIR).reduce((sum, file) => sum + statSync(path.join(DEFAULT_OUT_DIR, file)).size, 0);
    expect(bytes).toBeLessThan(15 * 1024 * 1024);
  });

  it('has every tile of the pyramid', () => {
    const tiles = listFiles(path.join(DEFAULT_OUT_DIR, 'tiles'));
    let expected = 0;
    for (let z = MIN_ZOOM; z <= MAX_ZOOM; z++) expected += 4 ** z;
    expect(tiles).toHaveLength(expected);
    expect(tiles).toContain(`${MAX_ZOOM}/${2 ** MAX_ZOOM - 1}/${2 ** MAX_ZOOM - 1}.pbf`);
  });

  it('decodes to the expected layers, with places only where their zoom allows', () => {
    const world = readTile(0, 0, 0);
    // Central Europe at zoom 5.
    const europe = readTile(5, 16, 10);

    expect(Object.keys(world.layers).sort()).toEqual(LAYER_NAMES.filter((name) => name !== 'places').sort());
    expect(Object.keys(europe.layers).sort()).toEqual([...LAYER_NAMES].sort());
    for (const name of LAYER_NAMES.filter((layer) => layer !== 'places')) expect(featureCount(world, name)).toBeGreaterThan(0);

    expect(featureCount(world, 'places')).toBeLessThan(featureCount(europe, 'places'));
    expect(featureCount(europe, 'places')).toBeGreaterThanOrEqual(5);

    const names: string[] = [];
    const places = europe.layers.places;
    for (let i = 0; i < (places?.length ?? 0); i++) {
      const properties = places?.feature(i).properties ?? {};
      names.push(String(properties.name));
      expect(typeof properties.population).toBe('number');
      expect(typeof properties.capital).toBe('boolean');
      expect(Number(properties.minzoom)).toBeLessThanOrEqual(5);
      expect(Number(properties.rank)).toBeGreaterThanOrEqual(1);
      expect(Number(properties.rank)).toBeLessThanOrEqual(6);
    }
    expect(names).toContain('Hamburg');
  });

  it('has a style whose font faces and tiles point into the folder', () => {
    const style = JSON.parse(readFileSync(path.join(DEFAULT_OUT_DIR, 'style.json'), 'utf8')) as {
      sources: Record<string, { tiles?: string[] }>;
      'font-faces': Record<string, { url: string; 'unicode-range': string[] }[]>;
      layers: { type: string; layout?: Record<string, unknown> }[];
      glyphs?: string;
      sprite?: string;
    };
    expect(style.glyphs).toBeUndefined();
    expect(style.sprite).toBeUndefined();
    expect(style.sources.basemap?.tiles).toEqual(['tiles/{z}/{x}/{y}.pbf']);
    const files = new Set(listFiles(DEFAULT_OUT_DIR));
    for (const faces of Object.values(style['font-faces'])) {
      for (const face of faces) expect(files.has(face.url)).toBe(true);
    }
    for (const layer of style.layers.filter((l) => l.type === 'symbol')) {
      const font = layer.layout?.['text-font'] as string[];
      for (const name of font) expect(Object.keys(style['font-faces'])).toContain(name);
    }
  });
});
