import { expect, test } from '@playwright/test';
import { disableWebGL, waitForMapState, watchConsole } from './helpers.ts';

test('shows "Failed to initialize WebGL" when WebGL cannot start, and throws nothing uncaught', async ({ page }) => {
  await disableWebGL(page);
  const console = watchConsole(page);
  await page.goto('/');
  await waitForMapState(page, 'error');
  await expect(page.getByRole('alert')).toHaveText('Failed to initialize WebGL');
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  expect(console.errors.filter((e) => e.startsWith('uncaught'))).toEqual([]);
});

test('shows the same message when the browser is started with WebGL turned off', async ({ browser, browserName }) => {
  test.skip(browserName !== 'chromium');
  // A second browser, launched the way a user without a GPU driver would see it.
  const { chromium } = await import('@playwright/test');
  const { CHROMIUM_ARGS, findChromium } = await import('./chromium.ts');
  void browser;
  const noGl = await chromium.launch({ executablePath: findChromium(), args: [...CHROMIUM_ARGS.filter((a) => !/swiftshader|gpu-blocklist/.test(a)), '--disable-webgl', '--disable-3d-apis'] });
  try {
    const page = await noGl.newPage();
    await page.goto(`${test.info().project.use.baseURL}/`);
    await waitForMapState(page, 'error');
    await expect(page.getByRole('alert')).toHaveText('Failed to initialize WebGL');
  } finally {
    await noGl.close();
  }
});
