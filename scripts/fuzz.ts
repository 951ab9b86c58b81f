/**
 * `npm run fuzz`: the fuzz suites (`src/**\/*.fuzz.test.ts`: random configs, random GeoJSON,
 * mutated PMTiles archives, pin archives with any section flipped, cut or inflated (header,
 * directories, metadata, tiles, pin index, search index, bubbles' pins; the memory a case takes
 * bounded), random server behaviour against the request path, `pinmap serve` with random paths,
 * hosts and methods) with many times the
 * cases `npm test` runs, and a new seed each time, printed first so a failure can be replayed.
 *
 *   npm run fuzz                       # a new seed, 20 times the cases of npm test (thousands)
 *   npm run fuzz -- --seed 1234        # the same cases again
 *   npm run fuzz -- --scale 100        # more cases
 *
 * Prints each suite's figures (cases, seconds, the peak memory of a case where measured), and
 * exits with vitest's code: 1 when a property failed (fast-check prints the case and its path).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { seed: { type: 'string' }, scale: { type: 'string', default: '20' } } });
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
if (!Number.isInteger(seed)) throw new Error(`--seed must be a whole number (got ${values.seed})`);
console.log(`fuzz: seed ${seed}, ${values.scale} times the cases of npm test (replay: npm run fuzz -- --seed ${seed} --scale ${values.scale})`);
// The suites' figures (cases run, seconds, peak memory: `reportFuzz`), printed at the end.
const folder = mkdtempSync(join(tmpdir(), 'pinmap-fuzz-'));
const report = join(folder, 'report.jsonl');
const started = performance.now();
const result = spawnSync('npx', ['vitest', 'run', '--silent=true', '.fuzz.test.ts', 'src/map/request-transform.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PINMAP_FUZZ_SEED: String(seed), PINMAP_FUZZ_SCALE: values.scale, PINMAP_FUZZ_REPORT: report },
});
const lines = existsSync(report) ? readFileSync(report, 'utf8').trim().split('\n').filter(Boolean) : [];
rmSync(folder, { recursive: true, force: true });
for (const line of lines) {
  const { suite, cases, seconds, peakMB, boundMB } = JSON.parse(line) as { suite: string; cases: number; seconds: number; peakMB?: number; boundMB?: number };
  console.log(`fuzz: ${suite}: ${cases} cases in ${seconds.toFixed(1)} s${peakMB === undefined ? '' : `, peak memory of a case ${peakMB.toFixed(0)} MB (bound ${boundMB?.toFixed(0)} MB)`}`);
}
console.log(`fuzz: seed ${seed} ${result.status === 0 ? 'passed' : 'FAILED'} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
process.exit(result.status ?? 1);
