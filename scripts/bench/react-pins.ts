import type { Browser } from '@playwright/test';
import { measure, VIEWPORT } from './measure.ts';
import { renderTargets, type Target } from './report.ts';
import { median } from './stats.ts';

/**
 * React content on the map (`npm run bench -- --react`; `results/react.md`), on the React page
 * (`react-pinmap.html`: `<Pinmap/>` as an app renders it):
 * - a popup of the app's own (`renderPopup`) against the default popup: ms from a click on a pin
 *   (the click event's time) to the first frame after the popup holds its content, over
 *   `POPUP_CLICKS` pins per load, the median;
 * - 10,000 GPU pins with 100 of them drawn by `renderPin` against the same map with none: the
 *   pan's p95 frame time; beside it React 19 + react-map-gl with 1,000 `<Marker>` elements of the
 *   same price tag (`react-map-gl.html`, `markers=`), the usual way to put React on a map's points.
 * Every ratio is taken run by run, the pages loaded in turn.
 */

export const REACT_TARGETS = { popupRatio: 1.2, panRatio: 1.2 };
/** Pins of the popup pages (DOM markers, so each has an element to click) and how many are opened per load. */
export const POPUP_PINS = 50;
export const POPUP_CLICKS = 8;
export const PAN_PINS = 10_000;
export const REACT_PINS = 100;
export const MAP_GL_MARKERS = 1_000;

export interface ReactFigures {
  runs: number;
  popupDefault: number[];
  popupReact: number[];
  panNone: number[];
  panReact: number[];
  panMapGl: number[];
  /** DOM markers on the map at idle, with the React pins (their app markers) and on the react-map-gl page. */
  reactMarkers: number;
  mapGlMarkers: number;
  failures: string[];
  loadAverage: [number, number];
}

export interface ReactPages {
  /** `<Pinmap/>` with the popup pins, and a React popup or the default one. */
  popup(react: boolean): string;
  /** `<Pinmap/>` with the 10,000 pins, with or without the 100 React pins. */
  pan(reactPins: boolean): string;
  /** React + react-map-gl with the 1,000 `<Marker>` price tags. */
  mapGl(): string;
}

/**
 * The popups of one load: clicks the first `POPUP_CLICKS` pins in turn (Escape between), each
 * time from the click event to the first animation frame after the popup's content is in.
 */
const OPEN_POPUPS = `(async ({ clicks }) => {
  const times = [];
  const pins = [...document.querySelectorAll('.pinmap-pin[data-pin-id]')].slice(0, clicks);
  for (const pin of pins) {
    const opened = new Promise((resolve) => {
      const start = { at: 0 };
      addEventListener('click', (event) => (start.at = event.timeStamp), { capture: true, once: true });
      const check = () => {
        const content = document.querySelector('.pinmap-popup .pinmap-popup-content');
        if (content && content.childElementCount > 0) {
          observer.disconnect();
          requestAnimationFrame(() => resolve(performance.now() - start.at));
        }
      };
      const observer = new MutationObserver(check);
      observer.observe(document.body, { childList: true, subtree: true });
    });
    pin.click();
    times.push(await opened);
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    document.querySelector('.pinmap-popup-close, .maplibregl-popup-close-button')?.click();
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return times;
})`;

