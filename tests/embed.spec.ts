import { expect, test } from '@playwright/test';
import { openEmbedPage, watchConsole, type EmbedWindow } from './helpers.ts';
import { countWebGLContexts, liveWebGLContexts } from './webgl-contexts.ts';
import { countWorkers, liveWorkers } from './workers.ts';

/**
 * The embed API as a site owner's page meets it: the self-contained library build
 * (dist/lib/pinmap-embed.js) loaded by a plain HTML page on the same server (`openEmbedPage`).
 */

test.describe('createPinmap', () => {
  test('mounts a map in an element or an element id and resolves ready when it is idle', async ({ page }) => {
    const console = watchConsole(page);
    await openEmbedPage(page);
    const status = await page.evaluate(async () => {
      const w = window as unknown as EmbedWindow;
      w.handle = w.Pinmap.createPinmap('map', { center: [10, 50], zoom: 3 });
      await w.handle.ready;
      return w.handle.status;
    });
    expect(status).toBe('idle');
    await expect(page.locator('#map .pinmap')).toHaveAttribute('data-map-state', 'idle');
    await expect(page.locator('#map canvas.maplibregl-canvas')).toHaveCount(1);
    expect(console.errors).toEqual([]);
    expect(console.warnings).toEqual([]);

    const byElement = await page.evaluate(async () => {
      const w = window as unknown as EmbedWindow;
      w.handle!.destroy();
      const h = w.Pinmap.createPinmap(document.getElementById('map')!, { zoom: 2 });
      await h.ready;
      const s = h.status;
      h.destroy();
      return s;
    });
    expect(byElement).toBe('idle');
    await expect(page.locator('#map canvas')).toHaveCount(0);
  });

  test("throws 'Container not found' for an id that matches no element", async ({ page }) => {
    await openEmbedPage(page);
    const message = await page.evaluate(() => {
      try {
        (window as unknown as EmbedWindow).Pinmap.createPinmap('no-such-element');
        return 'did not throw';
      } catch (error) {
        return (error as Error).message;
      }
    });
    expect(message).toBe('Container not found');
  });

  for (const [label, value] of [['a number', '42'], ['an object', '{}'], ['null', 'null'], ['undefined', 'undefined'], ['an SVG element', "document.createElementNS('http://www.w3.org/2000/svg', 'svg')"]] as const) {
    test(`throws the invalid-type message for ${label}`, async ({ page }) => {
      await openEmbedPage(page);
      const message = await page.evaluate((expression) => {
        try {
          const container = new Function(`return ${expression}`)();
          (window as unknown as EmbedWindow).Pinmap.createPinmap(container);
          return 'did not throw';
        } catch (error) {
          return (error as Error).message;
        }
      }, value);
      expect(message).toBe('Invalid type: container must be a String or HTMLElement');
    });
  }

  test('shows config errors in the container and rejects ready with them', async ({ page }) => {
    await openEmbedPage(page);
    const rejection = await page.evaluate(async () => {
      const h = (window as unknown as EmbedWindow).Pinmap.createPinmap('map', { minZoom: 8, maxZoom: 4 });
      return h.ready.then(() => 'resolved', (error: Error) => error.message);
    });
    expect(rejection).toContain('minZoom: must not be greater than maxZoom');
    await expect(page.locator('#map [role=alert]')).toContainText('minZoom must not be greater than maxZoom');
  });

  test('mounting and destroying 30 times releases every WebGL context, with no warning about too many', async ({ page }) => {
    test.setTimeout(150_000); // 30 maps, each loaded to idle: slow on a busy machine, and not what this test measures
    await countWebGLContexts(page);
    const console = watchConsole(page);
    await openEmbedPage(page);
    const cycles = 30;
    await page.evaluate(async (n) => {
      const w = window as unknown as EmbedWindow;
      for (let i = 0; i < n; i++) {
        const h = w.Pinmap.createPinmap('map', { zoom: 1 + (i % 3) });
        await h.ready;
        h.destroy();
      }
    }, cycles);
    await expect.poll(() => liveWebGLContexts(page)).toEqual({ created: cycles, alive: 0 });
    await expect(page.locator('canvas')).toHaveCount(0);
    expect([...console.errors, ...console.warnings].filter((m) => /webgl/i.test(m))).toEqual([]);
    expect(console.errors).toEqual([]);
  });

  test('the hybrid view: 10 mounts and destroys free every WebGL context, worker and Leaflet element', async ({ page }) => {
    test.setTimeout(120_000);
    await countWebGLContexts(page);
    await countWorkers(page);
    const console = watchConsole(page);
    await openEmbedPage(page);
    const workersWhileShown = await page.evaluate(async () => {
      const w = window as unknown as EmbedWindow & { __workers: { workers: number } };
      let shown = 0;
      for (let i = 0; i < 10; i++) {
        const h = w.Pinmap.createPinmap('map', { view: 'hybrid', zoom: 1 + (i % 3) });
        await h.ready;
        shown = w.__workers.workers;
        h.destroy();
      }
      return shown;
    });
    expect(workersWhileShown).toBeGreaterThan(0);
    await expect.poll(() => liveWebGLContexts(page)).toEqual({ created: 10, alive: 0 });
    expect(await liveWorkers(page)).toBe(0);
    await expect(page.locator('#map canvas, #map .leaflet-container, #map .pinmap')).toHaveCount(0);
    expect([...console.errors, ...console.warnings]).toEqual([]);
  });

  test('warns once, and still shows the map, when the page forgot the style sheet', async ({ page }) => {
    const console = watchConsole(page);
    await openEmbedPage(page, { stylesheet: false });
    await page.evaluate(async () => {
      const w = window as unknown as EmbedWindow;
      const a = w.Pinmap.createPinmap('map', { zoom: 2 });
      await a.ready;
      a.destroy();
      const b = w.Pinmap.createPinmap('map', { zoom: 2 });
      await b.ready;
    });
    const missing = console.warnings.filter((m) => m.includes('maplibre-gl.css'));
    expect(missing).toHaveLength(1);
    expect(missing[0]).toContain('MapLibre GL JS style sheet');
    expect(console.errors).toEqual([]);
  });

  test('in the hybrid view, a missing style sheet is one warning for each library, and the map still shows', async ({ page }) => {
    const console = watchConsole(page);
    await openEmbedPage(page, { stylesheet: false });
    const status = await page.evaluate(async () => {
      const w = window as unknown as EmbedWindow;
      const a = w.Pinmap.createPinmap('map', { view: 'hybrid', zoom: 2 });
      await a.ready;
      a.destroy();
      const b = w.Pinmap.createPinmap('map', { view: 'hybrid', zoom: 2 });
      await b.ready;
      return b.status;
    });
    expect(status).toBe('idle');
    expect(console.warnings.filter((m) => m.includes('leaflet.css'))).toEqual([expect.stringContaining('Leaflet style sheet')]);
    expect(console.warnings.filter((m) => m.includes('maplibre-gl.css'))).toHaveLength(1);
    expect(console.errors).toEqual([]);
  });
});
