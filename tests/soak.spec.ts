import { expect, test } from './test.ts';
import { describeFigures, runSoak, STEP_KINDS } from './soak-driver.ts';

/**
 * A short soak (tests/soak-driver.ts) with a fixed seed: every kind of step and every geolocation
 * outcome at least once, then random steps for the rest of 40 s, with every machine consistent
 * with its control after each step and nothing in the console. `npm run soak` runs the same for
 * five minutes with a seed of its own.
 */
// Gestures, eases and their interruptions, as a user without reduced motion makes them.
test.use({ reducedMotion: 'no-preference' });

test('a 40 s random session in both views: every machine agrees with its control after every step, no console error', async ({ page }) => {
  test.setTimeout(300_000); // the first round of every kind runs to its end however long the machine takes
  const figures = await runSoak(page, { seed: 20240601, durationMs: 40_000 });
  const summary = describeFigures(figures);
  console.log(summary);
  test.info().annotations.push({ type: 'figures', description: summary });
  for (const kind of STEP_KINDS) expect(figures.steps[kind], kind).toBeGreaterThan(0);
  expect(figures.popupsOpened).toBeGreaterThan(0);
  expect(figures.geolocation.successes).toBeGreaterThan(0);
  expect(figures.geolocation.timeouts).toBeGreaterThan(0);
  expect(figures.geolocation.unavailable).toBeGreaterThan(0);
  expect(figures.geolocation.denials).toBeGreaterThan(0);
  expect(figures.consoleErrors).toEqual([]);
  expect(figures.cspViolations).toEqual([]);
  expect(figures.webgl.alive).toBe(1);
});
