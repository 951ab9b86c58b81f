import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { expect, test, type Page } from './test.ts';
import { tilePins } from '../src/tiler/tile-pins.ts';
import { PLAIN_STYLE, serveJson, waitForMapState, watchForNothing } from './helpers.ts';

/**
 * Same-place pins (README "Pins at one spot"): pins at one spot fan out on a click or Enter on
 * the one on top, in both views, for DOM pins and GPU pins (their keyboard stand-ins); a fanned
 * pin opens its popup; Esc, a click elsewhere or a zoom folds the fan.
 */

const noControls = { navigation: false, geolocate: false, scale: false, fullscreen: false, attribution: false, view: false };
const SPOT: [number, number] = [10, 50];
/**
 * Five flats of one house (one coordinate), and a house down the street: seen at zoom 19, above
 * the last zoom with bubbles (18), where pins at one spot stand alone and fan out.
 */
const FLATS = ['Flat 1', 'Flat 2', 'Flat 3', 'Flat 4', 'Flat 5'];
const pins = {
  type: 'FeatureCollection',
  features: [
    ...FLATS.map((title, i) => ({ type: 'Feature', id: `flat-${i + 1}`, geometry: { type: 'Point', coordinates: SPOT }, properties: { title, description: `Unit ${i + 1}` } })),
    { type: 'Feature', id: 'house', geometry: { type: 'Point', coordinates: [SPOT[0] + 0.00025, SPOT[1]] }, properties: { title: 'House' } },
  ],
};

const ARCHIVE = '/__fan/pins.pmtiles';
const modes = [
  { name: 'vector view, DOM pins', config: {} },
  { name: 'vector view, GPU pins', config: { domPinLimit: 0 } },
  { name: 'vector view, pre-tiled pins', config: { pins: `pmtiles://${ARCHIVE}` } },
  { name: 'hybrid view', config: { view: 'hybrid' } },
];

