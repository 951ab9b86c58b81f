import { expect, test, type Page } from './test.ts';
import { PNG } from 'pngjs';
import { axe, arrowToPin, serveJson, waitForMapState, watchConsole } from './helpers.ts';

// The light and dark basemaps are part of what a theme changes.
test.use({ basemap: 'embedded' });
import { countWebGLContexts, liveWebGLContexts } from './webgl-contexts.ts';

/**
 * The light and dark themes as a user meets them: the system's colour scheme emulated by
 * Playwright (`emulateMedia`), switched while the map is open, on the real MapLibre map (and the
 * Leaflet map holding it) with its embedded basemap.
 */

/** Pins around Paris: GPU pins (`domPinLimit: 0`) or DOM markers. */
function pinsConfig(domPinLimit: number, extra: Record<string, unknown> = {}) {
  return {
    center: [2.35, 48.85],
    zoom: 5,
    domPinLimit,
    openPin: 'paris',
    pins: {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', id: 'paris', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { title: 'Paris', description: 'Capital of France', url: 'https://example.com/paris' } },
        { type: 'Feature', id: 'lyon', geometry: { type: 'Point', coordinates: [4.84, 45.76] }, properties: { title: 'Lyon' } },
        { type: 'Feature', id: 'brest', geometry: { type: 'Point', coordinates: [-4.49, 48.39] }, properties: { title: 'Brest' } },
      ],
    },
    ...extra,
  };
}

async function openApp(page: Page, config: Record<string, unknown>, address = ''): Promise<void> {
  await serveJson(page, '/__test/theme.json', { preserveDrawingBuffer: true, fadeDuration: 0, ...config });
  await page.goto(`/?config=/__test/theme.json${address}`);
  await waitForMapState(page, 'idle');
}

/** The root's theme as the page shows it. */
const rootTheme = (page: Page) => page.locator('.pinmap').first().getAttribute('data-theme');

/** The map area as pixels. */
async function mapPixels(page: Page): Promise<PNG> {
  return PNG.sync.read(await page.locator('.pinmap-map').screenshot({ animations: 'disabled' }));
}

/** How many pixels are (nearly) the pins' colour #3FB1CE. */
function pinPixels(png: PNG): number {
  let count = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    if (Math.abs(png.data[i]! - 0x3f) < 12 && Math.abs(png.data[i + 1]! - 0xb1) < 12 && Math.abs(png.data[i + 2]! - 0xce) < 12) count++;
  }
  return count;
}

/** The colour at a point, as `#rrggbb`. */
function colourAt(png: PNG, x: number, y: number): string {
  const i = (png.width * y + x) * 4;
  return `#${[0, 1, 2].map((k) => png.data[i + k]!.toString(16).padStart(2, '0')).join('')}`;
}

