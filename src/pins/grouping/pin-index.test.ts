import { describe, expect, it } from 'vitest';
import { createIndexCore, type IndexReply } from './index-core.ts';
import { PinIndex } from './pin-index.ts';
import { PinClusters } from './clusters.ts';
import { CLUSTER_TIERS } from '../../config/constants.ts';
import type { Pin } from '../types.ts';

/** A deterministic spread of pins: crowds near a few places, and lone ones. */
function somePins(count: number): Pin[] {
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const places: [number, number][] = [[2.35, 48.85], [139.7, 35.7], [-74, 40.7], [179.9, -16.5], [-179.9, -16.6]];
  return Array.from({ length: count }, (_, i) => {
    const [lng, lat] = places[i % places.length]!;
    const spread = i % 3 === 0 ? 40 : 0.5;
    const x = Math.max(-180, Math.min(180, lng + (random() - 0.5) * spread));
    return { id: `p${i}`, title: `Pin ${i}`, description: '', lngLat: [x, lat + (random() - 0.5) * spread] as [number, number], options: {} };
  });
}

function lngLatsOf(pins: Pin[]): Float64Array {
  return Float64Array.from(pins.flatMap((pin) => pin.lngLat));
}

/** The groups as comparable strings: the bubbles' places and counts, and the lone pins' ids. */
function described(groups: { pins: Uint32Array; clusters: Float64Array }, pins: Pin[]): string[] {
  const out: string[] = [];
  for (let k = 0; k < groups.clusters.length; k += 4) out.push(`bubble ${groups.clusters[k]!.toFixed(6)},${groups.clusters[k + 1]!.toFixed(6)} of ${groups.clusters[k + 2]}`);
  for (const i of groups.pins) out.push(`pin ${pins[i]!.id}`);
  return out.sort();
}

/** The DOM pins' groups at a zoom, described as `described` describes the index's. */
function domDescribed(clusters: PinClusters, zoom: number): string[] {
  return clusters
    .groupsAt(zoom)
    .map((group) => (group.kind === 'pin' ? `pin ${group.id}` : `bubble ${group.lngLat[0].toFixed(6)},${group.lngLat[1].toFixed(6)} of ${group.count}`))
    .sort();
}

