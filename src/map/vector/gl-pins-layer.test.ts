import { describe, expect, it } from 'vitest';
import type { Pin } from '../../pins/types.ts';
import { featureIdOf, pinsToMove, sourceDiff } from './gl-pins-layer.ts';

const pin = (id: string, lngLat: [number, number]) => ({ id, lngLat }) as Pin;

describe('pinsToMove (a glide frame of the GPU pins)', () => {
  const list = [pin('a', [1, 1]), pin('b', [2, 2]), pin('c', [3, 3])];
  // The groups shown: pins 0 and 2 drawn lone (pin 1 is in a bubble).
  const groups = { pins: Uint32Array.from([0, 2]) };

  it('sends only the lone pins whose place of now differs from where they are drawn, and remembers it', () => {
    const drawnAt = new Map<number, readonly [number, number]>([
      [featureIdOf.pin(0), [1, 1]],
      [featureIdOf.pin(2), [3, 3]],
    ]);
    const gliding = new Map<string, [number, number]>([
      ['c', [2.5, 2.5]],
      // In a bubble: not drawn, so not sent.
      ['b', [1.5, 1.5]],
    ]);
    const placeOf = (id: string) => gliding.get(id);
    expect(pinsToMove(groups, list, placeOf, drawnAt)).toEqual([{ id: featureIdOf.pin(2), newGeometry: { type: 'Point', coordinates: [2.5, 2.5] } }]);
    // The next frame, nowhere new: nothing is sent.
    expect(pinsToMove(groups, list, placeOf, drawnAt)).toEqual([]);
    // The glide over: the pin is sent to its own place.
    gliding.clear();
    expect(pinsToMove(groups, list, placeOf, drawnAt)).toEqual([{ id: featureIdOf.pin(2), newGeometry: { type: 'Point', coordinates: [3, 3] } }]);
    expect(pinsToMove(groups, list, placeOf, drawnAt)).toEqual([]);
  });

  it('gives pins and bubbles ids that never meet', () => {
    const pins = new Set([0, 1, 2, 1000].map(featureIdOf.pin));
    for (const bubble of [0, 1, 2, 33, 1000].map(featureIdOf.bubble)) expect(pins.has(bubble)).toBe(false);
  });
});

describe('sourceDiff (the GPU pins\' source told what a regrouping changed)', () => {
  const feature = (id: number, at: [number, number], properties: Record<string, unknown>): GeoJSON.Feature<GeoJSON.Point> => ({ type: 'Feature', id, geometry: { type: 'Point', coordinates: at }, properties });
  const bubble = (key: number, at: [number, number], count: number) => feature(featureIdOf.bubble(key), at, { cluster: true, bubble_key: key, point_count: count });
  const lone = (slot: number, at: [number, number]) => feature(featureIdOf.pin(slot), at, { id: `p${slot}`, image: 'pin' });
  const held = (features: GeoJSON.Feature<GeoJSON.Point>[]) => new Map(features.map((f) => [f.id as number, f]));
  const still = Array.from({ length: 6 }, (_, k) => lone(20 + k, [20 + k, 0]));
  const before = [bubble(0, [1, 1], 5), bubble(7, [2, 2], 3), lone(3, [3, 3]), lone(4, [4, 4]), lone(5, [5, 5]), lone(6, [6, 6]), ...still];

  it('sends nothing for what is drawn as it was, and only the bubbles and pins that moved, changed, came or went', () => {
    const after = [bubble(0, [1, 1], 5), bubble(7, [2.5, 2], 4), lone(4, [4, 4]), lone(5, [5.5, 5]), feature(featureIdOf.pin(6), [6, 6], { id: 'q6' }), lone(9, [9, 9]), ...still];
    expect(sourceDiff(held(before), after)).toEqual({
      remove: [featureIdOf.pin(3)],
      add: [lone(9, [9, 9])],
      update: [
        { id: featureIdOf.bubble(7), newGeometry: { type: 'Point', coordinates: [2.5, 2] }, addOrUpdateProperties: [{ key: 'point_count', value: 4 }] },
        { id: featureIdOf.pin(5), newGeometry: { type: 'Point', coordinates: [5.5, 5] } },
        // Another pin in a slot: its properties told one by one, the one it lacks removed.
        { id: featureIdOf.pin(6), addOrUpdateProperties: [{ key: 'id', value: 'q6' }], removeProperties: ['image'] },
      ],
    });
    expect(sourceDiff(held(before), before)).toEqual({ remove: [], add: [], update: [] });
  });

  it('says to send the whole set when more changed than stayed (another zoom) or the source holds nothing', () => {
    expect(sourceDiff(held(before), [bubble(1, [1, 1], 9), lone(5, [5, 5])])).toBeUndefined();
    expect(sourceDiff(new Map(), before)).toBeUndefined();
  });
});
