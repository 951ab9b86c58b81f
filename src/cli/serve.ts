import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PMTiles, type Source } from 'pmtiles';
import send from 'send';
import { CSP_DIRECTIVES, serializeCsp } from '../config/csp.ts';
import { safeParseConfig } from '../config/schema.ts';
import type { PinmapConfigInput } from '../config/types.ts';
import { CsvPinReader, readCsvStream, withWholeFirstLine } from '../pins/csv.ts';
import { PinChecker, readCollectionMembers } from '../pins/data.ts';
import type { PinArchiveMetadata } from '../pins/archive-format.ts';
import type { SkippedFeature } from '../pins/types.ts';
import { readFeatureCollection } from '../tiler/read-geojson.ts';
import { Readable } from 'node:stream';

/**
 * `pinmap serve <file>…` (README, "Your own data"): the built app, served with the user's pin
 * files, config and style under the app's Content Security Policy (src/config/csp.ts) with the
 * style's origin added. Files are served by `send` (Range requests for a `.pmtiles` archive,
 * conditional requests, no path outside its folder); a path that is no file is a plain 404, never
 * the app's page. The page is the app with `?config=` naming the config made here, whose `pins`
 * are the files (one file as it is; several GeoJSON or CSV files merged into one collection), and
 * which gives no camera unless the user's config does: the map opens on the pins.
 */

/** Where the served config is, on the server. */
export const CONFIG_PATH = '/pinmap-serve.json';
/** Where the pin files are, on the server. */
const DATA_PATH = '/data/';
/** Where the style file's folder is, on the server. */
const STYLE_PATH = '/style/';

export interface ServeOptions {
  /** The pin files: GeoJSON, CSV, or one `.pmtiles` archive. */
  files: string[];
  /** A style URL, or a style file (its folder is served with it, for its sprites, glyphs and tiles). */
  style?: string | undefined;
  /** A config file (JSON) for everything else; the pins and style given here win over its own. */
  config?: string | undefined;
  /** The port (0: any free one). */
  port: number;
  host: string;
  /** The built app's folder (default: found beside this code). */
  appDir?: string | undefined;
}

/** What was read of one pin file: how many pins it has and what was skipped (the first few reasons). */
export interface FileSummary {
  file: string;
  pins: number;
  skippedCount: number;
  skipped: SkippedFeature[];
  warningCount: number;
  /** A pre-tiled archive (its pins were checked when it was made). */
  archive?: boolean;
}

/** A mistake in what the command was given; the message says what. */
export class ServeError extends Error {
  override name = 'ServeError';
}

/** How many skipped pins' reasons each file's summary keeps. */
const KEEP = 5;

/**
 * The built app's folder: `dist/` beside the command in the package (dist/cli/..), or the
 * repository's `dist/` when run from the sources.
 */
export function findAppDir(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  return [resolve(here, '..'), resolve(here, '../../dist')].find((dir) => existsSync(join(dir, 'index.html')) && existsSync(join(dir, 'basemap')));
}

type PinFormat = 'geojson' | 'csv' | 'archive';

function formatOf(file: string): PinFormat {
  const extension = extname(file).toLowerCase();
  if (extension === '.pmtiles') return 'archive';
  if (extension === '.csv' || extension === '.tsv' || extension === '.txt') return 'csv';
  return 'geojson';
}

/** The policy of the served page: the app's, with the style's origin where it is not already allowed. */
export function servedPolicy(style: string | undefined): string {
  const origin = style && /^https?:\/\//i.test(style) ? new URL(style).origin : undefined;
  if (!origin || origin.startsWith('https:')) return serializeCsp(CSP_DIRECTIVES);
  const directives = Object.fromEntries(
    Object.entries(CSP_DIRECTIVES).map(([name, sources]) => [name, ['connect-src', 'img-src', 'font-src'].includes(name) ? [...sources, origin] : sources]),
  );
  return serializeCsp(directives);
}

/** A running `pinmap serve`: its address (the page to open), what it read, and how to stop it. */
export interface Serving {
  url: string;
  summaries: FileSummary[];
  server: Server;
  close(): Promise<void>;
}

