import { isAbsolute } from 'node:path';
import { parseArgs } from 'node:util';
import { closestMatch } from 'leven';
import { main as tileMain } from '../tiler/cli.ts';
import { describeSummaries, isLoopback, serve, ServeError, type Serving } from './serve.ts';

/**
 * `pinmap <command>` (the package's bin; `npm run pinmap -- …` in the repository): `serve` shows
 * pin files on the map, `tile` pre-tiles a large pin file (the tiler's own command line, also
 * `pinmap-tile-pins`). Exits with 2 for a usage mistake, 1 when the command failed.
 */

const USAGE = `Usage: pinmap <command> [options]

Commands:
  serve <file>…   show pin files (GeoJSON, CSV, or one .pmtiles archive) on the map
  tile <file>     pre-tile a GeoJSON or CSV file into a .pmtiles archive (-o <file>)

Run pinmap <command> --help for a command's options.`;

const SERVE_USAGE = `Usage: pinmap serve <file>… [--style <url | file>] [--config <file>] [--port <n>] [--host <name>] [--no-panels]

Serves the map with the pin files (GeoJSON, CSV, or one .pmtiles archive, read with Range
requests) and prints the config and CSV columns it read, the pins each file has, with the first
skipped ones and why, and its address. The map opens on the pins unless the config gives a camera
(center or zoom), with the pin list, legend and search. Relative paths are read from the folder
the command was run in.

Options:
      --style <url|file>  the basemap: a MapLibre style URL, or a style file (with the files it refers to in its folder)
      --config <file>     a Pinmap config (JSON) for everything else (csv columns, pinStyles, controls, …)
      --port <n>          the port (default 4173; 0 for any free one)
      --host <name>       the address to listen on (default 127.0.0.1: this machine only)
      --no-panels         no pin list, legend or search unless the config places them
  -h, --help              this text`;

/** The options of `pinmap serve`. */
const SERVE_OPTIONS = {
  style: { type: 'string' },
  config: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'no-panels': { type: 'boolean' },
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
    serving = await serve({ files: positionals, style: values.style, config: values.config, port, host, cwd: commandFolder(options.env), panels: !values['no-panels'], appDir: options.appDir });
  } catch (error) {
    err(`pinmap serve: ${error instanceof ServeError ? error.message : (error as Error).stack ?? String(error)}`);
    return 1;
  }
  out(`config: ${serving.config ?? 'none'}`);
  for (const line of describeSummaries(serving.summaries)) out(line);
  if (!isLoopback(host)) err(`pinmap serve: warning: --host ${host} listens beyond this machine: anyone who can reach it can read the pin files, the config and the style it serves`);
  out(`Pinmap: ${serving.url}`);
  options.onServing?.(serving);
  await new Promise<void>((done) => serving.server.once('close', () => done()));
  return 0;
}
