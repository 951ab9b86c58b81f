import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { networkInterfaces } from 'node:os';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PMTiles, type Source } from 'pmtiles';
import send from 'send';
import { STREETS_STYLE_PATHS } from '../config/constants.ts';
import { CSP_DIRECTIVES, serializeCsp } from '../config/csp.ts';
import { safeParseConfig } from '../config/schema.ts';
import type { PinmapConfigInput } from '../config/types.ts';
import { CsvPinReader, readCsvStream, withWholeFirstLine } from '../pins/csv.ts';
import { PinChecker, readCollectionMembers } from '../pins/data.ts';
import type { PinArchiveMetadata } from '../pins/archive-format.ts';
import type { SkippedFeature } from '../pins/types.ts';
import { readFeatureCollection } from '../tiler/read-geojson.ts';
import { fileKind } from './file-kind.ts';
import { StyleFiles } from './style-files.ts';
import { PinFileWatch } from './watch-pins.ts';
import { Readable } from 'node:stream';

/**
 * `pinmap serve <file>…` (README, "Your own data" and "Security"): the built app, served with the
 * user's pin files, config and style under the app's Content Security Policy (src/config/csp.ts)
 * with the style's origin added. Files are served by `send` (Range requests for a `.pmtiles`
 * archive, conditional requests, no path outside its folder); a path that is no file is a plain
 * 404, never the app's page. The root address redirects to the app with `?config=` naming the
 * config made here, whose `pins` are the files (one file as it is; several GeoJSON or CSV files
 * merged into one collection), with the pin list, legend and search on unless the user's config
 * places them (or `panels: false`), and no camera unless the user's config gives one: the map
 * opens on the pins.
 *
 * What it answers, and to whom: only requests that name it (`Host` 127.0.0.1, localhost, [::1]
 * or the `--host`; else 421, so a page that points its own name here cannot read it), only GET and
 * HEAD (else 405), every answer with `nosniff`; from a style's folder only the files the style
 * refers to (src/cli/style-files.ts). A file that is plainly no pin data (a spreadsheet, an
 * image) and a file with no valid pin are refused with what they are.
 */

/** Where the served config is, on the server. */
export const CONFIG_PATH = '/pinmap-serve.json';
/** Where the stream of the pin files' changes is, on the server (`--watch`). */
export const STREAM_PATH = '/pinmap-serve-stream';
/** Where the pin files are, on the server. */
const DATA_PATH = '/data/';
/** Where the style file's folder is, on the server. */
const STYLE_PATH = '/style/';
/** Where the street map archive is, on the server (`--streets`, or a config's `streets` file). */
const STREETS_PATH = '/streets/';

export interface ServeOptions {
  /** The pin files: GeoJSON, CSV, or one `.pmtiles` archive. */
  files: string[];
  /** A style URL, or a style file (its folder is served with it, for its sprites, glyphs and tiles). */
  style?: string | undefined;
  /**
   * A street map archive made by `pinmap streets`: the basemap, in the Protomaps light and dark
   * styles (the config's `streets`, given as this file's address on the server).
   */
  streets?: string | undefined;
  /**
   * A config file (JSON) for everything else; the pins and the basemap given here (`--streets`,
   * `--style`) win over its own. Its `streets` may name a file, relative to the config file's folder.
   */
  config?: string | undefined;
  /** The port (0: any free one). */
  port: number;
  host: string;
  /** The built app's folder (default: found beside this code). */
  appDir?: string | undefined;
  /** The folder relative paths are read from (default: the process's working folder). */
  cwd?: string | undefined;
  /** The pin panels (list, legend, search) on unless the config says otherwise (default true; `--no-panels`). */
  panels?: boolean | undefined;
  /** Follow the GeoJSON and CSV files: the open map is sent what changes in them (`--watch`). */
  watch?: boolean | undefined;
  /** Told each change `--watch` sends, as a line for the terminal. */
  onWatchChange?: ((line: string) => void) | undefined;
}

/** The pin panels `pinmap serve` shows unless the config places or hides them itself. */
const PANELS = { list: true, legend: true, search: true } as const;

/** What was read of one pin file: how many pins it has and what was skipped (the first few reasons). */
export interface FileSummary {
  file: string;
  pins: number;
  skippedCount: number;
  skipped: SkippedFeature[];
  warningCount: number;
  /** A pre-tiled archive (its pins were checked when it was made). */
  archive?: boolean;
  /** How many rows (CSV) or features (GeoJSON) the file has. */
  items?: number;
  /** A CSV file's columns the pins were read from, by their header names. */
  columns?: { lat?: string | undefined; lng?: string | undefined; title?: string | undefined };
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
  /** The config file read (its full path), if any. */
  config: string | undefined;
  /** The street map shown (the archive's full path, or the config's URL), if any. */
  streets: string | undefined;
  summaries: FileSummary[];
  server: Server;
  close(): Promise<void>;
}

