import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { parseArgs } from 'node:util';
import { closestMatch } from 'leven';
import type { CsvColumns } from '../config/types.ts';
import { main as tileMain } from '../tiler/cli.ts';
import { boundsOf } from '../pins/bounds.ts';
import { describeSummaries, inFolder, isLoopback, readPinFile, serve, ServeError, type Serving } from './serve.ts';
import { DEFAULT_MAX_ZOOM, defaultSource, extractStreets, MAX_TILES, paddedBBox, StreetsError, type BBox } from './streets.ts';

/**
 * `pinmap <command>` (the package's bin; `npm run pinmap -- …` in the repository): `serve` shows
 * pin files on the map, `tile` pre-tiles a large pin file (the tiler's own command line, also
 * `pinmap-tile-pins`). Exits with 2 for a usage mistake, 1 when the command failed.
 */

const USAGE = `Usage: pinmap <command> [options]

Commands:
  serve <file>…   show pin files (GeoJSON, CSV, or one .pmtiles archive) on the map
  tile <file>     pre-tile a GeoJSON or CSV file into a .pmtiles archive (-o <file>)
  streets <file>  cut the streets around a pin file (or --bbox) out of a Protomaps build (-o <file>)

Run pinmap <command> --help for a command's options.`;

const SERVE_USAGE = `Usage: pinmap serve <file>… [--streets <area.pmtiles>] [--style <url | file>] [--config <file>] [--port <n>] [--host <name>] [--no-panels]

Serves the map with the pin files (GeoJSON, CSV, or one .pmtiles archive, read with Range
requests) and prints the config and CSV columns it read, the pins each file has, with the first
skipped ones and why, and its address. The map opens on the pins unless the config gives a camera
(center or zoom), with the pin list, legend and search. Relative paths are read from the folder
the command was run in.

Options:
      --streets <file>    a street map archive made by \`pinmap streets\`, shown with the Protomaps light
                          and dark styles (the config's theme picks one)
      --style <url|file>  the basemap: a MapLibre style URL, or a style file (with the files it refers to in its folder)
      --config <file>     a Pinmap config (JSON) for everything else (csv columns, pinStyles, controls,
                          streets, …); --streets and --style win over its basemap
      --port <n>          the port (default 4173; 0 for any free one)
      --host <name>       the address to listen on (default 127.0.0.1: this machine only)
      --no-panels         no pin list, legend or search unless the config places them
      --watch             follow the GeoJSON and CSV files: the open map takes what changes in them (by
                          pin id) without a reload
  -h, --help              this text`;

/** The options of `pinmap serve`. */
const SERVE_OPTIONS = {
  streets: { type: 'string' },
  style: { type: 'string' },
  config: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'no-panels': { type: 'boolean' },
  watch: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Print = (line: string) => void;

/** What `main` may be given besides the arguments (tests give them; the bin does not). */
export interface MainOptions {
  /** Told when `serve` is up. */
  onServing?: ((serving: Serving) => void) | undefined;
  /** The built app's folder (default: found beside the code). */
  appDir?: string | undefined;
  /** The environment (default: the process's), for `INIT_CWD`. */
  env?: NodeJS.ProcessEnv | undefined;
}

/**
 * Runs `pinmap` with `args`; resolves with the exit code once the command is done. `serve` runs
 * until the process ends; `options.onServing` is told when it is up.
 */
export async function main(args: string[], out: Print = console.log, err: Print = console.error, options: MainOptions = {}): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'tile') return tileMain(rest, out, err, 'pinmap tile');
  if (command === 'serve') return serveCommand(rest, out, err, options);
  if (command === 'streets') return streetsCommand(rest, out, err, options);
  if (command === undefined || command === '-h' || command === '--help') {
    out(USAGE);
    return command === undefined ? 2 : 0;
  }
  err(`pinmap: "${command}" is not a command\n\n${USAGE}`);
  return 2;
}

/**
 * The folder the command was run in: under `npm run` (and `npx`) the script runs in the package's
 * folder, and npm names the one it was started in as `INIT_CWD`.
 */
export function commandFolder(env: NodeJS.ProcessEnv = process.env): string {
  const init = env.INIT_CWD;
  return init && isAbsolute(init) ? init : process.cwd();
}

