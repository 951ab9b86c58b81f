import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, openSync, readSync, closeSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join, resolve } from 'node:path';
import type { Browser, BrowserContext } from '@playwright/test';
import { availableParallelism, loadavg } from 'node:os';
import { PIN_CATEGORY_STYLES } from '../pin-categories.ts';
import { CSV_HEADER, clumpedSyntheticPins, csvLine, syntheticPins } from '../synthetic-pins.ts';
import { measure, VIEWPORT } from './measure.ts';
import { renderTargets, type Target } from './report.ts';
import { archiveSearchTarget, renderSearch, type SearchFigures } from './search.ts';
import { median } from './stats.ts';

/**
 * The pre-tiled pin rows of `npm run bench` (README "Pre-tiled pins"; `--pretiled` runs only
 * these): 1M synthetic pins are tiled with the pin tiler at bench time (its time, peak memory and
 * archive size), the archive is served with range requests, and the vector view with it is
 * measured beside the same view without pins: time to idle and pan p95 as ratios, and the bytes
 * fetched before the first idle; then the search box over the archive (`search.ts`): time and
 * range requests per keystroke.
 */

const ROOT = resolve(import.meta.dirname, '../..');
export const PRETILED_COUNT = 1_000_000;
/** The targets of issue 15. */
const TARGETS = { idleRatio: 1.2, panRatio: 1.2, firstIdleBytes: 2 * 1024 * 1024, tilingSeconds: 60, peakBytes: 2 * 1024 ** 3 };

export interface TilingFigures {
  seconds: number;
  /** User + system CPU seconds, when /usr/bin/time could say. */
  cpuSeconds?: number;
  peakBytes?: number;
  archiveBytes: number;
  inputBytes: number;
  /** How many pins were tiled. */
  count: number;
  /** The file tiled: GeoJSON, or the same pins as CSV. */
  format: 'geojson' | 'csv';
  /** Placed in towns and streets (`clumpedSyntheticPins`), not spread over the world. */
  clumped?: boolean;
  /** The machine's load average over the last minute when the tiling ended (others' work slows the wall time). */
  loadAverage: number;
  /** The archive's last zoom (its header's): where every pin stands alone. */
  lastZoom?: number;
}

/** One line of the tiling's figures: wall and CPU time, peak memory, sizes, and the machine's load. */
export function renderTiling(t: TilingFigures): string {
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
  return (
    `Tiling ${t.count.toLocaleString('en-US')} pins (${mb(t.inputBytes)} of ${t.format === 'csv' ? 'CSV' : 'GeoJSON'}, ${t.clumped ? 'clumpedSyntheticPins' : 'generatePins'}(${t.count}, 1)) with \`pinmap tile\`: ` +
    `${t.seconds.toFixed(1)} s wall${t.cpuSeconds === undefined ? '' : `, ${t.cpuSeconds.toFixed(1)} s of CPU`}` +
    `${t.peakBytes === undefined ? '' : `, peak resident memory ${mb(t.peakBytes)}`}, archive ${mb(t.archiveBytes)}${t.lastZoom === undefined ? '' : ` (zooms 0–${t.lastZoom})`}; load average ${t.loadAverage.toFixed(1)} on ${availableParallelism()} cores at the end.`
  );
}

