import { expect, test, type Page } from './test.ts';
import { tileCollection, withMetadata } from '../src/testing/pin-archive.testing.ts';
import { PLAIN_STYLE, serveArchive, serveJson, waitForMapState, watchForNothing } from './helpers.ts';

/**
 * A bubble at the map's maximum zoom (README "Pins at the maximum zoom"): a config `maxZoom` at or
 * below the last grouping zoom leaves bubbles that no zoom splits; activating one (a click, Enter,
 * Space) lists its pins in the list panel, where choosing one opens its popup. In the vector view
 * (DOM pins and GPU pins) and the hybrid view, with the list control off (the panel comes anyway)
 * and on (the panel goes back to the pins in view); and over a pin archive the tests make of the
 * same pins with the pin tiler, in both views (its bubbles' pins read from the archive).
 */

const noControls = { navigation: false, geolocate: false, scale: false, fullscreen: false, attribution: false, view: false };
const SPOT: [number, number] = [10, 50];
const MAX_ZOOM = 12;
/** Eight shops a few metres apart (one bubble at zoom 12), in the set's order, and a pin far to the south-east. */
const SHOPS = Array.from({ length: 8 }, (_, i) => ({ id: `shop-${i + 1}`, title: `Shop ${i + 1}`, category: i % 2 ? 'bakery' : 'grocer', lngLat: [SPOT[0] + (i % 4) * 0.0004, SPOT[1] + Math.floor(i / 4) * 0.0003] }));
const pins = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', id: 'far', geometry: { type: 'Point', coordinates: [SPOT[0] + 0.03, SPOT[1] - 0.02] }, properties: { title: 'Far away' } },
    ...SHOPS.map((shop) => ({ type: 'Feature', id: shop.id, geometry: { type: 'Point', coordinates: shop.lngLat }, properties: { title: shop.title, category: shop.category, description: `${shop.title} sells bread` } })),
  ],
};

const ARCHIVE = '/__bubble/pins.pmtiles';
/** The pins pre-tiled: the archive's URL as config's `pins`. */
const archived = { pins: `pmtiles://${ARCHIVE}` };
const modes = [
  { name: 'vector view, DOM pins', config: {} },
  { name: 'vector view, GPU pins', config: { domPinLimit: 0 } },
  { name: 'hybrid view', config: { view: 'hybrid' } },
  { name: 'vector view, pre-tiled pins', config: archived },
  { name: 'hybrid view, pre-tiled pins', config: { view: 'hybrid', ...archived } },
];

let archive: Buffer;
test.beforeAll(async () => {
  archive = await tileCollection(pins);
});

/** Opens the map on the pins (inline, or the archive of them, `bytes`, when config's `pins` names it). */
async function openMap(page: Page, config: Record<string, unknown>, bytes = archive) {
  await serveArchive(page, ARCHIVE, bytes);
  await serveJson(page, '/__bubble/config.json', { fadeDuration: 0, style: PLAIN_STYLE, center: SPOT, zoom: MAX_ZOOM, maxZoom: MAX_ZOOM, pins, controls: noControls, ...config });
  await page.goto(`/?config=${encodeURIComponent('/__bubble/config.json')}`);
  await waitForMapState(page, 'idle');
}

const panel = (page: Page) => page.locator('.pinmap-list-panel');
const listedTitles = (page: Page) => panel(page).locator('.pinmap-list-item .pinmap-list-title');
const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');

