import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';

/**
 * Where the browser tests find Chromium: `PINMAP_CHROMIUM` if set, then the system's Chromium
 * (Debian's `chromium` package), then a browser Playwright downloaded itself. Throws one clear
 * message when there is none.
 */
export function findChromium(): string {
  const fromEnv = process.env.PINMAP_CHROMIUM;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`PINMAP_CHROMIUM is set to ${fromEnv}, but no file is there.`);
    return fromEnv;
  }
  const system = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];
  const found = system.find((path) => existsSync(path));
  if (found) return found;
  let bundled: string | undefined;
  try {
    bundled = chromium.executablePath();
  } catch {
    bundled = undefined;
  }
  if (bundled && existsSync(bundled)) return bundled;
  throw new Error(
    'No Chromium found for the browser tests. Install the system one (Debian/Ubuntu: `apt-get install -y chromium`), ' +
      'or point PINMAP_CHROMIUM at a Chrome/Chromium binary, or run `npx playwright install chromium` where downloads are allowed.',
  );
}

/**
 * The Chromium the browser tests run in (`findChromium`). On a machine with none, and without
 * `PINMAP_CHROMIUM` naming one, it first gets Playwright's own (`playwright install chromium`,
 * where downloads are allowed), then looks again; if that fails too, `findChromium`'s message
 * says what to do. `install` says whether the download succeeded.
 */
export function ensureChromium(find: () => string = findChromium, install: () => boolean = installPlaywrightChromium): string {
  try {
    return find();
  } catch (error) {
    if (process.env.PINMAP_CHROMIUM) throw error; // a path named on purpose is not replaced by a download
    console.log('No Chromium on this machine: getting Playwright\'s (playwright install chromium)…');
    if (!install()) throw error;
    return find();
  }
}

/** Downloads Playwright's Chromium; false where it cannot (no network, no write access). */
function installPlaywrightChromium(): boolean {
  const bin = join(process.cwd(), 'node_modules', '.bin', process.platform === 'win32' ? 'playwright.cmd' : 'playwright');
  const result = spawnSync(bin, ['install', 'chromium'], { stdio: 'inherit', timeout: 10 * 60_000 });
  return result.status === 0;
}

/**
 * The features Playwright turns off (playwright-core 1.65's `--disable-features`). Chromium keeps
 * only the last `--disable-features` it is given, and Playwright's comes before ours, so ours
 * repeats these; `tests/browser-setup.spec.ts` fails when Playwright passes one this list lacks.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Features of the browser's own window that headless Chromium (156) still loads: the address
 * bar's popup pages (`chrome://omnibox-popup.top-chrome`, with its AI-mode variant), made for
 * every window, that is for every browser context. They cost about 1.5 s of CPU beside each
 * test's page on a 2-core machine, and nothing here uses them.
 */
const BROWSER_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/**
 * Flags for a quiet, deterministic headless Chromium: no background traffic, no browser UI
 * pages, software WebGL through SwiftShader, no font hinting (see VISUAL-TESTING.md).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--no-first-run',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
  '--font-render-hinting=none',
  '--disable-lcd-text',
  '--force-color-profile=srgb',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...BROWSER_UI_FEATURES].join(',')}`,
];