/** Relative luminance of a `#rrggbb` colour (WCAG). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const popup = (page: Page) => page.locator('.pinmap-popup[data-pin-id="paris"]');

for (const view of ['vector', 'hybrid'] as const) {
  for (const [renderer, domPinLimit] of [
    ['GPU', 0],
    ['DOM', 500],
  ] as const) {
    test(`${view} view, ${renderer} pins: the theme follows the system live without a new map; camera, pins and popup stay`, async ({ page }) => {
      test.skip(view === 'hybrid' && renderer === 'GPU', 'the hybrid view draws every pin set as Leaflet markers');
      const console = watchConsole(page);
      await countWebGLContexts(page);
      await page.emulateMedia({ colorScheme: 'light' });
      await openApp(page, pinsConfig(domPinLimit), `&view=${view}`);
      await expect(popup(page)).toBeVisible();
      expect(await rootTheme(page)).toBe('light');
      const before = await mapPixels(page);
      const contexts = await liveWebGLContexts(page);
      const address = await page.evaluate(() => location.hash);
      // The water in the top-left corner of the map: light blue.
      expect(luminance(colourAt(before, 5, 60))).toBeGreaterThan(0.5);
      const pinsBefore = pinPixels(before);
      expect(pinsBefore).toBeGreaterThan(200);

      await page.emulateMedia({ colorScheme: 'dark' });
      await expect(page.locator('.pinmap').first()).toHaveAttribute('data-theme', 'dark');
      // The basemap turns dark in place: wait for the water to change.
      await expect.poll(async () => luminance(colourAt(await mapPixels(page), 5, 60))).toBeLessThan(0.05);
      await waitForMapState(page, 'idle');
      const after = await mapPixels(page);
      expect(await liveWebGLContexts(page), 'no new WebGL context: the map was not made again').toEqual(contexts);
      expect(await page.evaluate(() => location.hash), 'the camera did not move').toBe(address);
      await expect(popup(page), 'the popup is still open').toBeVisible();
      expect(pinPixels(after), 'the pins are still drawn').toBeGreaterThanOrEqual(pinsBefore * 0.9);
      // The popup and the controls are dark too.
      const popupBackground = await popup(page)
        .locator(view === 'vector' ? '.maplibregl-popup-content' : '.leaflet-popup-content-wrapper')
        .evaluate((element) => getComputedStyle(element).backgroundColor);
      expect(popupBackground).toBe('rgb(30, 37, 45)');
      const controlBackground = await page.locator('.pinmap-ctrl-group').first().evaluate((element) => getComputedStyle(element).backgroundColor);
      expect(controlBackground).toBe('rgb(30, 37, 45)');

      // And back.
      await page.emulateMedia({ colorScheme: 'light' });
      await expect(page.locator('.pinmap').first()).toHaveAttribute('data-theme', 'light');
      await expect.poll(async () => luminance(colourAt(await mapPixels(page), 5, 60))).toBeGreaterThan(0.5);
      await waitForMapState(page, 'idle');
      expect(await liveWebGLContexts(page)).toEqual(contexts);
      await expect(popup(page)).toBeVisible();
      expect(pinPixels(await mapPixels(page))).toBeGreaterThanOrEqual(pinsBefore * 0.9);
      expect(console.errors).toEqual([]);
    });
  }
}

/** How many pixels are (nearly) a GPU bubble's fill: #3FB1CE at 90% over the map. */
function bubblePixels(png: PNG): number {
  let count = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    if (Math.abs(png.data[i]! - 0x3f) < 28 && Math.abs(png.data[i + 1]! - 0xb1) < 28 && Math.abs(png.data[i + 2]! - 0xce) < 28) count++;
  }
  return count;
}

test('GPU bubbles are still drawn after a theme change whose style MapLibre cannot diff (loaded afresh, without the images Pinmap added)', async ({ page }) => {
  const console = watchConsole(page);
  const dark = (await (await page.request.get('/basemap/style-dark.json')).json()) as Record<string, unknown>;
  // The camera's altitude is one thing a style names that MapLibre cannot change in place: it rebuilds the style.
  await serveJson(page, '/basemap/style-dark-rebuilt.json', { ...dark, centerAltitude: 0 });
  // 60 pins in five places a few km apart: five bubbles at zoom 5.
  const features = Array.from({ length: 60 }, (_, i) => ({
    type: 'Feature',
    id: `p${i}`,
    geometry: { type: 'Point', coordinates: [-2 + (i % 5) * 2.5 + (i % 3) * 0.01, 47 + (i % 5) * 0.8 + (i % 4) * 0.01] },
    properties: { title: `Pin ${i}` },
  }));
  await page.emulateMedia({ colorScheme: 'light' });
  await openApp(page, { center: [2.35, 48.85], zoom: 5, domPinLimit: 0, style: '/basemap/style.json', darkStyle: '/basemap/style-dark-rebuilt.json', pins: { type: 'FeatureCollection', features } });
  const before = bubblePixels(await mapPixels(page));
  // Five bubbles of 12 pins: 34 px discs, about 900 px each.
  expect(before).toBeGreaterThan(5 * 700);

  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(async () => luminance(colourAt(await mapPixels(page), 5, 60))).toBeLessThan(0.05);
  await waitForMapState(page, 'idle');
  expect(console.warnings.some((text) => text.includes('Rebuilding the style from scratch')), 'the dark style was loaded afresh').toBe(true);
  await expect.poll(async () => bubblePixels(await mapPixels(page)), { message: 'the bubbles are drawn again' }).toBeGreaterThanOrEqual(before * 0.9);
  expect(console.errors).toEqual([]);
});

test('theme "dark" is dark whatever the system says, and "light" light', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openApp(page, { theme: 'dark' });
  expect(await rootTheme(page)).toBe('dark');
  expect(luminance(colourAt(await mapPixels(page), 5, 60))).toBeLessThan(0.05);
  await page.emulateMedia({ colorScheme: 'dark' });
  await openApp(page, { theme: 'light' });
  expect(await rootTheme(page)).toBe('light');
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await rootTheme(page)).toBe('light');
});

