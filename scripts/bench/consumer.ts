import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'vite';
import { gzipSize } from './measure.ts';

/**
 * `npm run bench -- --consumer`: MapLibre shared with the app. tests/consumer (a Vite + React app
 * whose src/main.tsx imports `maplibre-gl` itself beside `pinmap`) is copied into a temporary
 * folder, the packed library installed into it from its tarball with no network, and built twice
 * with the repository's Vite: as it is (A), and with its own `maplibre-gl` import and what uses it
 * taken out (B, only Pinmap's MapLibre, the app's peer). The figure: the initial JavaScript (gzip
 * -9) of A over B's, target ≤ 1.05×, with the copies of MapLibre each build holds.
 */

export const CONSUMER_LIMIT = 1.05;
/** A string of MapLibre's attribution control: once per copy of its code (as tests/consumer.spec.ts counts). */
export const MAPLIBRE_MARKER = 'maplibregl-ctrl-attrib-button';
/** What of tests/consumer the build needs (not its node_modules or dist, which the consumer test owns). */
const CONSUMER_FILES = ['package.json', 'index.html', 'src', 'tsconfig.json', 'vite.config.ts'];

/** What Vite's build manifest says of a chunk (the parts read here). */
export interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

/**
 * The JavaScript files a built index.html loads before any dynamic import: its module scripts and
 * modulepreload links, and every chunk those import statically (their `imports` in Vite's
 * manifest, followed to the end; `dynamicImports` are not followed). File names as the manifest
 * gives them (`assets/index-….js`), in the order found.
 */
export function initialChunks(html: string, manifest: Record<string, ManifestChunk>): string[] {
  const byFile = new Map(Object.values(manifest).map((chunk) => [chunk.file, chunk]));
  const found: string[] = [];
  const tags = html.match(/<(script|link)\b[^>]*>/gi) ?? [];
  for (const tag of tags) {
    const attribute = (name: string) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(tag)?.[1];
    const isScript = /^<script/i.test(tag) && attribute('type') === 'module';
    const isPreload = /^<link/i.test(tag) && attribute('rel') === 'modulepreload';
    const url = isScript ? attribute('src') : isPreload ? attribute('href') : undefined;
    if (url !== undefined) found.push(url.replace(/^(\.?\/)+/, ''));
  }
  if (found.length === 0) throw new Error('index.html loads no module script');
  const visit = (file: string) => {
    const chunk = byFile.get(file);
    if (!chunk) throw new Error(`index.html loads ${file}, which is not in the build's manifest`);
    for (const key of chunk.imports ?? []) {
      const imported = manifest[key];
      if (!imported) throw new Error(`${file} imports ${key}, which is not in the build's manifest`);
      if (!found.includes(imported.file)) {
        found.push(imported.file);
        visit(imported.file);
      }
    }
  };
  for (const file of [...found]) visit(file);
  return [...new Set(found)];
}

/** Lines of tests/consumer's src/main.tsx that are the app's own use of `maplibre-gl`. */
export const APP_MAPLIBRE_LINES = [
  "import { Map as AppMap } from 'maplibre-gl';",
  "// The app's own `maplibre-gl` is that MapLibre too: one copy, whose settings reach Pinmap's maps.",
  'document.body.dataset.appMaplibre = String(target.getMap() instanceof AppMap);',
];

/**
 * The app's main.tsx without its own `maplibre-gl` import and what uses it (variant B): each line
 * of `APP_MAPLIBRE_LINES` taken out. Throws if one is not there exactly once, or if the app still
 * names `maplibre-gl` after, so a change to the app cannot quietly measure the same thing twice.
 */
