import { describe, expect, it } from 'vitest';
import type Supercluster from 'supercluster';
import { CLUSTER_MAX_ZOOM, CLUSTER_TIERS } from './constants.ts';
import { PinGrouping, clusterTiers } from './pin-grouping.ts';

const WORLD: [number, number, number, number] = [-180, -90, 180, 90];

/** `count` pins: crowds around a few cities and a thin spread over the world (deterministic). */
function points(count: number): Supercluster.PointFeature<{ i: number }>[] {
  let seed = 11;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const cities: [number, number][] = [[2.35, 48.85], [-0.13, 51.5], [139.7, 35.7], [-74, 40.7], [151.2, -33.9]];
  return Array.from({ length: count }, (_, i) => {
    const [lng, lat] = i % 4 === 0 ? [random() * 360 - 180, random() * 160 - 80] : cities[i % cities.length]!;
    const spread = i % 4 === 0 ? 0 : 2 * random() ** 3;
    return { type: 'Feature', geometry: { type: 'Point', coordinates: [lng + spread * (random() - 0.5), lat + spread * (random() - 0.5)] }, properties: { i } };
  });
}

/** Pins shown at a zoom: lone pins count one, bubbles their count. */
function shown(groups: ReturnType<PinGrouping<{ i: number }>['getClusters']>): number {
  return groups.reduce((sum, g) => sum + ((g.properties as { point_count?: number }).point_count ?? 1), 0);
}

describe('clusterTiers', () => {
  it('covers every zoom from 0 to the last clustered one exactly once, for small and large sets', () => {
    for (const count of [0, 10, CLUSTER_TIERS.fromPins, CLUSTER_TIERS.fromPins + 1, 100_000]) {
      const zooms = clusterTiers(count).flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, k) => from + k));
      expect(zooms).toEqual(Array.from({ length: CLUSTER_MAX_ZOOM + 1 }, (_, z) => z));
    }
  });

  it('groups sets up to fromPins at every zoom in one go, larger ones a range at a time', () => {
    expect(clusterTiers(CLUSTER_TIERS.fromPins)).toEqual([[0, CLUSTER_MAX_ZOOM]]);
    expect(clusterTiers(CLUSTER_TIERS.fromPins + 1).length).toBeGreaterThan(1);
  });
});

describe('PinGrouping of a large set', () => {
  const set = points(CLUSTER_TIERS.fromPins + 2000);

  it('groups only the range of zooms a view asks for', () => {
    const grouping = new PinGrouping(set);
    expect(grouping.grouped).toBe(0);
    grouping.getClusters(WORLD, 2);
    expect(grouping.grouped).toBe(1);
    grouping.getClusters(WORLD, 3.7); // the same range
    expect(grouping.grouped).toBe(1);
    grouping.prepare(12);
    expect(grouping.grouped).toBe(2);
  });

  it('shows every pin exactly once at every zoom, in bubbles or alone', () => {
    const grouping = new PinGrouping(set);
    for (let zoom = 0; zoom <= CLUSTER_MAX_ZOOM + 2; zoom++) {
      const groups = grouping.getClusters(WORLD, zoom);
      expect(shown(groups), `zoom ${zoom}`).toBe(set.length);
      if (zoom <= 8) expect(groups.length, `zoom ${zoom}`).toBeLessThan(set.length / 2); // the crowds are grouped
    }
    expect(grouping.getClusters(WORLD, CLUSTER_MAX_ZOOM + 1)).toHaveLength(set.length); // above the last zoom, nothing is
  });

  it('splits each bubble at a zoom above its own, at most the first zoom of the next range', () => {
    const grouping = new PinGrouping(set);
    for (const [from, to] of clusterTiers(set.length)) {
      for (const zoom of new Set([from, to])) {
        const bubbles = grouping.getClusters(WORLD, zoom).filter((g) => (g.properties as { cluster?: boolean }).cluster);
        expect(bubbles.length, `zoom ${zoom}`).toBeGreaterThan(0);
        for (const bubble of bubbles.slice(0, 20)) {
          const split = grouping.getClusterExpansionZoom((bubble.properties as Supercluster.ClusterProperties).cluster_id);
          expect(split, `a bubble at zoom ${zoom}`).toBeGreaterThan(zoom);
          expect(split, `a bubble at zoom ${zoom}`).toBeLessThanOrEqual(to + 1);
        }
      }
    }
  });

  it('names a bubble it does not have', () => {
    expect(() => new PinGrouping(set).getClusterExpansionZoom(7)).toThrow('there is no bubble with the id 7');
  });
});
