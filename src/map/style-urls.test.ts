import { describe, expect, it } from 'vitest';
import type { StyleSpecification } from 'maplibre-gl';
import { resolveStyleUrls } from './style-urls.ts';

const base = 'http://127.0.0.1:4173/app/basemap/style.json';

describe('resolveStyleUrls', () => {
  it('makes relative tile, font, sprite and glyph URLs absolute against the style URL', () => {
    const style: StyleSpecification = {
      version: 8,
      glyphs: 'glyphs/{fontstack}/{range}.pbf',
      sprite: '../sprites/basic',
      sources: {
        basemap: { type: 'vector', tiles: ['tiles/{z}/{x}/{y}.pbf'] },
        tilejson: { type: 'vector', url: '/tilejson.json' },
        points: { type: 'geojson', data: 'data/points.geojson' },
      },
      'font-faces': { 'Noto Sans Regular': [{ url: 'fonts/latin.woff2', 'unicode-range': ['U+0000-00FF'] }] },
      layers: [],
    };
    const out = resolveStyleUrls(style, base);
    expect(out.sources.basemap).toMatchObject({ tiles: ['http://127.0.0.1:4173/app/basemap/tiles/{z}/{x}/{y}.pbf'] });
    expect(out.sources.tilejson).toMatchObject({ url: 'http://127.0.0.1:4173/tilejson.json' });
    expect(out.sources.points).toMatchObject({ data: 'http://127.0.0.1:4173/app/basemap/data/points.geojson' });
    expect(out.glyphs).toBe('http://127.0.0.1:4173/app/basemap/glyphs/{fontstack}/{range}.pbf');
    expect(out.sprite).toBe('http://127.0.0.1:4173/app/sprites/basic');
    expect(out['font-faces']).toEqual({
      'Noto Sans Regular': [{ url: 'http://127.0.0.1:4173/app/basemap/fonts/latin.woff2', 'unicode-range': ['U+0000-00FF'] }],
    });
  });

  it('leaves absolute and custom-scheme URLs alone and does not change the input', () => {
    const style: StyleSpecification = {
      version: 8,
      sources: {
        a: { type: 'vector', tiles: ['https://tiles.example.com/{z}/{x}/{y}.pbf'] },
        b: { type: 'vector', url: 'pmtiles://https://cdn.example.com/world.pmtiles' },
      },
      layers: [],
    };
    const copy = structuredClone(style);
    const out = resolveStyleUrls(style, base);
    expect(out.sources).toEqual(copy.sources);
    expect(style).toEqual(copy);
  });

  it('resolves the archive URL of a pmtiles:// source against the style, keeping the scheme', () => {
    const style: StyleSpecification = {
      version: 8,
      sources: {
        near: { type: 'vector', url: 'pmtiles://basemap.pmtiles' },
        up: { type: 'vector', url: 'pmtiles://../archives/world.pmtiles' },
        rooted: { type: 'raster', url: 'pmtiles:///shared/relief.pmtiles' },
      },
      layers: [],
    };
    const out = resolveStyleUrls(style, base);
    expect(out.sources.near).toMatchObject({ url: 'pmtiles://http://127.0.0.1:4173/app/basemap/basemap.pmtiles' });
    expect(out.sources.up).toMatchObject({ url: 'pmtiles://http://127.0.0.1:4173/app/archives/world.pmtiles' });
    expect(out.sources.rooted).toMatchObject({ url: 'pmtiles://http://127.0.0.1:4173/shared/relief.pmtiles' });
  });
});
