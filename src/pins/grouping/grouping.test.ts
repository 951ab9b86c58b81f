import fc from 'fast-check';
import Supercluster from 'supercluster';
import { describe, expect, it } from 'vitest';
import { CLUSTER_MAX_ZOOM, CLUSTER_RADIUS, CLUSTER_TIERS } from '../../config/constants.ts';
import { GROUP_GAP, groupDiscLift, groupDiscRadius } from '../bubble.ts';
import { PinGrouping, clusterTiers } from './grouping.ts';

const WORLD: [number, number, number, number] = [-180, -90, 180, 90];

/** `count` pins: crowds around a few cities and a thin spread over the world (deterministic), as longitude, latitude pairs. */
function points(count: number): Float64Array {
  let seed = 11;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const cities: [number, number][] = [[2.35, 48.85], [-0.13, 51.5], [139.7, 35.7], [-74, 40.7], [151.2, -33.9]];
  const lngLats = new Float64Array(2 * count);
  for (let i = 0; i < count; i++) {
    const [lng, lat] = i % 4 === 0 ? [random() * 360 - 180, random() * 160 - 80] : cities[i % cities.length]!;
    const spread = i % 4 === 0 ? 0 : 2 * random() ** 3;
    lngLats[2 * i] = lng + spread * (random() - 0.5);
    lngLats[2 * i + 1] = lat + spread * (random() - 0.5);
  }
  return lngLats;
}

type Group = { kind: 'pin'; index: number } | { kind: 'bubble'; lng: number; lat: number; count: number; id: number };

/** What the grouping shows at a zoom in a box, in its order. */
function groupsOf(grouping: PinGrouping, bbox: readonly [number, number, number, number], zoom: number): Group[] {
  const groups: Group[] = [];
  grouping.visit(bbox, zoom, { pin: (index) => groups.push({ kind: 'pin', index }), bubble: (lng, lat, count, id) => groups.push({ kind: 'bubble', lng, lat, count, id }) });
  return groups;
}

/** Pins shown: lone pins count one, bubbles their count. */
function shown(groups: Group[]): number {
  return groups.reduce((sum, g) => sum + (g.kind === 'bubble' ? g.count : 1), 0);
}

/**
 * The same pins grouped by supercluster itself, a range of zooms at a time as `PinGrouping`
 * groups them: what the page showed before it grouped in typed arrays, and the reference here.
 */
function superclusterGroups(lngLats: Float64Array, members: number[]) {
  const features = members.map((i) => ({ type: 'Feature' as const, geometry: { type: 'Point' as const, coordinates: [lngLats[2 * i]!, lngLats[2 * i + 1]!] }, properties: { i } }));
  const tiers = clusterTiers(features.length).map(([minZoom, maxZoom]) => ({ minZoom, maxZoom, index: new Supercluster<{ i: number }>({ radius: CLUSTER_RADIUS, minZoom, maxZoom }).load(features) }));
  const tierOf = (zoom: number) => tiers.find((t) => Math.min(zoom, CLUSTER_MAX_ZOOM) >= t.minZoom && Math.min(zoom, CLUSTER_MAX_ZOOM) <= t.maxZoom)!.index;
  return {
    groups(bbox: [number, number, number, number], zoom: number): Group[] {
      return tierOf(zoom)
        .getClusters(bbox, zoom)
        .map((feature) => {
          const properties = feature.properties as Partial<Supercluster.ClusterProperties> & { i?: number };
          if (!properties.cluster) return { kind: 'pin', index: properties.i! };
          const [lng, lat] = feature.geometry.coordinates as [number, number];
          return { kind: 'bubble', lng, lat, count: properties.point_count!, id: properties.cluster_id! };
        });
    },
    expansionZoom(id: number, zoom: number): number {
      return tierOf(zoom).getClusterExpansionZoom(id);
    },
    /** A bubble's pins, by index, in the set's order. */
    leaves(id: number, zoom: number): number[] {
      return tierOf(zoom)
        .getLeaves(id, Infinity)
        .map((feature) => feature.properties.i)
        .sort((a, b) => a - b);
    },
  };
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
    const grouping = new PinGrouping({ lngLats: set });
    expect(grouping.grouped).toBe(0);
    groupsOf(grouping, WORLD, 2);
    expect(grouping.grouped).toBe(1);
    groupsOf(grouping, WORLD, 3.7); // the same range
    expect(grouping.grouped).toBe(1);
    grouping.prepare(12);
    expect(grouping.grouped).toBe(2);
  });

  it('shows every pin exactly once at every zoom, in bubbles or alone', () => {
    const grouping = new PinGrouping({ lngLats: set });
    for (let zoom = 0; zoom <= CLUSTER_MAX_ZOOM + 2; zoom++) {
      const groups = groupsOf(grouping, WORLD, zoom);
      expect(shown(groups), `zoom ${zoom}`).toBe(grouping.count);
      if (zoom <= 8) expect(groups.length, `zoom ${zoom}`).toBeLessThan(grouping.count / 2); // the crowds are grouped
    }
    expect(groupsOf(grouping, WORLD, CLUSTER_MAX_ZOOM + 1)).toHaveLength(grouping.count); // above the last zoom, nothing is
  });

  it('splits each bubble at a zoom above its own, at most the first zoom of the next range', () => {
    const grouping = new PinGrouping({ lngLats: set });
    for (const [from, to] of clusterTiers(grouping.count)) {
      for (const zoom of new Set([from, to])) {
        const bubbles = groupsOf(grouping, WORLD, zoom).filter((g) => g.kind === 'bubble');
        expect(bubbles.length, `zoom ${zoom}`).toBeGreaterThan(0);
        for (const bubble of bubbles.slice(0, 20)) {
          const split = grouping.expansionZoom(bubble.id);
          expect(split, `a bubble at zoom ${zoom}`).toBeGreaterThan(zoom);
          expect(split, `a bubble at zoom ${zoom}`).toBeLessThanOrEqual(to + 1);
        }
      }
    }
  });

  it('names a bubble it does not have', () => {
    const grouping = new PinGrouping({ lngLats: set });
    expect(() => grouping.expansionZoom(7)).toThrow('there is no bubble with the id 7');
    // A bubble's id with a zoom and place that were never made.
    expect(() => grouping.expansionZoom(grouping.count + (5_000_000 << 5) + 3)).toThrow(`there is no bubble with the id ${grouping.count + (5_000_000 << 5) + 3}`);
  });
});

