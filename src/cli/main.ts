import { parseArgs } from 'node:util';
import { main as tileMain } from '../tiler/cli.ts';
import { describeSummaries, serve, ServeError, type Serving } from './serve.ts';

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

const SERVE_USAGE = `Usage: pinmap serve <file>… [--style <url | file>] [--config <file>] [--port <n>] [--host <name>]

Serves the map with the pin files (GeoJSON, CSV, or one .pmtiles archive, read with Range
requests) and prints its address and the pins each file has, with the first skipped ones and
why. The map opens on the pins unless the config gives a camera (center or zoom).

Options:
      --style <url|file>  the basemap: a MapLibre style URL, or a style file (its folder is served)
      --config <file>     a Pinmap config (JSON) for everything else (csv columns, pinStyles, controls, …)
      --port <n>          the port (default 4173; 0 for any free one)
      --host <name>       the address to listen on (default 127.0.0.1)
  -h, --help              this text`;

type Print = (line: string) => void;

/**
 * Runs `pinmap` with `args`; resolves with the exit code once the command is done. `serve` runs
 * until the process ends; `onServing` is told when it is up.
 */
export async function main(args: string[], out: Print = console.log, err: Print = console.error, onServing?: (serving: Serving) => void): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'tile') return tileMain(rest, out, err, 'pinmap tile');
  if (command === 'serve') return serveCommand(rest, out, err, onServing);
  if (command === undefined || command === '-h' || command === '--help') {
    out(USAGE);
    return command === undefined ? 2 : 0;
  }
  err(`pinmap: "${command}" is not a command\n\n${USAGE}`);
  return 2;
}

async function serveCommand(args: string[], out: Print, err: Print, onServing?: (serving: Serving) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { style: { type: 'string' }, config: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
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
  let serving: Serving;
  try {
    serving = await serve({ files: positionals, style: values.style, config: values.config, port, host: values.host ?? '127.0.0.1' });
  } catch (error) {
    err(`pinmap serve: ${error instanceof ServeError ? error.message : (error as Error).stack ?? String(error)}`);
    return 1;
  }
  for (const line of describeSummaries(serving.summaries)) out(line);
  out(`Pinmap: ${serving.url}`);
  onServing?.(serving);
  await new Promise<void>((done) => serving.server.once('close', () => done()));
  return 0;
}
