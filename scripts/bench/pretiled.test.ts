import { describe, expect, it } from 'vitest';
import { csvTilingTargets, pretiledTargets, renderPretiled, type PretiledFigures, type TilingFigures } from './pretiled.ts';

const MB = 2 ** 20;
const run = (idleMs: number, panP95: number, bytes = 1.5 * MB, archiveBytes = 0) => ({ idleMs, panP95, bytes, archiveBytes });
const TILING: TilingFigures = { seconds: 31.4, cpuSeconds: 43.7, peakBytes: 540 * MB, archiveBytes: 590 * MB, inputBytes: 247 * MB, count: 1_000_000, format: 'geojson', loadAverage: 2.7 };

function figures(extra: Partial<PretiledFigures> = {}): PretiledFigures {
  return {
    tiling: TILING,
    archive: 'pins.pmtiles',
    runs: 3,
    // Run by run, time to idle 1.5×, 1.0×, 1.25× (median 1.25×) and pan p95 1.0×, 1.2×, 1.1× (median 1.1×).
    noPins: [run(1000, 150), run(1200, 150), run(1200, 150)],
    pretiled: [run(1500, 150, 1.8 * MB, 0.05 * MB), run(1200, 180, 1.8 * MB, 0.05 * MB), run(1500, 165, 1.8 * MB, 0.05 * MB)],
    failures: [],
    ...extra,
  };
}

describe('the pre-tiled pin targets', () => {
  it('judges time to idle and pan against the no-pin map run by run, the bytes to first idle, and the tiling', () => {
    expect(pretiledTargets(figures())).toEqual([
      { name: '1M pre-tiled pins: time to idle ≤ 1.2× the no-pin map', figure: '1.25×', met: false },
      { name: '1M pre-tiled pins: pan p95 ≤ 1.2× the no-pin map', figure: '1.10×', met: true },
      { name: '1M pre-tiled pins: bytes of the archive fetched to first idle ≤ 2 MB', figure: '0.05 MB (the whole page: 1.80 MB)', met: true },
      { name: 'Tiling 1M pins < 60 s', figure: '31.4 s (43.7 s of CPU; load average 2.7)', met: true },
      { name: 'Tiling 1M pins: peak memory < 2 GB', figure: '540.00 MB', met: true },
    ]);
  });

  it('has no tiling targets for an archive made before, and says what was not measured', () => {
    const targets = pretiledTargets(figures({ tiling: undefined, pretiled: [undefined, undefined, undefined] as unknown as PretiledFigures['pretiled'] }));
    expect(targets.map((t) => t.name)).not.toContain('Tiling 1M pins < 60 s');
    expect(targets).toHaveLength(3);
    for (const target of targets) expect(target).toMatchObject({ figure: 'not measured', met: undefined });
  });

  it('puts the same targets in the report\'s section', () => {
    const section = renderPretiled(figures());
    expect(section).toContain('| 1M pre-tiled pins: time to idle ≤ 1.2× the no-pin map | 1.25× | **missed** |');
    expect(section).toContain('| Tiling 1M pins: peak memory < 2 GB | 540.00 MB | met |');
  });
});

describe('the CSV tiling targets', () => {
  it('judge 1M CSV rows against 60 s and 1 GB, and join the pre-tiled targets when the run tiled a CSV file', () => {
    const csv: TilingFigures = { ...TILING, format: 'csv', seconds: 45.2, peakBytes: 600 * MB };
    expect(csvTilingTargets(csv).map((t) => [t.name, t.met])).toEqual([
      ['1,000,000 CSV rows tiled in < 60 s', true],
      ['1,000,000 CSV rows: peak memory < 1 GB', true],
    ]);
    expect(csvTilingTargets({ ...csv, seconds: 61, peakBytes: 1.5 * 1024 * MB }).map((t) => t.met)).toEqual([false, false]);
    expect(pretiledTargets(figures({ csvTiling: csv })).map((t) => t.name)).toContain('1,000,000 CSV rows tiled in < 60 s');
    expect(pretiledTargets(figures()).map((t) => t.name)).not.toContain('1,000,000 CSV rows tiled in < 60 s');
  });
});
