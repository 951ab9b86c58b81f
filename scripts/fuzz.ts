/**
 * `npm run fuzz`: the fuzz suites (`src/**\/*.fuzz.test.ts`: random configs, random GeoJSON,
 * mutated PMTiles archives, pin archives with a section flipped, cut or inflated, random server
 * behaviour against the request path) with many times the
 * cases `npm test` runs, and a new seed each time, printed first so a failure can be replayed.
 *
 *   npm run fuzz                       # a new seed, 20 times the cases of npm test (thousands)
 *   npm run fuzz -- --seed 1234        # the same cases again
 *   npm run fuzz -- --scale 100        # more cases
 *
 * Exits with vitest's code: 1 when a property failed (fast-check prints the case and its path).
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { seed: { type: 'string' }, scale: { type: 'string', default: '20' } } });
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
if (!Number.isInteger(seed)) throw new Error(`--seed must be a whole number (got ${values.seed})`);
console.log(`fuzz: seed ${seed}, ${values.scale} times the cases of npm test (replay: npm run fuzz -- --seed ${seed} --scale ${values.scale})`);
const result = spawnSync('npx', ['vitest', 'run', '--silent=true', '.fuzz.test.ts', 'src/map/request-transform.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PINMAP_FUZZ_SEED: String(seed), PINMAP_FUZZ_SCALE: values.scale },
});
console.log(`fuzz: seed ${seed} ${result.status === 0 ? 'passed' : 'FAILED'}`);
process.exit(result.status ?? 1);
