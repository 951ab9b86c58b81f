import type { Browser } from '@playwright/test';
import type { Feature, Point } from 'geojson';
import { PIN_CATEGORY_STYLES } from '../pin-categories.ts';
import { clumpedSyntheticPins, type SyntheticPinProperties } from '../synthetic-pins.ts';
import { measure, VIEWPORT } from './measure.ts';
import { renderTargets, type Target } from './report.ts';
import { median } from './stats.ts';

/**
 * A city's addresses up close (`npm run bench -- --city-zoom`): 100k pins placed as a country's
 * addresses are (`clumpedSyntheticPins`, towns of streets and blocks of flats, where bubbles last
 * to the grouping's last zoom), given inline and pre-tiled (`pinmap tile`, the README's way for a
 * set this large), the vector view opened at zoom 16 over the busiest town, against the same view
 * without pins: time to idle, as a ratio taken run by run (the pages loaded in turn, so all see
 * the same load on the machine).
 */

export const CITY_ZOOM = { count: 100_000, zoom: 16, idleRatio: 1.2 };

export interface CityZoomFigures {
  runs: number;
  center: [number, number];
  noPins: number[];
  /** The pins inline (GeoJSON). */
  pins: number[];
  /** The same pins pre-tiled, when an archive was given. */
  archive: number[];
  failures: string[];
  loadAverage: [number, number];
}

/** The pins of the bench, as a GeoJSON FeatureCollection with the categories' styles. */
export function cityPins(count = CITY_ZOOM.count): { type: 'FeatureCollection'; pinStyles: typeof PIN_CATEGORY_STYLES; features: Feature<Point, SyntheticPinProperties>[] } {
  return { type: 'FeatureCollection', pinStyles: PIN_CATEGORY_STYLES, features: [...clumpedSyntheticPins(count, 1)] };
}

/** The middle of the busiest cell of 0.01° (about a kilometre) among `features`: where the camera opens. */
export function busiestPlace(features: readonly Feature<Point>[]): [number, number] {
  const cells = new Map<string, { n: number; lng: number; lat: number }>();
  for (const { geometry } of features) {
    const [lng, lat] = geometry.coordinates as [number, number];
    const key = `${Math.floor(lng * 100)},${Math.floor(lat * 100)}`;
    const cell = cells.get(key) ?? { n: 0, lng: 0, lat: 0 };
    cell.n++;
    cell.lng += lng;
    cell.lat += lat;
    cells.set(key, cell);
  }
  let best = { n: 0, lng: 0, lat: 0 };
  for (const cell of cells.values()) if (cell.n > best.n) best = cell;
  return [Number((best.lng / best.n).toFixed(5)), Number((best.lat / best.n).toFixed(5))];
}

/** Loads the no-pin view and the view with the pins (`pinsPath`) at zoom 16 over `center`, `runs` times each, in turn, after one untimed load of each. */
export async function measureCityZoom(
  browser: Browser,
  pageUrl: (config: object) => string,
  pinsPath: string,
  archiveUrl: string | undefined,
  center: [number, number],
  runs: number,
  loadCapMs: number,
  log: (message: string) => void,
  loadAverage: () => number,
): Promise<CityZoomFigures> {
  const camera = { center, zoom: CITY_ZOOM.zoom, fadeDuration: 0 };
  const figures: CityZoomFigures = { runs, center, noPins: [], pins: [], archive: [], failures: [], loadAverage: [loadAverage(), 0] };
  const pages: [string, string, number[]][] = [
    ['no pins', pageUrl(camera), figures.noPins],
    [`${CITY_ZOOM.count.toLocaleString('en-US')} clumped pins inline`, pageUrl({ ...camera, pins: pinsPath }), figures.pins],
    ...(archiveUrl ? [[`${CITY_ZOOM.count.toLocaleString('en-US')} clumped pins pre-tiled`, pageUrl({ ...camera, pins: `pmtiles://${archiveUrl}` }), figures.archive] as [string, string, number[]]] : []),
  ];
  for (const [, url] of pages) await measure(browser, url, { loadCapMs, focus: 'canvas.maplibregl-canvas', loadOnly: true }); // warm-up, not counted
  for (let run = 0; run < runs; run++) {
    for (const [label, url, times] of pages) {
      const result = await measure(browser, url, { loadCapMs, focus: 'canvas.maplibregl-canvas', loadOnly: true });
      if (!result.ok) {
        figures.failures.push(`${label}: ${result.reason}`);
        log(`run ${run + 1}/${runs}, ${label}: ${result.reason}`);
        continue;
      }
      times[run] = result.sample.idleMs;
      log(`run ${run + 1}/${runs}, ${label}: idle ${result.sample.idleMs.toFixed(0)} ms`);
    }
  }
  figures.loadAverage[1] = loadAverage();
  return figures;
}