/** Checks the files, reads them for the summary, and starts the server. */
export async function serve(options: ServeOptions): Promise<Serving> {
  // The user's own mistakes first: they are named whether or not the app is built.
  if (options.files.length === 0) throw new ServeError('give one or more pin files (GeoJSON, CSV, or a .pmtiles archive)');
  for (const file of options.files) {
    if (!existsSync(file) || !statSync(file).isFile()) throw new ServeError(`${file}: no such file`);
  }
  const formats = options.files.map(formatOf);
  if (formats.includes('archive') && options.files.length > 1) throw new ServeError('a .pmtiles archive is served alone: tile the other files with it (`pinmap tile`), or serve them without it');

  const userConfig = options.config ? readConfigFile(options.config) : {};
  const styleFile = options.style && !/^https?:\/\//i.test(options.style) ? resolve(options.style) : undefined;
  if (styleFile && (!existsSync(styleFile) || !statSync(styleFile).isFile())) throw new ServeError(`${options.style}: no such style file`);
  const csvColumns = checkedCsvColumns(userConfig);

  // The files, and what the page is given: one file as it is, several merged.
  const served = new Map<string, string>();
  const summaries: FileSummary[] = [];
  let pins: string;
  let merged: string | undefined;
  if (options.files.length === 1) {
    const file = resolve(options.files[0]!);
    const name = basename(file);
    served.set(name, file);
    const format = formats[0]!;
    summaries.push(format === 'archive' ? await readArchive(file) : await readPinFile(file, format, csvColumns));
    pins = format === 'archive' ? `pmtiles://${DATA_PATH.slice(1)}${encodeURIComponent(name)}` : `${DATA_PATH.slice(1)}${encodeURIComponent(name)}`;
  } else {
    const features: unknown[] = [];
    for (const [i, file] of options.files.entries()) summaries.push(await readPinFile(resolve(file), formats[i] === 'csv' ? 'csv' : 'geojson', csvColumns, features));
    merged = JSON.stringify({ type: 'FeatureCollection', features });
    pins = `${DATA_PATH.slice(1)}pins.geojson`;
  }

  const config: PinmapConfigInput = { ...userConfig, pins, ...(options.style ? { style: styleFile ? `${STYLE_PATH.slice(1)}${encodeURIComponent(basename(styleFile))}` : options.style } : {}) };
  const checked = safeParseConfig(config);
  if (!checked.ok) throw new ServeError(`the config has errors:\n${checked.error.problems.map((p) => `  ${p.option}: ${p.message}`).join('\n')}`);
  const configJson = JSON.stringify(config);
  const policy = servedPolicy(options.style);
  const appDir = options.appDir ?? findAppDir();
  if (!appDir) throw new ServeError('the app is not built: run `npm run build` first (the package ships it built)');

  const server = createServer((request, response) => {
    response.setHeader('Content-Security-Policy', policy);
    let path: string;
    try {
      path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    } catch {
      return plain(response, 400, 'bad request: the path is not a URL path');
    }
    if (path === CONFIG_PATH) return json(response, configJson);
    if (path.startsWith(DATA_PATH)) {
      const name = path.slice(DATA_PATH.length);
      if (merged !== undefined && name === 'pins.geojson') return json(response, merged, 'application/geo+json');
      const file = served.get(name);
      if (file === undefined) return plain(response, 404, `not found: ${path}`);
      return sendFile(request, response, file);
    }
    if (styleFile && path.startsWith(STYLE_PATH)) return sendFile(request, response, path.slice(STYLE_PATH.length - 1), dirname(styleFile));
    return sendFile(request, response, path === '/' ? '/index.html' : path, appDir);
  });
  await new Promise<void>((done, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) => fail(error.code === 'EADDRINUSE' ? new ServeError(`port ${options.port} is in use: give another with --port`) : error));
    server.listen(options.port, options.host, () => done());
  });
  const { port } = server.address() as { port: number };
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/?config=${CONFIG_PATH.slice(1)}`,
    summaries,
    server,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** Serves a file with `send` (Range, conditional requests; under `root`, nothing outside it); a missing one is a plain 404. */
function sendFile(request: IncomingMessage, response: ServerResponse, path: string, root?: string): void {
  send(request, path, { ...(root ? { root } : {}), index: false, dotfiles: 'ignore' })
    .on('error', (error: { status?: number }) => plain(response, error.status ?? 500, error.status === 404 ? `not found: ${request.url ?? path}` : 'the file could not be read'))
    .pipe(response);
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
}

function json(response: ServerResponse, body: string, type = 'application/json'): void {
  response.writeHead(200, { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'no-cache' }).end(body);
}

function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ServeError(`${file}: ${(error as Error).message}`);
  }
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    throw new ServeError(`${file} is not JSON: ${(error as Error).message}`);
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new ServeError(`${file} must hold a JSON object (the config)`);
  return config as Record<string, unknown>;
}

/** The config's `csv` columns, once the config is known to be valid there. */
function checkedCsvColumns(config: Record<string, unknown>): PinmapConfigInput['csv'] {
  const checked = safeParseConfig({ csv: config.csv });
  return checked.ok ? checked.config.csv : undefined;
}

/**
 * Reads a GeoJSON or CSV pin file as the page will, for its summary; with `into`, its good pins
 * are added there as features (several files served as one).
 */
export async function readPinFile(file: string, format: 'geojson' | 'csv', csv?: PinmapConfigInput['csv'], into?: unknown[]): Promise<FileSummary> {
  let checker: PinChecker | undefined;
  let pins = 0;
  try {
    if (format === 'csv') {
      checker = new PinChecker({}, new Map(), KEEP);
      const reader = new CsvPinReader(checker, csv, (_, __, feature) => {
        pins++;
        into?.push(feature);
      });
      await readCsvStream(Readable.from(withWholeFirstLine(createReadStream(file, { encoding: 'utf8' }))), reader);
    } else {
      const read = await readFeatureCollection(createReadStream(file), (feature, index, members) => {
        checker ??= new PinChecker(readCollectionMembers(members).pinStyles, new Map(), KEEP);
        if (!checker.check(feature, index)) return;
        pins++;
        into?.push(feature);
      });
      if (!read.hasFeatureArray) throw new Error('it is not a GeoJSON FeatureCollection with a "features" array');
    }
  } catch (error) {
    throw new ServeError(`${file}: ${(error as Error).message}`);
  }
  return { file, pins, skippedCount: checker?.skippedCount ?? 0, skipped: checker?.skipped ?? [], warningCount: checker?.warningCount ?? 0 };
}

/** A file on disk as a `pmtiles` source. */
function fileSource(file: string): Source {
  return {
    getKey: () => file,
    async getBytes(offset, length) {
      const handle = await open(file, 'r');
      try {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, offset);
        return { data: buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + bytesRead) as ArrayBuffer };
      } finally {
        await handle.close();
      }
    },
  };
}

/** An archive's summary: how many pins its metadata says it holds. */
async function readArchive(file: string): Promise<FileSummary> {
  try {
    const metadata = (await new PMTiles(fileSource(file)).getMetadata()) as { pinmap?: PinArchiveMetadata } | null;
    if (typeof metadata?.pinmap?.count !== 'number') throw new Error('it is not a pin archive made by `pinmap tile` (its metadata has no "pinmap")');
    return { file, pins: metadata.pinmap.count, skippedCount: 0, skipped: [], warningCount: 0, archive: true };
  } catch (error) {
    throw new ServeError(`${file}: ${(error as Error).message}`);
  }
}

/** What `pinmap serve` prints of the files: each one's pins and its first skipped pins, with their reasons. */
export function describeSummaries(summaries: readonly FileSummary[]): string[] {
  const n = (value: number) => value.toLocaleString('en-US');
  const lines: string[] = [];
  for (const summary of summaries) {
    const what = summary.archive ? 'a pin archive' : '';
    lines.push(`${summary.file}: ${what ? `${what} of ` : ''}${n(summary.pins)} ${summary.pins === 1 ? 'pin' : 'pins'}${summary.skippedCount ? `, ${n(summary.skippedCount)} skipped:` : ''}`);
    for (const skipped of summary.skipped) lines.push(`  ${skipped.reason}`);
    if (summary.skippedCount > summary.skipped.length) lines.push(`  … and ${n(summary.skippedCount - summary.skipped.length)} more`);
    if (summary.warningCount > 0) lines.push(`  ${n(summary.warningCount)} ${summary.warningCount === 1 ? 'warning' : 'warnings'} (the page's console lists them)`);
  }
  return lines;
}
