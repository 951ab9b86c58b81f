import { describe, expect, it } from 'vitest';
import type { Pin } from '../../pins/types.ts';
import { featureIdOf, pinsToMove } from './gl-pins-layer.ts';

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
