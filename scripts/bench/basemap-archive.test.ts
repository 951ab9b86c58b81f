import { describe, expect, it } from 'vitest';
import { basemapArchiveTarget, type BasemapArchiveFigures } from './basemap-archive.ts';

const figures = (ratio: number): BasemapArchiveFigures => ({ archiveMs: 1293, looseMs: 1280, ratio, runs: 5, archiveRequests: 10, looseRequests: 9, failures: [] });

describe('the basemap archive target', () => {
  it('is met within 1.05× of the same tiles as loose files, and missed above', () => {
    expect(basemapArchiveTarget(figures(1.01))).toEqual({ name: 'Basemap: cold load from its one archive ≤ 1.05× the same tiles as loose files', figure: '1.01×', met: true });
    expect(basemapArchiveTarget(figures(1.07))).toMatchObject({ figure: '1.07×', met: false });
  });

  it('is not measured when no load of both was', () => {
    expect(basemapArchiveTarget(figures(Number.NaN))).toMatchObject({ figure: 'not measured', met: undefined });
  });
});