/** Checks the files, reads them for the summary, and starts the server. */
export async function serve(options: ServeOptions): Promise<Serving> {
  // The user's own mistakes first: they are named whether or not the app is built.
  if (options.files.length === 0) throw new ServeError('give one or more pin files (GeoJSON, CSV, or a .pmtiles archive)');
  const folder = options.cwd ?? process.cwd();
  const files = options.files.map((file) => inFolder(file, folder));
  for (const [i, file] of files.entries()) {
    const given = options.files[i]!;
    if (!existsSync(file) || !statSync(file).isFile()) throw new ServeError(`${given}: no such file${isAbsolute(given) ? '' : ` (in ${folder})`}`);
    const kind = fileKind(file);
    if (kind !== undefined) throw new ServeError(`${given} is ${kind.what}: ${kind.advice}`);
  }
  const formats = files.map(formatOf);
  if (formats.includes('archive') && files.length > 1) throw new ServeError('a .pmtiles archive is served alone: tile the other files with it (`pinmap tile`), or serve them without it');
  if (options.watch && formats.includes('archive')) throw new ServeError('--watch follows GeoJSON and CSV files: a .pmtiles archive stays as it was tiled (tile it again to change it)');

  const configFile = options.config === undefined ? undefined : inFolder(options.config, folder);
  const userConfig = configFile ? readConfigFile(configFile, options.config!) : {};
  const styleFile = options.style && !/^https?:\/\//i.test(options.style) ? inFolder(options.style, folder) : undefined;
  if (styleFile && (!existsSync(styleFile) || !statSync(styleFile).isFile())) throw new ServeError(`${options.style}: no such style file`);
  if (options.streets !== undefined && options.style !== undefined) throw new ServeError('give --streets or --style, not both: --streets is the basemap');
  const streets = streetsOf(options, userConfig, configFile, folder);
  if (streets.file) await readStreets(streets.file, streets.given, streets.url!);
  const csvColumns = checkedCsvColumns(userConfig);

  // The files, and what the page is given: one file as it is, several merged.
  const served = new Map<string, string>();
  const summaries: FileSummary[] = [];
  let pins: string;
  let merged: string | undefined;
  if (files.length === 1) {
    const file = files[0]!;
    const name = basename(file);
    served.set(name, file);
    const format = formats[0]!;
    summaries.push(format === 'archive' ? await readArchive(file) : await readPinFile(file, format, csvColumns));
    pins = format === 'archive' ? `pmtiles://${DATA_PATH.slice(1)}${encodeURIComponent(name)}` : `${DATA_PATH.slice(1)}${encodeURIComponent(name)}`;
  } else {
    const features: unknown[] = [];
    for (const [i, file] of files.entries()) summaries.push(await readPinFile(file, formats[i] === 'csv' ? 'csv' : 'geojson', csvColumns, features));
    merged = JSON.stringify({ type: 'FeatureCollection', features });
    pins = `${DATA_PATH.slice(1)}pins.geojson`;
  }
  // A file of no pin is a mistake, not a map of nothing.
  for (const [i, summary] of summaries.entries()) if (!summary.archive && summary.pins === 0) throw new ServeError(noPins(options.files[i]!, summary));

  // The basemap the flags give wins over the config's: `--streets` over its style, `--style` over its streets.
  const streetsName = streets.file ? basename(streets.file) : undefined;
  const { style: _style, darkStyle: _darkStyle, ...withoutStyles } = userConfig;
  const { streets: _streets, ...withoutStreets } = userConfig;
  const ownConfig = options.streets !== undefined ? withoutStyles : options.style !== undefined ? withoutStreets : userConfig;
  const basemap =
    streets.url !== undefined
      ? { streets: streetsName ? `${STREETS_PATH.slice(1)}${encodeURIComponent(streetsName)}` : streets.url }
      : options.style
        ? { style: styleFile ? `${STYLE_PATH.slice(1)}${encodeURIComponent(basename(styleFile))}` : options.style }
        : {};
  const controls = options.panels === false || !isRecordOrMissing(userConfig.controls) ? userConfig.controls : { ...PANELS, ...userConfig.controls };
  const config: PinmapConfigInput = {
    ...ownConfig,
    ...(controls === undefined ? {} : { controls: controls as PinmapConfigInput['controls'] }),
    pins,
    ...basemap,
    ...(options.watch ? { pinsStream: STREAM_PATH.slice(1) } : {}),
  };
  const checked = safeParseConfig(config);
  if (!checked.ok) throw new ServeError(`the config has errors:\n${checked.error.problems.map((p) => `  ${p.option}: ${p.message}`).join('\n')}`);
  const configJson = JSON.stringify(config);
  const policy = servedPolicy(options.style ?? (streetsName ? undefined : streets.url));
  const appDir = options.appDir ?? findAppDir();
  if (!appDir) throw new ServeError('the app is not built: run `npm run build` first (the package ships it built)');
  // The page shows the archive in the app's Protomaps styles (src/map/maplibre-map.ts, `withStreets`).
  for (const file of Object.values(STREETS_STYLE_PATHS)) {
    if (streets.url !== undefined && !existsSync(join(appDir, file))) throw new ServeError(`the app's Protomaps style ${file} is missing: run \`npm run build\``);
  }

  let styleFiles: StyleFiles | undefined;
  if (styleFile) {
    try {
      styleFiles = new StyleFiles(styleFile, STYLE_PATH);
    } catch (error) {
      throw new ServeError(`${options.style}: ${(error as Error).message}`);
    }
  }

  // `--watch`: the files read again when they change, and the changes streamed to the open maps.
  let watcher: PinFileWatch | undefined;
  if (options.watch) {
    watcher = new PinFileWatch(
      files.map((file, i) => ({ file, format: formats[i] === 'csv' ? 'csv' : 'geojson' })),
      csvColumns,
      (file, format, csv, into) => readPinFile(file, format, csv, into),
      options.onWatchChange,
    );
    await watcher.start();
  }

  let ownNames = new Set<string>();
  const server = createServer((request, response) => {
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Content-Security-Policy', policy);
    // Only to its own names: a page whose name is made to point here (DNS rebinding) is refused.
    if (!ownNames.has((request.headers.host ?? '').toLowerCase())) return plain(response, 421, MISDIRECTED);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      return plain(response, 405, `method not allowed: ${request.method ?? ''} (only GET and HEAD)`);
    }
    let url: URL;
    let path: string;
    try {
      url = new URL(request.url ?? '/', 'http://localhost');
      path = decodeURIComponent(url.pathname);
    } catch {
      return plain(response, 400, 'bad request: the path is not a URL path');
    }
    if (path === CONFIG_PATH) return json(response, configJson);
    if (watcher && path === STREAM_PATH) return watcher.attach(request, response);
    // The root address opens the user's pins: the app with the config made here.
    if (url.pathname === '/' && !url.searchParams.has('config')) {
      url.searchParams.append('config', CONFIG_PATH.slice(1));
      response.writeHead(302, { Location: `/${url.search}`, 'Cache-Control': 'no-cache' }).end();
      return;
    }
    if (path.startsWith(DATA_PATH)) {
      const name = path.slice(DATA_PATH.length);
      if (merged !== undefined && name === 'pins.geojson') return json(response, watcher ? watcher.collection() : merged, 'application/geo+json');
      const file = served.get(name);
      if (file === undefined) return plain(response, 404, `not found: ${url.pathname}`);
      return sendFile(request, response, file);
    }
    if (streets.file && path.startsWith(STREETS_PATH)) {
      if (path.slice(STREETS_PATH.length) === streetsName) return sendFile(request, response, streets.file);
      return plain(response, 404, `not found: ${url.pathname}`);
    }
    if (styleFiles && path.startsWith(STYLE_PATH)) {
      const file = styleFiles.fileFor(path.slice(STYLE_PATH.length));
      if (file === undefined) return plain(response, 404, `not found: ${url.pathname}`);
      return sendFile(request, response, file);
    }
    return sendAppFile(request, response, url.pathname === '/' ? '/index.html' : url.pathname, appDir);
  });
  await new Promise<void>((done, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) => fail(error.code === 'EADDRINUSE' ? new ServeError(`port ${options.port} is in use: give another with --port`) : error));
    server.listen(options.port, options.host, () => done());
  });
  const { port } = server.address() as { port: number };
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  ownNames = new Set(ownHostNames(options.host).flatMap((name) => [name, `${name}:${port}`]));
  return {
    url: `http://${host}:${port}/`,
    config: configFile,
    streets: streets.file ?? streets.url,
    summaries,
    server,
    close: () => {
      const closed = new Promise<void>((done) => server.close(() => done()));
      // The streams are ended; the idle connections of the maps that read them go with them.
      if (watcher) {
        watcher.stop();
        server.closeAllConnections();
      }
      return closed;
    },
  };
}