/** The first option in `args` that `pinmap serve` does not have, named with the one it is likely a slip for. */
export function unknownOption(args: string[]): string | undefined {
  const { tokens } = parseArgs({ args, options: SERVE_OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const names = Object.keys(SERVE_OPTIONS);
  for (const token of tokens) {
    if (token.kind !== 'option' || Object.hasOwn(SERVE_OPTIONS, token.name) || token.name === 'h') continue;
    const name = token.name.toLowerCase();
    const likely = closestMatch(name, names, { maxDistance: Math.max(2, Math.floor(name.length / 3)) });
    return likely === undefined ? `${token.rawName} is not an option of pinmap serve` : `${token.rawName}: did you mean --${likely}?`;
  }
  return undefined;
}

async function serveCommand(args: string[], out: Print, err: Print, options: MainOptions): Promise<number> {
  const unknown = unknownOption(args);
  if (unknown !== undefined) {
    err(`pinmap serve: ${unknown}\n\n${SERVE_USAGE}`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: SERVE_OPTIONS });
  } catch (error) {
    err(`pinmap serve: ${(error as Error).message}\n\n${SERVE_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out(SERVE_USAGE);
    return 0;
  }
  if (values.streets !== undefined && values.style !== undefined) {
    err('pinmap serve: give --streets or --style, not both: --streets is the basemap');
    return 2;
  }
  const port = Number(values.port ?? 4173);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    err(`pinmap serve: --port must be a port number (0 to 65535), not "${values.port}"`);
    return 2;
  }
  if (positionals.length === 0) {
    err(`pinmap serve: give one or more pin files\n\n${SERVE_USAGE}`);
    return 2;
  }
  const host = values.host ?? '127.0.0.1';
  let serving: Serving;
  try {
    serving = await serve({ files: positionals, streets: values.streets, style: values.style, config: values.config, port, host, cwd: commandFolder(options.env), panels: !values['no-panels'], appDir: options.appDir, watch: values.watch, onWatchChange: out });
  } catch (error) {
    err(`pinmap serve: ${error instanceof ServeError ? error.message : (error as Error).stack ?? String(error)}`);
    return 1;
  }
  out(`config: ${serving.config ?? 'none'}`);
  if (serving.streets !== undefined) out(`streets: ${values.streets ?? serving.streets} (the Protomaps light and dark styles; the config's theme picks one)`);
  for (const line of describeSummaries(serving.summaries)) out(line);
  if (!isLoopback(host)) err(`pinmap serve: warning: --host ${host} listens beyond this machine: anyone who can reach it can read the pin files, the config and the style it serves`);
  if (values.watch) out('watching the pin files: the open map follows what changes in them');
  out(`Pinmap: ${serving.url}`);
  options.onServing?.(serving);
  await new Promise<void>((done) => serving.server.once('close', () => done()));
  return 0;
}

const STREETS_USAGE = `Usage: pinmap streets (<pins file> | --bbox <west,south,east,north>) -o <area.pmtiles> [--from <url | file>] [--maxzoom <n>]

Cuts the streets of an area out of a Protomaps basemap build (a PMTiles archive of the whole
planet, about 120 GB) into a small archive of its own, reading only the parts the area needs
(HTTP Range requests: never the whole file). The area is the box around the pins of a GeoJSON or
CSV file, a little larger, or --bbox. Then: pinmap serve <pins file> --streets <area.pmtiles>.

Options:
  -o, --output <file>     the archive to write (required)
      --bbox <w,s,e,n>    the area in degrees instead of a pin file's, e.g. 4.85,52.33,4.95,52.40
      --from <url|file>   the build to cut from (default: yesterday's daily build,
                          ${defaultSource().replace(/\d{8}/, 'YYYYMMDD')}; the list: https://maps.protomaps.com/builds/)
      --maxzoom <n>       the highest zoom (default ${DEFAULT_MAX_ZOOM}, the build's highest); at most
                          ${MAX_TILES.toLocaleString('en-US')} tiles in all: a lower one for a large area
      --config <file>     a Pinmap config (JSON) whose csv names the CSV file's columns
  -h, --help              this text`;

/** `pinmap streets`: the area's tiles out of a Protomaps build, with progress and what was read against what was written. */
async function streetsCommand(args: string[], out: Print, err: Print, options: MainOptions): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { output: { type: 'string', short: 'o' }, bbox: { type: 'string' }, from: { type: 'string' }, maxzoom: { type: 'string' }, config: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    err(`pinmap streets: ${(error as Error).message}\n\n${STREETS_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out(STREETS_USAGE);
    return 0;
  }
  if ((positionals.length === 0) === (values.bbox === undefined) || positionals.length > 1) {
    err(`pinmap streets: give one pin file or --bbox, not ${positionals.length === 0 ? 'neither' : 'both'}\n\n${STREETS_USAGE}`);
    return 2;
  }
  if (!values.output) {
    err(`pinmap streets: give the archive to write with -o\n\n${STREETS_USAGE}`);
    return 2;
  }
  const maxZoom = values.maxzoom === undefined ? DEFAULT_MAX_ZOOM : Number(values.maxzoom);
  if (!Number.isInteger(maxZoom) || maxZoom < 0 || maxZoom > 20) {
    err(`pinmap streets: --maxzoom must be a whole number 0..20, not "${values.maxzoom}"`);
    return 2;
  }
  const folder = commandFolder(options.env);
  const from = values.from === undefined ? defaultSource() : /^https?:\/\//i.test(values.from) ? values.from : inFolder(values.from, folder);
  const n = (value: number) => value.toLocaleString('en-US');
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 2 : 1)} MB`;
  try {
    let bbox: BBox;
    if (values.bbox !== undefined) bbox = values.bbox.split(',').map((part) => (part.trim() === '' ? NaN : Number(part))) as BBox;
    else {
      const given = positionals[0]!;
      const file = inFolder(given, folder);
      const format = /\.(csv|tsv|txt)$/i.test(file) ? 'csv' : 'geojson';
      if (/\.pmtiles$/i.test(file)) throw new StreetsError(`${given}: give the GeoJSON or CSV file the pins came from (or --bbox), not an archive`);
      const csv = values.config === undefined ? undefined : (JSON.parse(readFileSync(inFolder(values.config, folder), 'utf8')) as { csv?: CsvColumns }).csv;
      const features: { geometry: { coordinates: [number, number] } }[] = [];
      const summary = await readPinFile(file, format, csv, features);
      const bounds = boundsOf(features.length, (i) => features[i]!.geometry.coordinates[0], (i) => features[i]!.geometry.coordinates[1]);
      if (bounds === undefined) throw new StreetsError(`${given} has no pin (${n(summary.items ?? 0)} ${format === 'csv' ? 'rows' : 'features'}, none a valid pin): nothing to cut the streets around`);
      bbox = paddedBBox(bounds);
      out(`${given}: ${n(summary.pins)} pins in ${bounds[0].map((v) => v.toFixed(4)).join(',')},${bounds[1].map((v) => v.toFixed(4)).join(',')}; the area, a little larger: ${bbox.map((v) => v.toFixed(4)).join(',')}`);
    }
    out(`reading ${from}`);
    let lastPrinted = 0;
    const result = await extractStreets({
      bbox,
      from,
      maxZoom,
      out: inFolder(values.output, folder),
      onProgress: ({ tiles, total, bytesRead }) => {
        if (tiles < total && Date.now() - lastPrinted < 1000) return;
        lastPrinted = Date.now();
        out(`tiles ${n(tiles)} / ${n(total)}, ${mb(bytesRead)} read`);
      },
    });
    out(`${values.output}: ${n(result.tiles)} tiles, zooms ${result.minZoom}..${result.maxZoom}, bounds ${result.bounds.map((v) => v.toFixed(4)).join(',')}`);
    out(`read ${mb(result.bytesRead)} in ${n(result.requests)} requests${result.sourceBytes ? ` of the ${mb(result.sourceBytes)} source` : ''}; wrote ${mb(result.outputBytes)}`);
    if (result.attribution) out(`credit (shown on the map): ${result.attribution.replace(/<[^>]*>/g, '')}`);
    out(`next: pinmap serve ${positionals[0] ?? '<pins file>'} --streets ${values.output}`);
    return 0;
  } catch (error) {
    if (error instanceof StreetsError || error instanceof ServeError || error instanceof SyntaxError) {
      err(`pinmap streets: ${error.message}`);
      return 1;
    }
    err(`pinmap streets: ${(error as Error).stack ?? String(error)}`);
    return 1;
  }
}
