import type { FileBreakdown } from './breakdown.ts';
import { median } from './stats.ts';

/**
 * The figures of `npm run bench` and how they are judged: pure functions from the raw samples
 * to medians, same-run ratios, the targets, and the Markdown report. Every ratio is taken run by
 * run (a row's sample over the reference row's sample of the same run, both measured within a
 * minute of each other) and the median of those ratios is shown.
 */

export type Renderer = 'pinmap' | 'pinmap-csv' | 'hybrid' | 'maplibre' | 'react-map-gl' | 'markers' | 'fa-markers' | 'cluster' | 'first-pin' | 'first-view';

export const RENDERER_LABELS: Record<Renderer, string> = {
  pinmap: 'Pinmap, vector view',
  'pinmap-csv': 'Pinmap, vector view, the same pins as CSV',
  hybrid: 'Pinmap, hybrid view',
  maplibre: 'bare MapLibre',
  'react-map-gl': 'React 19 + react-map-gl 8 + MapLibre',
  markers: 'MapLibre `Marker` per pin (DOM)',
  'fa-markers': 'Leaflet + `leaflet-fa-markers` icon per pin (DOM)',
  cluster: 'MapLibre GeoJSON clustering + circle layer',
  'first-pin': 'bare MapLibre reading the pin file, showing one of its pins (the floor)',
  'first-view': "bare MapLibre reading the pin file, drawing the view's bubbles and pins (grouped beforehand)",
};

export interface FrameFigures {
  p50: number;
  p95: number;
  frames: number;
}

/** One page load's figures (as `measure` returns them, without the assets). */
export interface RunSample {
  idleMs: number;
  heapBytes: number;
  pan: FrameFigures;
  zoom: FrameFigures;
  domMarkers: number;
  notice?: string;
}

export interface Row {
  renderer: Renderer;
  count: number;
  /** By run (index 0 = run 1); undefined where that run failed, timed out or was skipped. */
  samples: (RunSample | undefined)[];
  failures: string[];
  timeouts: number;
  /** Why the row was not (fully) measured: its first timeout, or a reason it was skipped. */
  note?: string;
  /** The cap (ms to idle) of a run that timed out: its time to idle is more than that. */
  timedOutAfterMs?: number;
  /** The runs (index 0 = run 1) that did not reach idle within `timedOutAfterMs`. */
  timedOutRuns?: number[];
}

export interface SizeEntry {
  url: string;
  kind: 'script' | 'stylesheet';
  bytes: number;
  gzipBytes: number;
}

export interface SizeFigures {
  /** What each page loaded before its first idle. */
  pinmap: SizeEntry[];
  hybrid: SizeEntry[];
  maplibre: SizeEntry[];
  /** The React + react-map-gl page's (absent from reports made before it was measured). */
  reactMapGl?: SizeEntry[];
  /** Scripts of the vector view whose name says they are the hybrid view's (must be none). */
  hybridChunksInVector: string[];
  /** What the vector view loaded before its first idle with this many pins (`--weight`). */
  pinmapWithPins?: { count: number; entries: SizeEntry[] };
  /** What the vector view's initial scripts are made of, by package and source folder (those with a source map). */
  breakdown?: FileBreakdown[];
}

export interface CycleFigures {
  before: number;
  afterFirst: number;
  afterLast: number;
  cycles: number;
  ms: number;
  /** Font faces in `document.fonts` before the first mount and after the last destroy. */
  fontsBefore: number;
  fontsAfter: number;
}

export interface BenchData {
  rows: Row[];
  runs: number;
  size?: SizeFigures;
  cycles: (CycleFigures | undefined)[];
  cycleFailures: string[];
  /** Lines about the machine, browser and run, printed under the tables. */
  info: string[];
}

