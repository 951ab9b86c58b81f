import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '../tests/test.ts';
import { disableWebGL, drivenGeolocation, serveJson, waitForMapState, watchConsole } from '../tests/helpers.ts';
import { compareImages, isUniform } from './compare.ts';
import { OUTPUT_DIR, recordResult } from './report.ts';
import { scenes, type Scene } from './scenes.ts';
import { updatesBaselines } from './update.ts';

const BASELINE_DIR = 'visual/baseline';
/** The development server's port (as playwright.config.ts has it), for the React scenes. */
const DEV_PORT = Number(process.env.PINMAP_DEV_PORT ?? 5173);
/** Throws (failing the run before any scene) when asked to rewrite the baselines under CI. */
const UPDATE = updatesBaselines(process.env);

test.describe.configure({ retries: 0 });

/**
 * A scene draws in a page kept for the scenes of its screen (viewport and pixel ratio), with a
 * new document each time (`mapPage`); one that is given a position, or a glide (motion, a clock),
 * has a context of its own.
 */
const ownContext = (scene: Scene) => scene.geolocation !== undefined || scene.glide !== undefined;
const byScreen = new Map<string, Scene[]>();
for (const scene of scenes) {
  if (ownContext(scene)) continue;
  const key = JSON.stringify([scene.viewport, scene.deviceScaleFactor]);
  byScreen.set(key, [...(byScreen.get(key) ?? []), scene]);
}
for (const group of byScreen.values()) {
  test.describe(() => {
    test.use({ viewport: group[0]!.viewport, deviceScaleFactor: group[0]!.deviceScaleFactor, reducedMotion: 'reduce' });
    for (const scene of group) test(scene.name, async ({ mapPage: page }) => draw(page, scene));
  });
}
for (const scene of scenes.filter(ownContext)) {
  test(scene.name, async ({ browser }) => {
    const context = await browser.newContext({
      viewport: scene.viewport,
      deviceScaleFactor: scene.deviceScaleFactor,
      reducedMotion: scene.glide ? 'no-preference' : 'reduce',
      ...(scene.geolocation ? { geolocation: scene.geolocation, permissions: ['geolocation'] } : {}),
    });
    try {
      await draw(await context.newPage(), scene);
    } finally {
      await context.close();
    }
  });
}

async function draw(page: Page, scene: Scene): Promise<void> {
  const console = watchConsole(page);
  const shot = await capture(page, scene);
  expect(console.errors, 'console errors while rendering the scene').toEqual([]);
  if (scene.capture === 'map' && scene.expectState !== 'error') {
    expect(isUniform(shot), 'the map canvas is blank (uniform colour): WebGL drew nothing').toBe(false);
  }
  check(scene, shot);
}

async function capture(page: Page, scene: Scene): Promise<Buffer> {
  if (scene.webgl === false) await disableWebGL(page);
  if (scene.drivenGeolocation) await drivenGeolocation(page);
  const stream = scene.glide ? await holdStream(page, `/__visual/${scene.name}.events`, scene.glide.event) : undefined;
  const settings = { ...(stream ? { pinsStream: stream.path } : {}), fadeDuration: 0, preserveDrawingBuffer: true, pixelRatio: scene.deviceScaleFactor };
  if (scene.react) {
    // The React test page, which only the development server serves (the Playwright config starts it too).
    const props = { ...scene.react, config: { ...scene.react.config, ...settings } };
    await page.goto(`http://127.0.0.1:${DEV_PORT}/tests/pages/react-api.html?props=${encodeURIComponent(JSON.stringify(props))}`);
  } else {
    const configPath = `/__visual/${scene.name}.json`;
    await serveJson(page, configPath, { ...scene.config, ...settings });
    await page.goto(`/?config=${encodeURIComponent(configPath)}${scene.address ?? ''}`);
  }
  await waitForSceneState(page, scene);
  if (scene.glide && stream) await glideHalfWay(page, scene.glide, stream);
  for (const action of scene.actions ?? []) {
    const waits = action.type === 'waitForState' || action.type === 'waitForSelector';
    if (!waits) await watchForReaction(page);
    await perform(page, action);
    if (!waits) await waitForReaction(page);
    await waitForSceneState(page, scene);
  }
  if (!scene.glide) await settle(page);
  const options = { animations: 'disabled', caret: 'hide', scale: 'device' } as const;
  return scene.capture === 'page' ? page.screenshot(options) : page.locator('.pinmap').first().screenshot(options);
}

