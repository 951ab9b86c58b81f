import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, ensureChromium } from './tests/chromium.ts';
import type { Basemap } from './tests/test.ts';

// Overridable so two work trees can run their suites side by side.
const PORT = Number(process.env.PINMAP_PREVIEW_PORT ?? 4173);
const DEV_PORT = Number(process.env.PINMAP_DEV_PORT ?? 5173);
const DEV_SERVER_SPECS = ['**/strict-mode.spec.ts', '**/leaflet-pin-icon.spec.ts', '**/react-api.spec.ts'];

/**
 * Browser tests (tests/) and the screenshot-diff suite (visual/) against the production build,
 * served by `vite preview`. Run `npm run build` first (`npm test` does).
 */
export default defineConfig<{ basemap: Basemap }>({
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  failOnFlakyTests: true,
  reporter: process.env.CI
    ? [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }], ['./tests/cost-reporter.ts']]
    : [['list'], ['./tests/cost-reporter.ts']],
  globalSetup: './tests/global-setup.ts',
  globalTeardown: './tests/global-teardown.ts',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: ensureChromium(), args: CHROMIUM_ARGS },
    viewport: { width: 800, height: 600 },
    deviceScaleFactor: 1,
    serviceWorkers: 'block',
    // Camera moves are jumps, as for a user who asks for reduced motion: an ease drawn frame by
    // frame in software WebGL costs CPU and proves nothing to a test of where the map ends up. A
    // test whose subject is the motion itself says \`test.use({ reducedMotion: 'no-preference' })\`.
    reducedMotion: 'reduce',
    // No trace: recording one for every test (a DOM snapshot per action, a screencast) cost about
    // a tenth of the suite's time, for the few that fail (CONTRIBUTING.md, "Running one test"). To debug a failure:
    // `npx playwright test <file> --trace retain-on-failure`, then `npx playwright show-trace`.
    trace: 'off',
  },
  projects: [
    { name: 'browser', testDir: 'tests', testMatch: '**/*.spec.ts', testIgnore: DEV_SERVER_SPECS },
    // React StrictMode only double-mounts in development, and source modules are only served
    // there: these run against the dev server.
    { name: 'dev', testDir: 'tests', testMatch: DEV_SERVER_SPECS, use: { baseURL: `http://127.0.0.1:${DEV_PORT}` } },
    // The screenshot scenes are drawn on the embedded basemap; the other tests on a plain backdrop
    // unless they say otherwise (tests/test.ts, `basemap`).
    { name: 'visual', testDir: 'visual', testMatch: '**/*.spec.ts', use: { basemap: 'embedded' } },
  ],
  webServer: [
    {
      command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
      url: `http://127.0.0.1:${PORT}/`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
    {
      command: `npx vite --host 127.0.0.1 --port ${DEV_PORT} --strictPort`,
      url: `http://127.0.0.1:${DEV_PORT}/`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
  ],
});