export type Metric = (s: RunSample) => number;
export const METRICS = {
  idle: (s: RunSample) => s.idleMs,
  panP50: (s: RunSample) => s.pan.p50,
  panP95: (s: RunSample) => s.pan.p95,
  zoomP50: (s: RunSample) => s.zoom.p50,
  zoomP95: (s: RunSample) => s.zoom.p95,
  heap: (s: RunSample) => s.heapBytes,
} satisfies Record<string, Metric>;

export function findRow(rows: readonly Row[], renderer: Renderer, count: number): Row | undefined {
  return rows.find((r) => r.renderer === renderer && r.count === count);
}

const measured = (row: Row | undefined) => (row?.samples ?? []).filter((s): s is RunSample => s !== undefined);

/** The median of a metric over a row's measured runs; NaN when it has none. */
export function rowMedian(row: Row | undefined, metric: Metric): number {
  return median(measured(row).map(metric).filter(Number.isFinite));
}

/** The median over runs of `metric(row) / metric(reference)`, from the runs where both were measured. */
export function sameRunRatio(row: Row | undefined, reference: Row | undefined, metric: Metric): number {
  if (!row || !reference) return Number.NaN;
  const ratios: number[] = [];
  row.samples.forEach((sample, run) => {
    const base = reference.samples[run];
    if (!sample || !base) return;
    const r = metric(sample) / metric(base);
    if (Number.isFinite(r)) ratios.push(r);
  });
  return median(ratios);
}

export interface Target {
  name: string;
  /** The measured figure, as text. */
  figure: string;
  /** true: met; false: missed; undefined: not measured. */
  met: boolean | undefined;
}

/** How a target's outcome reads in a report: met, **missed** (in bold, to be seen) or not measured. */
function verdictOf(met: boolean | undefined): string {
  return met === undefined ? 'not measured' : met ? 'met' : '**missed**';
}

/** A Markdown table of targets: each one's name, measured figure and outcome. */
export function renderTargets(targets: readonly Target[]): string[] {
  return ['| target | measured | |', '|---|---:|---|', ...targets.map((t) => `| ${t.name} | ${t.figure} | ${verdictOf(t.met)} |`)];
}

const LARGE = 100_000;
/** The vector view's initial JavaScript at most this many times the React + react-map-gl page's. */
export const INITIAL_JS_LIMIT = 1.1;
/** The vector view's cold load to idle at most this many times the React + react-map-gl page's. */
export const REACT_COLD_LOAD_LIMIT = 1.05;
const DOM_COUNT = 10_000;
const MB = 1024 * 1024;

export function sizeTotals(entries: readonly SizeEntry[] | undefined): { js: number; css: number; all: number } {
  const js = (entries ?? []).filter((e) => e.kind === 'script').reduce((s, e) => s + e.gzipBytes, 0);
  const css = (entries ?? []).filter((e) => e.kind === 'stylesheet').reduce((s, e) => s + e.gzipBytes, 0);
  return { js, css, all: js + css };
}

/**
 * How many times better `ours` is than `theirs` (theirs / ours), run by run, and the median. With
 * `censored`, a run of theirs that timed out counts as taking its cap (a lower bound); when the
 * median falls on such a run, the result is a lower bound (`atLeast`). Undefined when no run has
 * both figures.
 */
export function timesBetter(theirs: Row | undefined, ours: Row | undefined, metric: Metric, censored = false): { ratio: number; atLeast: boolean; runs: number } | undefined {
  if (!theirs || !ours) return undefined;
  const ratios: { ratio: number; atLeast: boolean }[] = [];
  ours.samples.forEach((sample, run) => {
    if (!sample) return;
    const theirSample = theirs.samples[run];
    if (theirSample) ratios.push({ ratio: metric(theirSample) / metric(sample), atLeast: false });
    else if (censored && theirs.timedOutAfterMs && theirs.timedOutRuns?.includes(run)) ratios.push({ ratio: theirs.timedOutAfterMs / metric(sample), atLeast: true });
  });
  const usable = ratios.filter((r) => Number.isFinite(r.ratio)).sort((a, b) => a.ratio - b.ratio);
  if (usable.length === 0) return undefined;
  const ratio = median(usable.map((r) => r.ratio));
  // A lower bound only rises to its true value, so the median is exact unless a lower bound sits
  // at or below the middle; then it is a lower bound itself.
  const atLeast = usable.slice(0, (usable.length >> 1) + 1).some((r) => r.atLeast);
  return { ratio, atLeast, runs: usable.length };
}