describe('PinGrouping without keeping discs apart makes the groups supercluster makes', () => {
  /** Pins that test the edges: the same spot many times, both sides of 180°, near the poles, and a crowd. */
  function edges(): Float64Array {
    const pairs: number[] = [];
    for (let i = 0; i < 40; i++) pairs.push(2.35, 48.85); // one spot
    for (let i = 0; i < 200; i++) pairs.push(i % 2 ? 179.9 + (i % 7) * 0.01 : -179.95 + (i % 5) * 0.01, -16 + (i % 13) * 0.2); // the 180° meridian
    for (let i = 0; i < 100; i++) pairs.push(-180 + i * 3.6, i % 2 ? 89.9 : -89.9); // the poles, clamped
    pairs.push(180, 0, -180, 0, 0, 85.06, 0, -85.06);
    return Float64Array.from([...pairs, ...points(3000)]);
  }

  const sets: [string, Float64Array, ((i: number) => boolean) | undefined][] = [
    ['a crowd grouped a range of zooms at a time', points(CLUSTER_TIERS.fromPins + 2500), undefined],
    ['the same crowd with a category hidden (every third pin)', points(CLUSTER_TIERS.fromPins + 2500), (i) => i % 3 !== 0],
    ['a small set with edge cases, grouped at every zoom in one go', edges(), undefined],
  ];
  for (const [name, lngLats, keep] of sets) {
    it(`${name}: the same pins and bubbles (count, id, centre), in the same order, in every zoom and box, and the same splits`, () => {
      const all = Array.from({ length: lngLats.length / 2 }, (_, i) => i);
      const members = keep ? all.filter(keep) : all;
      const grouping = new PinGrouping(keep ? { lngLats, members: Uint32Array.from(members) } : { lngLats }, { keepApart: false });
      const reference = superclusterGroups(lngLats, members);
      const boxes: [number, number, number, number][] = [WORLD, [-10, 35, 30, 60], [170, -40, -170, 10], [100, -50, 200, 0], [-200, 20, -100, 70]];
      let bubbles = 0;
      for (let zoom = 0; zoom <= PIN_ZOOMS; zoom++) {
        for (const box of boxes) {
          const ours = groupsOf(grouping, box, zoom);
          expect(ours, `zoom ${zoom}, box ${box.join(',')}`).toEqual(reference.groups(box, zoom));
          if (box !== WORLD) continue;
          for (const group of ours) {
            if (group.kind !== 'bubble') continue;
            bubbles++;
            expect(grouping.expansionZoom(group.id), `bubble ${group.id} at zoom ${zoom}`).toBe(reference.expansionZoom(group.id, zoom));
          }
        }
      }
      expect(bubbles).toBeGreaterThan(100);
    });
  }
});

