import { expect, test, type Page } from './test.ts';
import { DEFAULT_LOCALE } from '../src/config/locale.ts';
import { pinmapLocaleDe } from '../src/config/locales/de.ts';
import { goToAddress, serveJson, waitForMapState, watchConsole } from './helpers.ts';

/**
 * Past the embedded basemap's detail (zoom 11) the map says once, quietly, that this offline
 * basemap has no streets and how to get them: a note that fades out by itself or is closed,
 * in both views, only on the embedded basemap, and only once per page.
 */

const NOTE = '.pinmap-basemap-note';
/** The note as shown: the commands with the pin file's name (`places.csv` when the config names none), without the backticks that mark them as code. */
const shown = (text: string, pins = 'places.csv') => text.replaceAll('{pins}', pins).replaceAll('`', '');
const TEXT = shown(DEFAULT_LOCALE['Basemap.NoStreets']);
const controls = { geolocate: false, scale: false, fullscreen: false } as const;

async function open(page: Page, config: Record<string, unknown>): Promise<void> {
  await serveJson(page, '/__note/config.json', { controls, ...config });
  await page.goto('/?config=/__note/config.json');
  await waitForMapState(page, 'idle');
}

/** Runs the note's fade-out to its end at once, as if its seconds had passed. */
async function finishFade(page: Page): Promise<void> {
  await page.locator(NOTE).evaluate((note) => {
    for (const animation of note.getAnimations()) animation.finish();
  });
}

