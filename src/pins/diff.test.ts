import { describe, expect, it } from 'vitest';
import { parsePins } from './data.ts';
import { applyPinChanges, diffPins, isEmptyDiff, updateNotice } from './diff.ts';

/** Pins as a file gives them: `[id, lng, lat, extra properties]`. */
function pinsOf(...rows: [string, number, number, Record<string, unknown>?][]) {
  return parsePins({
    type: 'FeatureCollection',
    features: rows.map(([id, lng, lat, properties]) => ({ type: 'Feature', id, geometry: { type: 'Point', coordinates: [lng, lat] }, properties: { title: id, ...properties } })),
  }).pins;
}

describe('diffPins', () => {
  it('finds nothing between two readings of the same pins', () => {
    const diff = diffPins(pinsOf(['a', 1, 2], ['b', 3, 4, { pin: { markerColor: '#ff0000' }, description: 'x' }]), pinsOf(['a', 1, 2], ['b', 3, 4, { pin: { markerColor: '#ff0000' }, description: 'x' }]));
    expect(isEmptyDiff(diff)).toBe(true);
  });

  it('tells added, removed, moved and changed pins apart by id', () => {
    const before = pinsOf(['a', 1, 2], ['b', 3, 4], ['c', 5, 6], ['d', 7, 8]);
    const after = pinsOf(['e', 9, 9], ['b', 3.5, 4], ['d', 7, 8, { description: 'now open' }], ['a', 1, 2, { pin: { markerColor: '#00ff00' } }]);
    const diff = diffPins(before, after);
    expect(diff.added.map((pin) => pin.id)).toEqual(['e']);
    expect(diff.removed).toEqual(['c']);
    expect(diff.changed.map((pin) => pin.id)).toEqual(['b', 'd', 'a']);
    expect([...diff.moved]).toEqual([['b', [3, 4]]]);
    expect([...diff.redrawn]).toEqual(['a']);
    expect([...diff.retold]).toEqual(['d']);
    expect(isEmptyDiff(diff)).toBe(false);
  });

  it('does not take a pin moved into a new order for a changed one', () => {
    const diff = diffPins(pinsOf(['a', 1, 2], ['b', 3, 4]), pinsOf(['b', 3, 4], ['a', 1, 2]));
    expect(isEmptyDiff(diff)).toBe(true);
  });

  it('redraws a pin whose title or category changed', () => {
    const diff = diffPins(pinsOf(['a', 1, 2], ['b', 3, 4]), pinsOf(['a', 1, 2, { title: 'A' }], ['b', 3, 4, { category: 'bus' }]));
    expect([...diff.redrawn]).toEqual(['a', 'b']);
    expect([...diff.retold]).toEqual(['a']);
    expect(diff.moved.size).toBe(0);
  });

  it('costs one pass: 10,000 pins with 1,000 moved compare in well under a second', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => [`v${i}`, (i % 360) - 180, (i % 170) - 85] as [string, number, number]);
    const before = pinsOf(...rows);
    const after = before.map((pin, i) => (i % 10 === 0 ? { ...pin, lngLat: [pin.lngLat[0], pin.lngLat[1] + 0.5] as [number, number] } : pin));
    const started = performance.now();
    const diff = diffPins(before, after);
    expect(performance.now() - started).toBeLessThan(500);
    expect(diff.moved.size).toBe(1_000);
    expect(diff.changed.length).toBe(1_000);
  });
});

describe('applyPinChanges', () => {
  it('removes, updates in place and adds at the end', () => {
    const list = pinsOf(['a', 1, 2], ['b', 3, 4], ['c', 5, 6]);
    const [b2, d] = pinsOf(['b', 30, 40], ['d', 7, 8]);
    const { list: next, problems } = applyPinChanges(list, { remove: ['a'], update: [b2!], add: [d!] });
    expect(next.map((pin) => [pin.id, pin.lngLat])).toEqual([
      ['b', [30, 40]],
      ['c', [5, 6]],
      ['d', [7, 8]],
    ]);
    expect(problems).toEqual([]);
    expect(list.map((pin) => pin.id)).toEqual(['a', 'b', 'c']);
  });

  it('names each change it cannot apply and applies the rest', () => {
    const list = pinsOf(['a', 1, 2]);
    const [a2, z] = pinsOf(['a', 9, 9], ['z', 1, 1]);
    const { list: next, problems } = applyPinChanges(list, { add: [a2!], update: [z!], remove: ['nope'] });
    expect(next).toEqual(list);
    expect(problems).toEqual(['remove: there is no pin "nope" to remove', 'update: there is no pin "z" to update (add it instead)', 'add: there is a pin "a" already (update it instead)']);
  });
});

describe('updateNotice', () => {
  it('says that pins without an id cannot be updated', () => {
    const set = parsePins({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { title: 'no id' } },
        { type: 'Feature', id: 'x', geometry: { type: 'Point', coordinates: [1, 99] }, properties: { title: 'too far north' } },
        { type: 'Feature', id: 'ok', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { title: 'fine' } },
      ],
    });
    expect(updateNotice('2 pins could not be shown', set.skipped)).toBe('2 pins could not be shown: 1 has no id, and a pin needs an id to be updated');
    expect(updateNotice('1 pin could not be shown', set.skipped.slice(1))).toBeUndefined();
  });
});
