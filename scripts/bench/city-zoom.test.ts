import { describe, expect, it } from 'vitest';
import { busiestPlace, cityZoomTarget, renderCityZoom, type CityZoomFigures } from './city-zoom.ts';

const point = (lng: number, lat: number) => ({ type: 'Feature' as const, properties: {}, geometry: { type: 'Point' as const, coordinates: [lng, lat] } });

describe('the city-zoom bench', () => {
  it('opens on the busiest 0.01° cell, at the middle of its pins', () => {
    expect(busiestPlace([point(2.351, 48.851), point(2.353, 48.853), point(2.352, 48.852), point(10.5, 50.5), point(10.501, 50.501)])).toEqual([2.352, 48.852]);
  });

  it('judges time to idle against the no-pin map run by run', () => {
    // Run by run 1.5×, 1.0×, 1.1×: the median 1.1×.
    const figures: CityZoomFigures = { runs: 3, center: [2.35, 48.85], noPins: [1000, 1200, 1000], pins: [1500, 1200, 1100], archive: [1100, 1500, 1300], failures: [], loadAverage: [2, 3] };
    expect(cityZoomTarget(figures)).toEqual({ name: '100,000 clumped pins inline at zoom 16: time to idle ≤ 1.2× the no-pin map', figure: '1.10×', met: true });
    // Pre-tiled: 1.1×, 1.25×, 1.3×: the median 1.25×, missed.
    expect(cityZoomTarget(figures, 'pre-tiled')).toEqual({ name: '100,000 clumped pins pre-tiled at zoom 16: time to idle ≤ 1.2× the no-pin map', figure: '1.25×', met: false });
    expect(cityZoomTarget({ ...figures, pins: [] })).toMatchObject({ figure: 'not measured', met: undefined });
    expect(renderCityZoom(figures)).toContain('| Pinmap, vector view, no pins, zoom 16 | 1000 |');
    expect(renderCityZoom(figures)).toContain('| Pinmap, vector view, the same pins pre-tiled (`pinmap tile`), zoom 16 | 1300 |');
  });
});