describe('the pin index (worker side)', () => {
  const pins = somePins(3000);
  const answer = createIndexCore();
  answer({ id: 1, type: 'load', lngLats: lngLatsOf(pins) });
  const clusters = new PinClusters(pins);

  it.each([0, 2, 5, 9, 15])('groups the pins at zoom %i exactly as the DOM pins are grouped', (zoom) => {
    const { reply } = answer({ id: 2, type: 'groups', bbox: [-180, -90, 180, 90], zoom });
    if (!('clusters' in reply)) throw new Error('no groups');
    expect(described(reply, pins)).toEqual(domDescribed(clusters, zoom));
    const total = reply.pins.length + [...reply.clusters].filter((_, k) => k % 4 === 2).reduce((a, b) => a + b, 0);
    expect(total).toBe(pins.length);
  });

  it('answers a box across the 180° meridian with the pins on both sides of it', () => {
    const { reply } = answer({ id: 3, type: 'groups', bbox: [179, -20, 181, -13], zoom: 15 });
    if (!('clusters' in reply)) throw new Error('no groups');
    const lngs = [...reply.pins].map((i) => pins[i]!.lngLat[0]);
    expect(lngs.some((lng) => lng > 179)).toBe(true);
    expect(lngs.some((lng) => lng < -179)).toBe(true);
    expect(lngs.every((lng) => lng > 179 || lng < -179)).toBe(true);
  });

  it('gives the zoom where a bubble splits, as the DOM pins do', () => {
    const { reply } = answer({ id: 4, type: 'groups', bbox: [-180, -90, 180, 90], zoom: 3 });
    if (!('clusters' in reply)) throw new Error('no groups');
    const clusterId = reply.clusters[3]!;
    const split = answer({ id: 5, type: 'expansionZoom', clusterId }).reply as Extract<IndexReply, { type: 'expansionZoom' }>;
    expect(split.zoom).toBe(clusters.expansionZoom(clusterId));
    expect(split.zoom).toBeGreaterThan(3);
  });

  it("lists a bubble's pins, a page at a time, as the DOM pins do; a bubble it does not have is named", () => {
    const { reply } = answer({ id: 6, type: 'groups', bbox: [-180, -90, 180, 90], zoom: 6 });
    if (!('clusters' in reply)) throw new Error('no groups');
    const clusterId = reply.clusters[3]!;
    const count = reply.clusters[2]!;
    const ids = (leaves: IndexReply) => {
      if (!('total' in leaves)) throw new Error('no leaves');
      return { ids: [...leaves.pins].map((i) => pins[i]!.id), total: leaves.total };
    };
    const all = ids(answer({ id: 7, type: 'leaves', clusterId }).reply);
    expect(all).toEqual({ ids: clusters.leaves(clusterId).map((pin) => pin.id), total: count });
    expect(all.ids).toHaveLength(count);
    expect(ids(answer({ id: 8, type: 'leaves', clusterId, offset: 1, limit: 2 }).reply)).toEqual({ ids: all.ids.slice(1, 3), total: count });
    expect(answer({ id: 9, type: 'leaves', clusterId: 7 }).reply).toEqual({ id: 9, error: 'there is no bubble with the id 7' });
  });

  it('groups a large set a range of zooms at a time, as the DOM pins group it', () => {
    const many = somePins(CLUSTER_TIERS.fromPins + 500);
    const core = createIndexCore();
    core({ id: 1, type: 'load', lngLats: lngLatsOf(many), zoom: 2 });
    const dom = new PinClusters(many);
    const prepared = core({ id: 2, type: 'prepare', zooms: [] }).reply;
    expect(prepared).toEqual({ id: 2, type: 'prepare', grouped: 1 }); // zooms 0–4, for the map's zoom 2
    for (const zoom of [2, 5, 9, 14]) {
      const { reply } = core({ id: 3, type: 'groups', bbox: [-180, -90, 180, 90], zoom });
      if (!('clusters' in reply)) throw new Error('no groups');
      expect(described(reply, many), `zoom ${zoom}`).toEqual(domDescribed(dom, zoom));
    }
    expect(core({ id: 4, type: 'prepare', zooms: [11, 12] }).reply).toEqual({ id: 4, type: 'prepare', grouped: 5 });
  });

  it('finds the first zoom where a pin stands alone, across the ranges of a large set, as the DOM pins do', () => {
    const many = somePins(CLUSTER_TIERS.fromPins + 500);
    const core = createIndexCore();
    core({ id: 1, type: 'load', lngLats: lngLatsOf(many), zoom: 2 });
    const dom = new PinClusters(many);
    const aloneAt = (pin: number, zoom: number) => {
      const [lng, lat] = many[pin]!.lngLat;
      const { reply } = core({ id: 2, type: 'groups', bbox: [lng - 1, lat - 1, lng + 1, lat + 1], zoom });
      if (!('clusters' in reply)) throw new Error('no groups');
      return reply.pins.includes(pin);
    };
    const found = new Set<number>();
    for (let pin = 0; pin < many.length; pin += 701) {
      const { reply } = core({ id: 3, type: 'revealZoom', pin, fromZoom: 2 });
      if (!('zoom' in reply)) throw new Error(`no zoom for pin ${pin}`);
      expect(reply.zoom, `pin ${pin}`).toBe(dom.revealZoom(many[pin]!.id, 2));
      found.add(reply.zoom);
      // Alone there (above the last grouped zoom every pin is), in a bubble the zoom before.
      expect(aloneAt(pin, reply.zoom), `pin ${pin} alone at ${reply.zoom}`).toBe(true);
      if (reply.zoom > 2) expect(aloneAt(pin, reply.zoom - 1), `pin ${pin} in a bubble at ${reply.zoom - 1}`).toBe(false);
    }
    expect(found.size, 'pins that stand alone at several zooms, in several ranges').toBeGreaterThan(3);
    expect(core({ id: 4, type: 'revealZoom', pin: many.length, fromZoom: 2 }).reply).toEqual({ id: 4, error: `there is no pin number ${many.length}` });
  });

  it('groups only the pins a filter leaves, as the DOM pins of those pins are grouped, and counts only them', () => {
    const filtered = createIndexCore();
    const visible = Uint8Array.from(pins, (_, i) => (i % 4 === 1 ? 0 : 1));
    const kept = pins.filter((_, i) => visible[i] === 1);
    filtered({ id: 1, type: 'load', lngLats: lngLatsOf(pins), visible });
    const keptClusters = new PinClusters(kept);
    for (const zoom of [0, 3, 8]) {
      const { reply } = filtered({ id: 2, type: 'groups', bbox: [-180, -90, 180, 90], zoom });
      if (!('clusters' in reply)) throw new Error('no groups');
      // Pins are still known by their place in the whole set.
      expect(described(reply, pins), `zoom ${zoom}`).toEqual(domDescribed(keptClusters, zoom));
      const total = reply.pins.length + [...reply.clusters].filter((_, k) => k % 4 === 2).reduce((a, b) => a + b, 0);
      expect(total).toBe(kept.length);
    }
    // The filter lifted: every pin again.
    expect(filtered({ id: 3, type: 'filter', zoom: 3 }).reply).toEqual({ id: 3, type: 'filter' });
    const { reply } = filtered({ id: 4, type: 'groups', bbox: [-180, -90, 180, 90], zoom: 3 });
    if (!('clusters' in reply)) throw new Error('no groups');
    expect(described(reply, pins)).toEqual(domDescribed(clusters, 3));
  });

  it('says what is wrong instead of throwing', () => {
    expect(createIndexCore()({ id: 9, type: 'groups', bbox: [-180, -90, 180, 90], zoom: 1 }).reply).toEqual({ id: 9, error: 'the pin index is not loaded' });
  });
});

describe('PinIndex', () => {
  it('groups on the page where no worker can start, with the same answers', async () => {
    expect(typeof Worker).toBe('undefined'); // Node: the page-side index is what runs here
    const pins = somePins(500);
    const index = new PinIndex(lngLatsOf(pins));
    await index.ready;
    const groups = await index.groups([-180, -90, 180, 90], 4);
    const expected = new PinClusters(pins).groupsAt(4).length;
    expect(groups.pins.length + groups.clusters.length / 4).toBe(expected);
    const leaves = await index.leaves(groups.clusters[3]!, 0, 5);
    expect(leaves.total).toBe(groups.clusters[2]);
    expect(leaves.pins).toHaveLength(Math.min(5, groups.clusters[2]!));
    index.destroy();
  });

  it('fails what is still asked once destroyed, and whatever is asked after', async () => {
    const index = new PinIndex(lngLatsOf(somePins(50)));
    const asked = index.groups([-180, -90, 180, 90], 1);
    index.destroy();
    await expect(asked).rejects.toThrow('the pin index was destroyed');
    await expect(index.expansionZoom(1)).rejects.toThrow('the pin index was destroyed');
  });
});
