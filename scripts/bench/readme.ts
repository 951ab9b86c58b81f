import { renderTargets, type Target } from './report.ts';

/**
 * Replaces what stands between `<!-- NAME:start -->` and `<!-- NAME:end -->` in `text` with
 * `content` (the markers stay). Throws when the markers are missing or out of order, so a
 * README that lost them is noticed rather than left stale.
 */
export function replaceBetweenMarkers(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < 0 || to < from) throw new Error(`the text has no ${start} … ${end} block`);
  return `${text.slice(0, from + start.length)}\n${content.trim()}\n${text.slice(to)}`;
}

/** The name of the README's markers around its Speed table (`<!-- speed:start -->` … `<!-- speed:end -->`). */
export const SPEED_MARKERS = 'speed';

/** Where the full report is, from the README (and from the repository's root). */
export const FULL_REPORT = 'bench/results/latest.md';

/**
 * The README's short Speed table: every target of the run with its figure and outcome, then one
 * line saying when and what was measured and where the full report is. `measured` reads after
 * "Measured", e.g. "on 2026-11-27, production build of the working tree (8825449), medians of 5 runs".
 */
export function renderSpeedTable(targets: readonly Target[], measured: string): string {
  return [...renderTargets(targets), '', `Measured ${measured}. The full report, with every page's figures and the machine it ran on: [${FULL_REPORT}](${FULL_REPORT}).`].join('\n');
}

/** `readme` with its Speed table replaced by these targets' (see `renderSpeedTable`); the rest of it is left as it is. */
export function updateSpeedTable(readme: string, targets: readonly Target[], measured: string): string {
  return replaceBetweenMarkers(readme, SPEED_MARKERS, renderSpeedTable(targets, measured));
}
