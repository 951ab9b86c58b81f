import { expect, test } from './test.ts';
import { PNG } from 'pngjs';
import { openEmbedPage, PLAIN_STYLE, watchConsole, type EmbedWindow } from './helpers.ts';
import { countWebGLContexts, liveWebGLContexts } from './webgl-contexts.ts';

/**
 * The embed API as a site owner's page meets it: the self-contained library build
 * (dist/lib/pinmap-embed.js) loaded by a plain HTML page on the same server (`openEmbedPage`),
 * under the library's Content Security Policy (src/config/csp.ts). Mounting and destroying many maps is
 * tests/long-session.spec.ts.
 */

test.describe('createPinmap', () => {
  test('exports the MapLibre its maps run on: a protocol registered with it serves a style\'s tiles', async ({ mapPage: page }) => {
    const console = watchConsole(page);
    await openEmbedPage(page);
    const result = await page.evaluate(async () => {
      const w = window as unknown as EmbedWindow & { tileRequests?: string[] };
      // A solid magenta tile, made in the page, for every tile the style asks of the protocol.
      const canvas = new OffscreenCanvas(256, 256);
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#ff00ff';
      context.fillRect(0, 0, 256, 256);
      const tile = await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer();
      w.tileRequests = [];
      w.Pinmap.maplibre.addProtocol('probe', async (request) => {
        w.tileRequests!.push(request.url);
        return { data: tile.slice(0) };
      });
      w.handle = w.Pinmap.createPinmap('map', {
        center: [10, 50],
        zoom: 3,
        controls: { attribution: false },
        style: { version: 8, sources: { probe: { type: 'raster', tiles: ['probe://tiles/{z}/{x}/{y}'], tileSize: 256 } }, layers: [{ id: 'probe', type: 'raster', source: 'probe' }] },
      });
      await w.handle.ready;
      w.Pinmap.maplibre.removeProtocol('probe');
      return { status: w.handle.status, requests: w.tileRequests };
    });
    expect(result.status).toBe('idle');
    expect(result.requests.length).toBeGreaterThan(0);
    // 256 px tiles at zoom 3 are zoom 4 tiles (MapLibre's zoom counts 512 px tiles).
    expect(result.requests.every((url) => /^probe:\/\/tiles\/4\/\d+\/\d+$/.test(url)), result.requests.join(' ')).toBe(true);
    // What the map shows is the protocol's tiles.
    const png = PNG.sync.read(await page.locator('#map .pinmap-map').screenshot());
    let magenta = 0;
    for (let i = 0; i < png.data.length; i += 4) if (png.data[i]! > 240 && png.data[i + 1]! < 15 && png.data[i + 2]! > 240) magenta++;
    expect(magenta / (png.data.length / 4)).toBeGreaterThan(0.5);
    expect(console.errors).toEqual([]);
  });

  test('mounts a map in an element or an element id and resolves ready when it is idle', async ({ mapPage: page }) => {
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

  test("renderPopup's element is the popup's content, with its listeners, in the popup's frame", async ({ mapPage: page }) => {
    const console = watchConsole(page);
    await openEmbedPage(page, { width: 480, height: 360 });
    await page.evaluate(async (styleJson) => {
      const w = window as unknown as EmbedWindow;
      const style = JSON.parse(styleJson) as { version: 8; sources: Record<string, never>; layers: [] };
      const pins = { type: 'FeatureCollection' as const, features: [{ type: 'Feature' as const, id: 'lyon', geometry: { type: 'Point' as const, coordinates: [4.84, 45.76] }, properties: { title: 'Lyon', hours: '9–18' } }] };
      w.handle = w.Pinmap.createPinmap('map', {
        style,
        center: [4.84, 45],
        zoom: 5,
        pins,
        popupFields: ['hours'],
        renderPopup(pin) {
          const card = document.createElement('div');
          card.className = 'card';
          const button = document.createElement('button');
          button.textContent = `${pin.title}, open ${pin.properties.hours}`;
          button.addEventListener('click', () => (button.textContent = 'Clicked'));
          card.append(button);
          return card;
        },
      });
      await w.handle.ready;
    }, JSON.stringify(PLAIN_STYLE));
    await page.locator('.pinmap-pin[data-pin-id="lyon"]').click();
    const popup = page.locator('.pinmap-popup');
    await expect(popup.locator('.card button')).toHaveText('Lyon, open 9–18');
    await expect(popup.locator('.maplibregl-popup-close-button')).toHaveCount(1);
    await popup.locator('.card button').click();
    await expect(popup.locator('.card button')).toHaveText('Clicked');
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    await expect(page.locator('.pinmap-pin[data-pin-id="lyon"]')).toBeFocused();
    expect(console.errors).toEqual([]);
  });

  test('destroy() while the map loads settles ready, rejected with a named error, and the status says "destroyed"', async ({ mapPage: page }) => {
    await openEmbedPage(page);
    // The style never answers, so the map is still loading when it is destroyed.
    await page.route((url) => url.pathname === '/__test/never.json', () => {});
    const result = await page.evaluate(async () => {
      const w = window as unknown as EmbedWindow;
      const handle = w.Pinmap.createPinmap('map', { style: '/__test/never.json' });
      const before = handle.status;
      handle.destroy();
      const outcome = await Promise.race([
        handle.ready.then(() => 'resolved', (error: Error) => `${error.name}: ${error.message}`),
        new Promise((resolve) => setTimeout(() => resolve('never settled'), 5000)),
      ]);
      return { before, outcome, after: handle.status };
    });
    expect(result).toEqual({ before: 'loading', outcome: 'PinmapDestroyedError: The map was destroyed before it was ready', after: 'destroyed' });
  });

  test('update(config) sets pins and controls on the live map, and makes a new map only for what needs one', async ({ mapPage: page }) => {
    const console = watchConsole(page);
    await countWebGLContexts(page);
    await openEmbedPage(page);
    const pins = (ids: string[]) => ({
      type: 'FeatureCollection' as const,
      features: ids.map((id, i) => ({ type: 'Feature', id, geometry: { type: 'Point', coordinates: [2 + i * 3, 46] }, properties: { title: id } })),
    });
    await page.evaluate(async (first) => {
      const w = window as unknown as EmbedWindow;
      w.handle = w.Pinmap.createPinmap('map', { center: [5, 46], zoom: 5, pins: first });
      await w.handle.ready;
    }, pins(['a', 'b']));
    await expect(page.locator('#map .pinmap-pin')).toHaveCount(2);
    const contexts = await liveWebGLContexts(page);

    await page.evaluate((next) => (window as unknown as EmbedWindow).handle!.update({ center: [5, 46], zoom: 5, pins: next, controls: { scale: false } }), pins(['a', 'b', 'c']));
    await expect(page.locator('#map .pinmap-pin')).toHaveCount(3);
    await expect(page.locator('#map .pinmap-scale')).toHaveCount(0);
    expect(await liveWebGLContexts(page)).toEqual(contexts);

    // The label fade is not something a live map takes: a new map, the old one's context released.
    await page.evaluate(() => (window as unknown as EmbedWindow).handle!.update({ center: [5, 46], zoom: 5, fadeDuration: 0 }));
    await expect.poll(() => liveWebGLContexts(page)).toEqual({ created: contexts.created + 1, alive: 1 });
    await expect(page.locator('#map .pinmap')).toHaveAttribute('data-map-state', 'idle');
    await expect(page.locator('#map .pinmap-pin')).toHaveCount(0);

    // A bad config shows its errors; a good one after it brings a map back.
    await page.evaluate(() => (window as unknown as EmbedWindow).handle!.update({ zoom: 'near' as unknown as number }));
    await expect(page.locator('#map .pinmap')).toHaveAttribute('data-map-state', 'error');
    await expect(page.locator('#map .pinmap')).toContainText('zoom');
    await page.evaluate(() => (window as unknown as EmbedWindow).handle!.update({ zoom: 2 }));
    await expect(page.locator('#map .pinmap')).toHaveAttribute('data-map-state', 'idle');
    expect(await liveWebGLContexts(page)).toMatchObject({ alive: 1 });
    expect(console.errors).toEqual([]);
  });

  test("throws 'Container not found' for an id that matches no element", async ({ mapPage: page }) => {
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

  for (const label of ['a number', 'an object', 'null', 'undefined', 'an SVG element'] as const) {
    test(`throws the invalid-type message for ${label}`, async ({ mapPage: page }) => {
      await openEmbedPage(page);
      const message = await page.evaluate((label) => {
        const containers = {
          'a number': () => 42,
          'an object': () => ({}),
          null: () => null,
          undefined: () => undefined,
          'an SVG element': () => document.createElementNS('http://www.w3.org/2000/svg', 'svg'),
        };
        try {
          (window as unknown as EmbedWindow).Pinmap.createPinmap(containers[label]() as unknown as HTMLElement);
          return 'did not throw';
        } catch (error) {
          return (error as Error).message;
        }
      }, label);
      expect(message).toBe('Invalid type: container must be a String or HTMLElement');
    });
  }

  test('shows config errors in the container and rejects ready with them', async ({ mapPage: page }) => {
    await openEmbedPage(page);
    const rejection = await page.evaluate(async () => {
      const h = (window as unknown as EmbedWindow).Pinmap.createPinmap('map', { minZoom: 8, maxZoom: 4 });
      return h.ready.then(() => 'resolved', (error: Error) => error.message);
    });
    expect(rejection).toContain('minZoom: must not be greater than maxZoom');
    await expect(page.locator('#map [role=alert]')).toContainText('minZoom must not be greater than maxZoom');
  });

  test('warns once, and still shows the map, when the page forgot the style sheet', async ({ mapPage: page }) => {
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

  test('in the hybrid view, a missing style sheet is one warning for each library, and the map still shows', async ({ mapPage: page }) => {
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