/** Each target of the benchmark, judged from the data. */
export function judgeTargets(data: BenchData): Target[] {
  const row = (renderer: Renderer, count: number) => findRow(data.rows, renderer, count);
  const targets: Target[] = [];
  const limit = (name: string, ratio: number, max: number, detail = ''): Target => ({
    name,
    figure: Number.isFinite(ratio) ? `${ratio.toFixed(2)}×${detail}` : 'not measured',
    met: Number.isFinite(ratio) ? ratio <= max : undefined,
  });

  const bare = row('maplibre', 0);
  const react = row('react-map-gl', 0);
  targets.push(limit('Cold load: vector view ≤ 1.2× bare MapLibre', sameRunRatio(row('pinmap', 0), bare, METRICS.idle), 1.2));
  targets.push(limit(`Cold load: vector view ≤ ${REACT_COLD_LOAD_LIMIT}× ${RENDERER_LABELS['react-map-gl']}`, sameRunRatio(row('pinmap', 0), react, METRICS.idle), REACT_COLD_LOAD_LIMIT));
  targets.push(limit('Cold load: hybrid view ≤ 1.5× bare MapLibre', sameRunRatio(row('hybrid', 0), bare, METRICS.idle), 1.5));

  const noPins = row('pinmap', 0);
  const large = row('pinmap', LARGE);
  targets.push(limit('100k pins: pan p95 ≤ 1.5× the no-pin map', sameRunRatio(large, noPins, METRICS.panP95), 1.5));
  targets.push(limit('100k pins: time to idle ≤ 2× the no-pin map', sameRunRatio(large, noPins, METRICS.idle), 2));
  targets.push(limit('100k pins: time to idle ≤ 1.2× the floor page', sameRunRatio(large, row('first-pin', LARGE), METRICS.idle), 1.2));
  targets.push(limit('100k pins from a CSV file: time to idle ≤ 1.1× the same pins as GeoJSON', sameRunRatio(row('pinmap-csv', LARGE), large, METRICS.idle), 1.1));
  for (const [metric, label] of [
    [METRICS.panP95, 'pan p95'],
    [METRICS.idle, 'time to idle'],
  ] as const) {
    for (const dom of ['markers', 'fa-markers'] as const) {
      const domRow = row(dom, DOM_COUNT);
      const name = `100k pins: ${label} ≥ 5× better than ${RENDERER_LABELS[dom]} at 10k`;
      const better = timesBetter(domRow, large, metric, metric === METRICS.idle);
      if (!better) {
        const why = domRow?.timedOutAfterMs ? ` (it did not reach idle in ${domRow.timedOutAfterMs / 1000} s)` : '';
        targets.push({ name, figure: `not measured${why}`, met: undefined });
        continue;
      }
      const from = better.runs < data.runs ? `, from ${better.runs} of ${data.runs} runs` : '';
      if (better.atLeast) {
        // More than half the runs did not reach idle: the median is a lower bound.
        targets.push({ name, figure: `> ${better.ratio.toFixed(1)}× better (it did not reach idle in ${domRow!.timedOutAfterMs! / 1000} s${from})`, met: better.ratio >= 5 ? true : undefined });
      } else {
        targets.push({ name, figure: `${better.ratio.toFixed(1)}× better${from ? ` (${from.slice(2)})` : ''}`, met: better.ratio >= 5 });
      }
    }
  }

  const size = data.size;
  const ours = sizeTotals(size?.pinmap);
  const theirs = sizeTotals(size?.reactMapGl);
  const measuredBoth = ours.js > 0 && theirs.js > 0;
  targets.push(
    limit(`Initial JS (gzip) ≤ ${INITIAL_JS_LIMIT}× ${RENDERER_LABELS['react-map-gl']}`, measuredBoth ? ours.js / theirs.js : Number.NaN, INITIAL_JS_LIMIT, measuredBoth ? ` (${kb(ours.js)} vs ${kb(theirs.js)})` : ''),
  );
  if (size) {
    targets.push({
      name: 'No hybrid (Leaflet) chunk loaded by the vector view',
      figure: size.hybridChunksInVector.length === 0 ? 'none loaded' : size.hybridChunksInVector.join(', '),
      met: size.hybridChunksInVector.length === 0,
    });
  }

  const growth = median(data.cycles.filter((c): c is CycleFigures => c !== undefined).map((c) => c.afterLast - c.before));
  targets.push({
    name: `${data.cycles.find((c) => c)?.cycles ?? 20} mount/destroy cycles grow the JS heap by < 10 MB`,
    figure: Number.isFinite(growth) ? `${(growth / MB).toFixed(2)} MB` : 'not measured',
    met: Number.isFinite(growth) ? growth < 10 * MB : undefined,
  });
  return targets;
}

