import { describe, expect, it } from 'vitest';
import type { Pin } from './pin-data.ts';
import { pinStyleKey } from './pin-icon.ts';
import { IndexedPinClusters, PinClusters, PinsById, SharedStyles, TAB_ROW_PX, readingOrder, type PinGroup } from './pin-markers.ts';
import { CLUSTER_MAX_ZOOM } from './constants.ts';

const pin = (id: string, options: Pin['options']): Pin => ({ id, title: id, description: '', lngLat: [0, 0], options });

describe('SharedStyles', () => {
  it('gives every pin of one look the same style object, whether or not the pins share an options object', () => {
    const red = Object.freeze({ markerColor: '#ff0000' });
    const list = [pin('a', red), pin('b', red), pin('c', { markerColor: '#ff0000' }), pin('d', { markerColor: '#00ff00' })];
    const styles = new SharedStyles();
    const [a, b, c, d] = list.map((p) => styles.of(p));
    expect(a).toBe(b);
    expect(c).toBe(a);
    expect(d).not.toBe(a);
    expect(a?.markerColor).toBe('#ff0000');
    expect(styles.distinct(list)).toEqual(new Set([a, d]));
    expect(new Set([...styles.distinct(list)].map(pinStyleKey)).size).toBe(2);
    // A pin of another set (an archive's look) with the same look gets the same object too.
    expect(styles.of({ options: Object.freeze({ markerColor: '#ff0000' }) })).toBe(a);
  });
});

describe('PinsById', () => {
  it('finds each pin of the set by its id, and nothing for an id the set lacks', () => {
    const list = [pin('a', {}), pin('b', {}), pin('c', {})];
    const pins = new PinsById(list);
    expect(pins.size).toBe(3);
    expect(list.map((p) => pins.get(p.id))).toEqual(list);
    expect(pins.get('d')).toBeUndefined();
    expect(new PinsById([]).get('a')).toBeUndefined();
  });
});

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

describe('readingOrder (the Tab order of DOM pins and bubbles)', () => {
  const order = (points: [number, number][], zoom: number) =>
    points
      .map((lngLat, index) => ({ index, key: readingOrder(lngLat, zoom) }))
      .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2])
      .map((entry) => entry.index);

  it('reads rows of TAB_ROW_PX on the map from north to south, each from west to east', () => {
    // At zoom 0 the world is 512 px high: the equator is at 256 px, the start of row 4.
    expect(TAB_ROW_PX).toBe(64);
    expect(readingOrder([10, 0], 0)[0]).toBe(4);
    expect(readingOrder([10, 1], 0)[0]).toBe(3);
    // Zoom 4 over Europe: Paris and Munich (less than a degree apart in latitude: about 25 px at this zoom) are one row; London a row north.
    const paris: [number, number] = [2.35, 48.86];
    const munich: [number, number] = [11.58, 48.14];
    const london: [number, number] = [-0.13, 51.51];
    const madrid: [number, number] = [-3.7, 40.42];
    expect(readingOrder(paris, 4)[0]).toBe(readingOrder(munich, 4)[0]);
    expect(order([madrid, munich, paris, london], 4)).toEqual([3, 2, 1, 0]);
    // Closer in, Paris and Munich are rows apart: the northern one first, whatever their longitudes.
    expect(order([munich, paris], 9)).toEqual([1, 0]);
  });

  it('orders points of one place (a pin on a bubble) north first, and stays finite at the poles', () => {
    expect(order([[5, 10], [5, 10.001]], 3)).toEqual([1, 0]);
    for (const lat of [90, -90]) expect(readingOrder([0, lat], 6).every(Number.isFinite)).toBe(true);
  });
});