describe('PinGrouping.leaves', () => {
  const sets: [string, Float64Array, ((i: number) => boolean) | undefined][] = [
    ['a small set grouped at every zoom in one go', points(3000), undefined],
    ['a crowd grouped a range of zooms at a time', points(CLUSTER_TIERS.fromPins + 2500), undefined],
    ['the same crowd with a category hidden (every third pin)', points(CLUSTER_TIERS.fromPins + 2500), (i) => i % 3 !== 0],
  ];
  for (const [name, lngLats, keep] of sets) {
    it(`${name}: without keeping discs apart, each bubble's pins are those supercluster lists, in the set's order, and every pin is in one group`, () => {
      const all = Array.from({ length: lngLats.length / 2 }, (_, i) => i);
      const members = keep ? all.filter(keep) : all;
      const grouping = new PinGrouping(keep ? { lngLats, members: Uint32Array.from(members) } : { lngLats }, { keepApart: false });
      const reference = superclusterGroups(lngLats, members);
      for (const zoom of [0, 3, 8, 11, CLUSTER_MAX_ZOOM]) {
        const seen: number[] = [];
        for (const group of groupsOf(grouping, WORLD, zoom)) {
          if (group.kind === 'pin') {
            seen.push(group.index);
            continue;
          }
          const { pins, total } = grouping.leaves(group.id);
          expect(total, `bubble ${group.id} at zoom ${zoom}`).toBe(group.count);
          expect([...pins], `bubble ${group.id} at zoom ${zoom}`).toEqual(reference.leaves(group.id, zoom));
          seen.push(...pins);
        }
        expect(seen.sort((a, b) => a - b), `zoom ${zoom}`).toEqual(members);
      }
    });
  }

  it('gives `limit` pins from `offset` on, and how many the bubble has in all', () => {
    const grouping = new PinGrouping({ lngLats: points(3000) });
    const bubble = groupsOf(grouping, WORLD, 4).find((group) => group.kind === 'bubble' && group.count > 30);
    if (bubble?.kind !== 'bubble') throw new Error('no bubble of more than 30 pins');
    const all = [...grouping.leaves(bubble.id).pins];
    expect(all).toHaveLength(bubble.count);
    const page = grouping.leaves(bubble.id, 10, 15);
    expect(page.total).toBe(bubble.count);
    expect([...page.pins]).toEqual(all.slice(10, 25));
    expect([...grouping.leaves(bubble.id, bubble.count - 3, 100).pins]).toEqual(all.slice(-3));
    expect(grouping.leaves(bubble.id, bubble.count + 5).pins).toHaveLength(0);
  });

  it('names a bubble it does not have', () => {
    const grouping = new PinGrouping({ lngLats: points(300) });
    expect(() => grouping.leaves(7)).toThrow('there is no bubble with the id 7');
  });
});

/** Zooms compared: every grouped one and two above. */
const PIN_ZOOMS = CLUSTER_MAX_ZOOM + 2;