/**
 * What the floor page says about the time-to-idle targets against the DOM pages: no page that
 * shows pins from the 100k file as MapLibre symbols reaches idle sooner than it does.
 */
export function floorNote(data: BenchData): string | undefined {
  const floor = findRow(data.rows, 'first-pin', LARGE);
  const idle = rowMedian(floor, METRICS.idle);
  if (!Number.isFinite(idle)) return undefined;
  const against = (['markers', 'fa-markers'] as const).flatMap((dom) => {
    const better = timesBetter(findRow(data.rows, dom, DOM_COUNT), floor, METRICS.idle, true);
    return better ? [`${better.atLeast ? '> ' : ''}${better.ratio.toFixed(1)}× better than ${RENDERER_LABELS[dom]} at 10k`] : [];
  });
  // The same page drawing the view as Pinmap does (grouped beforehand): the drawing's share.
  const drawn = findRow(data.rows, 'first-view', LARGE);
  const drawnIdle = rowMedian(drawn, METRICS.idle);
  const pinmap = findRow(data.rows, 'pinmap', LARGE);
  const drawing = Number.isFinite(drawnIdle)
    ? ` Drawing the view's bubbles and pins as Pinmap does (grouped beforehand), the same page reaches idle in ${fmtMs(drawnIdle)} ms, ${fmtRatio(sameRunRatio(drawn, floor, METRICS.idle))} the floor` +
      `${pinmap ? `, and Pinmap ${fmtRatio(sameRunRatio(pinmap, drawn, METRICS.idle))} that page` : ''} (ratios run by run): the rest of the gap is the pins' own checking, grouping and loading.`
    : '';
  return (
    `The floor for time to idle with 100k pins: a bare MapLibre page that only reads the pin file and shows one of its pins as a symbol reaches idle in ${fmtMs(idle)} ms` +
    `${against.length ? ` (${against.join('; ')})` : ''}. No page that shows these pins as MapLibre symbols can reach idle sooner.${drawing}`
  );
}

const fmtMs = (ms: number) => (Number.isFinite(ms) ? (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1)) : '–');
const fmtRatio = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : '–');
const fmtMb = (bytes: number) => (Number.isFinite(bytes) ? (bytes / MB).toFixed(1) : '–');
const fmtCount = (n: number) => (n === 0 ? 'none' : n.toLocaleString('en-US'));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function runsNote(row: Row, runs: number): string {
  const got = measured(row).length;
  if (got === runs) return '';
  const parts = [`${got} of ${runs} runs`];
  if (row.timeouts) parts.push(`${row.timeouts} timed out`);
  if (row.failures.length) parts.push(`${row.failures.length} failed`);
  return ` (${parts.join(', ')})`;
}