test("a site's own style keeps its look in the dark theme (only the controls turn dark); its darkStyle is used when given", async ({ mapPage: page }) => {
  const style = (colour: string) => ({ version: 8, sources: {}, layers: [{ id: 'backdrop', type: 'background', paint: { 'background-color': colour } }] });
  await openApp(page, { theme: 'dark', style: style('#e0d0a0') });
  expect(colourAt(await mapPixels(page), 5, 60)).toBe('#e0d0a0');
  expect(await page.locator('.pinmap-ctrl-group').first().evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(30, 37, 45)');
  await openApp(page, { theme: 'dark', style: style('#e0d0a0'), darkStyle: style('#203040') });
  expect(colourAt(await mapPixels(page), 5, 60)).toBe('#203040');
});

test('a bad theme or darkStyle is a config error naming the option; a config with errors that asks for dark shows its panel dark', async ({ mapPage: page }) => {
  await serveJson(page, '/__test/theme.json', { theme: 'night', darkStyle: 42 });
  await page.goto('/?config=/__test/theme.json');
  await waitForMapState(page, 'error');
  await expect(page.locator('.pinmap-error')).toContainText('theme');
  await expect(page.locator('.pinmap-error')).toContainText('must be "light", "dark" or "auto"');
  await expect(page.locator('.pinmap-error')).toContainText('darkStyle');
  // A config with other errors that asks for the dark theme shows its error panel dark.
  await serveJson(page, '/__test/theme.json', { theme: 'dark', zoom: 'far' });
  await page.goto('/?config=/__test/theme.json');
  await waitForMapState(page, 'error');
  await expect(page.locator('.pinmap').first()).toHaveAttribute('data-theme', 'dark');
  expect(await page.locator('.pinmap-error').evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(30, 37, 45)');
});

for (const theme of ['light', 'dark'] as const) {
  test(`axe: no violations (contrast included) in the ${theme} theme, with a popup open, in both views`, async ({ mapPage: page }) => {
    for (const view of ['vector', 'hybrid']) {
      await openApp(page, { ...pinsConfig(500), theme, controls: { view: 'top-left' } }, `&view=${view}`);
      await expect(popup(page)).toBeVisible();
      const results = await axe(page).analyze();
      expect(results.violations.map((v) => `${view}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
    }
  });
}

test('keyboard only, dark theme: Tab reaches every control with a visible focus ring, and a pin opens its dark popup with Enter', async ({ mapPage: page }) => {
  await openApp(page, { ...pinsConfig(500), theme: 'dark', openPin: undefined, controls: { view: 'top-left' } });
  const seen: { name: string; outline: string }[] = [];
  let opened = false;
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return undefined;
      const style = getComputedStyle(element);
      return { name: element.getAttribute('aria-label') ?? element.textContent ?? '', outline: `${style.outlineStyle} ${style.outlineColor}`, pin: element.dataset.pinId };
    });
    if (!focused) continue;
    seen.push(focused);
    expect(focused.outline, `focus ring of "${focused.name}"`).not.toMatch(/^none/);
    if (focused.pin && !opened) {
      // The pins are one Tab stop: the arrows go to Paris, Enter opens its popup, Esc brings the focus back.
      const paris = page.locator('.pinmap-pin[data-pin-id="paris"]');
      await arrowToPin(page, paris);
      await page.keyboard.press('Enter');
      await expect(popup(page)).toBeVisible();
      await expect(popup(page).locator('.maplibregl-popup-close-button')).toBeFocused();
      expect(await popup(page).locator('.maplibregl-popup-content').evaluate((element) => getComputedStyle(element).color)).toBe('rgb(232, 235, 239)');
      await page.keyboard.press('Escape');
      await expect(popup(page)).toHaveCount(0);
      await expect(paris).toBeFocused();
      expect(await paris.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe('none');
      opened = true;
    }
  }
  expect(opened, `Tab reached a pin; focused: ${seen.map((s) => s.name).join(', ')}`).toBe(true);
  // After the pins, the controls (each checked for its ring above).
  for (const name of ['Zoom in', 'Zoom out', 'Find my location', 'Enter fullscreen']) expect(seen.map((s) => s.name)).toContain(name);
});
