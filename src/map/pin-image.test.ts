import { describe, expect, it } from 'vitest';
import { bubbleDiameterOf, bubbleImageId } from './pin-image.ts';
import { clusterDiameter } from './pin-markers.ts';

describe('bubble image ids: the missing-image resolver knows a bubble by its id alone', () => {
  it('reads back the diameter of every bubble size', () => {
    for (const count of [2, 10, 100, 1000, 250_000]) {
      const diameter = clusterDiameter(count);
      expect(bubbleDiameterOf(bubbleImageId(diameter))).toBe(diameter);
    }
  });

  it('is not fooled by pin images, the collision images or a malformed id', () => {
    for (const id of ['pinmap-collision-8x8', 'pin|#3FB1CE|fa-solid fa-star', 'pinmap-bubble-', 'pinmap-bubble-x', 'pinmap-bubble-2.5', 'pinmap-bubble--4', 'pinmap-bubble-100000']) {
      expect(bubbleDiameterOf(id)).toBeUndefined();
    }
  });
});