/** The report in Markdown: targets, cold load, pins, memory, size, then the notes. */
export function renderMarkdown(data: BenchData): string {
  const { rows, runs } = data;
  const out: string[] = [];
  const row = (renderer: Renderer, count: number) => findRow(rows, renderer, count);

  out.push('#### Targets', '', '| target | measured | |', '|---|---:|---|');
  for (const t of judgeTargets(data)) out.push(`| ${t.name} | ${t.figure} | ${t.met === undefined ? 'not measured' : t.met ? 'met' : '**missed**'} |`);
  const floor = floorNote(data);
  if (floor) out.push('', floor);

  out.push('', '#### Cold load to idle (embedded basemap, no pins)', '', '| page | time to idle (ms) | vs bare MapLibre |', '|---|---:|---:|');
  const bare = row('maplibre', 0);
  for (const renderer of ['pinmap', 'hybrid', 'maplibre', 'react-map-gl'] as const) {
    const r = row(renderer, 0);
    if (!r) continue;
    out.push(`| ${RENDERER_LABELS[renderer]}${runsNote(r, runs)} | ${fmtMs(rowMedian(r, METRICS.idle))} | ${fmtRatio(sameRunRatio(r, bare, METRICS.idle))} |`);
  }

  out.push(
    '',
    '#### Pins: time to idle, frame times, heap',
    '',
    '| pins | renderer | time to idle (ms) | pan p50 / p95 (ms) | zoom p50 / p95 (ms) | JS heap (MB) | idle vs no-pin map | pan p95 vs no-pin map |',
    '|---:|---|---:|---:|---:|---:|---:|---:|',
  );
  const noPins = row('pinmap', 0);
  const order: Renderer[] = ['pinmap', 'hybrid', 'maplibre', 'react-map-gl', 'first-pin', 'first-view', 'cluster', 'markers', 'fa-markers'];
  const pinRows = [...rows].sort((a, b) => a.count - b.count || order.indexOf(a.renderer) - order.indexOf(b.renderer));
  for (const r of pinRows) {
    const label = `${RENDERER_LABELS[r.renderer]}${runsNote(r, runs)}`;
    if (measured(r).length === 0) {
      out.push(`| ${fmtCount(r.count)} | ${label} | ${r.note ?? r.failures[0] ?? 'not measured'} | – | – | – | – | – |`);
      continue;
    }
    out.push(
      `| ${fmtCount(r.count)} | ${label} | ${fmtMs(rowMedian(r, METRICS.idle))} | ${fmtMs(rowMedian(r, METRICS.panP50))} / ${fmtMs(rowMedian(r, METRICS.panP95))} | ` +
        `${fmtMs(rowMedian(r, METRICS.zoomP50))} / ${fmtMs(rowMedian(r, METRICS.zoomP95))} | ${fmtMb(rowMedian(r, METRICS.heap))} | ` +
        `${fmtRatio(sameRunRatio(r, noPins, METRICS.idle))} | ${fmtRatio(sameRunRatio(r, noPins, METRICS.panP95))} |`,
    );
  }

  const cycles = data.cycles.filter((c): c is CycleFigures => c !== undefined);
  out.push('', '#### Memory: mount/destroy cycles (embed library)', '');
  if (cycles.length) {
    const n = cycles[0]!.cycles;
    out.push(
      '| heap before the first mount (MB) | after 1 cycle (MB) | after ' + n + ' cycles (MB) | growth over ' + n + ' cycles (MB) | per cycle after the first (KB) | time per cycle (ms) | font faces left in the page |',
      '|---:|---:|---:|---:|---:|---:|---:|',
      `| ${fmtMb(median(cycles.map((c) => c.before)))} | ${fmtMb(median(cycles.map((c) => c.afterFirst)))} | ${fmtMb(median(cycles.map((c) => c.afterLast)))} | ` +
        `${(median(cycles.map((c) => c.afterLast - c.before)) / MB).toFixed(2)} | ${(median(cycles.map((c) => (c.afterLast - c.afterFirst) / Math.max(1, c.cycles - 1))) / 1024).toFixed(1)} | ` +
        `${fmtMs(median(cycles.map((c) => c.ms / c.cycles)))} | ${median(cycles.map((c) => c.fontsAfter - c.fontsBefore))} |`,
    );
  } else out.push(`Not measured${data.cycleFailures[0] ? `: ${data.cycleFailures[0]}` : ''}.`);

  if (data.size) out.push(...renderSize(data.size));

  const notes = rows.flatMap((r) => [
    ...r.failures.map((f) => `${fmtCount(r.count)}, ${RENDERER_LABELS[r.renderer]}: ${f}`),
    ...[...new Set(measured(r).flatMap((s) => (s.notice ? [s.notice] : [])))].map((n) => `${fmtCount(r.count)}, ${RENDERER_LABELS[r.renderer]}: page notice "${n}"`),
  ]);
  out.push('', ...data.info.map((line) => `- ${line}`), ...[...new Set([...notes, ...data.cycleFailures])].map((n) => `- note: ${n}`));
  return out.join('\n');
}

