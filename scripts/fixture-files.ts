import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Every file under `dir`, as sorted paths relative to it with forward slashes. */
export const listFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();

/** SHA-256 of every file under `dir`, by relative path. */
export const hashFiles = (dir: string): Map<string, string> =>
  new Map(listFiles(dir).map((file) => [file, createHash('sha256').update(readFileSync(path.join(dir, file))).digest('hex')]));

/** The files only one side has, and those whose bytes differ, of two sets of hashes by relative path. */
export function differences(expected: Map<string, string>, actual: Map<string, string>) {
  const onlyOneSide = [...new Set([...expected.keys(), ...actual.keys()])].filter((file) => !expected.has(file) || !actual.has(file));
  const differing = [...actual].filter(([file, hash]) => expected.has(file) && expected.get(file) !== hash).map(([file]) => file);
  return { onlyOneSide, differing };
}

/**
 * Regenerates a committed fixture into a temporary folder and compares it file by file: the
 * files only one side has, and those whose bytes differ. Both lists empty means up to date.
 */
export async function compareWithRegenerated(committedDir: string, generate: (outDir: string) => Promise<unknown>) {
  const outDir = mkdtempSync(path.join(tmpdir(), 'pinmap-fixture-'));
  try {
    await generate(outDir);
    return differences(hashFiles(committedDir), hashFiles(outDir));
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
