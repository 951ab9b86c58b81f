import { describe, expect, it } from 'vitest';
import { CLUSTER_MAX_ZOOM } from '../../config/constants.ts';
import type { Pin } from '../types.ts';
import { IndexedPinClusters, PinClusters, type PinGroup } from './clusters.ts';

const pin = (id: string, options: Pin['options']): Pin => ({ id, title: id, description: '', lngLat: [0, 0], options });

describe('PinClusters.revealZoom', () => {
  it('is the first zoom at which the pin stands alone among all groups of the world', () => {
    const at = (id: string, lngLat: [number, number]): Pin => ({ ...pin(id, {}), lngLat });
    const list: Pin[] = [
      ...Array.from({ length: 60 }, (_, i) => at(`crowd-${i}`, [10 + (i % 6) * 0.03 * (1 + (i % 5)), 50 + Math.floor(i / 6) * 0.02])),
      at('edge-east', [180, -17]),
      at('edge-west', [-180, -17.001]),
      at('twin-a', [5, 5]),
      at('twin-b', [5, 5]),
      at('alone', [-60, -30]),
    ];
    const clusters = new PinClusters(list);
    const bruteForce = (id: string, from: number) => {
      for (let zoom = from; zoom <= CLUSTER_MAX_ZOOM; zoom++) {
        if (clusters.groupsAt(zoom).some((group) => group.kind === 'pin' && group.id === id)) return zoom;
      }
      return CLUSTER_MAX_ZOOM + 1;
    };
    for (const { id } of list) {
      for (const from of [0, 3, 8]) expect(clusters.revealZoom(id, from), `${id} from ${from}`).toBe(bruteForce(id, from));
    }
    expect(clusters.revealZoom('twin-a', 0)).toBe(CLUSTER_MAX_ZOOM + 1); // never apart
    expect(clusters.revealZoom('alone', 0)).toBe(0);
    expect(clusters.revealZoom('no-such-pin', 0)).toBe(CLUSTER_MAX_ZOOM + 1);
  });
});

describe('IndexedPinClusters', () => {
  // Seeded pins: a crowd around a few towns, some far apart, across the 180° meridian too.
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const towns: [number, number][] = [[10, 50], [12, 48], [-74, 40.7], [179.5, -17], [-179.5, -17.2], [139.7, 35.7]];
  const list: Pin[] = Array.from({ length: 3000 }, (_, i) => {
    const [lng, lat] = towns[i % towns.length]!;
    const spread = i % 7 === 0 ? 30 : 1;
    const x = Math.max(-180, Math.min(180, lng + (random() - 0.5) * spread));
    return { ...pin(`p${i}`, {}), lngLat: [x, lat + (random() - 0.5) * spread], category: i % 3 === 0 ? 'hidden' : 'shown' };
  });
  const boxes: [number, number, number, number][] = [[-180, -90, 180, 90], [0, 40, 20, 60], [170, -30, 190, -5]];

  it('gives the groups PinClusters gives, in the same order, at every zoom and box; and the same expansion and reveal zooms', async () => {
    // Without a Worker (as here) the index runs on the page, answering as the worker would.
    const onPage = new PinClusters(list);
    const indexed = new IndexedPinClusters(list, 2, undefined);
    try {
      for (let zoom = 0; zoom <= 16; zoom += 2) {
        for (const bbox of boxes) expect(await indexed.groupsAt(zoom, bbox), `zoom ${zoom}, ${bbox.join(',')}`).toEqual(onPage.groupsAt(zoom, bbox));
      }
      const bubbles = onPage.groupsAt(3).filter((group) => group.kind === 'cluster');
      expect(bubbles.length).toBeGreaterThan(5);
      for (const bubble of bubbles) expect(await indexed.expansionZoom(bubble.clusterId)).toBe(onPage.expansionZoom(bubble.clusterId));
      for (const id of ['p0', 'p1', 'p7', 'p2999', 'no-such-pin']) {
        for (const from of [0, 5]) expect(await indexed.revealZoom(id, from), `${id} from ${from}`).toBe(onPage.revealZoom(id, from));
      }
    } finally {
      indexed.destroy();
    }
  });

  it('groups only the pins a filter leaves, as PinClusters groups that part of the list, and every pin again without one', async () => {
    const shown = list.filter((p) => p.category === 'shown');
    const visible = Uint8Array.from(list, (p) => (p.category === 'shown' ? 1 : 0));
    const described = (groups: PinGroup[]) => groups.map((group) => (group.kind === 'pin' ? group.id : `${group.count} at ${group.lngLat.map((v) => v.toFixed(9)).join(',')}`));
    const indexed = new IndexedPinClusters(list, 4, undefined);
    try {
      indexed.filter(visible, 4);
      for (const zoom of [1, 4, 9]) expect(described(await indexed.groupsAt(zoom))).toEqual(described(new PinClusters(shown).groupsAt(zoom)));
      indexed.filter(undefined, 4);
      expect(await indexed.groupsAt(4)).toEqual(new PinClusters(list).groupsAt(4));
    } finally {
      indexed.destroy();
    }
  });

  it('answers nothing once destroyed: a later question fails', async () => {
    const indexed = new IndexedPinClusters(list.slice(0, 10), 0, undefined);
    indexed.destroy();
    await expect(indexed.groupsAt(0)).rejects.toThrow('destroyed');
  });
});
