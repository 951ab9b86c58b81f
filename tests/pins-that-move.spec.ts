import { expect, test, type Page } from './test.ts';
import { openEmbedPage, PLAIN_STYLE, watchConsole, type EmbedWindow } from './helpers.ts';
import { countWebGLContexts, liveWebGLContexts } from './webgl-contexts.ts';

/**
 * Pins that move (README, "Pins that move"), through the embed handle of the library build in
 * both views: a new `pins` value (`update({ pins })`) and `updatePins` change the pins by id, and
 * the camera, the open popup (following its pin), the focus and the WebGL context stay; a removed
 * pin leaves and an added one appears. In the suite pins jump (reduced motion); the glide itself
 * is one test below.
 */

type Place = [id: string, lng: number, lat: number];

const feature = ([id, lng, lat]: Place) => ({ type: 'Feature', id, geometry: { type: 'Point', coordinates: [lng, lat] }, properties: { title: `Bus ${id}` } });
const collection = (places: Place[]) => ({ type: 'FeatureCollection' as const, features: places.map(feature) });

const FIRST: Place[] = [
  ['a', 3, 46],
  ['b', 5, 46],
  ['c', 7, 46],
];

async function mount(page: Page, view: 'vector' | 'hybrid', extra: Record<string, unknown> = {}): Promise<void> {
  await countWebGLContexts(page);
  await openEmbedPage(page, { width: 480, height: 360 });
  const config: Record<string, unknown> = { view, style: PLAIN_STYLE, center: [5, 46], zoom: 6, pins: collection(FIRST), fadeDuration: 0, controls: { attribution: false, view: false, fullscreen: false }, ...extra };
  await page.evaluate(async (config) => {
    const w = window as unknown as EmbedWindow;
    w.handle = w.Pinmap.createPinmap('map', config);
    await w.handle.ready;
  }, config);
}

const pin = (page: Page, id: string) => page.locator(`#map .pinmap-pin[data-pin-id="${id}"]`);
const popup = (page: Page) => page.locator('#map .pinmap-popup');

/** A pin's tip on the page (the middle of its bottom edge). */
async function tipOf(page: Page, id: string): Promise<{ x: number; y: number }> {
  const box = (await pin(page, id).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height };
}

/** The popup's tip on the page (the middle of its bottom edge, where it points at its pin's head). */
async function popupTip(page: Page): Promise<{ x: number; y: number }> {
  const box = (await popup(page).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height };
}

