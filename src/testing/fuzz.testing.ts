import { appendFileSync } from 'node:fs';
import type { Parameters } from 'fast-check';

/**
 * The settings of every property test and fuzz suite (fast-check): in `npm test`, a fixed seed and
 * a few hundred cases between them, so a run is quick and repeatable; `npm run fuzz`
 * (scripts/fuzz.ts) sets `PINMAP_FUZZ_SEED` to a new seed each time (it prints it) and
 * `PINMAP_FUZZ_SCALE` to run many times more cases. A failure prints the seed and the path that
 * replays it.
 */
export function fuzzParameters<T>(runs: number): Parameters<T> {
  const seed = Number(process.env.PINMAP_FUZZ_SEED ?? 35);
  const scale = Number(process.env.PINMAP_FUZZ_SCALE ?? 1);
  return { seed, numRuns: Math.max(1, Math.round(runs * scale)) };
}

/** A fuzz test's time limit: `ms` for the cases of `npm test`, more in proportion for `npm run fuzz`. */
export function fuzzTimeout(ms: number): number {
  return ms * Math.max(1, Number(process.env.PINMAP_FUZZ_SCALE ?? 1));
}

/**
 * Tells `npm run fuzz` a suite's figures (cases run, seconds, peak memory): appended as a line of
 * JSON to the file `PINMAP_FUZZ_REPORT` names, which the script prints at the end (vitest keeps a
 * test's console quiet there). Nothing outside `npm run fuzz`.
 */
export function reportFuzz(figures: { suite: string; cases: number; seconds: number; peakMB?: number; boundMB?: number }): void {
  const file = process.env.PINMAP_FUZZ_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify(figures)}\n`);
}
