import { expect, test, type Browser, type Page } from './test.ts';
import { EMBEDDED_STYLE_PATH } from '../src/config/constants.ts';
import { axe, PLAIN_STYLE, goToAddress, serveJson, waitForMapState, watchConsole } from './helpers.ts';

/**
 * The map's controls as a user meets them: real MapLibre in real Chromium, geolocation from the
 * browser context (`setGeolocation`, permissions), and an init script only for what Playwright
 * cannot produce (geolocation error codes 2 and 3, a silent browser, an insecure page, a missing
 * Fullscreen API).
 */

const DEV_PORT = Number(process.env.PINMAP_DEV_PORT ?? 5173);

/**
 * Opens the app with `config` served as `?config=` and `hash` as the address's camera, on a plain
 * style unless `config` names one (the attribution tests keep the embedded basemap for its credits).
 */
async function openApp(page: Page, config: Record<string, unknown> = {}, hash = ''): Promise<void> {
  await serveJson(page, '/__test/controls.json', { style: PLAIN_STYLE, ...config });
  await page.goto(`/?config=/__test/controls.json${hash}`);
  await waitForMapState(page, 'idle');
}

/** The camera as the address shows it: `#map=zoom/lat/lng/bearing/pitch`. */
async function addressCamera(page: Page) {
  const hash = await page.evaluate(() => location.hash);
  const [zoom, lat, lng, bearing = 0, pitch = 0] = /map=([^&]+)/.exec(hash)![1]!.split('/').map(Number);
  return { zoom: zoom!, lat: lat!, lng: lng!, bearing, pitch };
}

/**
 * When an address's camera (`[zoom, lat, lng, bearing?, pitch?]`) counts as arrived: at a zoom, or
 * back to north with no pitch (the address then leaves bearing and pitch out).
 */
type AddressTarget = { zoom: number } | 'north';

/**
 * Clicks `selector` and measures, in the page, how long until the address's camera reaches
 * `done` (checked every frame).
 */
async function timeUntilAddress(page: Page, selector: string, done: AddressTarget): Promise<number> {
  return (await framesUntilAddress(page, selector, done)).ms;
}

/**
 * Like `timeUntilAddress`, with the number of animation frames it took and the longest frame:
 * an ease ends on the first frame after its duration, and the address follows a frame later, so
 * on a busy machine drawing in software the end comes up to a few long frames late.
 */
async function framesUntilAddress(page: Page, selector: string, done: AddressTarget): Promise<{ ms: number; frames: number; longestFrame: number }> {
  const watch = page.evaluate(
    ({ selector, done }) =>
      new Promise<{ ms: number; frames: number; longestFrame: number }>((resolve, reject) => {
        // A plain predicate, no code compiled from a string (the app's Content Security Policy refuses such code).
        const check = (camera: number[]) => (done === 'north' ? camera.length === 3 : camera[0] === done.zoom);
        const button = document.querySelector(selector)!;
        let start = 0;
        let frames = 0;
        let longestFrame = 0;
        let lastFrame = 0;
        button.addEventListener('click', () => (start = performance.now()), { capture: true, once: true });
        const limit = setTimeout(() => reject(new Error(`address never reached ${JSON.stringify(done)}: ${location.hash}`)), 10_000);
        const frame = () => {
          const now = performance.now();
          if (start && lastFrame) longestFrame = Math.max(longestFrame, now - Math.max(lastFrame, start));
          lastFrame = now;
          const camera = (/map=([^&]+)/.exec(location.hash)?.[1] ?? '').split('/').map(Number);
          if (start && check(camera)) {
            clearTimeout(limit);
            resolve({ ms: performance.now() - start, frames, longestFrame });
          } else {
            if (start) frames++;
            requestAnimationFrame(frame);
          }
        };
        requestAnimationFrame(frame);
      }),
    { selector, done },
  );
  await page.locator(selector).click();
  return watch;
}

/** Makes the browser's geolocation fail with `code` (2: unavailable, 3: timeout), or never answer (`silent`). */
async function fakeGeolocation(page: Page, behaviour: { code: 2 | 3 } | 'silent'): Promise<void> {
  await page.addInitScript((behaviour) => {
    const fail = (error?: PositionErrorCallback | null) => {
      if (behaviour === 'silent' || !error) return;
      const messages: Record<number, string> = { 2: 'Position unavailable', 3: 'Timeout expired' };
      setTimeout(() => error({ code: behaviour.code, message: messages[behaviour.code]!, PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 } as GeolocationPositionError), 50);
    };
    navigator.geolocation.watchPosition = (_success, error) => (fail(error), 1);
    navigator.geolocation.getCurrentPosition = (_success, error) => fail(error);
    navigator.geolocation.clearWatch = () => undefined;
  }, behaviour);
}

