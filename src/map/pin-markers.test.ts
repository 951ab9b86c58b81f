import { describe, expect, it } from 'vitest';
import type { Pin } from './pin-data.ts';
import { pinStyleKey } from './pin-icon.ts';
import { PinClusters, PinsById, SharedStyles } from './pin-markers.ts';
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
