import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { compareImages, ImageSizeMismatchError, isUniform } from './compare.ts';

/** A width×height PNG filled with one colour, with optional rectangles painted over it. */
function png(width: number, height: number, fill: [number, number, number], rects: { x: number; y: number; w: number; h: number; rgb: [number, number, number] }[] = []): Buffer {
  const image = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const rect = rects.find((r) => x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h);
      const [r, g, b] = rect ? rect.rgb : fill;
      const i = (y * width + x) * 4;
      image.data[i] = r;
      image.data[i + 1] = g;
      image.data[i + 2] = b;
      image.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(image);
}

const sea: [number, number, number] = [212, 230, 241];
const pin: [number, number, number] = [63, 177, 206];

describe('compareImages', () => {
  it('passes identical images with zero differing pixels', () => {
    const a = png(64, 48, sea, [{ x: 10, y: 10, w: 8, h: 8, rgb: pin }]);
    const result = compareImages(a, Buffer.from(a));
    expect(result).toMatchObject({ pass: true, diffPixels: 0, width: 64, height: 48 });
  });

  it('fails a changed region and counts exactly its pixels', () => {
    const a = png(64, 48, sea, [{ x: 10, y: 10, w: 8, h: 8, rgb: pin }]);
    const b = png(64, 48, sea, [{ x: 10, y: 10, w: 8, h: 8, rgb: [200, 40, 40] }]);
    const result = compareImages(a, b);
    expect(result.pass).toBe(false);
    expect(result.diffPixels).toBe(64);
  });

  it('catches a one-pixel shift of a small shape', () => {
    const a = png(64, 48, sea, [{ x: 10, y: 10, w: 6, h: 10, rgb: pin }]);
    const b = png(64, 48, sea, [{ x: 11, y: 10, w: 6, h: 10, rgb: pin }]);
    const result = compareImages(a, b);
    expect(result.pass).toBe(false);
    expect(result.diffPixels).toBeGreaterThan(0);
  });

  it('allows as many differing pixels as the tolerance says, and no more', () => {
    const a = png(64, 48, sea);
    const b = png(64, 48, sea, [{ x: 0, y: 0, w: 5, h: 2, rgb: [0, 0, 0] }]);
    expect(compareImages(a, b, { maxDiffPixels: 10 }).pass).toBe(true);
    expect(compareImages(a, b, { maxDiffPixels: 9 }).pass).toBe(false);
    expect(compareImages(a, b, { maxDiffRatio: 10 / (64 * 48) }).pass).toBe(true);
  });

  it('writes a diff image of the same size that marks the changed pixels', () => {
    const a = png(16, 16, sea);
    const b = png(16, 16, sea, [{ x: 4, y: 4, w: 1, h: 1, rgb: [0, 0, 0] }]);
    const diff = PNG.sync.read(compareImages(a, b).diff);
    expect([diff.width, diff.height]).toEqual([16, 16]);
    const i = (4 * 16 + 4) * 4;
    expect([diff.data[i], diff.data[i + 1], diff.data[i + 2]]).toEqual([255, 0, 0]);
  });

  it('reports a size mismatch as a clear error naming both sizes', () => {
    const a = png(64, 48, sea);
    const b = png(65, 48, sea);
    expect(() => compareImages(a, b)).toThrow(ImageSizeMismatchError);
    expect(() => compareImages(a, b)).toThrow('the baseline is 64×48 px, the screenshot is 65×48 px');
  });
});

describe('isUniform', () => {
  it('tells a blank image from one with content', () => {
    expect(isUniform(png(8, 8, sea))).toBe(true);
    expect(isUniform(png(8, 8, sea, [{ x: 7, y: 7, w: 1, h: 1, rgb: pin }]))).toBe(false);
  });
});
