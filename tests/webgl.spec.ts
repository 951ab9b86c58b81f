import { chromium, expect, test } from './test.ts';
import { CHROMIUM_ARGS, findChromium } from './chromium.ts';
import { disableWebGL, waitForMapState, watchConsole } from './helpers.ts';

test('shows "Failed to initialize WebGL" when WebGL cannot start, and throws nothing uncaught', async ({ mapPage: page }) => {
  await disableWebGL(page);
  const console = watchConsole(page);
  await page.goto('/');
  await waitForMapState(page, 'error');
  await expect(page.getByRole('alert')).toHaveText('Failed to initialize WebGL');
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  expect(console.errors.filter((e) => e.startsWith('uncaught'))).toEqual([]);
});

test('shows the same message in a browser started with WebGL turned off', async ({ baseURL }) => {
  // A browser of its own, launched as a machine without usable graphics would run it.
  const args = [...CHROMIUM_ARGS.filter((a) => !/swiftshader|gpu-blocklist/.test(a)), '--disable-webgl', '--disable-3d-apis'];
  const browser = await chromium.launch({ executablePath: findChromium(), args });
  try {
    const page = await browser.newPage();
    await page.goto(`${baseURL}/`);
    await waitForMapState(page, 'error');
    await expect(page.getByRole('alert')).toHaveText('Failed to initialize WebGL');
  } finally {
    await browser.close();
  }
});
