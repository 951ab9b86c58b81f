import { createReadStream, createWriteStream, existsSync, readFileSync, type WriteStream } from 'node:fs';
import { parseConfig } from '../config/schema.ts';
import type { CsvColumns } from '../config/types.ts';
import { basename, dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { tilePins, type TilePinsResult } from './tile-pins.ts';

/**
 * `pinmap tile pins.geojson -o pins.pmtiles` (also `pinmap-tile-pins …`, `npm run tile-pins -- …`):
 * the pin tiler's command line, for GeoJSON or CSV. Prints what it did, the first reasons for skipped features (each with
 * the feature's index) and the first warnings; `--skipped <file>` writes every reason, one JSON
 * line per feature. Exits with 1 when nothing could be written, 2 for a usage mistake.
 */

const usage = (program: string) => `Usage: ${program} <pins.geojson | pins.csv | -> -o <pins.pmtiles> [options]

Reads a GeoJSON FeatureCollection or a CSV file of pins (a file, or - for standard input) as a
stream, checks every pin as the map does, groups them per zoom as the map does, and writes one
PMTiles archive of vector tiles for \`pins: "pmtiles://…/pins.pmtiles"\`.

Options:
  -o, --output <file>    the archive to write (required)
      --config <file>    a Pinmap config (JSON) whose csv names the CSV file's columns
      --name <text>      the archive's name in its metadata (default: the output file's name)
      --search-fields <a,b>
                         pin properties the search box finds pins by besides the title, as
                         config's searchFields (e.g. description,city); default: titles only
      --skipped <file>   write every skipped feature's index and reason there, one JSON line each
      --quiet            print only problems
  -h, --help             this text`;

/** Runs the command with `args` (without node and the script); resolves with the exit code. */
export async function main(args: string[], out: (line: string) => void = console.log, err: (line: string) => void = console.error, program = 'pinmap-tile-pins'): Promise<number> {
  const USAGE = usage(program);
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        output: { type: 'string', short: 'o' },
        config: { type: 'string' },
        name: { type: 'string' },
        'search-fields': { type: 'string' },
        skipped: { type: 'string' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    err(`${program}: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out(USAGE);
    return 0;
  }
  if (positionals.length !== 1 || !values.output) {
    err(`${program}: ${positionals.length !== 1 ? 'give one GeoJSON or CSV file (or -)' : 'give the archive to write with -o'}\n\n${USAGE}`);
    return 2;
  }
  const searchFields = (values['search-fields'] ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  const badField = searchFields.find((name) => name === 'pin' || name === '__proto__');
  if (badField !== undefined) {
    err(`${program}: --search-fields: "${badField}" is not the name of a text property\n\n${USAGE}`);
    return 2;
  }
  const inputPath = positionals[0]!;
  const output = values.output;
  // Known before the pins are read, not after a long tiling.
  const outputFolder = dirname(resolve(output));
  if (!existsSync(outputFolder)) {
    err(`${program}: ${output}: the folder ${outputFolder} does not exist`);
    return 1;
  }
  let csv: CsvColumns | undefined;
  if (values.config) {
    try {
      csv = parseConfig(JSON.parse(readFileSync(values.config, 'utf8'))).csv;
    } catch (error) {
      err(`${program}: ${values.config}: ${(error as Error).message}`);
      return 1;
    }
  }
  const started = performance.now();
  let skippedFile: WriteStream | undefined;
  try {
    skippedFile = values.skipped ? createWriteStream(values.skipped) : undefined;
    const input = inputPath === '-' ? process.stdin : createReadStream(inputPath, { highWaterMark: 1024 * 1024 });
    const result = await tilePins(input, output, {
      name: values.name ?? basename(output).replace(/\.pmtiles$/i, ''),
      ...(csv ? { csv } : {}),
      searchFields,
      ...(skippedFile ? { onSkipped: (skipped) => skippedFile!.write(`${JSON.stringify(skipped)}\n`) } : {}),
      ...(values.quiet ? {} : { onProgress: (message: string) => out(`  ${message}`) }),
    });
    report(result, output, (performance.now() - started) / 1000, values.quiet ? () => {} : out, err);
    return 0;
  } catch (error) {
    err(`${program}: ${inputPath}: ${(error as Error).message}`);
    return 1;
  } finally {
    await new Promise<void>((resolve) => (skippedFile ? skippedFile.end(resolve) : resolve()));
  }
}

function report(result: TilePinsResult, output: string, seconds: number, out: (line: string) => void, err: (line: string) => void): void {
  const n = (value: number) => value.toLocaleString('en-US');
  const plural = (value: number, noun: string) => `${n(value)} ${noun}${value === 1 ? '' : 's'}`;
  out(
    `${output}: ${plural(result.pins, 'pin')} of ${plural(result.features, 'feature')}, ${plural(result.tiles, 'tile')}, ${plural(result.looks, 'pin look')}, ` +
      `${(result.bytes / 1024 / 1024).toFixed(1)} MB, ${seconds.toFixed(1)} s`,
  );
  if (result.skippedCount > 0) {
    err(`${n(result.skippedCount)} ${result.skippedCount === 1 ? 'feature was' : 'features were'} skipped:`);
    for (const skipped of result.skipped) err(`  ${skipped.reason}`);
    if (result.skippedCount > result.skipped.length) err(`  … and ${n(result.skippedCount - result.skipped.length)} more`);
  }
  if (result.warningCount > 0) {
    err(`${n(result.warningCount)} ${result.warningCount === 1 ? 'warning' : 'warnings'}:`);
    for (const warning of result.warnings) err(`  ${warning}`);
    if (result.warningCount > result.warnings.length) err(`  … and ${n(result.warningCount - result.warnings.length)} more`);
  }
}