for (const view of ['vector', 'hybrid'] as const) {
  test.describe(`the ${view} view`, () => {
    test.describe.configure({ mode: 'serial' });
    let page: Page;
    let console: ReturnType<typeof watchConsole>;

    test.beforeAll(async ({ browser }) => {
      page = await browser.newPage({ viewport: { width: 480, height: 360 }, reducedMotion: 'reduce' });
      console = watchConsole(page);
      await mount(page, view);
    });
    test.afterAll(async () => {
      await page.close();
    });

    test('a new pins value moves, removes and adds pins by id; the camera, the popup (following its pin), its focus and the WebGL context stay', async () => {
      await expect(pin(page, 'b')).toBeVisible();
      await pin(page, 'b').click();
      await expect(popup(page)).toHaveAttribute('data-pin-id', 'b');
      // The popup's own pan (to show all of it) is over.
      await expect(page.locator('#map .pinmap')).toHaveAttribute('data-map-state', 'idle');
      const contexts = await liveWebGLContexts(page);
      const a = await tipOf(page, 'a');
      const b = await tipOf(page, 'b');
      const above = (await popupTip(page)).y;
      const focusInPopup = () => page.evaluate(() => document.activeElement?.closest('.pinmap-popup')?.getAttribute('data-pin-id') ?? null);
      expect(await focusInPopup()).toBe('b');

      // b goes a degree east and half a degree north; c leaves; d comes.
      const next: Record<string, unknown> = { view, style: PLAIN_STYLE, center: [5, 46], zoom: 6, pins: collection([['a', 3, 46], ['b', 6, 46.5], ['d', 4, 45]]), fadeDuration: 0, controls: { attribution: false, view: false, fullscreen: false } };
      await page.evaluate((config) => (window as unknown as EmbedWindow).handle!.update(config), next);
      await expect(pin(page, 'c')).toHaveCount(0);
      await expect(pin(page, 'd')).toBeVisible();
      await expect.poll(async () => (await tipOf(page, 'b')).x - b.x).toBeGreaterThan(20);
      // The camera stayed: a pin that did not move is where it was.
      expect(await tipOf(page, 'a')).toEqual(a);
      // The popup is open on b still, over its new place, with the focus in it.
      await expect(popup(page)).toHaveAttribute('data-pin-id', 'b');
      const movedB = await tipOf(page, 'b');
      const tip = await popupTip(page);
      expect(Math.abs(tip.x - movedB.x)).toBeLessThan(2);
      expect(Math.abs(tip.y - movedB.y - (above - b.y))).toBeLessThan(2);
      expect(await focusInPopup()).toBe('b');
      expect(await liveWebGLContexts(page)).toEqual(contexts);
    });

    test('updatePins adds, updates and removes by id; a focused pin keeps the focus, the popup follows its pin', async () => {
      const contexts = await liveWebGLContexts(page);
      await pin(page, 'a').focus();
      const before = await tipOf(page, 'b');
      await page.evaluate(
        (changes) => (window as unknown as EmbedWindow).handle!.updatePins(changes),
        { add: [feature(['e', 5, 45])], update: [feature(['b', 5, 46.5])], remove: ['d'] },
      );
      await expect(pin(page, 'd')).toHaveCount(0);
      await expect(pin(page, 'e')).toBeVisible();
      const after = await tipOf(page, 'b');
      expect(before.x - after.x).toBeGreaterThan(20);
      expect(Math.abs((await popupTip(page)).x - after.x)).toBeLessThan(2);
      await expect(popup(page)).toHaveAttribute('data-pin-id', 'b');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-pin-id'))).toBe('a');
      expect(await liveWebGLContexts(page)).toEqual(contexts);
    });

    test('a removed open pin closes its popup; bad changes are named, and the map goes on', async () => {
      const thrown = await page.evaluate(() => {
        try {
          void (window as unknown as EmbedWindow).handle!.updatePins({ remove: [{}] } as never);
          return 'nothing';
        } catch (error) {
          return `${(error as Error).name}: ${(error as Error).message}`;
        }
      });
      expect(thrown).toBe('PinChangesError: updatePins: remove[0] must be a pin id (a string or a number)');
      await page.evaluate(() => (window as unknown as EmbedWindow).handle!.updatePins({ remove: ['b', 'nope'] }));
      await expect(pin(page, 'b')).toHaveCount(0);
      await expect(popup(page)).toHaveCount(0);
      expect(console.warnings.join('\n')).toContain('remove: there is no pin "nope" to remove');
      expect(console.errors).toEqual([]);
    });
  });
}

test('GPU pins: a pin’s keyboard stand-in goes with its pin to its new place, the focus with it', async ({ mapPage: page }) => {
  await mount(page, 'vector', { domPinLimit: 0 });
  const map = page.locator('#map .maplibregl-canvas');
  await map.focus();
  await page.keyboard.press('Tab'); // into the pins: the first, a
  const standIn = page.locator('#map .pinmap-standin[data-pin-id="a"]');
  await expect(standIn).toBeFocused();
  const tip = async () => {
    const box = (await standIn.boundingBox())!;
    return { x: box.x + box.width / 2, y: box.y + box.height };
  };
  const before = await tip();
  await page.evaluate((changes) => (window as unknown as EmbedWindow).handle!.updatePins(changes), { update: [feature(['a', 3, 45.2])] });
  // 0.8° south at zoom 6: about 50 px down the screen, still in view.
  await expect.poll(async () => (await tip()).y - before.y, { message: 'the stand-in went with its pin' }).toBeGreaterThan(35);
  expect(Math.abs((await tip()).x - before.x)).toBeLessThan(2);
  await expect(page.locator('#map .pinmap')).toHaveAttribute('data-map-state', 'idle');
  await expect(standIn, 'the keyboard stays on the pin it was on').toBeFocused();
});

