import { describe, expect, it } from 'vitest';
import { renderSpeedTable, replaceBetweenMarkers, updateSpeedTable } from './readme.ts';
import type { Target } from './report.ts';

describe('replaceBetweenMarkers', () => {
  it('replaces what stands between the markers and keeps them', () => {
    const text = 'before\n<!-- bench:start -->\nold\n<!-- bench:end -->\nafter';
    expect(replaceBetweenMarkers(text, 'bench', '| new |\n')).toBe('before\n<!-- bench:start -->\n| new |\n<!-- bench:end -->\nafter');
  });

  it('throws when the markers are missing or out of order', () => {
    expect(() => replaceBetweenMarkers('no markers', 'bench', 'x')).toThrow('<!-- bench:start -->');
    expect(() => replaceBetweenMarkers('<!-- bench:end --> <!-- bench:start -->', 'bench', 'x')).toThrow();
  });
});

const TARGETS: Target[] = [
  { name: 'Cold load: vector view ≤ 1.2× bare MapLibre', figure: '0.91×', met: true },
  { name: '100k pins: time to idle ≤ 2× the no-pin map', figure: '2.06×', met: false },
  { name: 'Tiling 1M pins: peak memory < 2 GB', figure: 'not measured (no /usr/bin/time)', met: undefined },
];

describe('the README\'s Speed table', () => {
  it('lists every target with its figure and outcome, then when it was measured and a link to the full report', () => {
    expect(renderSpeedTable(TARGETS, 'on 2026-11-27, production build of the working tree (8825449), medians of 5 runs').split('\n')).toEqual([
      '| target | measured | |',
      '|---|---:|---|',
      '| Cold load: vector view ≤ 1.2× bare MapLibre | 0.91× | met |',
      '| 100k pins: time to idle ≤ 2× the no-pin map | 2.06× | **missed** |',
      '| Tiling 1M pins: peak memory < 2 GB | not measured (no /usr/bin/time) | not measured |',
      '',
      'Measured on 2026-11-27, production build of the working tree (8825449), medians of 5 runs. ' +
        "The full report, with every page's figures and the machine it ran on: [bench/results/latest.md](bench/results/latest.md).",
    ]);
  });

  it('replaces only the table between the speed markers, and leaves the rest of the README as it was', () => {
    const readme = [
      '# Pinmap',
      '',
      '## Speed',
      '',
      'Targets of the benchmark:',
      '',
      '<!-- speed:start -->',
      '| target | measured | |',
      '|---|---:|---|',
      '| an old target | 9.99× | **missed** |',
      '<!-- speed:end -->',
      '',
      'The search box: `npm run bench:search`.',
      '',
      '## Data and licences',
    ].join('\n');
    const updated = updateSpeedTable(readme, TARGETS.slice(0, 1), 'on 2026-11-28');
    expect(updated).not.toContain('an old target');
    const [before, rest] = updated.split('<!-- speed:start -->\n');
    const [table, after] = rest!.split('<!-- speed:end -->');
    expect(before).toBe(readme.slice(0, readme.indexOf('<!-- speed:start -->')));
    expect(after).toBe(readme.slice(readme.indexOf('<!-- speed:end -->') + '<!-- speed:end -->'.length));
    expect(table).toBe(`${renderSpeedTable(TARGETS.slice(0, 1), 'on 2026-11-28')}\n`);
  });

  it('refuses a README without the speed markers rather than leave its table stale', () => {
    expect(() => updateSpeedTable('# Pinmap\n<!-- bench:start -->\n<!-- bench:end -->', TARGETS, 'today')).toThrow('<!-- speed:start -->');
  });
});
