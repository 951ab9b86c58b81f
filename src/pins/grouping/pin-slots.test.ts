import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pin } from '../types.ts';
import { createIndexCore, type IndexReply } from './index-core.ts';
import { PinSlots } from './pin-slots.ts';

const pin = (id: string, lngLat: [number, number], category?: string): Pin => ({ id, title: id, description: '', lngLat, options: {}, ...(category ? { category } : {}) });
const ids = (slots: PinSlots) => slots.pins.map((p) => p?.id);

describe('PinSlots', () => {
  it('keeps each pin in its slot when others leave or come, gives a new pin the lowest free slot, and gives back free slots at the end', () => {
    const slots = new PinSlots([pin('a', [0, 0]), pin('b', [1, 1]), pin('c', [2, 2]), pin('d', [3, 3])]);
    expect(ids(slots)).toEqual(['a', 'b', 'c', 'd']);
    slots.update([pin('d', [3, 3]), pin('a', [0, 0]), pin('c', [2, 2])]);
    expect(ids(slots)).toEqual(['a', undefined, 'c', 'd']);
    slots.update([pin('a', [0, 0]), pin('c', [2, 2]), pin('d', [3, 3]), pin('e', [4, 4]), pin('f', [5, 5])]);
    expect(ids(slots)).toEqual(['a', 'e', 'c', 'd', 'f']);
    expect(slots.slot('f')).toBe(4);
    expect(slots.slot('b')).toBe(-1);
    slots.update([pin('a', [0, 0]), pin('e', [4, 4])]);
    expect(ids(slots)).toEqual(['a', 'e']);
    slots.update([pin('a', [0, 0]), pin('e', [4, 4]), pin('g', [6, 6])]);
    expect(ids(slots)).toEqual(['a', 'e', 'g']);
  });

  it('takes each pin’s new value in its slot, and leaves the array it gave before as it was', () => {
    const slots = new PinSlots([pin('a', [0, 0]), pin('b', [1, 1])]);
    const before = slots.pins;
    slots.update([pin('b', [9, 9])]);
    expect(before.map((p) => p?.lngLat)).toEqual([[0, 0], [1, 1]]);
    expect(slots.pins.map((p) => p?.lngLat)).toEqual([undefined, [9, 9]]);
    expect(Array.from(slots.lngLats())).toEqual([0, 0, 9, 9]);
  });

  it('shows every slot’s pin but free slots and hidden categories', () => {
    const slots = new PinSlots([pin('a', [0, 0], 'x'), pin('b', [1, 1], 'y'), pin('c', [2, 2], 'x')]);
    expect(slots.visible(new Set())).toBeUndefined();
    expect(Array.from(slots.visible(new Set(['y']))!)).toEqual([1, 0, 1]);
    slots.update([pin('a', [0, 0], 'x'), pin('c', [2, 2], 'x')]);
    expect(Array.from(slots.visible(new Set())!)).toEqual([1, 0, 1]);
  });
});

describe('the pin index over slots, updated by id', () => {
  type Groups = Extract<IndexReply, { type: 'groups' }>;
  const WORLD: [number, number, number, number] = [-180, -85, 180, 85];
  const ZOOMS = [3, 8, 11, 14];

  /** What the index shows at a zoom: each bubble by its key with its count and the ids of its pins, and the lone pins' ids. */
  function shownAt(answer: ReturnType<typeof createIndexCore>, slots: PinSlots, zoom: number) {
    const { reply } = answer({ id: 1, type: 'groups', bbox: WORLD, zoom });
    const groups = reply as Groups;
    const bubbles = new Map<number, string>();
    for (let k = 0; k < groups.clusters.length; k += 4) {
      const leaves = answer({ id: 2, type: 'leaves', clusterId: groups.clusters[k + 3]! }).reply as Extract<IndexReply, { type: 'leaves' }>;
      bubbles.set(groups.keys[k / 4]!, Array.from(leaves.pins, (slot) => slots.pins[slot]!.id).sort().join());
    }
    return { bubbles, lone: Array.from(groups.pins, (slot) => slots.pins[slot]!.id).sort() };
  }

  const place = fc.tuple(fc.double({ min: 2.2, max: 2.5, noNaN: true }), fc.double({ min: 48.7, max: 49, noNaN: true }));
  const step = fc.oneof(
    fc.record({ kind: fc.constant('add' as const), at: place }),
    fc.record({ kind: fc.constant('move' as const), which: fc.nat(), at: place }),
    fc.record({ kind: fc.constant('remove' as const), which: fc.nat() }),
  );

  it('after any sequence of adds, moves and removes: every bubble whose pins are the same keeps its key, every pin shows once, and the groups are those of a new index of the same slots', () => {
    fc.assert(
      fc.property(fc.array(place, { minLength: 20, maxLength: 300 }), fc.array(fc.array(step, { minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 6 }), (start, updates) => {
        let list = start.map((at, i) => pin(`p${i}`, at));
        let made = start.length;
        const slots = new PinSlots(list);
        const live = createIndexCore();
        live({ id: 0, type: 'load', lngLats: slots.lngLats(), ...(slots.visible(new Set()) ? { visible: slots.visible(new Set())! } : {}) });
        for (const update of updates) {
          const before = ZOOMS.map((zoom) => shownAt(live, slots, zoom));
          for (const change of update) {
            if (change.kind === 'add') list = [...list, pin(`p${made++}`, change.at)];
            else if (list.length > 1 && change.kind === 'remove') list = list.filter((_, i) => i !== change.which % list.length);
            else if (change.kind === 'move') list = list.map((p, i) => (i === change.which % list.length ? pin(p.id, change.at) : p));
          }
          slots.update(list);
          const visible = slots.visible(new Set());
          live({ id: 0, type: 'load', lngLats: slots.lngLats(), ...(visible ? { visible } : {}) });
          const fresh = createIndexCore();
          fresh({ id: 0, type: 'load', lngLats: slots.lngLats(), ...(visible ? { visible } : {}) });
          ZOOMS.forEach((zoom, z) => {
            const now = shownAt(live, slots, zoom);
            expect(now, `zoom ${zoom}`).toEqual(shownAt(fresh, slots, zoom));
            for (const [key, pins] of before[z]!.bubbles) {
              const same = [...now.bubbles].find(([, members]) => members === pins);
              if (same) expect(same[0], `zoom ${zoom}: the bubble of ${pins}`).toBe(key);
            }
          });
          // Every pin of the list is shown once, alone or in a bubble, and no other.
          const all = shownAt(live, slots, 12);
          expect([...all.lone, ...[...all.bubbles.values()].flatMap((members) => members.split(','))].sort()).toEqual(list.map((p) => p.id).sort());
        }
      }),
      { numRuns: 30, seed: 43 },
    );
  });
});