describe('PinGrouping keeps groups apart', () => {
  /** Mercator pixels at `zoom` (512 px tiles, as the map draws). */
  const toPixels = (lng: number, lat: number, zoom: number): [number, number] => {
    const size = 512 * 2 ** zoom;
    const sin = Math.sin((lat * Math.PI) / 180);
    return [(lng / 360 + 0.5) * size, (0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI) * size];
  };

  /**
   * A city's addresses: streets of houses a few metres apart (some straight, some bent), clumps of
   * flats at one address, and pins scattered between; all within a few kilometres of one centre.
   */
  const city = fc
    .record({
      centre: fc.record({ lng: fc.double({ min: -170, max: 170, noNaN: true }), lat: fc.double({ min: -60, max: 60, noNaN: true }) }),
      streets: fc.array(
        fc.record({ from: fc.tuple(fc.double({ min: -0.03, max: 0.03, noNaN: true }), fc.double({ min: -0.03, max: 0.03, noNaN: true })), angle: fc.double({ min: 0, max: Math.PI, noNaN: true }), bend: fc.double({ min: -0.05, max: 0.05, noNaN: true }), houses: fc.integer({ min: 2, max: 120 }), step: fc.double({ min: 0.00003, max: 0.0003, noNaN: true }) }),
        { minLength: 1, maxLength: 8 },
      ),
      clumps: fc.array(fc.record({ at: fc.tuple(fc.double({ min: -0.03, max: 0.03, noNaN: true }), fc.double({ min: -0.03, max: 0.03, noNaN: true })), flats: fc.integer({ min: 2, max: 60 }) }), { maxLength: 6 }),
      scattered: fc.array(fc.tuple(fc.double({ min: -0.05, max: 0.05, noNaN: true }), fc.double({ min: -0.05, max: 0.05, noNaN: true })), { maxLength: 80 }),
    })
    .map(({ centre, streets, clumps, scattered }) => {
      const pairs: number[] = [];
      for (const street of streets) {
        let angle = street.angle;
        let [lng, lat] = street.from;
        for (let h = 0; h < street.houses; h++) {
          pairs.push(centre.lng + lng, centre.lat + lat);
          lng += Math.cos(angle) * street.step;
          lat += Math.sin(angle) * street.step;
          angle += street.bend;
        }
      }
      for (const clump of clumps) for (let f = 0; f < clump.flats; f++) pairs.push(centre.lng + clump.at[0], centre.lat + clump.at[1]);
      for (const [lng, lat] of scattered) pairs.push(centre.lng + lng, centre.lat + lat);
      return Float64Array.from(pairs);
    });

  /** Checks that at every zoom no two groups' drawn discs overlap, and every pin shows once. */
  const expectApart = (lngLats: Float64Array) => {
    const grouping = new PinGrouping({ lngLats });
    for (let zoom = 0; zoom <= CLUSTER_MAX_ZOOM; zoom++) {
      const discs: { x: number; y: number; r: number; count: number }[] = [];
      grouping.visit(WORLD, zoom, {
        // A pin's disc is its head, above its tip.
        pin: (i) => discs.push({ ...xy(toPixels(lngLats[2 * i]!, lngLats[2 * i + 1]!, zoom), groupDiscLift(1)), r: groupDiscRadius(1), count: 1 }),
        bubble: (lng, lat, count) => discs.push({ ...xy(toPixels(lng, lat, zoom), groupDiscLift(count)), r: groupDiscRadius(count), count }),
      });
      expect(discs.reduce((sum, disc) => sum + disc.count, 0), `zoom ${zoom}`).toBe(grouping.count);
      discs.sort((a, b) => a.x - b.x);
      for (let a = 0; a < discs.length; a++) {
        for (let b = a + 1; b < discs.length && discs[b]!.x - discs[a]!.x < 2 * MAX_DISC; b++) {
          const [p, q] = [discs[a]!, discs[b]!];
          // Both discs' radii; a pixel allowed for the spatial index's single precision.
          expect(Math.hypot(p.x - q.x, p.y - q.y), `zoom ${zoom}: a group of ${p.count} and one of ${q.count}`).toBeGreaterThanOrEqual(p.r + q.r - 1);
        }
      }
    }
  };

  it('at every zoom it groups, no two bubbles or lone pins shown have drawn discs (a bubble’s circle, a pin’s head) that overlap, and every pin shows once', () => {
    fc.assert(fc.property(city, expectApart), { numRuns: 25 });
  });

  it('keeps a pin 11 px beside a bubble at zoom 18 apart from it, where single precision would have placed it a few pixels off (a case the property found)', () => {
    // A bent street from a spot, a second pin on the spot and one 0.00003° east of it.
    expectApart(Float64Array.from([0,0,0.00011774689437806117,0,0.0002353474418540277,-0.000005868762137898728,0.0003525093124110674,-0.000017591697915841555,0.0004689412664901209,-0.000035139666602030536,0.000584353878949671,-0.00005846904766840262,0.0006984602585152544,-0.00008752184922201009,0.0008109767609303179,-0.00012222585216056583,0.0009216236940356766,-0.00016249478969381322,0.0010301260130248957,-0.0002082285617844687,0.0011362140041473406,-0.0002593134839756823,0.0012396239551593514,-0.00031562256998648384,0.0013400988108569448,-0.00037701584737274247,0.0014373888120605277,-0.0004433407054689731,0.0015312521164632413,-0.0005144322747460808,0.0016214553997996389,-0.0005901138366420398,0.0017077744358403191,-0.0006701972628467548,0.0017899946537707724,-0.000754483482949136,0.0018679116715689126,-0.0008427629792839168,0.001941331804055433,-0.0009348163077481286,0.00201007254435408,-0.0010304146432925947,0.0020739630175650343,-0.0011293203487324661,0.0021328444055236703,-0.001231287565462859,0.0021865703415888237,-0.0013360628246111967,0.0022350072744792187,-0.001443385677107064,0.0022780348002536224,-0.0015529893411033524,0.0023155459616095073,-0.0016646013651393453,0.002347447513756216,-0.0017779443053972596,0.0023736601562017335,-0.0018927364153687282,0.002394118729876891,-0.002008692346216859,0.0024087723791069897,-0.0021255238560929173,0.002417584678028222,-0.0022429405266444244,0.002420533721134642,-0.00236065048493358,0.002417612177730607,-0.0024783611289714777,0,0,0.00003,0]));
  });

  it('two lone pins are always further apart than the radius, so the radius is at least two pins’ discs', () => {
    expect(CLUSTER_RADIUS).toBeGreaterThanOrEqual(2 * groupDiscRadius(1) + GROUP_GAP);
  });

  it('merges the overlapping groups supercluster would leave, and each bubble still splits at the zoom above it into the pins it holds', () => {
    const lngLats = points(3000);
    const grouping = new PinGrouping({ lngLats });
    const loose = new PinGrouping({ lngLats }, { keepApart: false });
    let fewer = 0;
    for (let zoom = 0; zoom <= CLUSTER_MAX_ZOOM; zoom++) {
      const groups = groupsOf(grouping, WORLD, zoom);
      if (groups.length < groupsOf(loose, WORLD, zoom).length) fewer++;
      for (const group of groups) {
        if (group.kind !== 'bubble') continue;
        expect(grouping.expansionZoom(group.id), `a bubble at zoom ${zoom}`).toBeGreaterThan(zoom);
        const { pins } = grouping.leaves(group.id);
        expect(pins.length, `a bubble at zoom ${zoom}`).toBe(group.count);
      }
    }
    expect(fewer).toBeGreaterThan(3); // the rule did merge something, at several zooms
  });
});