/** The same pins as an archive `pinmap tile` makes. */
let archive: Buffer;
test.beforeAll(async () => {
  const folder = mkdtempSync(join(tmpdir(), 'pinmap-fan-'));
  try {
    await tilePins(Readable.from([JSON.stringify(pins)]), join(folder, 'pins.pmtiles'), { name: 'flats' });
    archive = readFileSync(join(folder, 'pins.pmtiles'));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

async function openMap(page: Page, config: Record<string, unknown>) {
  await page.route((url) => url.pathname === ARCHIVE, (route) => {
    const [, start = 0, end = archive.length - 1] = (/bytes=(\d+)-(\d+)/.exec(route.request().headers()['range'] ?? '') ?? []).map(Number);
    const last = Math.min(end, archive.length - 1);
    return route.fulfill({ status: 206, body: archive.subarray(start, last + 1), headers: { 'content-type': 'application/octet-stream', 'content-range': `bytes ${start}-${last}/${archive.length}` } });
  });
  await serveJson(page, '/__fan/config.json', { fadeDuration: 0, style: PLAIN_STYLE, center: SPOT, zoom: 19, pins, controls: noControls, ...config });
  await page.goto(`/?config=${encodeURIComponent('/__fan/config.json')}`);
  await waitForMapState(page, 'idle');
}

/** A point on the head of the pins at the spot (the map's centre): their tips are at the centre. */
async function stackHead(page: Page) {
  const box = (await page.locator('.pinmap-map').boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 - 30 };
}

const fannedPins = (page: Page) => page.locator('.pinmap-fan .pinmap-fan-pin');

for (const { name, config } of modes) {
  test(`pins at one spot fan out by mouse and by keyboard; a fanned pin opens its popup; Esc, a click elsewhere and a zoom fold the fan (${name})`, async ({ mapPage: page }) => {
    await openMap(page, config);
    const popup = page.locator('.pinmap-popup');
    const box = (await page.locator('.pinmap-map').boundingBox())!;

    // By keyboard: Tab to the first pin in reading order, one of the stack; Enter fans it out.
    const focusedTitle = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    for (let press = 0; press < 3 && !/^Flat \d$/.test(await focusedTitle()); press++) {
      await page.keyboard.press('Tab');
      // GPU pins' stand-ins come once the map, focused from the keyboard, is drawn.
      if (press === 0) await waitForMapState(page, 'idle');
    }
    const stack = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      element.dataset.stack = 'yes';
      return element.getAttribute('aria-label');
    });
    expect(stack).toMatch(/^Flat \d$/);
    await page.keyboard.press('Enter');
    await expect(fannedPins(page)).toHaveCount(5);
    await expect(page.locator('.pinmap-fan-legs line')).toHaveCount(5);
    await expect(popup).toHaveCount(0);
    for (const title of FLATS) await expect(fannedPins(page).and(page.getByRole('button', { name: title, exact: true }))).toBeVisible();
    // Each fanned pin stands clear of the others.
    const tips = await fannedPins(page).evaluateAll((elements) => elements.map((e) => e.getBoundingClientRect()).map((r) => [r.x + r.width / 2, r.bottom] as const));
    for (let i = 0; i < tips.length; i++) for (let j = i + 1; j < tips.length; j++) expect(Math.hypot(tips[i]![0] - tips[j]![0], tips[i]![1] - tips[j]![1])).toBeGreaterThan(30);
    await expect(fannedPins(page).first()).toBeFocused();
    expect(await focusedTitle()).toBe(stack);
    await page.keyboard.press('Tab');
    await expect(fannedPins(page).nth(1)).toBeFocused();
    // The arrows go round the fan, not the map: the map (and the fan on it) stays.
    const fanAt = async () => (await page.locator('.pinmap-fan').boundingBox())!;
    const camera = await fanAt();
    const still = await watchForNothing(page);
    await page.keyboard.press('ArrowLeft');
    await expect(fannedPins(page).nth(0)).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(fannedPins(page).nth(4)).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(fannedPins(page).nth(0)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(fannedPins(page).nth(1)).toBeFocused();
    await still.expectNothing('an arrow on a fanned pin moved the map');
    expect(await fanAt()).toEqual(camera);
    await page.keyboard.press('Escape');
    await expect(fannedPins(page)).toHaveCount(0);
    await expect(page.locator('[data-stack="yes"]')).toBeFocused();

    // Enter on a fanned pin opens its popup; closing it brings focus back to the stack.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const second = await focusedTitle();
    await page.keyboard.press('Enter');
    await expect(popup.locator('.pinmap-popup-title')).toHaveText(second);
    await expect(popup.getByRole('button', { name: 'Close popup' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    await expect(page.locator('[data-stack="yes"]')).toBeFocused();

    // By mouse: a click on the stack fans it out; a click on a fanned pin opens its popup.
    const head = await stackHead(page);
    await page.mouse.click(head.x, head.y);
    await expect(fannedPins(page)).toHaveCount(5);
    await fannedPins(page).and(page.getByRole('button', { name: 'Flat 3' })).click();
    await expect(popup.locator('.pinmap-popup-title')).toHaveText('Flat 3');
    await expect(popup.locator('.pinmap-popup-description')).toHaveText('Unit 3');
    await expect(fannedPins(page)).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);

    // A click elsewhere on the map folds the fan; so does a zoom.
    await page.mouse.click(head.x, head.y);
    await expect(fannedPins(page)).toHaveCount(5);
    await page.mouse.click(box.x + 80, box.y + box.height - 80);
    await expect(fannedPins(page)).toHaveCount(0);
    await page.mouse.click(head.x, head.y);
    await expect(fannedPins(page)).toHaveCount(5);
    await page.mouse.move(box.x + 200, box.y + 200);
    await page.mouse.wheel(0, -300);
    await expect(fannedPins(page)).toHaveCount(0);
  });
}

test('a pin alone at its spot opens its popup at once, in both views', async ({ mapPage: page }) => {
  for (const config of [{}, { view: 'hybrid' }]) {
    await openMap(page, config);
    await page.locator('.pinmap-pin[data-pin-id="house"]').click();
    await expect(page.locator('.pinmap-popup .pinmap-popup-title')).toHaveText('House');
    await expect(fannedPins(page)).toHaveCount(0);
  }
});