/** The size section: what each page loads before its first idle, file by file, and the breakdown. */
export function renderSize(size: SizeFigures): string[] {
  const out: string[] = [];
  const { pinmap, hybrid, maplibre } = size;
  out.push('', '#### Size: JavaScript and CSS loaded before the first idle (gzip -9)', '', '| page | JS | CSS | total | JS vs bare MapLibre |', '|---|---:|---:|---:|---:|');
  const base = sizeTotals(maplibre);
  for (const [label, entries] of [
    [RENDERER_LABELS.pinmap, pinmap],
    [RENDERER_LABELS.hybrid, hybrid],
    [RENDERER_LABELS.maplibre, maplibre],
    ...(size.reactMapGl ? ([[RENDERER_LABELS['react-map-gl'], size.reactMapGl]] as const) : []),
  ] as const) {
    const t = sizeTotals(entries);
    out.push(`| ${label} | ${kb(t.js)} | ${kb(t.css)} | ${kb(t.all)} | ${fmtRatio(t.js / base.js)} |`);
    if (label === RENDERER_LABELS.pinmap && size.pinmapWithPins) {
      const p = sizeTotals(size.pinmapWithPins.entries);
      out.push(`| ${label}, ${size.pinmapWithPins.count.toLocaleString('en-US')} pins | ${kb(p.js)} | ${kb(p.css)} | ${kb(p.all)} | ${fmtRatio(p.js / base.js)} |`);
    }
  }
  if (size.pinmapWithPins) {
    out.push(
      '',
      `The pins' code (reading, checking and drawing them) is a chunk of its own, loaded only by a map that has pins, beside its style and tiles; so the target's page, a map without pins like bare MapLibre's, does not load it, and the vector view with ${size.pinmapWithPins.count.toLocaleString('en-US')} pins does.`,
    );
  }
  const mainThread = (entries: readonly SizeEntry[]) => sizeTotals(entries.filter((e) => !/worker/i.test(fileName(e.url)))).js;
  const ours = mainThread(pinmap);
  const theirs = mainThread(maplibre);
  out.push(
    '',
    `Both pages load MapLibre's worker script before their first idle, so it is in both totals; without it, the vector view's JavaScript is ${kb(ours)} against bare MapLibre's ${kb(theirs)} (${fmtRatio(ours / theirs)}).`,
  );
  out.push('', '| page | file | bytes | gzip |', '|---|---|---:|---:|');
  for (const [label, entries] of [
    ['vector', pinmap],
    ...(size.pinmapWithPins ? ([['vector, pins', size.pinmapWithPins.entries.filter((e) => !pinmap.some((p) => p.url === e.url))]] as const) : []),
    ['hybrid', hybrid],
    ['MapLibre', maplibre],
    ...(size.reactMapGl ? ([['react-map-gl', size.reactMapGl]] as const) : []),
  ] as const) {
    for (const e of [...entries].sort((a, b) => b.gzipBytes - a.gzipBytes)) out.push(`| ${label} | \`${fileName(e.url)}\` | ${kb(e.bytes)} | ${kb(e.gzipBytes)} |`);
  }
  out.push(...renderBreakdown(size.breakdown));
  const react = (size.breakdown ?? []).flatMap((b) => b.parts).filter((p) => REACT_PARTS.includes(p.part)).reduce((sum, p) => sum + p.gzipBytes, 0);
  if (react > 0) {
    const js = sizeTotals(pinmap).js;
    out.push(
      '',
      `Of the vector view's ${kb(js)}, React (${REACT_PARTS.join(', ')}) is about ${kb(react)}, which bare MapLibre's page does not load: without it, ${fmtRatio((js - react) / base.js)} bare MapLibre.`,
    );
  }
  return out;
}

