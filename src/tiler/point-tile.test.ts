import { geoJSONToTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { PointTileWriter, stringValueLength, tilePoint, writeStringValue } from './point-tile.ts';

const KEYS = ['id', 'look', 'cluster', 'count', 'label'] as const;

/** The layer's features as MapLibre's reader sees them: geometry and properties. */
function decode(bytes: Uint8Array) {
  const layer = new VectorTile(new PbfReader(bytes)).layers['pins']!;
  expect(layer.extent).toBe(8192);
  expect(layer.version).toBe(2);
  return Array.from({ length: layer.length }, (_, k) => {
    const feature = layer.feature(k);
    return { type: feature.type, geometry: feature.loadGeometry().map((ring) => ring.map((p) => [p.x, p.y])), properties: feature.properties };
  });
}

describe('point tiles', () => {
  it('hold the same points and properties as geojson-vt and vt-pbf make of the same GeoJSON, at every zoom', () => {
    let state = 3;
    const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (const zoom of [0, 3, 9, 15]) {
      // Points in one tile of this zoom, edges and corners included.
      const size = 2 ** zoom;
      const [x, y] = [Math.floor(size * 0.53), Math.floor(size * 0.31)];
      const lngOf = (u: number) => ((x + u) / size - 0.5) * 360;
      const latOf = (v: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * (y + v)) / size))) * 180) / Math.PI;
      const points = [[0, 0], [0.999999, 0.999999], ...Array.from({ length: 200 }, () => [random(), random()])].map(([u, v]) => [lngOf(u!), latOf(v!)] as [number, number]);
      const features: GeoJSON.Feature<GeoJSON.Point>[] = [];
      const ours = new PointTileWriter('pins', KEYS, 8192);
      points.forEach(([lng, lat], i) => {
        const properties: Record<string, string | number | boolean> =
          i % 3 === 0 ? { cluster: true, count: 1000 + i, label: `${i}k` } : { id: `pin-${i} — é`, look: i % 4 };
        features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [lng, lat] }, properties });
        const [px, py] = tilePoint(lng, lat, zoom, x, y, 8192);
        ours.point(px, py);
        for (const [key, value] of Object.entries(properties)) {
          const k = KEYS.indexOf(key as (typeof KEYS)[number]);
          if (key === 'id') {
            const text = Buffer.from(value as string, 'utf8');
            const message = new Uint8Array(stringValueLength(text.length));
            ours.encodedProperties(k, 1, message, 0, writeStringValue(message, 0, text, 0, text.length));
          }
          else ours.property(k, value);
        }
      });
      const cut = geoJSONToTile({ type: 'FeatureCollection', features }, zoom, x, y, { extent: 8192, maxZoom: 15 });
      const theirs = fromGeojsonVt({ pins: cut }, { version: 2, extent: 8192 });
      expect(ours.length).toBe(points.length);
      expect(decode(ours.finish()), `zoom ${zoom}`).toEqual(decode(theirs));
    }
  });

  it('is reused tile after tile: a long feature (many tags) and then a short tile come out whole', () => {
    const writer = new PointTileWriter('pins', ['a'], 8192);
    writer.point(100, 200);
    for (let i = 0; i < 300; i++) writer.property(0, `value ${i}`);
    const long = decode(writer.finish().slice());
    expect(long[0]!.geometry).toEqual([[[100, 200]]]);
    expect(long[0]!.properties).toEqual({ a: 'value 299' });
    writer.point(-5, 8200);
    writer.property(0, 7);
    expect(decode(writer.finish())).toEqual([{ type: 1, geometry: [[[-5, 8200]]], properties: { a: 7 } }]);
  });
});