/** Writes `count` synthetic pins (generatePins, seed 1; `clumped`: clumpedSyntheticPins) as a GeoJSON or CSV file, a feature at a time (none held). */
export async function writePins(path: string, count: number, format: 'geojson' | 'csv' = 'geojson', clumped = false): Promise<void> {
  const out = createWriteStream(path);
  const write = (text: string) => (out.write(text) ? Promise.resolve() : new Promise<void>((done) => out.once('drain', () => done())));
  const csv = format === 'csv';
  await write(csv ? `${CSV_HEADER}\n` : `{"type":"FeatureCollection","pinStyles":${JSON.stringify(PIN_CATEGORY_STYLES)},"features":[\n`);
  let chunk = '';
  let i = 0;
  for (const feature of (clumped ? clumpedSyntheticPins : syntheticPins)(count, 1)) {
    chunk += csv ? `${csvLine(feature)}\n` : `${i++ ? ',\n' : ''}${JSON.stringify(feature)}`;
    if (chunk.length > 1 << 20) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(csv ? chunk : `${chunk}]}\n`);
  await new Promise<void>((done) => out.end(() => done()));
}

/** Tiles the pins, as GeoJSON or as CSV, with the command (`pinmap tile`, run from source), under /usr/bin/time -v where there is one. */
export async function tileForBench(tmp: string, log: (message: string) => void, count = PRETILED_COUNT, format: 'geojson' | 'csv' = 'geojson', clumped = false): Promise<{ archive: string; figures: TilingFigures }> {
  const input = join(tmp, `pins-${count}.${format}`);
  const archive = join(tmp, format === 'csv' ? 'pins-1m-csv.pmtiles' : 'pins-1m.pmtiles');
  log(`Writing ${count.toLocaleString('en-US')} ${clumped ? 'clumped ' : ''}pins as ${format === 'csv' ? 'CSV' : 'GeoJSON'} …`);
  await writePins(input, count, format, clumped);
  log('Tiling them with pinmap tile …');
  const command = [process.execPath, '--import', 'tsx', join(ROOT, 'src/cli/bin.ts'), 'tile', input, '-o', archive, '--quiet'];
  const timed = existsSync('/usr/bin/time');
  const started = Date.now();
  const run = spawnSync(timed ? '/usr/bin/time' : command[0]!, timed ? ['-v', ...command] : command.slice(1), { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = (Date.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`pinmap tile failed: ${run.stderr.slice(-2000)}`);
  const figures: TilingFigures = { seconds, archiveBytes: statSync(archive).size, inputBytes: statSync(input).size, count, format, loadAverage: loadavg()[0]!, lastZoom: lastZoomOf(archive), ...(clumped ? { clumped } : {}) };
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr);
  if (rss) figures.peakBytes = Number(rss[1]) * 1024;
  const user = /User time \(seconds\): ([\d.]+)/.exec(run.stderr);
  const system = /System time \(seconds\): ([\d.]+)/.exec(run.stderr);
  if (user && system) figures.cpuSeconds = Number(user[1]) + Number(system[1]);
  log(`  ${seconds.toFixed(1)} s, archive ${(figures.archiveBytes / 2 ** 20).toFixed(1)} MB${figures.peakBytes ? `, peak RSS ${(figures.peakBytes / 2 ** 20).toFixed(0)} MB` : ''}`);
  return { archive, figures };
}

/** The last zoom in a PMTiles v3 archive's header (byte 101). */
function lastZoomOf(path: string): number {
  const header = Buffer.alloc(127);
  const fd = openSync(path, 'r');
  readSync(fd, header, 0, header.length, 0);
  closeSync(fd);
  return header.readUInt8(101);
}

/** An archive made before (`--archive`): measured as it is, with no tiling figures. */
export function existingArchive(path: string): { archive: string; figures?: undefined } {
  if (!existsSync(path)) throw new Error(`--archive: there is no file ${path}`);
  return { archive: path };
}

/**
 * A server of one file with HTTP range requests and CORS, as a static host or CDN serves an
 * archive (the bench's own server sends whole files). Counts the bytes it sends.
 */
export async function serveArchive(path: string): Promise<{ url: string; close(): Promise<void> }> {
  const size = statSync(path).size;
  const server: Server = createServer((request, response) => {
    const headers = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'range', 'access-control-expose-headers': 'content-range, content-length, etag', 'accept-ranges': 'bytes', 'cache-control': 'no-store' };
    if (request.method === 'OPTIONS') {
      response.writeHead(204, headers);
      response.end();
      return;
    }
    const range = /bytes=(\d+)-(\d*)/.exec(request.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const end = range && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    const body = Buffer.alloc(Math.max(0, end - start + 1));
    const fd = openSync(path, 'r');
    readSync(fd, body, 0, body.length, start);
    closeSync(fd);
    response.writeHead(range ? 206 : 200, { ...headers, 'content-type': 'application/octet-stream', 'content-length': body.length, ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}) });
    response.end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/pins-1m.pmtiles`,
    close: () => new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  };
}

/** One run's figures of a page: time to idle, pan p95, bytes fetched before idle (all, and from the archive). */
interface PageRun {
  idleMs: number;
  panP95: number;
  bytes: number;
  archiveBytes: number;
}

/** Loads `url` once (measure: idle, pan, zoom) and counts the response bytes that ended before its first idle. */
async function measureWithBytes(browser: Browser, url: string, archiveUrl: string, loadCapMs: number): Promise<PageRun | string> {
  const counted: { url: string; bytes: number; endedAt: number }[] = [];
  const pending: Promise<void>[] = [];
  const watch = (context: BrowserContext) =>
    context.on('requestfinished', (request) => {
      pending.push(
        request.sizes().then(
          (sizes) => {
            const timing = request.timing();
            counted.push({ url: request.url(), bytes: sizes.responseBodySize + sizes.responseHeadersSize, endedAt: timing.startTime + Math.max(0, timing.responseEnd) });
          },
          () => {},
        ),
      );
    });
  let idleAt = 0;
  const result = await measure(browser, url, { loadCapMs, focus: 'canvas.maplibregl-canvas', onContext: watch, idleStamp: (at) => (idleAt = at) });
  if (!result.ok) return result.reason;
  await Promise.all(pending);
  const before = counted.filter((c) => c.endedAt <= idleAt);
  return {
    idleMs: result.sample.idleMs,
    panP95: result.sample.pan.p95,
    bytes: before.reduce((sum, c) => sum + c.bytes, 0),
    archiveBytes: before.filter((c) => c.url.startsWith(archiveUrl)).reduce((sum, c) => sum + c.bytes, 0),
  };
}

export interface PretiledFigures {
  /** Undefined when an existing archive was measured (`--archive`). */
  tiling: TilingFigures | undefined;
  /** The same pins tiled from a CSV file (issue 34's targets); undefined with `--archive`. */
  csvTiling?: TilingFigures | undefined;
  /** The archive's file. */
  archive: string;
  runs: number;
  noPins: PageRun[];
  pretiled: PageRun[];
  failures: string[];
  /** The search box over the archive, through its search index. */
  search?: SearchFigures;
}

/** Measures the no-pin vector view and the vector view with the 1M archive, `runs` times each, alternating. */
export async function measurePretiled(
  browser: Browser,
  pageUrl: (config: object) => string,
  camera: { center: [number, number]; zoom: number },
  fadeDuration: number,
  tiling: { archive: string; figures?: TilingFigures | undefined },
  runs: number,
  loadCapMs: number,
  log: (message: string) => void,
): Promise<PretiledFigures> {
  const served = await serveArchive(tiling.archive);
  const figures: PretiledFigures = { tiling: tiling.figures, archive: tiling.archive, runs, noPins: [], pretiled: [], failures: [] };
  try {
    const noPins = pageUrl({ ...camera, fadeDuration });
    const pretiled = pageUrl({ ...camera, fadeDuration, pins: `pmtiles://${served.url}` });
    await measureWithBytes(browser, pretiled, served.url, loadCapMs); // warm-up, not counted
    for (let run = 0; run < runs; run++) {
      for (const [label, url, into] of [
        ['no pins', noPins, figures.noPins],
        ['1M pre-tiled pins', pretiled, figures.pretiled],
      ] as const) {
        log(`run ${run + 1}/${runs}: ${label} …`);
        const result = await measureWithBytes(browser, url, served.url, loadCapMs);
        if (typeof result === 'string') {
          figures.failures.push(`${label}: ${result}`);
          log(`  ${result}`);
          continue;
        }
        into[run] = result;
        log(`  idle ${result.idleMs.toFixed(0)} ms, pan p95 ${result.panP95.toFixed(0)} ms, ${(result.bytes / 1024).toFixed(0)} KB before idle (${(result.archiveBytes / 1024).toFixed(0)} KB of it from the archive)`);
      }
    }
  } finally {
    await served.close();
  }
  return figures;
}

/** The medians and same-run ratios of the pre-tiled pin rows. */
function summarise(figures: PretiledFigures) {
  const ratio = (pick: (run: PageRun) => number) => {
    const each: number[] = [];
    figures.pretiled.forEach((run, i) => {
      const base = figures.noPins[i];
      if (run && base && pick(base) > 0) each.push(pick(run) / pick(base));
    });
    return each.length ? median(each) : Number.NaN;
  };
  const med = (list: PageRun[], pick: (run: PageRun) => number) => {
    const values = list.filter(Boolean).map(pick);
    return values.length ? median(values) : Number.NaN;
  };
  return { med, idleRatio: ratio((r) => r.idleMs), panRatio: ratio((r) => r.panP95), archiveBytes: med(figures.pretiled, (r) => r.archiveBytes), totalBytes: med(figures.pretiled, (r) => r.bytes) };
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MB`;

/** The targets of the pre-tiled pin rows, judged; the tiling's only when the pins were tiled in this run. */
export function pretiledTargets(figures: PretiledFigures): Target[] {
  const { idleRatio, panRatio, archiveBytes, totalBytes } = summarise(figures);
  const judged = (value: number, figure: string, ok: boolean): Pick<Target, 'figure' | 'met'> => (Number.isNaN(value) ? { figure: 'not measured', met: undefined } : { figure, met: ok });
  const targets: Target[] = [
    { name: `1M pre-tiled pins: time to idle ≤ ${TARGETS.idleRatio}× the no-pin map`, ...judged(idleRatio, `${idleRatio.toFixed(2)}×`, idleRatio <= TARGETS.idleRatio) },
    { name: `1M pre-tiled pins: pan p95 ≤ ${TARGETS.panRatio}× the no-pin map`, ...judged(panRatio, `${panRatio.toFixed(2)}×`, panRatio <= TARGETS.panRatio) },
    {
      name: '1M pre-tiled pins: bytes of the archive fetched to first idle ≤ 2 MB',
      ...judged(archiveBytes, `${mb(archiveBytes)} (the whole page: ${mb(totalBytes)})`, archiveBytes <= TARGETS.firstIdleBytes),
    },
  ];
  if (figures.search) targets.push(archiveSearchTarget(figures.search));
  if (figures.csvTiling) targets.push(...csvTilingTargets(figures.csvTiling));
  const t = figures.tiling;
  if (!t) return targets;
  targets.push({
    name: `Tiling 1M pins < ${TARGETS.tilingSeconds} s`,
    figure: `${t.seconds.toFixed(1)} s${t.cpuSeconds === undefined ? '' : ` (${t.cpuSeconds.toFixed(1)} s of CPU; load average ${t.loadAverage.toFixed(1)})`}`,
    met: t.seconds < TARGETS.tilingSeconds,
  });
  targets.push({
    name: 'Tiling 1M pins: peak memory < 2 GB',
    figure: t.peakBytes === undefined ? 'not measured (no /usr/bin/time)' : mb(t.peakBytes),
    met: t.peakBytes === undefined ? undefined : t.peakBytes < TARGETS.peakBytes,
  });
  return targets;
}

/** The report's section of the pre-tiled pin rows. */
export function renderPretiled(figures: PretiledFigures): string {
  const { med, archiveBytes, totalBytes } = summarise(figures);
  const t = figures.tiling;
  const lines = [
    `#### Pre-tiled pins (${PRETILED_COUNT.toLocaleString('en-US')} pins, one PMTiles archive)`,
    '',
    ...renderTargets(pretiledTargets(figures)),
    '',
    '| page | time to idle (ms) | pan p95 (ms) | fetched before idle |',
    '|---|---:|---:|---:|',
    `| Pinmap, vector view, no pins | ${med(figures.noPins, (r) => r.idleMs).toFixed(0)} | ${med(figures.noPins, (r) => r.panP95).toFixed(0)} | ${mb(med(figures.noPins, (r) => r.bytes))} |`,
    `| Pinmap, vector view, 1M pre-tiled pins | ${med(figures.pretiled, (r) => r.idleMs).toFixed(0)} | ${med(figures.pretiled, (r) => r.panP95).toFixed(0)} | ${mb(totalBytes)} (archive ${mb(archiveBytes)}) |`,
    '',
    (t
      ? `Tiling: ${(t.inputBytes / 2 ** 20).toFixed(0)} MB of GeoJSON (generatePins(${PRETILED_COUNT}, 1)) into a ${mb(t.archiveBytes)} archive with \`pinmap-tile-pins\` in ${t.seconds.toFixed(1)} s` +
        `${t.peakBytes === undefined ? '' : `, peak resident memory ${mb(t.peakBytes)}`}.`
      : `The archive \`${basename(figures.archive)}\` (${mb(statSync(figures.archive).size)}) was made before (\`--archive\`): no tiling figures.`) +
      `${figures.csvTiling ? ` ${renderTiling(figures.csvTiling)}` : ''}` +
      ` Medians of ${figures.runs} runs, ratios taken run by run; viewport ${VIEWPORT.width}×${VIEWPORT.height}.` +
      `${figures.failures.length ? ` Failures: ${figures.failures.join('; ')}.` : ''}`,
  ];
  if (figures.search) lines.push('', renderSearch(figures.search));
  return lines.join('\n');
}

