/**
 * What each generated fixture was made from, so its "is up to date" test need not make it again
 * while nothing it is made from has changed. `npm run fixtures` records, for each fixture folder,
 * the SHA-256 of its inputs and of the files it wrote (`fixtures/inputs.json`); the test compares
 * the inputs now with those recorded and, if they are the same, the committed files with those
 * written. If any input changed, the test regenerates the fixture and compares it byte for byte.
 *
 * The inputs: the generator's modules in this repository (the ones it imports, found by
 * esbuild), `package-lock.json` (every package, code or data, at its exact version), and the
 * platform, Node's zlib and the architecture (gzip and the native canvas write their bytes).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { compareWithRegenerated, differences, hashFiles } from './fixture-files.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const RECORD_FILE = path.join(ROOT, 'fixtures', 'inputs.json');

type Hashes = Record<string, string>;
interface Recorded {
  inputs: Hashes;
  files: Hashes;
}

const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/** The inputs of the fixture made by `generator` (a path from the repository's root), each with its hash. */
export async function inputsOf(generator: string): Promise<Hashes> {
  const { metafile } = await build({ entryPoints: [generator], bundle: true, packages: 'external', platform: 'node', format: 'esm', write: false, metafile: true, logLevel: 'silent', absWorkingDir: ROOT });
  const inputs: Hashes = {};
  for (const file of Object.keys(metafile.inputs).sort()) inputs[file] = sha256(readFileSync(path.join(ROOT, file)));
  inputs['package-lock.json'] = sha256(readFileSync(path.join(ROOT, 'package-lock.json')));
  inputs.platform = `${process.platform}-${process.arch} zlib ${process.versions.zlib}`;
  return inputs;
}

const readRecords = (): Record<string, Recorded> => (existsSync(RECORD_FILE) ? (JSON.parse(readFileSync(RECORD_FILE, 'utf8')) as Record<string, Recorded>) : {});

/** A fixture's name in the record: its folder under fixtures/. */
const nameOf = (dir: string): string => path.relative(path.join(ROOT, 'fixtures'), path.resolve(dir)).split(path.sep).join('/');

/**
 * Records what the fixture just made in `outDir` was made from (`generator`, a path from the
 * repository's root) and the files made, if `outDir` is the committed fixture's folder (`committedDir`).
 */
export async function recordFixture(generator: string, outDir: string, committedDir: string): Promise<void> {
  if (path.resolve(outDir) !== path.resolve(committedDir)) return;
  const name = nameOf(committedDir);
  const records = readRecords();
  records[name] = { inputs: await inputsOf(generator), files: Object.fromEntries(hashFiles(outDir)) };
  const sorted = Object.fromEntries(Object.entries(records).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(RECORD_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
}

/** What the fixture in `committedDir` was recorded as writing, if what it is made from is the same now; else undefined. */
async function recordIfCurrent(generator: string, committedDir: string): Promise<Hashes | undefined> {
  const record = readRecords()[nameOf(committedDir)];
  if (!record) return undefined;
  const now = await inputsOf(generator);
  const same = Object.keys(now).length === Object.keys(record.inputs).length && Object.entries(now).every(([input, hash]) => record.inputs[input] === hash);
  return same ? record.files : undefined;
}

/**
 * Whether the committed fixture in `committedDir` is what `generate` (of `generator`) makes: by its record
 * when nothing it is made from has changed since (the committed files against those it wrote),
 * else by making it again into a temporary folder (`regenerated`). Both lists empty: up to date.
 */
export async function compareWithGenerator(generator: string, committedDir: string, generate: (outDir: string) => Promise<unknown>) {
  const recorded = await recordIfCurrent(generator, committedDir);
  if (recorded) return { ...differences(new Map(Object.entries(recorded)), hashFiles(committedDir)), regenerated: false };
  return { ...(await compareWithRegenerated(committedDir, generate)), regenerated: true };
}
