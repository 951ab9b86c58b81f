import { expect, test } from './test.ts';
import { blockExternalNetwork, serveJson, waitForMapState, watchConsole, watchForNothing } from './helpers.ts';

test.describe('the app on its embedded basemap', () => {
  test.use({ basemap: 'embedded' });
  test('starts offline in the vector view with the world map, its credits and no console errors', async ({ mapPage: page }) => {
    const blocked = await blockExternalNetwork(page);
    const console = watchConsole(page);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));

    await page.goto('/');
    await waitForMapState(page, 'idle');

    await expect(page.locator('.pinmap')).toHaveAttribute('data-view', 'vector');
    await expect(page.locator('canvas.maplibregl-canvas')).toHaveCount(1);
    await expect(page.locator('.pinmap-attrib')).toContainText('Natural Earth');
    await expect(page.locator('.pinmap-attrib')).toContainText('GeoNames');
    expect(blocked, 'requests that tried to leave the machine').toEqual([]);
    expect(console.errors).toEqual([]);
    expect(console.warnings).toEqual([]);
    // The basemap came from our own files: style, the one tile archive and self-hosted fonts.
    expect(requests).toContain('/basemap/style.json');
    expect(requests).toContain('/basemap/basemap.pmtiles');
    expect(requests.some((p) => /^\/basemap\/fonts\/.+\.woff2$/.test(p))).toBe(true);
  });

  test('draws land, water and labels: the canvas holds the style colours and label ink', async ({ mapPage: page }) => {
    await page.goto('/#map=3/45/12');
    await waitForMapState(page, 'idle');
    const png = await page.locator('.pinmap').screenshot();
    const colours = await page.evaluate(async (bytes) => {
      const blob = new Blob([new Uint8Array(bytes)], { type: 'image/png' });
      const bitmap = await createImageBitmap(blob);
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const { data } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
      const seen = new Map<string, number>();
      for (let i = 0; i < data.length; i += 4) {
        const key = `${data[i]! >> 4},${data[i + 1]! >> 4},${data[i + 2]! >> 4}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! + data[i + 1]! + data[i + 2]! < 200) dark++;
      return { distinct: seen.size, dark, total: data.length / 4 };
    }, [...png]);
    // Water, land, borders and coastlines give many colours; text gives dark pixels.
    expect(colours.distinct).toBeGreaterThan(20);
    expect(colours.dark).toBeGreaterThan(200);
  });
});

test.describe('the camera in the page address', () => {
  test.use({ reducedMotion: 'no-preference' }); // flings glide on after the drag
  test('restores the camera from #map= and keeps it on reload', async ({ mapPage: page }) => {
    await page.goto('/#map=4/48.85/2.35/30/20');
    await waitForMapState(page, 'idle');
    await expect(page).toHaveURL(/#map=4\/48\.85\/2\.35\/30\/20$/);
    await page.reload();
    await waitForMapState(page, 'idle');
    await expect(page).toHaveURL(/#map=4\/48\.85\/2\.35\/30\/20$/);
  });

  test('replaces the address while the user pans, without adding history entries', async ({ page }) => {
    await page.goto('/#map=3/45/12');
    await waitForMapState(page, 'idle');
    const before = await page.evaluate(() => history.length);
    await page.mouse.move(400, 300);
    await page.mouse.down();
    await page.mouse.move(250, 200, { steps: 8 });
    await page.mouse.up();
    await expect(page).not.toHaveURL(/#map=3\/45\/12$/);
    await expect(page).toHaveURL(/#map=3\/\d+(\.\d+)?\/\d+(\.\d+)?$/);
    expect(await page.evaluate(() => history.length)).toBe(before);
  });

  for (const view of ['vector', 'hybrid'] as const) {
    test(`the address shows where the map came to rest as soon as it reports itself idle (${view} view)`, async ({ mapPage: page }) => {
      // A plain style: nothing to load, so the map is idle in the frame where a fling ends.
      await serveJson(page, '/__test/plain.json', { version: 8, sources: {}, layers: [{ id: 'backdrop', type: 'background', paint: { 'background-color': '#e9eef2' } }] });
      await serveJson(page, '/__test/config.json', { style: '/__test/plain.json', view });
      await page.goto(`/?config=${encodeURIComponent('/__test/config.json')}#map=6/50/10`);
      await waitForMapState(page, 'idle');
      // Every address seen the moment the map says idle, and each of them a few frames later.
      await page.evaluate(() => {
        const root = document.querySelector('.pinmap')!;
        const seen: [string, string][] = [];
        (window as unknown as { atRest: typeof seen }).atRest = seen;
        new MutationObserver(() => {
          if (root.getAttribute('data-map-state') !== 'idle') return;
          const entry: [string, string] = [location.hash, ''];
          seen.push(entry);
          // A few frames later, unless the next fling has begun by then (a busy machine's frames are slow):
          // a map that moved on after saying idle, without saying it moves, changes the address here.
          requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => (entry[1] = root.getAttribute('data-map-state') === 'idle' ? location.hash : entry[0]))));
        }).observe(root, { attributes: true, attributeFilter: ['data-map-state'] });
      });
      // Flings: each drag is released while moving, so the map glides on and comes to rest by itself.
      const flings: [number, number][] = [[120, 90], [-150, 60], [90, -140], [-60, -120], [140, 20], [-100, 100]];
      for (const [dx, dy] of flings) {
        await page.mouse.move(400, 300);
        await page.mouse.down();
        await page.mouse.move(400 + dx, 300 + dy, { steps: 6 });
        await page.mouse.up();
        await waitForMapState(page, 'idle');
        const still = await watchForNothing(page);
        await still.expectNothing('the map moved on after it said idle');
      }
      const frames = (n: number) => page.evaluate((count) => new Promise<void>((done) => {
        const next = (left: number) => (left ? requestAnimationFrame(() => next(left - 1)) : done());
        next(count);
      }), n);
      await frames(5);
      const seen = await page.evaluate(() => (window as unknown as { atRest: [string, string][] }).atRest);
      expect(seen.length, 'idle reports after the flings').toBeGreaterThanOrEqual(6);
      for (const [atIdle, later] of seen) expect(atIdle, 'the address when the map said idle').toBe(later);
    });
  }

  test('a drag released over a control (outside the map itself) ends there: the map goes idle with no further mouse move', async ({ mapPage: page }) => {
    await page.goto('/#map=3/45/12');
    await waitForMapState(page, 'idle');
    const credits = (await page.locator('.pinmap-attrib').boundingBox())!;
    await page.mouse.move(400, 300);
    await page.mouse.down();
    await page.mouse.move(credits.x + credits.width / 2, credits.y + credits.height / 2, { steps: 8 });
    await page.mouse.up();
    await waitForMapState(page, 'idle', 10_000);
    await expect(page).not.toHaveURL(/#map=3\/45\/12$/);
  });

  test('follows a hash the user edits by hand', async ({ mapPage: page }) => {
    await page.goto('/#map=2/0/0');
    await waitForMapState(page, 'idle');
    await page.evaluate(() => {
      location.hash = '#map=5/35.68/139.69';
    });
    await expect(page).toHaveURL(/#map=5\/35\.68\/139\.69$/);
    await waitForMapState(page, 'idle');
  });

  test('follows a hash edited by hand even when the page wrote its own camera before the hashchange came', async ({ page }) => {
    await page.goto('/#map=2/0/0');
    await waitForMapState(page, 'idle');
    // While the map moves, the page writes its camera into the address once a frame. A write
    // that lands after the user's edit but before its hashchange event puts the old camera back
    // in the address; the map must still go where the user asked (the event's new URL).
    await page.evaluate(() => {
      const own = location.hash;
      location.hash = '#map=5/35.68/139.69/30/0';
      history.replaceState(history.state, '', own);
    });
    // The camera the user asked for, bearing 30 included (a pitch of 0 is left out).
    await expect(page).toHaveURL(/#map=5\/35\.68\/139\.69\/30$/);
    await waitForMapState(page, 'idle');
  });

  /** The default view's address: the app's pins, the camera fitted to them (no camera given); read once per worker. */
  let defaultView: string | undefined;
  for (const garbage of ['#map=abc/def/ghi', '#map=1/2', '#map=3/95/10', '#map=3/10/200', '#map=%E0%A4%A', '#map=3/1e999/2', '#map=3/4/5/6/7/8', '#map=', '#%%%']) {
    test(`ignores garbage in the hash (${garbage}) and shows the default view`, async ({ mapPage: page }) => {
      const console = watchConsole(page);
      if (defaultView === undefined) {
        await page.goto('/');
        await waitForMapState(page, 'idle');
        defaultView = new URL(page.url()).hash;
        expect(defaultView).toMatch(/^#map=[\d.]+\/[\d.-]+\/[\d.-]+$/);
        await page.goto('about:blank');
      }
      await page.goto(`/${garbage}`);
      await waitForMapState(page, 'idle');
      // The default camera replaces the bad map= entry; other hash entries are not ours to drop.
      await expect(page).toHaveURL(new RegExp(`${defaultView.replace(/\./g, '\\.')}(&.*)?$`));
      expect(console.errors).toEqual([]);
    });
  }

  test('clamps a pitch in the hash to the allowed range instead of failing', async ({ mapPage: page }) => {
    await page.goto('/#map=3/45/12/0/85');
    await waitForMapState(page, 'idle');
    await expect(page).toHaveURL(/#map=3\/45\/12\/0\/60$/);
  });
});

test.describe('config from ?config=<url>', () => {
  test('uses the style URL the config names', async ({ mapPage: page }) => {
    await serveJson(page, '/__test/red.json', {
      version: 8,
      sources: {},
      layers: [{ id: 'bg', type: 'background', paint: { 'background-color': '#ff0000' } }],
    });
    await serveJson(page, '/__test/config.json', { style: '/__test/red.json', center: [0, 0], zoom: 2 });
    await page.goto('/?config=/__test/config.json');
    await waitForMapState(page, 'idle');
    const shot = await page.screenshot({ clip: { x: 390, y: 290, width: 20, height: 20 } });
    const rgb = await page.evaluate(async (bytes) => {
      const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: 'image/png' }));
      const ctx = new OffscreenCanvas(1, 1).getContext('2d')!;
      ctx.drawImage(bitmap, -10, -10);
      return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    }, [...shot]);
    expect(rgb).toEqual([255, 0, 0]);
  });

  test('shows every config error in the page, each naming its option', async ({ mapPage: page }) => {
    await serveJson(page, '/__test/bad.json', { minZoom: 5, maxZoom: 3, maxPitch: 75, units: 'furlongs', zoomm: 2, controls: { scale: 'middle' } });
    const console = watchConsole(page);
    await page.goto('/?config=/__test/bad.json');
    await waitForMapState(page, 'error');
    const panel = page.getByRole('alert');
    await expect(panel).toContainText("This map's configuration has errors");
    await expect(panel.locator('li')).toHaveCount(5);
    for (const text of [
      'minZoom must not be greater than maxZoom (minZoom 5 > maxZoom 3)',
      'maxPitch must be at most 60',
      'units must be "metric", "imperial" or "nautical"',
      'controls.scale must be one of "top-left", "top-right", "bottom-left", "bottom-right" or false',
      'zoomm is not a known option',
    ]) {
      await expect(panel).toContainText(text);
    }
    expect(console.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });

  test('says so when the config file cannot be loaded or is not JSON', async ({ mapPage: page, baseURL }) => {
    await serveJson(page, '/__test/missing.json', { error: 'nope' }, 404);
    await page.goto('/?config=/__test/missing.json');
    await waitForMapState(page, 'error');
    await expect(page.getByRole('alert')).toContainText(`Could not load the config from ${baseURL}/__test/missing.json: not found (HTTP 404)`);

    await serveJson(page, '/__test/broken.json', '{"zoom": 3,');
    await page.goto('/?config=/__test/broken.json');
    await waitForMapState(page, 'error');
    await expect(page.getByRole('alert')).toContainText('the file is not valid JSON');
  });
});
