import { describe, expect, it } from 'vitest';
import { fileName, floorNote, judgeTargets, METRICS, renderMarkdown, renderWeight, rowMedian, sameRunRatio, timesBetter, type BenchData, type Renderer, type Row, type RunSample } from './report.ts';

const MB = 1024 * 1024;

function sample(idleMs: number, panP95 = 100, heapBytes = 10 * MB): RunSample {
  return { idleMs, heapBytes, pan: { p50: panP95 / 2, p95: panP95, frames: 30 }, zoom: { p50: 30, p95: 60, frames: 20 }, domMarkers: 0 };
}

function row(renderer: Renderer, count: number, samples: (RunSample | undefined)[], extra: Partial<Row> = {}): Row {
  return { renderer, count, samples, failures: [], timeouts: 0, ...extra };
}

function data(rows: Row[], extra: Partial<BenchData> = {}): BenchData {
  return { rows, runs: 3, cycles: [], cycleFailures: [], info: ['machine line'], ...extra };
}

describe('bench report', () => {
  it('takes medians over the measured runs only', () => {
    const r = row('pinmap', 0, [sample(100), undefined, sample(300), sample(200)]);
    expect(rowMedian(r, METRICS.idle)).toBe(200);
    expect(rowMedian(row('pinmap', 0, []), METRICS.idle)).toBeNaN();
  });

  it('takes ratios run by run, then their median, from runs where both rows were measured', () => {
    // Run 1: 2×, run 2: the reference failed, run 3: 1×, run 4: 4×: the median of 2, 1, 4 is 2.
    const a = row('pinmap', 100_000, [sample(200), sample(999), sample(300), sample(400)]);
    const b = row('pinmap', 0, [sample(100), undefined, sample(300), sample(100)]);
    expect(sameRunRatio(a, b, METRICS.idle)).toBe(2);
    expect(sameRunRatio(a, undefined, METRICS.idle)).toBeNaN();
  });

  it('judges each target: met, missed, a lower bound for a baseline that timed out, or not measured', () => {
    const rows = [
      row('pinmap', 0, [sample(1000, 100), sample(1000, 100), sample(1000, 100)]),
      row('hybrid', 0, [sample(1600), sample(1600), sample(1600)]),
      row('maplibre', 0, [sample(1000), sample(1000), sample(1000)]),
      row('react-map-gl', 0, [sample(950), sample(950), sample(950)]),
      row('pinmap', 100_000, [sample(2500, 120), sample(2500, 120), sample(2500, 120)]),
      row('markers', 10_000, [sample(10_000, 1000), sample(10_000, 1000), sample(10_000, 1000)]),
      row('fa-markers', 10_000, [undefined, undefined, undefined], { timeouts: 3, timedOutAfterMs: 30_000, timedOutRuns: [0, 1, 2], note: 'timed out (> 30 s to idle)' }),
    ];
    const size = {
      pinmap: [{ url: 'http://x/assets/index.js', kind: 'script' as const, bytes: 1000, gzipBytes: 110 }],
      hybrid: [],
      maplibre: [{ url: 'http://x/assets/maplibre.js', kind: 'script' as const, bytes: 900, gzipBytes: 100 }],
      reactMapGl: [{ url: 'http://x/assets/react-map-gl.js', kind: 'script' as const, bytes: 950, gzipBytes: 105 }],
      hybridChunksInVector: [],
    };
    const cycles = [{ before: 4 * MB, afterFirst: 8 * MB, afterLast: 9 * MB, cycles: 20, ms: 20_000, fontsBefore: 11, fontsAfter: 11 }];
    const targets = Object.fromEntries(judgeTargets(data(rows, { size, cycles })).map((t) => [t.name, t]));
    expect(targets['Cold load: vector view ≤ 1.2× bare MapLibre']).toMatchObject({ figure: '1.00×', met: true });
    expect(targets['Cold load: hybrid view ≤ 1.5× bare MapLibre']).toMatchObject({ figure: '1.60×', met: false });
    expect(targets['Cold load: vector view ≤ 1.05× React 19 + react-map-gl 8 + MapLibre']).toMatchObject({ figure: '1.05×', met: false });
    expect(targets['100k pins: pan p95 ≤ 1.5× the no-pin map']).toMatchObject({ figure: '1.20×', met: true });
    expect(targets['100k pins: time to idle ≤ 2× the no-pin map']).toMatchObject({ figure: '2.50×', met: false });
    expect(targets['100k pins: pan p95 ≥ 5× better than MapLibre `Marker` per pin (DOM) at 10k']).toMatchObject({ figure: '8.3× better', met: true });
    expect(targets['100k pins: time to idle ≥ 5× better than MapLibre `Marker` per pin (DOM) at 10k']).toMatchObject({ figure: '4.0× better', met: false });
    expect(targets['100k pins: time to idle ≥ 5× better than Leaflet + `leaflet-fa-markers` icon per pin (DOM) at 10k']).toMatchObject({
      figure: '> 12.0× better (it did not reach idle in 30 s)',
      met: true,
    });
    expect(targets['100k pins: pan p95 ≥ 5× better than Leaflet + `leaflet-fa-markers` icon per pin (DOM) at 10k']).toMatchObject({ met: undefined });
    expect(targets['Initial JS (gzip) ≤ 1.1× React 19 + react-map-gl 8 + MapLibre']).toMatchObject({ figure: '1.05× (0.1 KB vs 0.1 KB)', met: true });
    expect(targets['No hybrid (Leaflet) chunk loaded by the vector view']).toMatchObject({ met: true });
    expect(targets['20 mount/destroy cycles grow the JS heap by < 10 MB']).toMatchObject({ figure: '5.00 MB', met: true });
  });

  it('counts a baseline run that timed out as its cap, and says when the median is only a lower bound', () => {
    const ours = row('pinmap', 100_000, [sample(2000), sample(2000), sample(2000)]);
    // Two runs measured (4× and 5×), one timed out at 30 s (more than 15×): the median, 5×, is exact.
    const mostly = row('fa-markers', 10_000, [sample(8000), sample(10_000), undefined], { timeouts: 1, timedOutAfterMs: 30_000, timedOutRuns: [2] });
    expect(timesBetter(mostly, ours, METRICS.idle, true)).toEqual({ ratio: 5, atLeast: false, runs: 3 });
    // Two of three runs timed out: the median is at least 15×.
    const slow = row('fa-markers', 10_000, [sample(8000), undefined, undefined], { timeouts: 2, timedOutAfterMs: 30_000, timedOutRuns: [1, 2] });
    expect(timesBetter(slow, ours, METRICS.idle, true)).toEqual({ ratio: 15, atLeast: true, runs: 3 });
    // Frame times of runs that never reached idle are unknown, not bounded.
    expect(timesBetter(slow, ours, METRICS.panP95)).toEqual({ ratio: 1, atLeast: false, runs: 1 });
    expect(timesBetter(undefined, ours, METRICS.idle)).toBeUndefined();
  });

  it('says how far the floor page is from the DOM pages at time to idle, and nothing when it was not measured', () => {
    const rows = [
      row('first-pin', 100_000, [sample(1500), sample(1600), sample(1400)]),
      row('markers', 10_000, [sample(6000), sample(6400), sample(7000)]),
      row('fa-markers', 10_000, [undefined, undefined, undefined], { timeouts: 3, timedOutAfterMs: 20_000, timedOutRuns: [0, 1, 2] }),
    ];
    const note = floorNote(data(rows));
    // Idle 1500 ms (median); Marker: 4×, 4×, 5× → 4.0×; leaflet-fa-markers: at least 20 s / 1500 ms.
    expect(note).toContain('reaches idle in 1500 ms');
    expect(note).toContain('4.0× better than MapLibre `Marker` per pin (DOM) at 10k');
    expect(note).toContain('> 13.3× better than Leaflet + `leaflet-fa-markers` icon per pin (DOM) at 10k');
    expect(renderMarkdown(data(rows))).toContain(note);
    expect(floorNote(data([row('first-pin', 100_000, [undefined, undefined, undefined])]))).toBeUndefined();
    expect(note).not.toContain('Drawing the view');
  });

  it("says what drawing the view as Pinmap does costs the floor page, and how far Pinmap is from that", () => {
    const rows = [
      row('first-pin', 100_000, [sample(1000), sample(1500), sample(1200)]),
      row('first-view', 100_000, [sample(1100), sample(1800), sample(1500)]),
      row('pinmap', 100_000, [sample(1650), sample(2700), sample(1800)]),
    ];
    const note = floorNote(data(rows)) ?? '';
    // Drawn against the floor, run by run: 1.1×, 1.2×, 1.25× → 1.20×; Pinmap against drawn: 1.5×, 1.5×, 1.2× → 1.50×.
    expect(note).toContain('the same page reaches idle in 1500 ms, 1.20× the floor, and Pinmap 1.50× that page');
    expect(renderMarkdown(data(rows))).toContain(note);
  });

  it('renders every section, marks missed targets and says why a row has no figures', () => {
    const rows = [row('pinmap', 0, [sample(1200)]), row('maplibre', 0, [sample(900)]), row('markers', 100_000, [], { timeouts: 1, note: 'timed out (> 15 s to idle)' })];
    const text = renderMarkdown(data(rows, { runs: 1 }));
    expect(text).toContain('#### Targets');
    expect(text).toContain('| Pinmap, vector view | 1200 | 1.33× |');
    expect(text).toContain('timed out (> 15 s to idle)');
    expect(text).toContain('**missed**');
    expect(text).toContain('- machine line');
  });

  it('reports the weight: the initial-JS target, the files, the breakdown by part and the share of React', () => {
    const size = {
      pinmap: [{ url: 'http://x/assets/index.js', kind: 'script' as const, bytes: 4000, gzipBytes: 1200 }],
      hybrid: [],
      maplibre: [{ url: 'http://x/assets/maplibre.js', kind: 'script' as const, bytes: 3000, gzipBytes: 1000 }],
      reactMapGl: [{ url: 'http://x/assets/react-map-gl.js', kind: 'script' as const, bytes: 3200, gzipBytes: 1000 }],
      hybridChunksInVector: [],
      breakdown: [
        {
          file: 'assets/index.js',
          bytes: 4000,
          gzipBytes: 1200,
          parts: [
            { part: 'maplibre-gl', bytes: 3000, gzipBytes: 900 },
            { part: 'react-dom', bytes: 2048, gzipBytes: 150 },
            { part: 'src/map', bytes: 1500, gzipBytes: 150 },
          ],
        },
      ],
    };
    const text = renderWeight(data([], { runs: 1, size }));
    expect(text).toContain('Initial JS (gzip) ≤ 1.1× React 19 + react-map-gl 8 + MapLibre: 1.20× (1.2 KB vs 1.0 KB), **missed**.');
    expect(text).toContain('| maplibre-gl | 2.9 KB | 0.9 KB | 75.0 % |');
    expect(text).toContain('| react-dom | 2.0 KB | 0.1 KB | 12.5 % |');
    expect(text).toContain('Beside MapLibre (0.9 KB), the rest is 0.3 KB.');
    expect(text).toContain('React (react-dom, react, scheduler) is about 0.1 KB, which bare MapLibre\'s page does not load: without it, 1.05× bare MapLibre.');
  });

  it('reports what the vector view loads with pins beside the target page, and the pins\' own files', () => {
    const index = { url: 'http://x/assets/index.js', kind: 'script' as const, bytes: 4000, gzipBytes: 1100 };
    const size = {
      pinmap: [index],
      hybrid: [],
      maplibre: [{ url: 'http://x/assets/maplibre.js', kind: 'script' as const, bytes: 3000, gzipBytes: 1000 }],
      reactMapGl: [{ url: 'http://x/assets/react-map-gl.js', kind: 'script' as const, bytes: 3100, gzipBytes: 1050 }],
      hybridChunksInVector: [],
      pinmapWithPins: { count: 1000, entries: [index, { url: 'http://x/assets/vector-pins.js', kind: 'script' as const, bytes: 500, gzipBytes: 200 }] },
    };
    const text = renderWeight(data([], { runs: 1, size }));
    expect(text).toContain('Initial JS (gzip) ≤ 1.1× React 19 + react-map-gl 8 + MapLibre: 1.05× (1.1 KB vs 1.0 KB), met.');
    expect(text).toContain('| React 19 + react-map-gl 8 + MapLibre | 1.0 KB | 0.0 KB | 1.0 KB | 1.05× |');
    expect(text).toContain('| react-map-gl | `react-map-gl.js` | 3.0 KB | 1.0 KB |');
    expect(text).toContain('| Pinmap, vector view, 1,000 pins | 1.3 KB | 0.0 KB | 1.3 KB | 1.30× |');
    expect(text).toContain('| vector, pins | `vector-pins.js` | 0.5 KB | 0.2 KB |');
    expect(text).not.toContain('| vector, pins | `index.js`');
  });

  it('judges the vector view against the React + react-map-gl page: cold load run by run (≤ 1.05×) and initial JS (≤ 1.1×)', () => {
    // Run ratios 1.02, 1.10 and 1.04: the median, 1.04, is within the target.
    const rows = [row('pinmap', 0, [sample(1020), sample(1100), sample(1300)]), row('react-map-gl', 0, [sample(1000), sample(1000), sample(1250)]), row('maplibre', 0, [sample(900), sample(900), sample(900)])];
    const script = (name: string, gzipBytes: number) => ({ url: `http://x/assets/${name}.js`, kind: 'script' as const, bytes: 3 * gzipBytes, gzipBytes });
    const size = { pinmap: [script('index', 1150)], hybrid: [], maplibre: [script('maplibre', 900)], reactMapGl: [script('react-map-gl', 1000)], hybridChunksInVector: [] };
    const targets = judgeTargets(data(rows, { size }));
    const target = (start: string) => targets.find((t) => t.name.startsWith(start));
    expect(target('Cold load: vector view ≤ 1.05× React 19 + react-map-gl 8 + MapLibre')).toMatchObject({ figure: '1.04×', met: true });
    // 1150 against 1000 bytes: 1.15×, over the target (it would be 1.28× bare MapLibre).
    expect(target('Initial JS (gzip) ≤ 1.1× React 19 + react-map-gl 8 + MapLibre')).toMatchObject({ figure: '1.15× (1.1 KB vs 1.0 KB)', met: false });
    const text = renderMarkdown(data(rows, { size }));
    expect(text).toContain('| React 19 + react-map-gl 8 + MapLibre | 1000 | 1.11× |');
    expect(text).toContain('| Cold load: vector view ≤ 1.05× React 19 + react-map-gl 8 + MapLibre | 1.04× | met |');
    // A report without the React page (one made before it was measured) says so rather than dividing by nothing.
    const without = judgeTargets(data([rows[0]!, rows[2]!], { size: { ...size, reactMapGl: undefined } }));
    expect(without.find((t) => t.name.startsWith('Initial JS'))).toMatchObject({ figure: 'not measured', met: undefined });
    expect(without.find((t) => t.name.startsWith('Cold load: vector view ≤ 1.05×'))).toMatchObject({ figure: 'not measured', met: undefined });
  });

  it('judges the 100k pins against the floor page run by run (time to idle ≤ 1.2×)', () => {
    const rows = [row('pinmap', 100_000, [sample(1300), sample(1500)]), row('first-pin', 100_000, [sample(1000), sample(1500)])];
    const target = judgeTargets(data(rows, { runs: 2 })).find((t) => t.name === '100k pins: time to idle ≤ 1.2× the floor page');
    // Run ratios 1.3 and 1.0: the median, 1.15, is within the target.
    expect(target).toMatchObject({ figure: '1.15×', met: true });
    const slower = [row('pinmap', 100_000, [sample(2355)]), row('first-pin', 100_000, [sample(1451)])];
    expect(judgeTargets(data(slower, { runs: 1 })).find((t) => t.name.endsWith('the floor page'))).toMatchObject({ figure: '1.62×', met: false });
  });

  it('names a file by the last part of its URL path', () => {
    expect(fileName('http://127.0.0.1:1234/assets/index-abc.js?x=1')).toBe('index-abc.js');
  });
});