export function withoutAppMaplibre(source: string): string {
  const lines = source.split('\n');
  for (const wanted of APP_MAPLIBRE_LINES) {
    const at = lines.flatMap((line, i) => (line.trim() === wanted ? [i] : []));
    if (at.length !== 1) throw new Error(`main.tsx: expected the line "${wanted}" once, found it ${at.length} times; update APP_MAPLIBRE_LINES in scripts/bench/consumer.ts`);
    lines.splice(at[0]!, 1);
  }
  const edited = lines.join('\n');
  if (/['"]maplibre-gl['"]|\bAppMap\b/.test(edited)) throw new Error('main.tsx still uses its own maplibre-gl after the edit; update APP_MAPLIBRE_LINES in scripts/bench/consumer.ts');
  return edited;
}

export interface ConsumerFile {
  file: string;
  bytes: number;
  gzipBytes: number;
}
export interface ConsumerBuild {
  files: ConsumerFile[];
  /** Copies of MapLibre in all the build's JavaScript (initial or not). */
  copies: number;
}
export interface ConsumerFigures {
  withAppImport: ConsumerBuild;
  pinmapOnly: ConsumerBuild;
}

const sum = (files: readonly ConsumerFile[]) => files.reduce((total, f) => total + f.gzipBytes, 0);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The target: A's initial JavaScript over B's, and whether it is within `CONSUMER_LIMIT`. */
export function consumerTarget(figures: ConsumerFigures): { name: string; ratio: number; figure: string; met: boolean } {
  const a = sum(figures.withAppImport.files);
  const b = sum(figures.pinmapOnly.files);
  if (b === 0) throw new Error('the app without its own maplibre-gl import has no initial JavaScript');
  const ratio = a / b;
  return {
    name: `Initial JS (gzip) of an app that imports maplibre-gl itself ≤ ${CONSUMER_LIMIT}× the same app with one MapLibre (Pinmap's)`,
    ratio,
    figure: `${ratio.toFixed(3)}× (${kb(a)} vs ${kb(b)})`,
    // Judged on the figure as shown, so what is printed and the verdict agree.
    met: Number(ratio.toFixed(3)) <= CONSUMER_LIMIT,
  };
}

export function renderConsumer(figures: ConsumerFigures, info: string): string {
  const target = consumerTarget(figures);
  const variants = [
    ['A: the app with its own `maplibre-gl` import', figures.withAppImport],
    ['B: the same without it (Pinmap\'s MapLibre only)', figures.pinmapOnly],
  ] as const;
  return [
    '#### MapLibre shared with the app',
    '',
    `${target.name}: ${target.figure}, ${target.met ? 'met' : '**missed**'}.`,
    '',
    '| build | initial JS (gzip) | copies of MapLibre in its JS |',
    '|---|---:|---:|',
    ...variants.map(([label, build]) => `| ${label} | ${kb(sum(build.files))} | ${build.copies} |`),
    '',
    '| build | file | bytes | gzip |',
    '|---|---|---:|---:|',
    ...variants.flatMap(([label, build]) => build.files.map((f) => `| ${label.slice(0, 1)} | \`${f.file}\` | ${kb(f.bytes)} | ${kb(f.gzipBytes)} |`)),
    '',
    `Initial JS: the files the built index.html loads before any dynamic import (its module script, its modulepreload links and what they import statically, by Vite's manifest), each gzipped at level 9. Copies: "${MAPLIBRE_MARKER}" counted in every JavaScript file of the build. ${info}`,
  ].join('\n');
}

const run = promisify(execFile);

/** Runs a command, failing with all it printed. */
async function sh(command: string, args: string[], cwd: string): Promise<string> {
  try {
    return (await run(command, args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } })).stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`);
  }
}

/** Builds the app in `dir` into `dir/<outDir>` and measures its initial JavaScript and MapLibre copies. */
async function buildAndMeasure(dir: string, outDir: string): Promise<ConsumerBuild> {
  await build({ root: dir, logLevel: 'warn', build: { outDir, emptyOutDir: true, manifest: true, chunkSizeWarningLimit: 5000 } });
  const out = join(dir, outDir);
  const manifest = JSON.parse(readFileSync(join(out, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const files = initialChunks(readFileSync(join(out, 'index.html'), 'utf8'), manifest).map((file) => {
    const body = readFileSync(join(out, file));
    return { file, bytes: body.length, gzipBytes: gzipSize(body) };
  });
  const assets = join(out, 'assets');
  const copies = readdirSync(assets)
    .filter((file) => /\.m?js$/.test(file))
    .reduce((total, file) => total + readFileSync(join(assets, file), 'utf8').split(MAPLIBRE_MARKER).length - 1, 0);
  return { files, copies };
}

/**
 * Packs the library (`npm pack`: needs `npm run build` first), installs the tarball with no
 * network into a copy of tests/consumer under the system's temporary folder, links the app's
 * peers and build tools from the repository's node_modules, builds A and B and measures them.
 * The temporary folders are removed after.
 */
export async function measureConsumer(root: string, log: (message: string) => void): Promise<ConsumerFigures> {
  const tmp = mkdtempSync(join(tmpdir(), 'pinmap-bench-consumer-'));
  try {
    const app = join(tmp, 'app');
    mkdirSync(app);
    for (const name of CONSUMER_FILES) cpSync(join(root, 'tests/consumer', name), join(app, name), { recursive: true });
    const main = join(app, 'src/main.tsx');
    const variantB = withoutAppMaplibre(readFileSync(main, 'utf8'));
    log('Packing the library (npm pack) …');
    const packed = await sh('npm', ['pack', '--json', '--pack-destination', tmp], root);
    const tarball = join(tmp, (JSON.parse(packed) as [{ filename: string }])[0].filename);
    log('Installing it into a copy of tests/consumer, offline …');
    await sh('npm', ['install', '--offline', '--no-save', '--no-package-lock', '--legacy-peer-deps', '--no-audit', '--no-fund', tarball], app);
    rmSync(tarball);
    // The package's peers and the app's build tools, as npm would install them: the repository's own.
    const peers = Object.keys((JSON.parse(readFileSync(join(app, 'node_modules/pinmap/package.json'), 'utf8')) as { peerDependencies?: Record<string, string> }).peerDependencies ?? {});
    for (const name of new Set([...peers, 'react', 'react-dom', 'maplibre-gl', 'vite', '@vitejs/plugin-react'])) {
      if (existsSync(join(app, 'node_modules', name))) continue;
      mkdirSync(join(app, 'node_modules', name, '..'), { recursive: true });
      symlinkSync(join(root, 'node_modules', name), join(app, 'node_modules', name), 'dir');
    }
    log('Building A: the app as it is (its own maplibre-gl import and pinmap) …');
    const withAppImport = await buildAndMeasure(app, 'dist-a');
    writeFileSync(main, variantB);
    log('Building B: the app without its own maplibre-gl import …');
    const pinmapOnly = await buildAndMeasure(app, 'dist-b');
    return { withAppImport, pinmapOnly };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
