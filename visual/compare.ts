import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

/** How strict a comparison is; a scene may loosen these only after measuring its noise. */
export interface Tolerance {
  /** pixelmatch's per-pixel colour distance threshold, 0..1 (smaller is stricter). */
  threshold: number;
  /** Differing pixels allowed, as a count. */
  maxDiffPixels: number;
  /** Differing pixels allowed, as a share of all pixels; the larger of the two allowances wins. */
  maxDiffRatio: number;
}

export const DEFAULT_TOLERANCE: Tolerance = { threshold: 0.1, maxDiffPixels: 0, maxDiffRatio: 0 };

export interface Comparison {
  pass: boolean;
  diffPixels: number;
  allowedPixels: number;
  width: number;
  height: number;
  /** The diff image: differing pixels in red over a faded copy of the baseline. */
  diff: Buffer;
}

export class ImageSizeMismatchError extends Error {
  constructor(expected: PNG, actual: PNG) {
    super(`Image size mismatch: the baseline is ${expected.width}×${expected.height} px, the screenshot is ${actual.width}×${actual.height} px`);
    this.name = 'ImageSizeMismatchError';
  }
}

/**
 * Compares a screenshot with its baseline, both PNG files. Anti-aliased pixels are detected and
 * not counted. Throws `ImageSizeMismatchError` when the sizes differ: that is never noise.
 */
export function compareImages(baseline: Buffer, screenshot: Buffer, tolerance: Partial<Tolerance> = {}): Comparison {
  const t = { ...DEFAULT_TOLERANCE, ...tolerance };
  const expected = PNG.sync.read(baseline);
  const actual = PNG.sync.read(screenshot);
  if (expected.width !== actual.width || expected.height !== actual.height) throw new ImageSizeMismatchError(expected, actual);
  const { width, height } = expected;
  const diff = new PNG({ width, height });
  const diffPixels = pixelmatch(expected.data, actual.data, diff.data, width, height, {
    threshold: t.threshold,
    includeAA: false,
    alpha: 0.2,
  });
  const allowedPixels = Math.max(t.maxDiffPixels, Math.floor(t.maxDiffRatio * width * height));
  return { pass: diffPixels <= allowedPixels, diffPixels, allowedPixels, width, height, diff: PNG.sync.write(diff) };
}

/** Whether every pixel of a PNG has the same colour: a blank canvas, never a real map. */
export function isUniform(image: Buffer): boolean {
  const { data } = PNG.sync.read(image);
  for (let i = 4; i < data.length; i += 4) {
    if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2] || data[i + 3] !== data[3]) return false;
  }
  return true;
}