const geolocate = (page: Page) => page.locator('.pinmap-geolocate');
const geolocateButton = (page: Page) => geolocate(page).getByRole('button');

test.describe('corners', () => {
  test('places the controls in their default corners, each corner marked with data-corner', async ({ page }) => {
    await openApp(page);
    const corner = (name: string) => page.locator(`.pinmap-corner[data-corner="${name}"]`);
    await expect(page.locator('.pinmap-corner')).toHaveCount(4);
    await expect(corner('top-left').locator('.pinmap-fullscreen')).toHaveCount(1);
    await expect(corner('top-right').locator('.pinmap-navigation')).toHaveCount(1);
    await expect(corner('top-right').locator('.pinmap-geolocate')).toHaveCount(1);
    await expect(corner('bottom-left').locator('.pinmap-scale')).toHaveCount(1);
    await expect(corner('bottom-right').locator('.pinmap-attrib')).toHaveCount(1);
    // 10 px from the edges, like MapLibre's.
    const box = await page.locator('.pinmap-fullscreen').boundingBox();
    expect(box).toMatchObject({ x: 10, y: 10, width: 29, height: 29 });
    const nav = await page.locator('.pinmap-navigation').boundingBox();
    expect(nav!.x + nav!.width).toBe(790);
  });

  test('moves and hides controls as config says', async ({ page }) => {
    await openApp(page, { controls: { scale: 'top-right', geolocate: false, fullscreen: 'bottom-right' } });
    await expect(page.locator('[data-corner="top-right"] .pinmap-scale')).toHaveCount(1);
    await expect(page.locator('[data-corner="bottom-right"] .pinmap-fullscreen')).toHaveCount(1);
    await expect(page.locator('.pinmap-geolocate')).toHaveCount(0);
    await expect(page.locator('[data-corner="top-left"] > *')).toHaveCount(0);
  });

  test('takes its titles from the locale table, overridden by config', async ({ mapPage: page }) => {
    await openApp(page, { locale: { 'NavigationControl.ZoomIn': 'Plus près', 'FullscreenControl.Enter': 'Plein écran' } });
    await expect(page.getByRole('button', { name: 'Plus près' })).toHaveAttribute('title', 'Plus près');
    await expect(page.getByRole('button', { name: 'Plein écran' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Zoom out' })).toHaveAttribute('title', 'Zoom out');
  });
});

test.describe('zoom and compass', () => {
  test.use({ reducedMotion: 'no-preference' });

  test('zoom in and zoom out change the zoom in the address by 1, eased over about 500 ms', async ({ mapPage: page }) => {
    await openApp(page, {}, '#map=3/45/12');
    // Not before the ease's 500 ms, and done within a few frames after it (a software-rendered
    // frame on a busy machine can be long), so an instant, stuck or doubled ease fails.
    const zoomIn = await framesUntilAddress(page, '.pinmap-zoom-in', { zoom: 4 });
    expect(zoomIn.ms).toBeGreaterThan(450);
    expect(zoomIn.ms).toBeLessThan(500 + 3 * zoomIn.longestFrame + 150);
    await expect(page.locator('.pinmap-navigation')).toHaveAttribute('data-state', 'idle');
    expect((await addressCamera(page)).zoom).toBe(4);

    const zoomOut = await framesUntilAddress(page, '.pinmap-zoom-out', { zoom: 3 });
    expect(zoomOut.ms).toBeGreaterThan(450);
    expect(zoomOut.ms).toBeLessThan(500 + 3 * zoomOut.longestFrame + 150);
    test.info().annotations.push({ type: 'timing', description: `zoom in ${Math.round(zoomIn.ms)} ms, zoom out ${Math.round(zoomOut.ms)} ms (longest frame ${Math.round(Math.max(zoomIn.longestFrame, zoomOut.longestFrame))} ms)` });
  });

  test('the navigation control shows the camera machine animating while the ease runs', async ({ mapPage: page }) => {
    await openApp(page, {}, '#map=3/45/12');
    await page.locator('.pinmap-zoom-in').click();
    await expect(page.locator('.pinmap-navigation')).toHaveAttribute('data-state', 'animating');
    await expect(page.locator('.pinmap-navigation')).toHaveAttribute('data-state', 'idle');
  });

  test('zoom buttons are disabled at the maximum and minimum zoom', async ({ mapPage: page }) => {
    await openApp(page, { minZoom: 2, maxZoom: 4 }, '#map=4/45/12');
    await expect(page.getByRole('button', { name: 'Zoom in' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Zoom out' })).toBeEnabled();
    await page.evaluate(() => (location.hash = '#map=2/45/12'));
    await expect(page.getByRole('button', { name: 'Zoom out' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Zoom in' })).toBeEnabled();
  });

  test('the compass shows the bearing and returns it to 0 over about 1000 ms', async ({ mapPage: page }) => {
    await openApp(page, {}, '#map=3/45/12/60');
    const needle = page.locator('.pinmap-compass svg');
    await expect(needle).toHaveAttribute('style', /rotate\(-60deg\)/);
    const north = await framesUntilAddress(page, '.pinmap-compass', 'north');
    expect(north.ms).toBeGreaterThan(950);
    expect(north.ms).toBeLessThan(1000 + 3 * north.longestFrame + 150);
    await expect(needle).toHaveAttribute('style', /rotate\((-)?0deg\)/);
    test.info().annotations.push({ type: 'timing', description: `reset north ${Math.round(north.ms)} ms (longest frame ${Math.round(north.longestFrame)} ms)` });
  });

  test('a user rotation that ends within 7° of north snaps to north; one further off stays', async ({ mapPage: page }) => {
    await openApp(page, {}, '#map=3/45/12');
    const rotate = async (dx: number) => {
      await page.mouse.move(400, 300);
      await page.mouse.down({ button: 'right' });
      await page.mouse.move(400 + dx, 300, { steps: 5 });
      await page.mouse.up({ button: 'right' });
    };
    await rotate(8); // a few degrees
    await expect.poll(async () => (await addressCamera(page)).bearing).toBe(0);
    await expect(page.locator('.pinmap-navigation')).toHaveAttribute('data-state', 'idle');
    await rotate(120);
    await waitForMapState(page, 'idle');
    expect(Math.abs((await addressCamera(page)).bearing)).toBeGreaterThan(7);
  });

  test('a drag interrupts the reset-north ease: the camera machine records it as interrupted', async ({ mapPage: page }) => {
    await openApp(page, {}, '#map=3/45/12/90');
    // The pointer waits over the map, so the drag begins right after the click, well inside the
    // 1000 ms ease.
    await page.mouse.move(400, 300);
    await page.evaluate(() => document.querySelector<HTMLButtonElement>('.pinmap-compass')!.click());
    await page.mouse.down();
    await page.mouse.move(300, 250, { steps: 4 });
    await page.mouse.up();
    const navigation = page.locator('.pinmap-navigation');
    await expect(navigation).toHaveAttribute('data-state', 'idle');
    await expect(navigation).toHaveAttribute('data-last-animation', 'resetNorth interrupted');
    await waitForMapState(page, 'idle');
    const { bearing } = await addressCamera(page);
    expect(bearing).toBeGreaterThan(7); // stopped on the way, and no snap: the user did not rotate
    expect(bearing).toBeLessThanOrEqual(90);
  });
});

test.describe('reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });

  test('makes the zoom buttons and the compass instant', async ({ mapPage: page }) => {
    await openApp(page, {}, '#map=3/45/12/40');
    // Instant: the address shows the new camera on the first frames after the click, however
    // slow the frames of a software-rendered map are.
    const zoomIn = await framesUntilAddress(page, '.pinmap-zoom-in', { zoom: 4 });
    expect(zoomIn.frames).toBeLessThanOrEqual(2);
    const north = await framesUntilAddress(page, '.pinmap-compass', 'north');
    expect(north.frames).toBeLessThanOrEqual(2);
  });

  test('is followed when the preference changes while the page is open', async ({ page }) => {
    await openApp(page, {}, '#map=3/45/12');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    const eased = await timeUntilAddress(page, '.pinmap-zoom-in', { zoom: 4 });
    expect(eased).toBeGreaterThan(400);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const instant = await framesUntilAddress(page, '.pinmap-zoom-out', { zoom: 3 });
    expect(instant.frames).toBeLessThanOrEqual(2);
  });
});

test.describe('geolocation', () => {
  test.use({ geolocation: { longitude: 20, latitude: 10, accuracy: 700 }, permissions: ['geolocation'] });

  test('granted: ACTIVE_LOCK with the camera on the position at zoom 15 or less, the dot and its accuracy circle', async ({ page }) => {
    await openApp(page, {}, '#map=2/45/12');
    await expect(geolocate(page)).toHaveAttribute('data-state', 'OFF');
    await expect(geolocateButton(page)).toHaveAttribute('title', 'Find my location');
    await geolocateButton(page).click();
    await expect(geolocate(page)).toHaveAttribute('data-state', 'ACTIVE_LOCK');
    await expect(geolocateButton(page)).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('.pinmap-user-dot')).toBeVisible();
    await expect(page.locator('.pinmap-navigation')).toHaveAttribute('data-last-animation', 'fitToLocation ended');
    await waitForMapState(page, 'idle');
    const camera = await addressCamera(page);
    expect(camera.zoom).toBeGreaterThan(10);
    expect(camera.zoom).toBeLessThanOrEqual(15);
    expect(camera.lat).toBeCloseTo(10, 2);
    expect(camera.lng).toBeCloseTo(20, 2);

    // The accuracy circle: 2·700 m over the metres per pixel at latitude 10 and zoom 12.
    await goToAddress(page, '#map=12/10/20');
    await expect(geolocate(page)).toHaveAttribute('data-state', 'ACTIVE_LOCK'); // a jump by code is no user move
    const circle = await page.locator('.pinmap-user-accuracy').boundingBox();
    expect(circle!.width).toBeCloseTo(74.48, 1);
    expect(circle!.height).toBeCloseTo(74.48, 1);
  });

  test('a drag while locked goes to BACKGROUND, a click comes back to ACTIVE_LOCK on the position', async ({ page }) => {
    await openApp(page, {}, '#map=2/45/12');
    await geolocateButton(page).click();
    await expect(geolocate(page)).toHaveAttribute('data-state', 'ACTIVE_LOCK');
    await waitForMapState(page, 'idle');
    await page.mouse.move(400, 300);
    await page.mouse.down();
    await page.mouse.move(250, 200, { steps: 6 });
    await page.mouse.up();
    await expect(geolocate(page)).toHaveAttribute('data-state', 'BACKGROUND');
    await waitForMapState(page, 'idle');
    expect(Math.abs((await addressCamera(page)).lng - 20)).toBeGreaterThan(0.001);

    await geolocateButton(page).click();
    await expect(geolocate(page)).toHaveAttribute('data-state', 'ACTIVE_LOCK');
    await waitForMapState(page, 'idle');
    await expect.poll(async () => (await addressCamera(page)).lng).toBeCloseTo(20, 2);
  });

  test('panning with the keyboard while locked goes to BACKGROUND too', async ({ page }) => {
    await openApp(page, {}, '#map=2/45/12');
    await geolocateButton(page).click();
    await expect(geolocate(page)).toHaveAttribute('data-state', 'ACTIVE_LOCK');
    await waitForMapState(page, 'idle');
    await page.locator('canvas.maplibregl-canvas').focus();
    await page.keyboard.press('ArrowRight');
    await expect(geolocate(page)).toHaveAttribute('data-state', 'BACKGROUND');
  });

  test('zooming keeps the lock; a second click turns locating off and removes the dot', async ({ page }) => {
    await openApp(page, {}, '#map=2/45/12');
    await geolocateButton(page).click();
    await expect(geolocate(page)).toHaveAttribute('data-state', 'ACTIVE_LOCK');
    await waitForMapState(page, 'idle');
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await waitForMapState(page, 'idle');
    await expect(geolocate(page)).toHaveAttribute('data-state', 'ACTIVE_LOCK');
    await geolocateButton(page).click();
    await expect(geolocate(page)).toHaveAttribute('data-state', 'OFF');
    await expect(geolocateButton(page)).toHaveAttribute('aria-pressed', 'false');
    await expect(page.locator('.pinmap-user-dot')).toHaveCount(0);
  });

  test('config fitToUserLocation false shows the position without moving the camera', async ({ page }) => {
    await openApp(page, { fitToUserLocation: false }, '#map=2/45/12');
    await geolocateButton(page).click();
    await expect(geolocate(page)).toHaveAttribute('data-state', 'ACTIVE_LOCK');
    await expect(page.locator('.pinmap-user-dot')).toHaveCount(1);
    await waitForMapState(page, 'idle');
    expect(await addressCamera(page)).toMatchObject({ zoom: 2, lat: 45, lng: 12 });
  });

  test('one-shot mode (trackUserLocation false) moves to the position once and finishes', async ({ page }) => {
    await openApp(page, { trackUserLocation: false }, '#map=2/45/12');
    await geolocateButton(page).click();
    await expect(geolocate(page)).toHaveAttribute('data-state', 'OFF');
    await expect(page.locator('.pinmap-user-dot')).toHaveCount(1);
    await expect(geolocateButton(page)).not.toHaveAttribute('aria-pressed');
    await waitForMapState(page, 'idle');
    await expect.poll(async () => (await addressCamera(page)).lat).toBeCloseTo(10, 2);
  });

  test('on an insecure page the button is disabled and says location needs a secure page', async ({ page }) => {
    await page.addInitScript(() => Object.defineProperty(window, 'isSecureContext', { get: () => false }));
    await openApp(page);
    await expect(geolocate(page)).toHaveAttribute('data-state', 'UNAVAILABLE');
    await expect(geolocateButton(page)).toBeDisabled();
    await expect(geolocateButton(page)).toHaveAttribute('title', 'Location needs a secure (https) page');
  });
});

test.describe('geolocation refused or failing', () => {
  test('a denied permission disables the button with the title Location not available', async ({ page }) => {
    const console = watchConsole(page);
    await openApp(page, {}, '#map=2/45/12');
    await geolocateButton(page).click();
    await expect(geolocate(page)).toHaveAttribute('data-state', 'UNAVAILABLE');
    await expect(geolocateButton(page)).toBeDisabled();
    await expect(geolocateButton(page)).toHaveAttribute('title', 'Location not available');
    await expect(geolocateButton(page)).toHaveAccessibleName('Location not available');
    await expect(page.locator('.pinmap-user-dot')).toHaveCount(0);
    expect(console.errors).toEqual([]);
  });

  test('error code 2 while waiting shows ACTIVE_ERROR', async ({ page, context }) => {
    await context.grantPermissions(['geolocation']);
    await fakeGeolocation(page, { code: 2 });
    await openApp(page);
    await geolocateButton(page).click();
    await expect(geolocate(page)).toHaveAttribute('data-state', 'ACTIVE_ERROR');
    await expect(geolocateButton(page)).toBeEnabled();
    await geolocateButton(page).click();
    await expect(geolocate(page)).toHaveAttribute('data-state', 'OFF');
  });

  test('a one-shot locate the browser never answers finishes after 10 s', async ({ page, context }) => {
    test.setTimeout(40_000);
    await context.grantPermissions(['geolocation']);
    await fakeGeolocation(page, 'silent');
    await openApp(page, { trackUserLocation: false });
    await geolocateButton(page).click();
    const started = Date.now();
    await expect(geolocate(page)).toHaveAttribute('data-state', 'ONE_SHOT');
    await expect(geolocate(page)).toHaveAttribute('data-state', 'OFF', { timeout: 15_000 });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThan(9_000);
    expect(elapsed).toBeLessThan(12_000);
  });
});

test.describe('attribution', () => {
  test.use({ basemap: 'embedded' }); // its credits
  for (const [width, compact] of [
    [640, true],
    [641, false],
  ] as const) {
    test(`at ${width} px wide it is ${compact ? 'compact, and open at first' : 'full'}`, async ({ page }) => {
      await page.setViewportSize({ width, height: 480 });
      await openApp(page, { style: EMBEDDED_STYLE_PATH });
      const attribution = page.locator('.pinmap-attrib');
      await expect(attribution).toHaveAttribute('data-state', compact ? 'compact.expanded' : 'full');
      await expect(attribution).toContainText('Natural Earth');
      await expect(attribution.getByRole('link', { name: 'Natural Earth' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Toggle attribution' })).toHaveCount(compact ? 1 : 0);
    });
  }

  test('compact: the first drag collapses it, the toggle opens and closes it; widening makes it full', async ({ page }) => {
    await page.setViewportSize({ width: 640, height: 480 });
    await openApp(page, { style: EMBEDDED_STYLE_PATH });
    const attribution = page.locator('.pinmap-attrib');
    const toggle = page.getByRole('button', { name: 'Toggle attribution' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await page.mouse.move(300, 200);
    await page.mouse.down();
    await page.mouse.move(200, 150, { steps: 5 });
    await page.mouse.up();
    await expect(attribution).toHaveAttribute('data-state', 'compact.collapsed');
    await expect(attribution.getByText('Natural Earth')).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(attribution).toHaveAttribute('data-state', 'compact.opened');
    await expect(attribution.getByText('Natural Earth')).toBeVisible();
    await toggle.click();
    await expect(attribution).toHaveAttribute('data-state', 'compact.collapsed');

    await page.setViewportSize({ width: 641, height: 480 });
    await expect(attribution).toHaveAttribute('data-state', 'full');
    await expect(attribution.getByText('Natural Earth')).toBeVisible();
    await page.setViewportSize({ width: 640, height: 480 });
    await expect(attribution).toHaveAttribute('data-state', 'compact.expanded');
  });

  test('gathers the credits of visible sources only, once each, and follows the zoom', async ({ mapPage: page }) => {
    await serveJson(page, '/__test/credits-style.json', {
      version: 8,
      sources: {
        a: { type: 'geojson', data: { type: 'FeatureCollection', features: [] }, attribution: '© Alpha' },
        b: { type: 'geojson', data: { type: 'FeatureCollection', features: [] }, attribution: '© Beta maps' },
        c: { type: 'geojson', data: { type: 'FeatureCollection', features: [] }, attribution: '© Gamma' },
      },
      layers: [
        { id: 'bg', type: 'background', paint: { 'background-color': '#eee' } },
        { id: 'a1', type: 'circle', source: 'a' },
        { id: 'a2', type: 'line', source: 'a' },
        { id: 'b', type: 'circle', source: 'b', minzoom: 5 },
        { id: 'c', type: 'circle', source: 'c', layout: { visibility: 'none' } },
      ],
    });
    await openApp(page, { style: '/__test/credits-style.json' }, '#map=3/0/0');
    const text = page.locator('.pinmap-attrib-text');
    await expect(text).toHaveText('© Alpha');
    await page.evaluate(() => (location.hash = '#map=6/0/0'));
    await expect(text).toHaveText('© Alpha | © Beta maps');
  });

  test('renders credits as text: markup from a source never becomes elements, only http(s) links do', async ({ mapPage: page }) => {
    const console = watchConsole(page);
    await page.exposeFunction('pinmapPwned', () => console.errors.push('script ran'));
    await serveJson(page, '/__test/evil-style.json', {
      version: 8,
      sources: {
        evil: {
          type: 'geojson',
          data: { type: 'FeatureCollection', features: [] },
          attribution: '<img src=x onerror="pinmapPwned()"><script>pinmapPwned()</script><a href="javascript:pinmapPwned()">Click</a> &lt;b&gt; <a href="https://example.com/">Example</a>',
        },
      },
      layers: [{ id: 'evil', type: 'circle', source: 'evil' }],
    });
    await openApp(page, { style: '/__test/evil-style.json' });
    const attribution = page.locator('.pinmap-attrib-text');
    await expect(attribution).toHaveText('Click <b> Example');
    await expect(attribution.locator('img, script, b')).toHaveCount(0);
    await expect(attribution.locator('a')).toHaveCount(1);
    await expect(attribution.locator('a')).toHaveAttribute('href', 'https://example.com/');
    expect(console.errors).toEqual([]);
  });
});

test.describe('fullscreen', () => {
  test('enters and leaves fullscreen with the Fullscreen API', async ({ mapPage: page }) => {
    await openApp(page);
    const control = page.locator('.pinmap-fullscreen');
    await page.getByRole('button', { name: 'Enter fullscreen' }).click();
    await expect(control).toHaveAttribute('data-state', 'on');
    expect(await page.evaluate(() => document.fullscreenElement?.classList.contains('pinmap'))).toBe(true);
    await page.getByRole('button', { name: 'Exit fullscreen' }).click();
    await expect(control).toHaveAttribute('data-state', 'off');
    expect(await page.evaluate(() => document.fullscreenElement)).toBeNull();
    await expect(page.getByRole('button', { name: 'Enter fullscreen' })).toHaveAttribute('title', 'Enter fullscreen');
  });

  test('a view switch while fullscreen keeps saying so, and the new control leaves it', async ({ mapPage: page }) => {
    await openApp(page, { controls: { view: 'top-left' } });
    const control = page.locator('.pinmap-fullscreen');
    await page.getByRole('button', { name: 'Enter fullscreen' }).click();
    await expect(control).toHaveAttribute('data-state', 'on');
    await page.getByRole('group', { name: 'Map view' }).getByRole('button', { name: 'Hybrid' }).click();
    await expect(page.locator('.pinmap')).toHaveAttribute('data-view', 'hybrid');
    await waitForMapState(page, 'idle');
    expect(await page.evaluate(() => document.fullscreenElement?.classList.contains('pinmap'))).toBe(true);
    await expect(control).toHaveAttribute('data-state', 'on');
    await page.getByRole('button', { name: 'Exit fullscreen' }).click();
    await expect(control).toHaveAttribute('data-state', 'off');
    expect(await page.evaluate(() => document.fullscreenElement)).toBeNull();
  });

  test('fills the window where the Fullscreen API is missing, and Esc leaves', async ({ mapPage: page }) => {
    await page.addInitScript(() => {
      for (const name of ['fullscreenEnabled', 'webkitFullscreenEnabled', 'exitFullscreen', 'webkitExitFullscreen']) delete (Document.prototype as unknown as Record<string, unknown>)[name];
      for (const name of ['requestFullscreen', 'webkitRequestFullscreen']) delete (Element.prototype as unknown as Record<string, unknown>)[name];
    });
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>embed</title><link rel="stylesheet" href="/lib/pinmap.css"></head>
<body style="margin:0"><p style="height:100px;margin:0">Page text</p><div id="map" style="width:300px;height:200px"></div>
<script type="module">import { createPinmap } from '/lib/pinmap-embed.js'; window.handle = createPinmap('map', {});</script></body></html>`;
    await page.route((url) => url.pathname === '/__test/embed-page.html', (route) => route.fulfill({ contentType: 'text/html', body: html }));
    await page.goto('/__test/embed-page.html');
    await waitForMapState(page, 'idle');
    const root = page.locator('.pinmap');
    expect(await root.boundingBox()).toMatchObject({ x: 0, y: 100, width: 300, height: 200 });
    await page.getByRole('button', { name: 'Enter fullscreen' }).click();
    await expect(page.locator('.pinmap-fullscreen')).toHaveAttribute('data-state', 'pseudo');
    expect(await root.boundingBox()).toMatchObject({ x: 0, y: 0, width: 800, height: 600 });
    await expect(page.locator('canvas.maplibregl-canvas')).toHaveAttribute('style', /width: 800px/);
    await page.keyboard.press('Escape');
    await expect(page.locator('.pinmap-fullscreen')).toHaveAttribute('data-state', 'off');
    expect(await root.boundingBox()).toMatchObject({ x: 0, y: 100, width: 300, height: 200 });
  });
});

test.describe('scale', () => {
  /** MapLibre's own ScaleControl on a map of the same size and camera (a page of the development server). */
  async function maplibreScale(browser: Browser, unit: string, camera: { zoom: number; lat: number; lng: number }) {
    const reference = await browser.newPage({ viewport: { width: 800, height: 600 } });
    try {
      await reference.goto(`http://127.0.0.1:${DEV_PORT}/tests/pages/scale-reference.html?lng=${camera.lng}&lat=${camera.lat}&zoom=${camera.zoom}&unit=${unit}`);
      const handle = await reference.waitForFunction(() => (window as unknown as { referenceScale?: { text: string; width: number } }).referenceScale, undefined, { timeout: 30_000 });
      return (await handle.jsonValue())!;
    } finally {
      await reference.close();
    }
  }

  async function ourScale(page: Page, unit: string, camera: { zoom: number; lat: number; lng: number }) {
    await openApp(page, { units: unit }, `#map=${camera.zoom}/${camera.lat}/${camera.lng}`);
    const scale = page.locator('.pinmap-scale');
    await expect(scale).toHaveAttribute('data-state', unit);
    return scale.evaluate((element) => ({ text: element.textContent ?? '', width: parseFloat((element as HTMLElement).style.width) }));
  }

  for (const [unit, camera] of [
    ['metric', { zoom: 5.5, lat: 45, lng: 12 }],
    ['metric', { zoom: 13.2, lat: -33.9, lng: 151.2 }],
    ['imperial', { zoom: 5.5, lat: 45, lng: 12 }],
    ['imperial', { zoom: 13.2, lat: -33.9, lng: 151.2 }],
    ['nautical', { zoom: 5.5, lat: 45, lng: 12 }],
    ['nautical', { zoom: 15, lat: 0, lng: 0 }],
  ] as const) {
    test(`${unit} at zoom ${camera.zoom}, latitude ${camera.lat} shows what MapLibre's own scale shows`, async ({ mapPage: page, browser }) => {
      const expected = await maplibreScale(browser, unit, camera);
      const ours = await ourScale(page, unit, camera);
      expect(ours.text).toBe(expected.text);
      expect(ours.width).toBeCloseTo(expected.width, 2);
      expect(ours.width).toBeLessThanOrEqual(100);
    });
  }

  test("below one unit, where MapLibre's bar grows past 100 px, ours keeps one digit less and stays within it", async ({ mapPage: page, browser }) => {
    const camera = { zoom: 13.2, lat: -33.9, lng: 151.2 };
    const expected = await maplibreScale(browser, 'nautical', camera);
    const ours = await ourScale(page, 'nautical', camera);
    // 0.3724 nm across 100 px: MapLibre rounds to 0.4 nm (107 px), Pinmap down to 0.3 nm (81 px).
    expect(expected).toMatchObject({ text: '0.4\u00a0nm' });
    expect(expected.width).toBeGreaterThan(100);
    expect(ours.text).toBe('0.3\u00a0nm');
    expect(ours.width).toBeCloseTo((expected.width * 3) / 4, 2);
  });

  test('a click cycles metric → imperial → nautical → metric, and the choice is remembered', async ({ mapPage: page }) => {
    await openApp(page, {}, '#map=10/0/0');
    const scale = page.locator('.pinmap-scale');
    await expect(scale).toHaveText('5\u00a0km');
    await scale.click();
    await expect(scale).toHaveAttribute('data-state', 'imperial');
    await expect(scale).toHaveText('3\u00a0mi');
    await scale.click();
    await expect(scale).toHaveText('3\u00a0nm');
    await page.reload();
    await waitForMapState(page, 'idle');
    await expect(scale).toHaveAttribute('data-state', 'nautical');
    await scale.click();
    await expect(scale).toHaveAttribute('data-state', 'metric');
  });
});

test.describe('keyboard and accessibility', () => {
  test.use({ basemap: 'embedded' }); // its credits are links the Tab reaches
  test('Tab reaches every control, each with a visible focus ring', async ({ mapPage: page }) => {
    await openApp(page, { style: EMBEDDED_STYLE_PATH }); // its credits are links the Tab reaches
    const names: string[] = [];
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element || element === document.body) return null;
        const style = getComputedStyle(element);
        return { name: element.getAttribute('aria-label') ?? element.textContent ?? '', outline: `${style.outlineStyle} ${style.outlineWidth}` };
      });
      if (!focused) continue;
      names.push(focused.name);
      if (focused.name !== 'Map') expect(focused.outline, `focus ring on ${focused.name}`).toBe('solid 2px');
    }
    for (const name of ['Enter fullscreen', 'Zoom in', 'Zoom out', 'Reset bearing to north', 'Find my location', 'Natural Earth']) {
      expect(names).toContain(name);
    }
    expect(names.some((name) => /^\d+\u00a0km$/.test(name)), `the scale among ${names.join(', ')}`).toBe(true);
  });

  test('the focus ring shows in the pixels', async ({ mapPage: page }) => {
    await openApp(page);
    const button = page.getByRole('button', { name: 'Zoom in' });
    const region = async () => page.screenshot({ clip: { x: 755, y: 5, width: 40, height: 40 } });
    const before = await region();
    await button.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab'); // focus by keyboard, so :focus-visible applies
    const after = await region();
    expect(after.equals(before)).toBe(false);
  });

  test('Enter and Space activate the buttons', async ({ mapPage: page }) => {
    await openApp(page, {}, '#map=3/45/12');
    await page.getByRole('button', { name: 'Zoom in' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await addressCamera(page)).zoom).toBe(4);
    await page.getByRole('button', { name: 'Zoom out' }).focus();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await addressCamera(page)).zoom).toBe(3);
    await page.locator('.pinmap-scale').focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('.pinmap-scale')).toHaveAttribute('data-state', 'imperial');
  });

  for (const width of [800, 640]) {
    test(`axe-core finds no violations at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 600 });
      await openApp(page);
      const results = await axe(page).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
    });
  }
});