/**
 * Answers the pin stream at `path` with one event, and only when `send` is called; a connection
 * after it is held open, silent. `asked` resolves once the map has asked for the stream.
 */
async function holdStream(page: Page, path: string, event: unknown): Promise<{ path: string; asked: Promise<void>; send: () => void }> {
  let send = () => {};
  const sent = new Promise<void>((done) => (send = done));
  let heard = () => {};
  const asked = new Promise<void>((done) => (heard = done));
  let answered = false;
  await page.route((url) => url.pathname === path, async (route) => {
    heard();
    await sent;
    if (answered) return;
    answered = true;
    await route.fulfill({ status: 200, contentType: 'text/event-stream', body: `data: ${JSON.stringify(event)}\n\n` });
  });
  // Playwright's clock, installed before the page's scripts run: time flows until it is paused.
  await page.clock.install({ time: new Date('2026-01-01T00:00:00Z') });
  return { path, asked, send };
}

/**
 * With the map idle and the stream asked for: stops the clock on a frame's edge, sends the event,
 * waits (in real time, the clock stopped) for its added pin, so the glides begin at the stopped
 * time, then runs the clock `at` ms: the last frame drawn is `at` ms into the glide.
 */
async function glideHalfWay(page: Page, glide: NonNullable<Scene['glide']>, stream: { asked: Promise<void>; send: () => void }): Promise<void> {
  await stream.asked;
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  // Frames come every 16 ms of the clock's ticks (`performance.now()`): on to the next edge.
  const ticks = await page.evaluate(() => performance.now());
  await page.clock.runFor(16 - (ticks % 16));
  expect(await page.evaluate(() => performance.now() % 16), 'the clock stopped on a frame edge').toBeCloseTo(0, 6);
  stream.send();
  await expect(page.locator(`.pinmap-pin[data-pin-id="${glide.added}"]`), 'the event\'s added pin never showed').toBeVisible();
  await page.clock.runFor(glide.at);
}

/**
 * Waits for the map's state the scene expects. The no-streets note (past zoom 11 on the embedded
 * basemap) takes a strip of the map's box for a few seconds, then fades out by itself: a scene is
 * the map once it has, so its fade is run to its end, and the map is waited for again once its
 * strip has gone (the map's box grows back and pans back under it, as it was).
 */
async function waitForSceneState(page: Page, scene: Scene): Promise<void> {
  await waitForMapState(page, scene.expectState ?? 'idle');
  const note = page.locator('.pinmap-basemap-note');
  if ((await note.count()) === 0) return;
  await note.evaluate((element) => {
    for (const animation of element.getAnimations()) animation.finish();
  });
  await expect(note).toHaveCount(0);
  // The pan back has reached the map's state by the next frames.
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  await waitForMapState(page, scene.expectState ?? 'idle');
}

/** Starts noting whether the map's state changes (it leaves idle when an action moves it or loads tiles). */
async function watchForReaction(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { pinmapReacted?: boolean; pinmapReaction?: MutationObserver };
    w.pinmapReaction?.disconnect();
    w.pinmapReacted = false;
    w.pinmapReaction = new MutationObserver(() => (w.pinmapReacted = true));
    w.pinmapReaction.observe(document.body, { attributes: true, attributeFilter: ['data-map-state'], subtree: true });
  });
}