/** The answer to a request for another name than the server's own. */
const MISDIRECTED = 'misdirected request: this server answers only to its own names (127.0.0.1, localhost, [::1]), so that no other site can read it';

/** A `--host` that only this machine reaches (a loopback address or name). */
export function isLoopback(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(name) || name === '::1' || /^::ffff:127(\.\d{1,3}){3}$/.test(name);
}

/**
 * The names a request may give in its `Host` (without the port; lower case): the loopback ones,
 * the `--host` listened on, and with an address of every interface (0.0.0.0, ::) this machine's
 * addresses.
 */
function ownHostNames(listen: string): string[] {
  const bracket = (address: string) => (address.includes(':') ? `[${address}]` : address);
  const names = ['127.0.0.1', 'localhost', '[::1]', bracket(listen.toLowerCase())];
  if (listen === '0.0.0.0' || listen === '::') {
    for (const addresses of Object.values(networkInterfaces())) for (const { address } of addresses ?? []) names.push(bracket(address.toLowerCase()));
  }
  return names;
}

/** Serves one file the server chose (a pin file, a style's file) with `send`: Range, conditional requests; if it is gone, a plain 404. */
function sendFile(request: IncomingMessage, response: ServerResponse, file: string): void {
  sendFrom(request, response, `/${encodeURIComponent(basename(file))}`, dirname(file), 'allow');
}

