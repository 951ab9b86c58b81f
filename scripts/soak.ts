/**
 * `npm run soak`: a seeded random session of five minutes with the production build, in headless
 * Chromium (software WebGL), served by `vite preview` with the app's Content Security Policy as
 * `npm start` serves it. Drags, wheel zooms, the zoom buttons and compass, pins and popups,
 * bubbles, fullscreen, resizes, view switches and geolocation successes, errors and denials
 * (tests/soak-driver.ts says what each step does and checks). After every step every machine
 * must agree with its control, and the console must stay free of errors.
 *
 *   npm run soak                          # builds, then five minutes with a new seed (printed)
 *   npm run soak -- --seed 42             # the same session again
 *   npm run soak -- --minutes 1 --quiet   # shorter, without a line per step
 *
 * Prints the figures at the end; exits 1 when a step failed (with the step, what disagreed and
 * the seed to replay it).
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { preview } from 'vite';
import { CHROMIUM_ARGS, findChromium } from '../tests/chromium.ts';
import { describeFigures, runSoak, SoakFailure } from '../tests/soak-driver.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    minutes: { type: 'string', default: '5' },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log('Usage: npm run soak -- [--seed N] [--minutes 5] [--quiet]');
  process.exit(0);
}
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
const minutes = Number(values.minutes);
if (!Number.isInteger(seed) || !(minutes > 0)) {
  console.error('--seed must be a whole number and --minutes a positive number');
  process.exit(2);
}
if (!existsSync('dist/index.html')) {
  console.error('No production build in dist/: run `npm run build` first (`npm run soak` does).');
  process.exit(2);
}

// vite.config.ts's preview settings, headers included, on a port of its own.
const server = await preview({ logLevel: 'warn', preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false } });
const { port } = server.httpServer.address() as AddressInfo;
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
let exitCode = 0;
try {
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${port}`, viewport: { width: 800, height: 600 }, deviceScaleFactor: 1, serviceWorkers: 'block' });
  // tsx names the functions it compiles with a `__name` helper, which goes along into the code
  // handed to the page (Playwright's own test runner does not): the page gets one that does nothing.
  await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
  const page = await context.newPage();
  console.log(`Soak: seed ${seed}, ${minutes} min, http://127.0.0.1:${port}/ (${browser.version()})`);
  try {
    const figures = await runSoak(page, { seed, durationMs: minutes * 60_000, log: values.quiet ? undefined : (line) => console.log(line) });
    console.log(describeFigures(figures));
  } catch (error) {
    exitCode = 1;
    console.error(`\nSoak FAILED: ${error instanceof Error ? error.message : String(error)}`);
    if (error instanceof SoakFailure) console.error(describeFigures(error.figures));
    console.error(`Replay: npm run soak -- --seed ${seed}`);
  }
} finally {
  await browser.close();
  await server.close();
}
process.exit(exitCode);