/** The CSV targets (issue 34): 1M rows tiled in under 60 s with under 1 GB of peak memory. */
const CSV_TARGETS = { seconds: 60, peakBytes: 1024 ** 3 };

/** The targets of the tiling of pins from a CSV file, judged. */
export function csvTilingTargets(t: TilingFigures): Target[] {
  const rows = t.count.toLocaleString('en-US');
  return [
    {
      name: `${rows} CSV rows tiled in < ${CSV_TARGETS.seconds} s`,
      figure: `${t.seconds.toFixed(1)} s${t.cpuSeconds === undefined ? '' : ` (${t.cpuSeconds.toFixed(1)} s of CPU; load average ${t.loadAverage.toFixed(1)} on ${availableParallelism()} cores)`}`,
      met: t.seconds < CSV_TARGETS.seconds,
    },
    {
      name: `${rows} CSV rows: peak memory < 1 GB`,
      figure: t.peakBytes === undefined ? 'not measured (no /usr/bin/time)' : mb(t.peakBytes),
      met: t.peakBytes === undefined ? undefined : t.peakBytes < CSV_TARGETS.peakBytes,
    },
  ];
}

/** The tiling of pins from a CSV file: its targets and figures (`--tiling <n> --csv`, and in the pre-tiled section). */
export function renderCsvTiling(t: TilingFigures): string {
  return [`#### Tiling ${t.count.toLocaleString('en-US')} pins from a CSV file`, '', ...renderTargets(csvTilingTargets(t)), '', renderTiling(t)].join('\n');
}