/** Serves the app's file at `path` (as requested, still percent-encoded) with `send`: nothing outside `root`, no dotfile. */
function sendAppFile(request: IncomingMessage, response: ServerResponse, path: string, root: string): void {
  sendFrom(request, response, path, root, 'ignore');
}

function sendFrom(request: IncomingMessage, response: ServerResponse, path: string, root: string, dotfiles: 'allow' | 'ignore'): void {
  send(request, path, { root, index: false, dotfiles })
    .on('error', (error: { status?: number }) => plain(response, error.status ?? 500, error.status === 404 ? `not found: ${request.url ?? path}` : 'the file could not be read'))
    // A folder is no file: a plain 404, not `send`'s redirect to the folder's address with a slash.
    .on('directory', () => plain(response, 404, `not found: ${request.url ?? path}`))
    .pipe(response);
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
}

function json(response: ServerResponse, body: string, type = 'application/json'): void {
  response.writeHead(200, { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'no-cache' }).end(body);
}

function readConfigFile(file: string, given: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ServeError(`${given}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such config file' : (error as Error).message}`);
  }
  const kind = fileKind(file);
  if (kind !== undefined) throw new ServeError(`${given} is ${kind.what}, not a config (a JSON file)`);
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    throw new ServeError(`${given} is not JSON: ${(error as Error).message}`);
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new ServeError(`${given} must hold a JSON object (the config)`);
  return config as Record<string, unknown>;
}

/**
 * Where a path the user gave is read: relative to `folder` (the folder the command was run in),
 * else, when only there, relative to the process's working folder (a script's own paths).
 */
export function inFolder(path: string, folder: string): string {
  if (isAbsolute(path)) return path;
  const there = resolve(folder, path);
  return !existsSync(there) && existsSync(resolve(path)) ? resolve(path) : there;
}