for (const [how, view, domPinLimit] of [
  ['vector view, GPU pins', 'vector', 0],
  ['vector view, DOM pins', 'vector', 500],
  ['hybrid view, grouped in the worker', 'hybrid', 0],
] as const) {
  test(`${how}: a bubble whose pins stay is kept, focus and all, while other pins move, leave and come; one that takes a pin says its new count in place`, async ({ mapPage: page }) => {
    // Three pins about 2 px apart at zoom 6: one bubble of 3, north of the others.
    const clump: Place[] = [
      ['d', 5, 46.8],
      ['e', 5.02, 46.8],
      ['f', 5.04, 46.8],
    ];
    await mount(page, view, { domPinLimit, pins: collection([...FIRST, ...clump]) });
    if (domPinLimit === 0 && view === 'vector') {
      // The GPU pins' buttons (keyboard stand-ins) are made once the keyboard reaches the map.
      await page.locator('#map .maplibregl-canvas').focus();
      await page.keyboard.press('Tab');
    }
    const bubble = page.locator('#map .pinmap-cluster');
    await expect(bubble).toHaveCount(1);
    await expect(bubble).toHaveAttribute('data-count', '3');
    await bubble.focus();
    await bubble.evaluate((element) => element.setAttribute('data-test-kept', ''));
    const idle = () => expect(page.locator('#map .pinmap')).toHaveAttribute('data-map-state', 'idle');
    const update = (changes: object) => page.evaluate((changes) => (window as unknown as EmbedWindow).handle!.updatePins(changes), changes);

    // Other pins move, one leaves, one comes: this bubble's pins are the same.
    await update({ update: [feature(['a', 3, 45.2])], remove: ['b'], add: [feature(['g', 6.5, 45.5])] });
    await expect(pin(page, 'g')).toHaveCount(1);
    await expect(pin(page, 'b')).toHaveCount(0);
    await idle();
    await expect(bubble, 'the same bubble, not one made anew').toHaveAttribute('data-test-kept', '');
    await expect(bubble).toHaveAttribute('data-count', '3');
    await expect(bubble).toBeFocused();

    // A pin joins it: the same bubble tells its new count.
    await update({ add: [feature(['h', 5.06, 46.8])] });
    await expect(bubble).toHaveAttribute('data-count', '4');
    await idle();
    await expect(bubble, 'the same bubble, its count told in place').toHaveAttribute('data-test-kept', '');
    await expect(bubble).toHaveAttribute('aria-label', /\b4\b/);
    await expect(bubble).toBeFocused();
  });
}

test.describe('the glide', () => {
  test.use({ reducedMotion: 'no-preference', viewport: { width: 480, height: 360 } });

  test('a moved pin glides to its new place, its popup with it', async ({ mapPage: page }) => {
    // The longest glide: a slow frame of a busy machine must not take it all.
    await mount(page, 'vector', { pinTransition: 5000 });
    await pin(page, 'b').click();
    await expect(popup(page)).toHaveAttribute('data-pin-id', 'b');
    await expect(page.locator('#map .pinmap')).toHaveAttribute('data-map-state', 'idle');
    // Where the pin and its popup are drawn in each frame, from the update until the pin is still.
    const frames = await page.evaluate(async () => {
      const middle = (selector: string) => {
        const box = document.querySelector(selector)!.getBoundingClientRect();
        return box.left + box.width / 2;
      };
      const seen = () => ({ pin: middle('#map .pinmap-pin[data-pin-id="b"]'), popup: middle('#map .pinmap-popup') });
      const frames = [seen()];
      void (window as unknown as EmbedWindow).handle!.updatePins({ update: [{ type: 'Feature', id: 'b', geometry: { type: 'Point', coordinates: [6, 47] }, properties: { title: 'Bus b' } }] });
      // Until half a second past the glide's 5 s (from the pin's first step), or 15 s at most.
      const started = performance.now();
      let moving: number | undefined;
      while (performance.now() - started < 15_000 && (moving === undefined || performance.now() - moving < 5500)) {
        await new Promise(requestAnimationFrame);
        frames.push(seen());
        if (moving === undefined && frames.at(-1)!.pin !== frames[0]!.pin) moving = performance.now();
      }
      return frames;
    });
    const from = frames[0]!.pin;
    // A degree east at zoom 6 is 91 px: the pin went there through places between, its popup over it all the way.
    expect(Math.round(frames.at(-1)!.pin - from)).toBe(91);
    expect(frames.some((frame) => frame.pin - from > 5 && frame.pin - from < 85), JSON.stringify(frames)).toBe(true);
    for (const frame of frames) expect(Math.abs(frame.popup - frame.pin)).toBeLessThan(2);
    await page.evaluate(() => new Promise(requestAnimationFrame));
    await page.locator('#map').screenshot({ path: test.info().outputPath('moved-pin-with-popup.png') });
  });
});
