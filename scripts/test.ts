/**
 * `npm test`: every check, in order, with the time each phase took printed at the end (and on a
 * failure, up to the phase that failed). Lint and the type check each use one core, so they run
 * side by side; the unit tests, the build, the package check and the browser suite follow one by
 * one. Extra arguments go to Playwright (`npm test -- tests/pins.spec.ts`).
 */
import { spawn } from 'node:child_process';

type Phase = { name: string; command: string; args: string[] };
type Outcome = { name: string; seconds: number; code: number };

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

const SIDE_BY_SIDE: Phase[] = [
  { name: 'lint', command: npm, args: ['run', '--silent', 'lint'] },
  { name: 'typecheck', command: npm, args: ['run', '--silent', 'typecheck'] },
];
const IN_TURN: Phase[] = [
  { name: 'unit', command: npm, args: ['run', '--silent', 'test:unit'] },
  { name: 'build', command: npm, args: ['run', '--silent', 'build'] },
  { name: 'package', command: npm, args: ['run', '--silent', 'check:package'] },
  { name: 'browser', command: npx, args: ['playwright', 'test', ...process.argv.slice(2)] },
];

/** Runs one phase; `quiet` keeps its output until it ends, so two phases side by side do not interleave. */
function run(phase: Phase, quiet: boolean): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(phase.command, phase.args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const output: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      if (quiet) process.stdout.write(`\n── ${phase.name} ──\n${Buffer.concat(output).toString()}`);
      resolve({ name: phase.name, seconds: (performance.now() - started) / 1000, code: code ?? 1 });
    });
    child.on('error', (error) => {
      output.push(Buffer.from(`${phase.command} could not start: ${error.message}\n`));
    });
  });
}

function report(outcomes: Outcome[], started: number): void {
  const total = (performance.now() - started) / 1000;
  const rows = outcomes.map(({ name, seconds, code }) => `  ${name.padEnd(10)} ${seconds.toFixed(1).padStart(7)} s${code === 0 ? '' : `  FAILED (exit ${code})`}`);
  console.log(['', 'Phases (wall time):', ...rows, `  ${'total'.padEnd(10)} ${total.toFixed(1).padStart(7)} s`].join('\n'));
}

const started = performance.now();
const outcomes = await Promise.all(SIDE_BY_SIDE.map((phase) => run(phase, true)));
for (const phase of IN_TURN) {
  if (outcomes.some((outcome) => outcome.code !== 0)) break;
  outcomes.push(await run(phase, false));
}
report(outcomes, started);
process.exitCode = outcomes.every((outcome) => outcome.code === 0) ? 0 : 1;
