import { describe, expect, it } from 'vitest';
import type { StyleSpecification } from 'maplibre-gl';
import { carryPinmapParts } from './style-carry.ts';

const light: StyleSpecification = {
  version: 8,
  sources: { basemap: { type: 'vector', tiles: ['a/{z}/{x}/{y}.pbf'] }, 'pinmap-pins': { type: 'geojson', data: { type: 'FeatureCollection', features: [] } } },
  layers: [
    { id: 'background', type: 'background', paint: { 'background-color': '#fff' } },
    { id: 'labels', type: 'symbol', source: 'basemap', 'source-layer': 'places' },
    { id: 'pinmap-clusters', type: 'symbol', source: 'pinmap-pins' },
    { id: 'pinmap-pins', type: 'symbol', source: 'pinmap-pins' },
  ],
};
const dark: StyleSpecification = {
  version: 8,
  sources: { basemap: { type: 'vector', tiles: ['a/{z}/{x}/{y}.pbf'] } },
  layers: [
    { id: 'background', type: 'background', paint: { 'background-color': '#000' } },
    { id: 'labels', type: 'symbol', source: 'basemap', 'source-layer': 'places' },
  ],
};

describe('carryPinmapParts: a new basemap style keeps what Pinmap added', () => {
  it("keeps Pinmap's sources and layers, on top and in their order, and takes everything else from the next style", () => {
    const next = carryPinmapParts(light, dark);
    expect(next.layers.map((layer) => layer.id)).toEqual(['background', 'labels', 'pinmap-clusters', 'pinmap-pins']);
    expect(next.layers[0]).toEqual(dark.layers[0]);
    expect(Object.keys(next.sources)).toEqual(['basemap', 'pinmap-pins']);
    expect(next.sources['pinmap-pins']).toBe(light.sources['pinmap-pins']);
  });

  it('leaves a style alone when there is no previous one, and never doubles a part the next style has', () => {
    expect(carryPinmapParts(undefined, dark)).toBe(dark);
    expect(carryPinmapParts(light, light).layers).toHaveLength(4);
  });
});