const xy = ([x, y]: [number, number], lift: number) => ({ x, y: y - lift });
/** The widest disc a group is drawn in. */
const MAX_DISC = groupDiscRadius(1_000_000);

describe('PinGrouping bubble keys', () => {
  /** Every bubble at every zoom, with its key and its pins. */
  function bubblesWithKeys(grouping: PinGrouping): { zoom: number; key: number; pins: Uint32Array }[] {
    const bubbles: { zoom: number; key: number; pins: Uint32Array }[] = [];
    for (let zoom = 0; zoom <= CLUSTER_MAX_ZOOM; zoom++) {
      grouping.visit(WORLD, zoom, { pin: () => {}, bubble: (_lng, _lat, _count, id, _entry, key) => bubbles.push({ zoom, key, pins: grouping.leaves(id).pins }) });
    }
    return bubbles;
  }

  it('gives each bubble, at every zoom, the lowest index among its pins as its key, also where groups were merged to keep them apart and over a subset of the pins', () => {
    fc.assert(
      fc.property(fc.integer({ min: 50, max: 1500 }), fc.integer({ min: 1, max: 1000 }), (count, seed) => {
        const lngLats = points(count);
        // Every pin but some, as hidden pins and free slots are left out.
        const members = Uint32Array.from({ length: count }, (_, i) => i).filter((i) => (i * 7919 + seed) % 5 !== 0);
        for (const input of [{ lngLats }, { lngLats, members }]) {
          const bubbles = bubblesWithKeys(new PinGrouping(input, { keys: true }));
          expect(bubbles.length).toBeGreaterThan(0);
          for (const { zoom, key, pins } of bubbles) expect(key, `a bubble of ${pins.length} at zoom ${zoom}`).toBe(Math.min(...pins));
        }
      }),
      { numRuns: 8 },
    );
  });

  it('keys nothing unless asked: bubbles get -1, and the same groups', () => {
    const lngLats = points(800);
    const keyed = new PinGrouping({ lngLats }, { keys: true });
    const plain = new PinGrouping({ lngLats });
    for (const zoom of [2, 5, 9]) {
      expect(groupsOf(keyed, WORLD, zoom)).toEqual(groupsOf(plain, WORLD, zoom));
      plain.visit(WORLD, zoom, { pin: () => {}, bubble: (...args) => expect(args[5]).toBe(-1) });
    }
  });
});