/** The parts of the React runtime, which the app needs and bare MapLibre's page does not. */
const REACT_PARTS = ['react-dom', 'react', 'scheduler'];

/** The report of `npm run bench -- --weight`: the initial-JavaScript target and the size section. */
export function renderWeight(data: BenchData): string {
  const target = judgeTargets(data).find((t) => t.name.startsWith('Initial JS'));
  const lines = ['#### Weight', ''];
  if (target) lines.push(`${target.name}: ${target.figure}, ${target.met === undefined ? 'not measured' : target.met ? 'met' : '**missed**'}.`);
  if (data.size) lines.push(...renderSize(data.size));
  lines.push('', ...data.info.map((line) => `- ${line}`));
  return lines.join('\n');
}

/**
 * The table of what the vector view's initial scripts are made of: each part (an npm package or a
 * folder of src/) with its minified bytes and its estimated share of the gzip size.
 */
export function renderBreakdown(breakdown: readonly FileBreakdown[] | undefined): string[] {
  if (!breakdown?.length) return [];
  const out = [
    '',
    '#### Breakdown: what the vector view\'s initial JavaScript is made of',
    '',
    `From the source maps of ${breakdown.map((b) => `\`${b.file}\``).join(', ')} (source-map-explorer); a part's gzip size is its share of the minified bytes applied to the file's gzip size, so an estimate. MapLibre's worker has no source map and is all MapLibre.`,
    '',
    '| part | minified | gzip (≈) | share |',
    '|---|---:|---:|---:|',
  ];
  const parts = new Map<string, { bytes: number; gzipBytes: number }>();
  for (const file of breakdown) {
    for (const p of file.parts) {
      const sum = parts.get(p.part) ?? { bytes: 0, gzipBytes: 0 };
      parts.set(p.part, { bytes: sum.bytes + p.bytes, gzipBytes: sum.gzipBytes + p.gzipBytes });
    }
  }
  const total = [...parts.values()].reduce((s, p) => s + p.gzipBytes, 0);
  for (const [part, p] of [...parts].sort((a, b) => b[1].bytes - a[1].bytes)) {
    if (p.bytes < 1024) continue;
    out.push(`| ${part.replaceAll('|', '\\|')} | ${kb(p.bytes)} | ${kb(p.gzipBytes)} | ${((p.gzipBytes / total) * 100).toFixed(1)} % |`);
  }
  const maplibre = parts.get('maplibre-gl')?.gzipBytes ?? 0;
  out.push('', `Beside MapLibre (${kb(maplibre)}), the rest is ${kb(total - maplibre)}.`);
  return out;
}

/** The last part of a URL's path, without the query. */
export function fileName(url: string): string {
  const path = new URL(url).pathname;
  return path.slice(path.lastIndexOf('/') + 1);
}