export async function measureReact(browser: Browser, pages: ReactPages, runs: number, loadCapMs: number, log: (message: string) => void, loadAverage: () => number): Promise<ReactFigures> {
  const figures: ReactFigures = { runs, popupDefault: [], popupReact: [], panNone: [], panReact: [], panMapGl: [], reactMarkers: 0, mapGlMarkers: 0, failures: [], loadAverage: [loadAverage(), 0] };
  const popupRows: [string, string, number[]][] = [
    ['default popup', pages.popup(false), figures.popupDefault],
    ['React popup', pages.popup(true), figures.popupReact],
  ];
  const panRows: [string, string, number[], 'react' | 'mapGl' | undefined][] = [
    [`${PAN_PINS} pins`, pages.pan(false), figures.panNone, undefined],
    [`${PAN_PINS} pins, ${REACT_PINS} React pins`, pages.pan(true), figures.panReact, 'react'],
    [`react-map-gl, ${MAP_GL_MARKERS} <Marker>s`, pages.mapGl(), figures.panMapGl, 'mapGl'],
  ];
  for (const [, url] of [...popupRows, ...panRows]) await measure(browser, url, { loadCapMs, focus: 'canvas.maplibregl-canvas', loadOnly: true }); // warm-up
  for (let run = 0; run < runs; run++) {
    for (const [label, url, times] of popupRows) {
      const context = await browser.newContext({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 });
      try {
        const page = await context.newPage();
        await page.goto(url);
        await page.locator('.pinmap[data-map-state="idle"]').waitFor({ timeout: loadCapMs });
        const opened = (await page.evaluate(`${OPEN_POPUPS}({ clicks: ${POPUP_CLICKS} })`)) as number[];
        times[run] = median(opened);
        log(`run ${run + 1}/${runs}, ${label}: click to popup painted ${times[run]!.toFixed(1)} ms (median of ${opened.length})`);
      } catch (error) {
        figures.failures.push(`${label}: ${error instanceof Error ? error.message.split('\n')[0]! : String(error)}`);
      } finally {
        await context.close();
      }
    }
    for (const [label, url, times, markers] of panRows) {
      const result = await measure(browser, url, { loadCapMs, focus: 'canvas.maplibregl-canvas' });
      if (!result.ok) {
        figures.failures.push(`${label}: ${result.reason}`);
        log(`run ${run + 1}/${runs}, ${label}: ${result.reason}`);
        continue;
      }
      times[run] = result.sample.pan.p95;
      if (markers === 'react') figures.reactMarkers = result.sample.domMarkers;
      if (markers === 'mapGl') figures.mapGlMarkers = result.sample.domMarkers;
      log(`run ${run + 1}/${runs}, ${label}: pan p95 ${result.sample.pan.p95.toFixed(1)} ms, ${result.sample.domMarkers} DOM markers`);
    }
  }
  figures.loadAverage[1] = loadAverage();
  return figures;
}

/** The median of the runs' ratios of `over` to `under`. */
function runRatio(over: number[], under: number[]): number {
  const ratios = over.flatMap((value, i) => (value !== undefined && under[i] ? [value / under[i]] : []));
  return ratios.length ? median(ratios) : Number.NaN;
}

export function reactTargets(figures: ReactFigures): Target[] {
  const popup = runRatio(figures.popupReact, figures.popupDefault);
  const pan = runRatio(figures.panReact, figures.panNone);
  const judged = (ratio: number, target: number) => ({ figure: Number.isNaN(ratio) ? 'not measured' : `${ratio.toFixed(2)}×`, met: Number.isNaN(ratio) ? undefined : ratio <= target });
  return [
    { name: `a React popup (renderPopup): click to popup painted ≤ ${REACT_TARGETS.popupRatio}× the default popup's`, ...judged(popup, REACT_TARGETS.popupRatio) },
    { name: `${PAN_PINS.toLocaleString('en-US')} pins with ${REACT_PINS} drawn by renderPin: pan p95 ≤ ${REACT_TARGETS.panRatio}× the same map without`, ...judged(pan, REACT_TARGETS.panRatio) },
  ];
}

/** The report's section (`results/react.md`). */
export function renderReact(figures: ReactFigures): string {
  const med = (list: number[]) => {
    const values = list.filter((v) => v !== undefined);
    return values.length ? median(values).toFixed(1) : 'n/a';
  };
  return [
    '#### React content on the map',
    '',
    ...renderTargets(reactTargets(figures)),
    '',
    '| page | figure (ms) |',
    '|---|---:|',
    `| \`<Pinmap/>\`, ${POPUP_PINS} pins, the default popup: click to popup painted | ${med(figures.popupDefault)} |`,
    `| \`<Pinmap/>\`, ${POPUP_PINS} pins, a React popup (renderPopup: heading, hours, link, button): click to popup painted | ${med(figures.popupReact)} |`,
    `| \`<Pinmap/>\`, ${PAN_PINS.toLocaleString('en-US')} GPU pins: pan p95 | ${med(figures.panNone)} |`,
    `| \`<Pinmap/>\`, the same with ${REACT_PINS} ids in highlightedPins (renderPin price tags; ${figures.reactMarkers} drawn where their pins stand alone): pan p95 | ${med(figures.panReact)} |`,
    `| React 19 + react-map-gl 8, ${MAP_GL_MARKERS.toLocaleString('en-US')} \`<Marker>\` price tags (${figures.mapGlMarkers} DOM markers), no other pins: pan p95 | ${med(figures.panMapGl)} |`,
    '',
    `Medians of ${figures.runs} runs, ratios taken run by run, the pages loaded in turn; the popup figure of a load is the median of ${POPUP_CLICKS} pins opened in turn. ` +
      `Viewport ${VIEWPORT.width}×${VIEWPORT.height} (the popup pages 800×600); load average ${figures.loadAverage[0].toFixed(1)} before, ${figures.loadAverage[1].toFixed(1)} after.` +
      (figures.failures.length ? ` Failures: ${figures.failures.join('; ')}.` : ''),
  ].join('\n');
}