/** The bubble's middle on the page: where its button is, or for GPU pins where the map's centre is (the shops are there). */
async function bubbleMiddle(page: Page) {
  const button = page.locator('.pinmap-cluster:not(.pinmap-standin)');
  const box = (await button.count()) > 0 ? (await button.boundingBox())! : (await page.locator('.pinmap-map').boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

for (const { name, config } of modes) {
  test(`a bubble at the maximum zoom lists its pins, by mouse and by keyboard; a listed pin opens its popup (${name})`, async ({ mapPage: page }) => {
    await openMap(page, config);
    const camera = await page.evaluate(() => location.hash);
    const popup = page.locator('.pinmap-popup');

    // By mouse: the bubble lists its pins (title and category), the map stays where it is.
    const middle = await bubbleMiddle(page);
    const still = await watchForNothing(page);
    await page.mouse.click(middle.x, middle.y);
    await expect(panel(page)).toHaveAttribute('data-scope', 'bubble');
    await expect(panel(page).getByRole('heading')).toHaveText('Pins in this bubble');
    await expect(panel(page).getByRole('status')).toHaveText('8 pins here');
    await expect(listedTitles(page)).toHaveText(SHOPS.map((shop) => shop.title));
    await expect(panel(page).locator('.pinmap-list-category')).toHaveText(SHOPS.map((shop) => shop.category));
    await expect(panel(page).locator('.pinmap-list-item').first()).toBeFocused();
    await still.expectNothing('the map moved when the bubble listed its pins');
    expect(await page.evaluate(() => location.hash)).toBe(camera);

    // A listed pin opens its popup, the list staying open.
    await panel(page).getByRole('button', { name: /^Shop 3/ }).click();
    await expect(popup.locator('.pinmap-popup-title')).toHaveText('Shop 3');
    await expect(popup.locator('.pinmap-popup-description')).toHaveText('Shop 3 sells bread');
    // The camera went to the pin no further in than the map's maximum zoom (its bubble stays).
    expect(await page.evaluate(() => Number(/#map=([\d.]+)/.exec(location.hash)?.[1]))).toBeLessThanOrEqual(MAX_ZOOM);
    await expect(listedTitles(page)).toHaveCount(8);
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    await page.getByRole('button', { name: 'Close the list' }).click();
    await expect(panel(page)).toHaveCount(0);

    // By keyboard: Tab reaches the bubble (first in reading order), Enter lists its pins with the focus on the first.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    for (let press = 0; press < 6 && !/^8 pins/.test(await focusedName(page)); press++) {
      await page.keyboard.press('Tab');
      // GPU bubbles' stand-ins come once the map, focused from the keyboard, is drawn.
      if (press === 0) await waitForMapState(page, 'idle');
    }
    expect(await focusedName(page)).toBe('8 pins: zoom in');
    await page.evaluate(() => ((document.activeElement as HTMLElement).dataset.bubble = 'listed'));
    await page.keyboard.press('Enter');
    await expect(panel(page).getByRole('status')).toHaveText('8 pins here');
    await expect(listedTitles(page)).toHaveText(SHOPS.map((shop) => shop.title));
    await expect(panel(page).getByRole('button', { name: /^Shop 1/ })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await expect(panel(page).getByRole('button', { name: /^Shop 8/ })).toBeFocused();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await expect(panel(page).getByRole('button', { name: /^Shop 2/ })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(popup.locator('.pinmap-popup-title')).toHaveText('Shop 2');
    await expect(popup.getByRole('button', { name: 'Close popup' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    await expect(panel(page).getByRole('button', { name: /^Shop 2/ })).toBeFocused();
    // Escape closes the list; the focus goes back to the bubble, which Space lists again.
    await page.keyboard.press('Escape');
    await expect(panel(page)).toHaveCount(0);
    await expect(page.locator('[data-bubble="listed"]')).toBeFocused();
    await page.keyboard.press(' ');
    await expect(listedTitles(page)).toHaveText(SHOPS.map((shop) => shop.title));
    await expect(panel(page).getByRole('button', { name: /^Shop 1/ })).toBeFocused();
    await page.screenshot({ path: `test-results/max-zoom-bubble-${name.replace(/\W+/g, '-')}.png` });
  });
}

test('with the list control shown, a bubble at the maximum zoom opens the list on its pins, and the list goes back to the pins in view', async ({ mapPage: page }) => {
  await openMap(page, { controls: { ...noControls, list: true } });
  await page.locator('.pinmap-cluster').click();
  await expect(panel(page)).toHaveAttribute('data-scope', 'bubble');
  await expect(listedTitles(page)).toHaveText(SHOPS.map((shop) => shop.title));
  await expect(page.getByRole('button', { name: 'List the pins in view' })).toHaveAttribute('aria-expanded', 'true');
  await panel(page).getByRole('button', { name: 'Pins in view' }).click();
  await expect(panel(page)).toHaveAttribute('data-scope', 'view');
  await expect(panel(page).getByRole('heading')).toHaveText('Pins in view');
  await expect(panel(page).getByRole('status')).toHaveText('9 pins in view');
  await expect(panel(page).locator('.pinmap-list-item').first()).toBeFocused();
});

test('a bubble of a pin archive made before archives kept their bubbles\' pins (version 3) zooms in as far as the map goes', async ({ mapPage: page }) => {
  const old = withMetadata(archive, (pinmap) => {
    pinmap.version = 3;
    delete pinmap.leaves;
  });
  await openMap(page, { ...archived, view: 'hybrid', zoom: MAX_ZOOM - 1 }, old);
  await page.locator('.pinmap-cluster').first().click();
  await expect.poll(() => page.evaluate(() => Number(/#map=([\d.]+)/.exec(location.hash)?.[1]))).toBe(MAX_ZOOM);
  await waitForMapState(page, 'idle');
  const watch = await watchForNothing(page, { appears: '.pinmap-list-panel' });
  await page.locator('.pinmap-cluster').first().click();
  // It may centre the bubble; it opens no list and zooms no further.
  expect((await watch.changes()).filter((change) => change.includes('.pinmap-list-panel')), 'a list opened').toEqual([]);
  await expect(panel(page)).toHaveCount(0);
  expect(await page.evaluate(() => Number(/#map=([\d.]+)/.exec(location.hash)?.[1]))).toBe(MAX_ZOOM);
});

test('a pre-tiled bubble of more pins than a list loads lists the first of them and says how many it holds', async ({ mapPage: page }) => {
  const crowd = Array.from({ length: 600 }, (_, i) => ({ type: 'Feature', id: `stall-${i + 1}`, geometry: { type: 'Point', coordinates: SPOT }, properties: { title: `Stall ${i + 1}` } }));
  await openMap(page, archived, await tileCollection({ type: 'FeatureCollection', features: crowd }));
  const middle = await bubbleMiddle(page);
  await page.mouse.click(middle.x, middle.y);
  await expect(panel(page).getByRole('status')).toHaveText('600 pins here, the first 500 listed');
  await expect(listedTitles(page).first()).toHaveText(/^Stall \d+$/);
  await expect(panel(page).locator('.pinmap-list-item').first()).toBeFocused();
  await page.keyboard.press('End');
  await expect(panel(page).locator('.pinmap-list-item[data-pin-id^="stall-"]').last()).toBeFocused();
  await expect(page.locator('.pinmap-list-item:focus').locator('..')).toHaveAttribute('data-index', '499');
});

test('a bubble that a zoom within the maximum splits still zooms there', async ({ mapPage: page }) => {
  await openMap(page, { zoom: MAX_ZOOM - 3 });
  await page.locator('.pinmap-cluster').first().click();
  await expect.poll(() => page.evaluate(() => Number(/#map=([\d.]+)/.exec(location.hash)?.[1]))).toBeGreaterThan(MAX_ZOOM - 3);
  await expect(panel(page)).toHaveCount(0);
});