test.describe('the note that the embedded basemap has no streets', () => {
  test('vector view: opened at city zoom, the note names the commands for the pin file, above the pins; closed, it does not come back on zooming out and in again', async ({ mapPage: page }) => {
    const console = watchConsole(page);
    await serveJson(page, '/__note/shops.geojson', { type: 'FeatureCollection', features: [{ type: 'Feature', id: 'shop', geometry: { type: 'Point', coordinates: [4.6, 52.38] }, properties: { title: 'Shop' } }] });
    await open(page, { center: [4.6, 52.38], zoom: 12, pins: '/__note/shops.geojson' });
    const note = page.locator(NOTE);
    await expect(note.locator('.pinmap-notice-text')).toHaveText(shown(DEFAULT_LOCALE['Basemap.NoStreets'], 'shops.geojson'));
    await expect(note.locator('code')).toHaveText(['pinmap streets shops.geojson -o area.pmtiles', 'pinmap serve shops.geojson --streets area.pmtiles']);
    await expect(note).toHaveRole('status');
    // In a strip of its own above the map's box, not over the map.
    const [map, box] = await Promise.all([page.locator('.pinmap-map').boundingBox(), note.boundingBox()]);
    expect(map!.y).toBeGreaterThanOrEqual(box!.y + box!.height - 0.5);
    await note.getByRole('button', { name: DEFAULT_LOCALE['PinLayer.Dismiss'] }).click();
    await expect(note).toHaveCount(0);

    await goToAddress(page, '#map=8/52.38/4.6');
    await goToAddress(page, '#map=13/52.38/4.6');
    await expect(page).toHaveURL(/#map=13\//);
    await expect(note).toHaveCount(0);
    expect(console.errors).toEqual([]);
    expect(console.warnings).toEqual([]);
  });

  for (const view of ['vector', 'hybrid'] as const) {
    test(`${view} view: it never covers a pin: it takes a strip above the map, and no pin moves on the screen as it comes and goes`, async ({ mapPage: page }) => {
      // Pins every 70 px or so across a view larger than the map at zoom 12, so some stand where the strip comes.
      const features = [];
      for (let i = 0; i < 14; i++) {
        for (let j = 0; j < 14; j++) features.push({ type: 'Feature', id: `p${i}-${j}`, geometry: { type: 'Point', coordinates: [4.6 - 0.08 + i * 0.012, 52.38 - 0.05 + j * 0.0074] }, properties: { title: `Pin ${i}-${j}` } });
      }
      await serveJson(page, '/__note/grid.geojson', { type: 'FeatureCollection', features });
      await open(page, { view, center: [4.6, 52.38], zoom: 12, pins: '/__note/grid.geojson' });
      const note = page.locator(NOTE);
      await expect(note).toBeVisible();
      await waitForMapState(page, 'idle');

      /** Each pin's box as drawn: its element's box within the map's (the map clips it), by pin id; none when outside. */
      const drawnPins = () =>
        page.evaluate(() => {
          const map = document.querySelector('.pinmap-map')!.getBoundingClientRect();
          const boxes: Record<string, { left: number; top: number; right: number; drawnTop: number }> = {};
          for (const pin of document.querySelectorAll<HTMLElement>('.pinmap-pin')) {
            const box = pin.getBoundingClientRect();
            const drawn = { left: Math.max(box.left, map.left), top: Math.max(box.top, map.top), right: Math.min(box.right, map.right), bottom: Math.min(box.bottom, map.bottom) };
            if (drawn.left < drawn.right && drawn.top < drawn.bottom) boxes[pin.dataset.pinId!] = { left: box.left, top: box.top, right: box.right, drawnTop: drawn.top };
          }
          return boxes;
        });
      const withNote = await drawnPins();
      const strip = (await note.boundingBox())!;
      const map = (await page.locator('.pinmap-map').boundingBox())!;
      expect(Object.keys(withNote).length).toBeGreaterThan(40);
      for (const [id, box] of Object.entries(withNote)) {
        expect(box.drawnTop >= strip.y + strip.height - 0.5 || box.right <= strip.x || box.left >= strip.x + strip.width, `pin ${id} drawn under the note`).toBe(true);
      }
      expect(map.y, 'the map starts under the strip').toBeGreaterThanOrEqual(strip.y + strip.height - 0.5);

      // Closed, the strip goes and the map grows back under it: the pins stay where they were on the
      // screen, and the camera is back where the config put it (as it was before the note came).
      await note.getByRole('button', { name: DEFAULT_LOCALE['PinLayer.Dismiss'] }).click();
      await expect(note).toHaveCount(0);
      await waitForMapState(page, 'idle');
      const withoutNote = await drawnPins();
      for (const [id, box] of Object.entries(withNote)) {
        const after = withoutNote[id];
        expect(after, `pin ${id} still drawn`).toBeDefined();
        expect(Math.abs(after!.left - box.left), `pin ${id} x`).toBeLessThanOrEqual(1);
        expect(Math.abs(after!.top - box.top), `pin ${id} y`).toBeLessThanOrEqual(1);
      }
      const [zoom, lat, lng] = new URL(page.url()).hash.replace('#map=', '').split('/').map(Number);
      expect(zoom).toBe(12);
      expect(lat).toBeCloseTo(52.38, 4);
      expect(lng).toBeCloseTo(4.6, 4);
    });
  }

  test('a notice shown with it stands under it, not over it', async ({ mapPage: page }) => {
    await open(page, { center: [4.6, 52.38], zoom: 12, pins: '/__note/missing.geojson' });
    const notice = page.locator('.pinmap-notices .pinmap-notice').filter({ hasText: 'Could not load the pins' });
    await expect(page.locator(NOTE)).toBeVisible();
    await expect(notice).toBeVisible();
    const [note, below] = await Promise.all([page.locator(NOTE).boundingBox(), notice.boundingBox()]);
    expect(below!.y).toBeGreaterThanOrEqual(note!.y + note!.height);
  });

  test('hybrid view: not there at zoom 10, said when the user zooms in to 11, and gone by itself when its fade has run', async ({ mapPage: page }) => {
    await open(page, { view: 'hybrid', center: [10.5, 51.2], zoom: 10 });
    const note = page.locator(NOTE);
    await expect(note).toHaveCount(0);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect(page).toHaveURL(/#map=11\//);
    await expect(note.locator('.pinmap-notice-text')).toHaveText(TEXT);
    // Once the map is drawn it fades out by itself: a CSS animation of opacity, after a few seconds.
    await waitForMapState(page, 'idle');
    expect(await note.evaluate((element) => getComputedStyle(element).animationName)).not.toBe('none');
    await finishFade(page);
    await expect(note).toHaveCount(0);
  });

  test('in the locale of the config (German)', async ({ mapPage: page }) => {
    await open(page, { center: [4.6, 52.38], zoom: 12, locale: pinmapLocaleDe });
    await expect(page.locator(`${NOTE} .pinmap-notice-text`)).toHaveText(shown(pinmapLocaleDe['Basemap.NoStreets']));
    await expect(page.locator(NOTE).getByRole('button')).toHaveAccessibleName(pinmapLocaleDe['PinLayer.Dismiss']);
  });

  test('never on a basemap of the site\'s own, however far in', async ({ mapPage: page }) => {
    const style = { version: 8, sources: {}, layers: [{ id: 'paper', type: 'background', paint: { 'background-color': '#ffffff' } }] };
    await open(page, { style, center: [4.6, 52.38], zoom: 15 });
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await waitForMapState(page, 'idle');
    await expect(page.locator('.pinmap')).toHaveAttribute('data-map-state', 'idle');
    await expect(page.locator(NOTE)).toHaveCount(0);
  });
});
