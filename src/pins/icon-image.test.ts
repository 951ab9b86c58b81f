import { describe, expect, it } from 'vitest';
import { bubbleDiameterOf, bubbleImageId, rasteriseBubble } from './icon-image.ts';
import { clusterDiameter } from './bubble.ts';

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

describe('rasteriseBubble: the GPU bubble image', () => {
  const pixel = (image: ReturnType<typeof rasteriseBubble>, x: number, y: number) => [...image.data.data.slice((y * image.data.width + x) * 4, (y * image.data.width + x) * 4 + 4)];

  it("is the ring's outer size, at the pixel ratio", () => {
    expect(rasteriseBubble(28, 1).data).toMatchObject({ width: 32, height: 32 });
    expect(rasteriseBubble(52, 2).data).toMatchObject({ width: 112, height: 112 });
    expect(rasteriseBubble(34, 1.5)).toMatchObject({ pixelRatio: 1.5, data: { width: 57, height: 57 } });
    // A ratio that is no ratio draws at 1.
    expect(rasteriseBubble(28, 0).pixelRatio).toBe(1);
  });

  it('is #3FB1CE at 90% inside, a white opaque ring 2 px wide outside it, and nothing in the corners', () => {
    for (const ratio of [1, 2]) {
      const image = rasteriseBubble(28, ratio);
      const size = image.data.width;
      expect(pixel(image, size / 2, size / 2)).toEqual([63, 177, 206, 230]);
      // Halfway through the ring, right of the centre.
      expect(pixel(image, Math.floor(size / 2 + 14.5 * ratio), size / 2)).toEqual([255, 255, 255, 255]);
      expect(pixel(image, 0, 0)[3]).toBe(0);
      expect(pixel(image, size - 1, size - 1)[3]).toBe(0);
    }
  });

  it('smooths its edges: between the ring and the outside, pixels are partly covered', () => {
    const image = rasteriseBubble(52, 1);
    const row = Array.from({ length: image.data.width }, (_, x) => pixel(image, x, image.data.width / 2)[3]!);
    expect(row.some((alpha) => alpha > 0 && alpha < 255)).toBe(true);
    // Round: the same coverage on both sides of the centre.
    expect(row).toEqual([...row].reverse());
  });
});
