import { expect, test } from './test.ts';
import { waitForMapState, watchConsole } from './helpers.ts';
import { countWebGLContexts, liveWebGLContexts } from './webgl-contexts.ts';

/**
 * React StrictMode mounts, unmounts and mounts again in development. Against the development
 * server, the app must still end up with exactly one map, one live WebGL context and one set
 * of controls.
 */
test('StrictMode development double mount leaves one map, one WebGL context, one set of controls', async ({ page }) => {
  await countWebGLContexts(page);
  const console = watchConsole(page);
  await page.goto('/#map=2/30/10');
  await waitForMapState(page, 'idle', 60_000);
  const mounts = await page.evaluate(() => document.querySelectorAll('.pinmap').length);
  expect(mounts).toBe(1);
  await expect(page.locator('canvas.maplibregl-canvas')).toHaveCount(1);
  await expect(page.locator('.maplibregl-canvas-container')).toHaveCount(1);
  await expect(page.locator('.pinmap-corner')).toHaveCount(4);
  for (const control of ['.pinmap-fullscreen', '.pinmap-navigation', '.pinmap-geolocate', '.pinmap-scale', '.pinmap-attrib']) {
    await expect(page.locator(control)).toHaveCount(1);
  }
  // The first mount's context was created and then released: two made, one alive.
  await expect.poll(() => liveWebGLContexts(page)).toEqual({ created: 2, alive: 1 });
  expect(console.errors).toEqual([]);
});
