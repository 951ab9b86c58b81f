import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { explore } from 'source-map-explorer';
import { gzipSize } from './measure.ts';

/**
 * What a built JavaScript file is made of, from its source map (source-map-explorer): its bytes
 * by part, a part being an npm package (`node_modules/<name>`) or a folder of ours (`src/map`,
 * `src/ui`, …). The gzip figure of each part is its share of the file's minified bytes applied to
 * the whole file's gzip size: an estimate, as gzip compresses the parts together.
 */

export interface BreakdownPart {
  part: string;
  bytes: number;
  gzipBytes: number;
}

export interface FileBreakdown {
  file: string;
  bytes: number;
  gzipBytes: number;
  parts: BreakdownPart[];
}

/** The part a source file of a bundle belongs to: its npm package, or its folder under src/. */
export function partOf(source: string): string {
  const packagePath = source.split('node_modules/').at(-1)!;
  if (packagePath !== source) {
    const [scope, name] = packagePath.split('/');
    return scope!.startsWith('@') ? `${scope}/${name}` : scope!;
  }
  const ours = /(?:^|\/)src\/([^/]+)\//.exec(source);
  if (ours) return `src/${ours[1]}`;
  if (/(?:^|\/)src\/[^/]+$/.test(source)) return 'src';
  return source.startsWith('[') ? source : 'other';
}

/** Sums a source map's sizes by part, largest first, with each part's share of `gzipBytes`. */
export function groupByPart(files: Record<string, { size: number }>, gzipBytes: number): BreakdownPart[] {
  const sums = new Map<string, number>();
  let total = 0;
  for (const [source, { size }] of Object.entries(files)) {
    sums.set(partOf(source), (sums.get(partOf(source)) ?? 0) + size);
    total += size;
  }
  return [...sums]
    .map(([part, bytes]) => ({ part, bytes, gzipBytes: total > 0 ? Math.round((bytes / total) * gzipBytes) : 0 }))
    .sort((a, b) => b.bytes - a.bytes);
}

/** The breakdown of `file` in `dir` (it needs its `.map` beside it); undefined without one. */
export async function breakdownOf(dir: string, file: string): Promise<FileBreakdown | undefined> {
  const path = join(dir, file);
  if (!existsSync(path) || !existsSync(`${path}.map`)) return undefined;
  const code = readFileSync(path);
  const result = await explore({ code: path, map: `${path}.map` }, { noBorderChecks: true, excludeSourceMapComment: true });
  const bundle = result.bundles[0];
  if (!bundle) return undefined;
  const gzipBytes = gzipSize(code);
  return { file, bytes: code.length, gzipBytes, parts: groupByPart(bundle.files, gzipBytes) };
}