function isRecordOrMissing(value: unknown): value is Record<string, unknown> | undefined {
  return value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value));
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
  let items = 0;
  let columns: FileSummary['columns'];
  try {
    if (format === 'csv') {
      checker = new PinChecker({}, new Map(), KEEP);
      const reader = new CsvPinReader(checker, csv, (_, __, feature) => {
        pins++;
        into?.push(feature);
      });
      await readCsvStream(Readable.from(withWholeFirstLine(createReadStream(file, { encoding: 'utf8' }))), reader);
      items = reader.rows;
      const { lat, lng, title } = reader.columns;
      columns = { lat, lng, title };
    } else {
      const read = await readFeatureCollection(createReadStream(file), (feature, index, members) => {
        items++;
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
  return { file, pins, skippedCount: checker?.skippedCount ?? 0, skipped: checker?.skipped ?? [], warningCount: checker?.warningCount ?? 0, items, ...(columns ? { columns } : {}) };
}

/** Why a file of no pin is refused: what it holds, its first rows' problems, and the likely slip. */
function noPins(given: string, summary: FileSummary): string {
  const csv = summary.columns !== undefined;
  const items = summary.items ?? summary.skippedCount;
  if (items === 0) return `${given} has no pin to show: ${csv ? 'it has no row under its header line' : 'its "features" array is empty'}`;
  const n = (value: number) => value.toLocaleString('en-US');
  const what = csv ? (items === 1 ? 'row' : 'rows') : items === 1 ? 'feature' : 'features';
  const lines = [`${given} has no pin to show: ${items === 1 ? `its one ${what} was` : `all ${n(items)} ${what} were`} skipped:`, ...summary.skipped.map((skipped) => `  ${skipped.reason}`)];
  if (summary.skippedCount > summary.skipped.length) lines.push(`  … and ${n(summary.skippedCount - summary.skipped.length)} more`);
  const reasons = summary.skipped.map((skipped) => skipped.reason).join('\n');
  if (/latitude -?[\d.e+]+ is outside -90\.\.90/.test(reasons)) {
    lines.push(csv ? `Are latitude and longitude swapped? A latitude is -90..90; the latitude column read was ${JSON.stringify(summary.columns!.lat)}, the longitude column ${JSON.stringify(summary.columns!.lng)}.` : 'Are latitude and longitude swapped? GeoJSON coordinates are [longitude, latitude], a latitude -90..90.');
  }
  if (/geometry is a (Multi)?(Polygon|LineString)/.test(reasons)) lines.push('A pin is a Point: give each place a Point (a polygon\'s centre, say) to show it as a pin.');
  return lines.join('\n');
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

/**
 * Where the street map comes from: `--streets` (a file, relative to the command's folder), else
 * the config's `streets` unless `--style` is given: an http(s) URL the page reads, or a file,
 * relative to the config file's folder, served here. `given` is how the messages name it.
 */
function streetsOf(options: ServeOptions, userConfig: Record<string, unknown>, configFile: string | undefined, folder: string): { url?: string; file?: string; given: string } {
  if (options.streets !== undefined) return { url: options.streets, file: inFolder(options.streets, folder), given: `--streets ${options.streets}` };
  const value = userConfig.streets;
  // Not a string, or given with a style of the config's own: the config's check names it.
  if (options.style !== undefined || typeof value !== 'string' || value === '' || userConfig.style !== undefined || userConfig.darkStyle !== undefined) return { given: '' };
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return { url: value, given: `streets ${value}` };
  return { url: value, file: resolve(configFile ? dirname(configFile) : folder, value), given: `the config's streets ${value}` };
}

/**
 * Checks a street map archive (`--streets`, or a config's `streets` file; `given` names it): a
 * PMTiles archive of vector tiles in the Protomaps basemap schema (its metadata lists the layers
 * the styles draw), not a pin archive; `name` is the path as given.
 */
async function readStreets(file: string, given: string, name: string): Promise<void> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new ServeError(`${given}: no such file${given.startsWith('--') ? '' : ` (${file})`} (make it with \`pinmap streets <pins file> -o ${name}\`)`);
  let metadata: { vector_layers?: { id?: unknown }[]; pinmap?: unknown } | null;
  try {
    const archive = new PMTiles(fileSource(file));
    const header = await archive.getHeader();
    if (header.tileType !== 1) throw new Error('its tiles are not vector tiles');
    metadata = (await archive.getMetadata()) as typeof metadata;
  } catch (error) {
    throw new ServeError(`${given} is not a street map archive (PMTiles of vector tiles): ${(error as Error).message}`);
  }
  if (metadata?.pinmap !== undefined) throw new ServeError(`${given} is a pin archive: give it as the pin file, and the street map archive (made by \`pinmap streets\`) as --streets`);
  const layers = new Set((metadata?.vector_layers ?? []).map((layer) => layer.id));
  const missing = ['earth', 'water', 'roads'].filter((id) => !layers.has(id));
  if (missing.length > 0) throw new ServeError(`${given} is not in the Protomaps basemap schema (its metadata lists no ${missing.join(', ')} layer): cut it from a Protomaps build with \`pinmap streets\``);
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
    const { lat, lng, title } = summary.columns ?? {};
    if (summary.columns) lines.push(`  columns: latitude ${JSON.stringify(lat)}, longitude ${JSON.stringify(lng)}, title ${JSON.stringify(title)}`);
    if (summary.warningCount > 0) lines.push(`  ${n(summary.warningCount)} ${summary.warningCount === 1 ? 'warning' : 'warnings'} (the page's console lists them)`);
  }
  return lines;
}