/** The ratio of time to idle with the pins (inline, or pre-tiled) to without, the median of the runs' ratios. */
export function cityZoomRatio(figures: CityZoomFigures, how: 'inline' | 'pre-tiled' = 'inline'): number {
  const ratios = (how === 'inline' ? figures.pins : figures.archive).flatMap((ms, i) => (ms !== undefined && figures.noPins[i] ? [ms / figures.noPins[i]] : []));
  return ratios.length ? median(ratios) : Number.NaN;
}

export function cityZoomTarget(figures: CityZoomFigures, how: 'inline' | 'pre-tiled' = 'inline'): Target {
  const ratio = cityZoomRatio(figures, how);
  return {
    name: `${CITY_ZOOM.count.toLocaleString('en-US')} clumped pins ${how} at zoom ${CITY_ZOOM.zoom}: time to idle ≤ ${CITY_ZOOM.idleRatio}× the no-pin map`,
    figure: Number.isNaN(ratio) ? 'not measured' : `${ratio.toFixed(2)}×`,
    met: Number.isNaN(ratio) ? undefined : ratio <= CITY_ZOOM.idleRatio,
  };
}

/** The report's section (`results/city-zoom.md`). */
export function renderCityZoom(figures: CityZoomFigures): string {
  const med = (list: number[]) => {
    const values = list.filter((v) => v !== undefined);
    return values.length ? median(values).toFixed(0) : 'n/a';
  };
  return [
    `#### ${CITY_ZOOM.count.toLocaleString('en-US')} clumped pins at zoom ${CITY_ZOOM.zoom}`,
    '',
    ...renderTargets([cityZoomTarget(figures, 'inline'), ...(figures.archive.length ? [cityZoomTarget(figures, 'pre-tiled')] : [])]),
    '',
    '| page | time to idle (ms) |',
    '|---|---:|',
    `| Pinmap, vector view, no pins, zoom ${CITY_ZOOM.zoom} | ${med(figures.noPins)} |`,
    `| Pinmap, vector view, ${CITY_ZOOM.count.toLocaleString('en-US')} clumped pins inline (GeoJSON), zoom ${CITY_ZOOM.zoom} | ${med(figures.pins)} |`,
    ...(figures.archive.length ? [`| Pinmap, vector view, the same pins pre-tiled (\`pinmap tile\`), zoom ${CITY_ZOOM.zoom} | ${med(figures.archive)} |`] : []),
    '',
    `clumpedSyntheticPins(${CITY_ZOOM.count}, 1), the camera at [${figures.center.join(', ')}] (the busiest 0.01° cell). Medians of ${figures.runs} runs, ` +
      `the ratio taken run by run, the pages loaded in turn; viewport ${VIEWPORT.width}×${VIEWPORT.height}; load average ${figures.loadAverage[0].toFixed(1)} before, ` +
      `${figures.loadAverage[1].toFixed(1)} after.${figures.failures.length ? ` Failures: ${figures.failures.join('; ')}.` : ''}`,
  ].join('\n');
}