/**
 * The map handles input on its next frame, so right after an action it may still say idle from
 * before. Waits until its state has changed since `watchForReaction`, or, for an action that
 * changes nothing on the map, for 6 frames and 300 ms (a reaction starts within a frame or two),
 * so the wait for idle that follows is the new one.
 */
async function waitForReaction(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const w = window as unknown as { pinmapReacted?: boolean; pinmapReaction?: MutationObserver };
    const started = performance.now();
    for (let frames = 0; !w.pinmapReacted && (frames < 6 || performance.now() - started < 300); frames++) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    w.pinmapReaction?.disconnect();
  });
}

/** Fonts loaded and two frames drawn since the last change. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
  });
}

async function perform(page: Page, action: NonNullable<Scene['actions']>[number]): Promise<void> {
  switch (action.type) {
    case 'click':
      return page.locator(action.selector).first().click();
    case 'press':
      return page.keyboard.press(action.key);
    case 'type':
      return page.keyboard.type(action.text);
    case 'drag':
      await page.mouse.move(...action.from);
      await page.mouse.down();
      await page.mouse.move(...action.to, { steps: 10 });
      return page.mouse.up();
    case 'wheel':
      await page.mouse.move(...action.at);
      return page.mouse.wheel(0, action.deltaY);
    case 'geolocation':
      return page.evaluate((action) => {
        const driven = (window as unknown as { pinmapGeolocation: { send(): void; fail(code: number): void } }).pinmapGeolocation;
        if (action.send === 'position') driven.send();
        else driven.fail(action.code);
      }, action);
    case 'waitForState':
      return expect(page.locator(action.selector).first(), `${action.selector} never reached data-state="${action.state}"`).toHaveAttribute('data-state', action.state);
    case 'clickAt':
      return page.mouse.click(...action.at);
    case 'waitForSelector':
      return expect(page.locator(action.selector).first(), `${action.selector} never showed`).toBeVisible();
  }
}

function check(scene: Scene, shot: Buffer): void {
  const baseline = join(BASELINE_DIR, `${scene.name}.png`);
  const chromium = process.env.PINMAP_CHROMIUM_VERSION ?? 'unknown';
  const base = { scene: scene.name, description: scene.description, chromium };
  if (UPDATE) {
    mkdirSync(BASELINE_DIR, { recursive: true });
    writeFileSync(baseline, shot);
    recordResult({ ...base, status: 'updated', message: `baseline written to ${baseline}` });
    return;
  }
  const outDir = join(OUTPUT_DIR, 'images');
  mkdirSync(outDir, { recursive: true });
  const actual = join(outDir, `${scene.name}.actual.png`);
  if (!existsSync(baseline)) {
    writeFileSync(actual, shot);
    const message = `no baseline for scene "${scene.name}": look at ${actual}, then run \`npm run visual:update -- --grep ${scene.name}\``;
    recordResult({ ...base, status: 'failed', message, actual });
    throw new Error(message);
  }
  const expected = readFileSync(baseline);
  let comparison;
  try {
    comparison = compareImages(expected, shot, scene.tolerance);
  } catch (error) {
    writeFileSync(actual, shot);
    const message = (error as Error).message;
    recordResult({ ...base, status: 'failed', message, baseline, actual });
    throw error;
  }
  if (comparison.pass) {
    recordResult({ ...base, status: 'passed', message: 'matches the baseline', diffPixels: comparison.diffPixels, allowedPixels: comparison.allowedPixels, baseline });
    return;
  }
  const diff = join(outDir, `${scene.name}.diff.png`);
  writeFileSync(actual, shot);
  writeFileSync(diff, comparison.diff);
  const message = `${comparison.diffPixels} pixels differ from the baseline (allowed ${comparison.allowedPixels}); see visual/output/report.html`;
  recordResult({ ...base, status: 'failed', message, diffPixels: comparison.diffPixels, allowedPixels: comparison.allowedPixels, baseline, actual, diff });
  throw new Error(`Scene "${scene.name}": ${message}`);
}
