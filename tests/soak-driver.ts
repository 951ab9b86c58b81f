import type { Page } from '@playwright/test';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { watchCsp, type CspViolation } from './csp-violations.ts';
import { watchConsole } from './helpers.ts';
import { countWebGLContexts, liveWebGLContexts } from './webgl-contexts.ts';

/**
 * A seeded random session with the app, as a restless user has it: drags, wheel zooms, the zoom
 * buttons, rotations and the compass, pins and their popups (closed with Esc, the close button or
 * a click on the map), cluster bubbles, fullscreen, window and container resizes, view switches,
 * and geolocation that succeeds, fails (timeout, position unavailable) or is denied. After every
 * step the page must settle with every machine consistent with its control (`data-state`,
 * titles, `disabled`, `aria-pressed`, what the map shows), and nothing may reach the console as
 * an error or be refused by the Content Security Policy.
 *
 * Used by `npm run soak` (scripts/soak.ts, five minutes) and by a short run in the browser suite
 * (tests/soak.spec.ts).
 */

export const STEP_KINDS = [
  'drag',
  'wheel',
  'zoomIn',
  'zoomOut',
  'rotate',
  'compass',
  'pinClick',
  'popupClose',
  'bubbleClick',
  'fullscreen',
  'windowResize',
  'containerResize',
  'viewSwitch',
  'geolocation',
] as const;
export type StepKind = (typeof STEP_KINDS)[number];

const GEOLOCATION_OUTCOMES = ['success', 'timeout', 'unavailable', 'denial'] as const;
type GeolocationOutcome = (typeof GEOLOCATION_OUTCOMES)[number];

/** How often each kind is drawn after the first round, which has every kind and every geolocation outcome once. */
const WEIGHTS: Record<StepKind, number> = {
  drag: 3,
  wheel: 3,
  zoomIn: 1,
  zoomOut: 1,
  rotate: 1,
  compass: 1,
  pinClick: 3,
  popupClose: 2,
  bubbleClick: 1,
  fullscreen: 1,
  windowResize: 1,
  containerResize: 1,
  viewSwitch: 1,
  geolocation: 3,
};

/** Places a successful geolocation reports: near pins of the default set, so popups stay within reach. */
const PLACES: [number, number][] = [
  [2.35, 48.86],
  [13.4, 52.52],
  [-0.12, 51.5],
  [12.5, 41.9],
  [-3.7, 40.42],
  [139.69, 35.68],
  [-74.0, 40.71],
  [28.95, 41.01],
  [151.2, -33.87],
  [-43.2, -22.9],
];

export interface SoakFigures {
  seed: number;
  durationMs: number;
  steps: Record<StepKind, number>;
  /** Draws that could not run as drawn (no pin in view, a disabled button, no popup open) and were drawn again. */
  redrawn: number;
  popupsOpened: number;
  popupsClosed: { escape: number; button: number; map: number };
  geolocation: { successes: number; timeouts: number; unavailable: number; denials: number; allowedAgain: number; turnedOff: number };
  resizes: { window: number; container: number };
  viewSwitches: number;
  /** Consistency checks passed (one after every step, one at the end). */
  checks: number;
  webgl: { created: number; alive: number };
  consoleErrors: string[];
  cspViolations: CspViolation[];
}

export interface SoakOptions {
  seed: number;
  durationMs: number;
  /** Where the app starts (a path with its address), default `/#map=4/48/8`. */
  start?: string;
  /** Told a line per step. */
  log?: (line: string) => void;
  /** How long a step may take to settle, ms. */
  settleTimeoutMs?: number;
}

/** A soak step that went wrong, with the steps before it. */
export class SoakFailure extends Error {
  constructor(
    message: string,
    readonly figures: SoakFigures,
  ) {
    super(message);
  }
}

interface GeolocationControl {
  fail(code: number): number;
  deny(): void;
  allow(): void;
  permission: string;
}

/**
 * What the page needs before it loads: geolocation that passes through to the browser's (which
 * the browser context answers with its positions), with error codes 2 and 3 and a denial (code 1,
 * with the permission reported as denied from then on, until it is allowed again) on demand,
 * which no browser context can produce; and the watchers of the console, the policy and the
 * WebGL contexts.
 */
async function preparePage(page: Page) {
  await page.context().grantPermissions(['geolocation']);
  await page.context().setGeolocation({ longitude: PLACES[0]![0], latitude: PLACES[0]![1], accuracy: 1000 });
  await countWebGLContexts(page);
  await page.addInitScript(() => {
    const geolocation = navigator.geolocation;
    const native = {
      watch: geolocation.watchPosition.bind(geolocation),
      clear: geolocation.clearWatch.bind(geolocation),
      once: geolocation.getCurrentPosition.bind(geolocation),
    };
    type Request = { success: PositionCallback; error?: PositionErrorCallback | null | undefined; nativeId?: number; once: boolean };
    const requests = new Map<number, Request>();
    let nextId = 1;
    let permission: PermissionState = 'granted';
    const messages: Record<number, string> = { 1: 'User denied Geolocation', 2: 'Position unavailable', 3: 'Timeout expired' };
    const failure = (code: number) => ({ code, message: messages[code] ?? 'error', PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 }) as GeolocationPositionError;

    const start = (request: Request, options?: PositionOptions) => {
      const id = nextId++;
      requests.set(id, request);
      const done = () => request.once && requests.delete(id);
      if (permission === 'denied') {
        setTimeout(() => requests.has(id) && (done(), request.error?.(failure(1))), 0);
      } else if (request.once) {
        native.once((position) => requests.has(id) && (done(), request.success(position)), (error) => requests.has(id) && (done(), request.error?.(error)), options);
      } else {
        request.nativeId = native.watch((position) => requests.has(id) && permission !== 'denied' && request.success(position), (error) => requests.has(id) && request.error?.(error), options);
      }
      return id;
    };
    geolocation.watchPosition = (success, error, options) => start({ success, error, once: false }, options);
    geolocation.getCurrentPosition = (success, error, options) => void start({ success, error, once: true }, options);
    geolocation.clearWatch = (id) => {
      const request = requests.get(id);
      if (request?.nativeId !== undefined) native.clear(request.nativeId);
      requests.delete(id);
    };

    // The permission as the Permissions API reports it, following `permission`.
    const statuses = new Set<EventTarget & { onchange: ((event: Event) => void) | null }>();
    class Status extends EventTarget {
      onchange: ((event: Event) => void) | null = null;
      readonly name = 'geolocation';
      get state() {
        return permission;
      }
    }
    const query = navigator.permissions.query.bind(navigator.permissions);
    navigator.permissions.query = (descriptor: PermissionDescriptor) => {
      if (descriptor?.name !== 'geolocation') return query(descriptor);
      const status = new Status();
      statuses.add(status);
      return Promise.resolve(status as unknown as PermissionStatus);
    };
    const changed = () => {
      for (const status of statuses) {
        const event = new Event('change');
        status.dispatchEvent(event);
        status.onchange?.(event);
      }
    };

    const control = {
      /** Tells every open request error `code`, as a browser does when locating fails; returns how many heard it. */
      fail(code: number) {
        let told = 0;
        for (const [id, request] of [...requests]) {
          if (request.once) requests.delete(id);
          request.error?.(failure(code));
          told++;
        }
        return told;
      },
      /** The user refuses: every open request hears code 1, and the permission is denied from now on. */
      deny() {
        permission = 'denied';
        control.fail(1);
        changed();
      },
      /** The user allows locating again (in the browser's site settings). */
      allow() {
        permission = 'granted';
        changed();
      },
      get permission() {
        return permission;
      },
    };
    Object.defineProperty(window, '__soakGeolocation', { value: control });
  });
  const console = watchConsole(page);
  const csp = await watchCsp(page);
  return { console, csp };
}

/** The camera the address holds. */
function cameraOf(url: string) {
  const hash = decodeURIComponent(new URL(url).hash);
  const entry = /map=([^&]+)/.exec(hash)?.[1];
  const [zoom = NaN, lat = NaN, lng = NaN, bearing = 0, pitch = 0] = (entry ?? '').split('/').map(Number);
  return { zoom, lat, lng, bearing, pitch };
}

/** What the page shows of every machine and its control, read in one go. */
async function readControls(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector<HTMLElement>('.pinmap')!;
    const one = (selector: string) => root.querySelector<HTMLElement>(selector);
    const button = (selector: string) => {
      const element = one(selector);
      return element && { title: element.getAttribute('title'), disabled: (element as HTMLButtonElement).disabled, pressed: element.getAttribute('aria-pressed'), expanded: element.getAttribute('aria-expanded') };
    };
    const geolocate = one('.pinmap-geolocate');
    const navigation = one('.pinmap-navigation');
    const attribution = one('.pinmap-attrib');
    const fullscreen = one('.pinmap-fullscreen');
    const viewSwitch = one('.pinmap-view-switch');
    const dots = [...root.querySelectorAll('.pinmap-user-dot')];
    const url = new URL(location.href);
    return {
      mapState: root.getAttribute('data-map-state'),
      view: root.getAttribute('data-view'),
      width: root.clientWidth,
      url: location.href,
      viewParam: url.searchParams.get('view'),
      pinParam: url.searchParams.get('pin'),
      popups: [...document.querySelectorAll<HTMLElement>('.pinmap-popup')].map((p) => p.dataset.pinId ?? '(no id)'),
      navigation: navigation && {
        state: navigation.dataset.state,
        zoomIn: button('.pinmap-zoom-in'),
        zoomOut: button('.pinmap-zoom-out'),
        compass: button('.pinmap-compass'),
        needle: one('.pinmap-compass-needle')?.style.transform ?? '',
      },
      geolocate: geolocate && { state: geolocate.dataset.state, button: button('.pinmap-geolocate button'), dots: dots.length, staleDots: dots.filter((d) => d.classList.contains('pinmap-user-dot-stale')).length },
      permission: (window as unknown as { __soakGeolocation: { permission: string } }).__soakGeolocation.permission,
      attribution: attribution && {
        state: attribution.dataset.state,
        compact: attribution.dataset.compact,
        open: attribution.dataset.open,
        toggle: button('.pinmap-attrib-button'),
        textHidden: one('.pinmap-attrib-text')?.hidden ?? null,
      },
      fullscreen: fullscreen && { state: fullscreen.dataset.state, button: button('.pinmap-fullscreen button'), native: document.fullscreenElement === root, pseudo: root.classList.contains('pinmap-pseudo-fullscreen') },
      viewSwitch: viewSwitch && { state: viewSwitch.dataset.state, pressed: [...viewSwitch.querySelectorAll<HTMLElement>('[aria-pressed="true"]')].map((b) => b.dataset.view) },
      scale: one('.pinmap-scale')?.dataset.state,
    };
  });
}
type Controls = Awaited<ReturnType<typeof readControls>>;

const WATCHING = ['WAITING_ACTIVE', 'ACTIVE_LOCK', 'BACKGROUND', 'ACTIVE_ERROR', 'BACKGROUND_ERROR'];
const GEOLOCATE_STATES = ['CHECKING', 'UNAVAILABLE', 'OFF', 'ONE_SHOT', ...WATCHING];

/** Everything about the machines and their controls that does not agree; empty when all is well. */
export function inconsistencies(c: Controls): string[] {
  const wrong: string[] = [];
  const check = (ok: boolean, what: string) => ok || wrong.push(what);
  const camera = cameraOf(c.url);
  check(c.mapState === 'idle', `the map is ${c.mapState}, not idle`);

  const n = c.navigation;
  if (!n) wrong.push('no navigation control');
  else {
    check(n.state === 'idle', `the map is idle but the camera machine is ${n.state}`);
    check(!!n.zoomIn && n.zoomIn.disabled === camera.zoom >= 22 - 1e-6, `zoom in disabled=${n.zoomIn?.disabled} at zoom ${camera.zoom}`);
    check(!!n.zoomOut && n.zoomOut.disabled === camera.zoom <= -2 + 1e-6, `zoom out disabled=${n.zoomOut?.disabled} at zoom ${camera.zoom}`);
    const hybrid = c.view === 'hybrid';
    check(n.compass?.disabled === hybrid, `compass disabled=${n.compass?.disabled} in the ${c.view} view`);
    check(n.compass?.title === (hybrid ? 'Rotation is not available in this view' : 'Reset bearing to north'), `compass title "${n.compass?.title}" in the ${c.view} view`);
    const needle = Number(/rotate\((-?[\d.e-]+)deg\)/.exec(n.needle)?.[1] ?? NaN);
    const off = Math.abs((((needle + camera.bearing) % 360) + 540) % 360 - 180);
    check(off < 0.11, `compass needle ${n.needle} for bearing ${camera.bearing}`);
    if (hybrid) check(camera.bearing === 0 && camera.pitch === 0, `bearing ${camera.bearing}, pitch ${camera.pitch} in the hybrid view`);
  }

  const g = c.geolocate;
  if (!g) wrong.push('no geolocate control');
  else {
    const state = g.state ?? '';
    check(GEOLOCATE_STATES.includes(state), `unknown geolocate state ${state}`);
    const enabled = !['CHECKING', 'UNAVAILABLE'].includes(state);
    check(g.button?.disabled === !enabled, `geolocate ${state} but its button disabled=${g.button?.disabled}`);
    check(g.button?.title === (state === 'UNAVAILABLE' ? 'Location not available' : 'Find my location'), `geolocate ${state} titled "${g.button?.title}"`);
    check(g.button?.pressed === String(WATCHING.includes(state)), `geolocate ${state} with aria-pressed=${g.button?.pressed}`);
    check((c.permission === 'denied') === (state === 'UNAVAILABLE'), `geolocate ${state} while the permission is ${c.permission}`);
    if (state === 'ACTIVE_LOCK' || state === 'BACKGROUND') check(g.dots === 1 && g.staleDots === 0, `geolocate ${state} with ${g.dots} dot(s), ${g.staleDots} stale`);
    else if (state === 'ACTIVE_ERROR' || state === 'BACKGROUND_ERROR') check(g.dots === g.staleDots && g.dots <= 1, `geolocate ${state} with ${g.dots} dot(s), ${g.staleDots} stale`);
    else check(g.dots === 0, `geolocate ${state} with ${g.dots} dot(s)`);
  }

  const a = c.attribution;
  if (!a) wrong.push('no attribution control');
  else {
    const compact = c.width <= 640;
    const open = a.state === 'full' || a.state === 'compact.expanded' || a.state === 'compact.opened';
    check(compact ? a.state?.startsWith('compact.') === true : a.state === 'full', `attribution ${a.state} at ${c.width} px`);
    check(a.compact === String(compact), `attribution data-compact=${a.compact} at ${c.width} px`);
    check(a.open === String(open), `attribution ${a.state} with data-open=${a.open}`);
    check(a.textHidden === !open, `attribution ${a.state} with its text hidden=${a.textHidden}`);
    check(compact ? a.toggle?.expanded === String(open) : a.toggle === null, `attribution ${a.state}: toggle ${JSON.stringify(a.toggle)}`);
  }

  const f = c.fullscreen;
  if (!f) wrong.push('no fullscreen control');
  else {
    check(f.native === (f.state === 'on'), `fullscreen ${f.state} but the document's fullscreen element is ${f.native ? '' : 'not '}the map`);
    check(f.pseudo === (f.state === 'pseudo'), `fullscreen ${f.state} with the window-filling class ${f.pseudo}`);
    check(f.button?.title === (f.state === 'off' ? 'Enter fullscreen' : 'Exit fullscreen'), `fullscreen ${f.state} titled "${f.button?.title}"`);
    check(f.button?.pressed === String(f.state !== 'off'), `fullscreen ${f.state} with aria-pressed=${f.button?.pressed}`);
  }

  const v = c.viewSwitch;
  if (!v) wrong.push('no view switch');
  else {
    check(v.state === c.view, `view switch says ${v.state}, the map is ${c.view}`);
    check(v.pressed.length === 1 && v.pressed[0] === c.view, `view switch presses ${v.pressed.join(', ')} in the ${c.view} view`);
    check((c.viewParam ?? 'vector') === c.view, `?view=${c.viewParam} in the ${c.view} view`);
  }
  check(['metric', 'imperial', 'nautical'].includes(c.scale ?? ''), `scale ${c.scale}`);

  check(c.popups.length <= 1, `${c.popups.length} popups open`);
  check((c.pinParam ?? undefined) === c.popups[0], `?pin=${c.pinParam} with popup(s) ${c.popups.join(', ') || 'none'}`);
  return wrong;
}

type Point = { x: number; y: number };

/** The map's box in the page. */
async function mapBox(page: Page) {
  return (await page.locator('.pinmap').boundingBox())!;
}

/** Whether nothing but the map itself (or, if `pins` is true, also a pin or bubble) is at `point`. */
async function isBareMap(page: Page, point: Point, pins: boolean): Promise<boolean> {
  return page.evaluate(
    ({ point, pins }) => {
      const element = document.elementFromPoint(point.x, point.y);
      if (!element?.closest('.pinmap-map')) return false;
      if (element.closest('.pinmap-popup, .pinmap-ctrl, .pinmap-notices, .pinmap-user-dot')) return false;
      return pins || !element.closest('.pinmap-pin, .pinmap-cluster');
    },
    { point, pins },
  );
}

/** DOM elements matching `selector` whose centre is well inside the map and on top there. */
async function reachable(page: Page, selector: string): Promise<{ id: string; point: Point }[]> {
  return page.evaluate((selector) => {
    const root = document.querySelector('.pinmap')!.getBoundingClientRect();
    const found: { id: string; point: { x: number; y: number } }[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      const box = element.getBoundingClientRect();
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      if (x < root.left + 50 || x > root.right - 50 || y < root.top + 60 || y > root.bottom - 50) continue;
      const top = document.elementFromPoint(x, y);
      if (!top || !element.contains(top)) continue;
      found.push({ id: element.dataset.pinId ?? element.getAttribute('aria-label') ?? '', point: { x, y } });
    }
    return found;
  }, selector);
}

/** The session's random numbers, from the seed. */
function random(seed: number) {
  const rng = xoroshiro128plus(seed);
  const int = (min: number, max: number) => uniformInt(rng, min, max);
  return {
    int,
    pick: <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!,
    chance: (percent: number) => int(1, 100) <= percent,
    shuffle: <T>(items: readonly T[]): T[] => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy;
    },
  };
}

/**
 * Runs a soak session on `page` (not yet loaded; its context's viewport is where it starts):
 * loads the app, then runs random steps from `seed` for `durationMs` (and at least one round of
 * every kind of step and geolocation outcome), checking after each that every machine agrees
 * with its control. Throws a SoakFailure naming the step and what disagreed.
 */
export async function runSoak(page: Page, options: SoakOptions): Promise<SoakFigures> {
  const { seed, durationMs, start = '/#map=4/48/8', log = () => undefined, settleTimeoutMs = 45_000 } = options;
  const rand = random(seed);
  const { console, csp } = await preparePage(page);
  const figures: SoakFigures = {
    seed,
    durationMs: 0,
    steps: Object.fromEntries(STEP_KINDS.map((kind) => [kind, 0])) as Record<StepKind, number>,
    redrawn: 0,
    popupsOpened: 0,
    popupsClosed: { escape: 0, button: 0, map: 0 },
    geolocation: { successes: 0, timeouts: 0, unavailable: 0, denials: 0, allowedAgain: 0, turnedOff: 0 },
    resizes: { window: 0, container: 0 },
    viewSwitches: 0,
    checks: 0,
    webgl: { created: 0, alive: 0 },
    consoleErrors: console.errors,
    cspViolations: csp.violations,
  };
  const history: string[] = [];
  // Requests still open, named in a failure (a map that never goes idle may wait for one).
  const openRequests = new Set<string>();
  page.on('request', (request) => openRequests.add(request.url()));
  page.on('requestfinished', (request) => openRequests.delete(request.url()));
  page.on('requestfailed', (request) => openRequests.delete(request.url()));
  let started = Date.now();
  const fail = (message: string) => {
    figures.durationMs = Date.now() - started;
    return new SoakFailure(`${message}\nseed ${seed}; the last steps:\n  ${history.slice(-12).join('\n  ')}`, figures);
  };
  const root = page.locator('.pinmap');
  const controls = () => readControls(page);

  /** Waits until the page is idle and consistent twice in a row, or fails with what disagrees. */
  async function settle(): Promise<void> {
    const deadline = Date.now() + settleTimeoutMs;
    let wrong: string[] = [];
    let agreed = 0;
    while (Date.now() < deadline) {
      wrong = inconsistencies(await controls());
      agreed = wrong.length === 0 ? agreed + 1 : 0;
      if (agreed >= 2) break;
      await page.waitForTimeout(wrong.length === 0 ? 150 : 250);
    }
    if (agreed < 2) throw fail(`not consistent ${settleTimeoutMs / 1000} s after the step: ${wrong.join('; ')}; requests open: ${[...openRequests].join(', ') || 'none'}`);
    if (console.errors.length > 0) throw fail(`console error: ${console.errors.join(' | ')}`);
    if (csp.violations.length > 0) throw fail(`Content Security Policy violation: ${JSON.stringify(csp.violations)}`);
    figures.checks++;
  }

  /** Waits until the page shows what a step must lead to, or fails naming it. */
  async function until(what: string, predicate: (c: Controls) => boolean, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (predicate(await controls())) return;
      await page.waitForTimeout(100);
    }
    throw fail(`expected ${what} within ${timeoutMs / 1000} s; the page shows ${JSON.stringify(await controls())}`);
  }

  /** A point on the bare map (no control, popup or, unless `pins`, pin), well inside it. */
  async function mapPoint(pins: boolean): Promise<Point | undefined> {
    const box = await mapBox(page);
    for (let attempt = 0; attempt < 12; attempt++) {
      const point = { x: box.x + rand.int(60, Math.max(61, Math.floor(box.width) - 60)), y: box.y + rand.int(70, Math.max(71, Math.floor(box.height) - 60)) };
      if (await isBareMap(page, point, pins)) return point;
    }
    return undefined;
  }

  const view = async () => (await controls()).view;
  const zoom = () => cameraOf(page.url()).zoom;

  /** Runs one step; returns a description, or undefined when it cannot run now (it is drawn again). */
  async function step(kind: StepKind, outcome?: GeolocationOutcome): Promise<string | undefined> {
    switch (kind) {
      case 'drag': {
        const from = await mapPoint(true);
        if (!from) return undefined;
        const box = await mapBox(page);
        const to = {
          x: Math.min(Math.max(from.x + rand.int(-250, 250), box.x + 5), box.x + box.width - 5),
          y: Math.min(Math.max(from.y + rand.int(-200, 200), box.y + 5), box.y + box.height - 5),
        };
        if (Math.hypot(to.x - from.x, to.y - from.y) < 30) to.x = from.x + (from.x > box.x + box.width / 2 ? -60 : 60);
        await page.mouse.move(from.x, from.y);
        await page.mouse.down();
        await page.mouse.move(to.x, to.y, { steps: rand.int(5, 12) });
        await page.mouse.up();
        return `drag (${from.x.toFixed(0)}, ${from.y.toFixed(0)}) → (${to.x.toFixed(0)}, ${to.y.toFixed(0)})`;
      }
      case 'wheel': {
        const at = await mapPoint(true);
        if (!at) return undefined;
        const z = zoom();
        // Kept to zooms where pins and bubbles are in view (a located position pulls the camera in to 15).
        const out = z > 8 ? true : z < 1.5 ? false : rand.chance(50);
        const delta = rand.int(100, 500) * (out ? 1 : -1);
        await page.mouse.move(at.x, at.y);
        await page.mouse.wheel(0, delta);
        return `wheel ${delta} at zoom ${z}`;
      }
      case 'zoomIn':
      case 'zoomOut': {
        const z = zoom();
        if (kind === 'zoomIn' ? z > 16 : z < 0.5) return undefined;
        await root.locator(kind === 'zoomIn' ? '.pinmap-zoom-in' : '.pinmap-zoom-out').click();
        return `${kind} from zoom ${z}`;
      }
      case 'rotate': {
        if ((await view()) !== 'vector') return undefined;
        const from = await mapPoint(false);
        if (!from) return undefined;
        const dx = rand.int(40, 200) * (rand.chance(50) ? 1 : -1);
        await page.mouse.move(from.x, from.y);
        await page.mouse.down({ button: 'right' });
        await page.mouse.move(from.x + dx, from.y + rand.int(-30, 30), { steps: rand.int(5, 10) });
        await page.mouse.up({ button: 'right' });
        return `rotate by a right drag of ${dx} px`;
      }
      case 'compass': {
        if ((await view()) !== 'vector') return undefined;
        await root.locator('.pinmap-compass').click();
        return `compass at bearing ${cameraOf(page.url()).bearing}`;
      }
      case 'pinClick': {
        const pins = await reachable(page, '.pinmap-pin');
        if (pins.length === 0) return undefined;
        const pin = rand.pick(pins);
        await page.mouse.click(pin.point.x, pin.point.y);
        await until(`the popup of ${pin.id}`, (c) => c.popups.length === 1 && c.popups[0] === pin.id && c.pinParam === pin.id);
        figures.popupsOpened++;
        return `click on pin ${pin.id}`;
      }
      case 'popupClose': {
        const open = (await controls()).popups[0];
        if (open === undefined) return undefined;
        // Esc closes it while the keyboard is in the map; its close button only where it can be seen.
        const focusInMap = await page.evaluate(() => !!document.activeElement?.closest('.pinmap-map'));
        const buttonSeen = (await reachable(page, '.pinmap-popup .pinmap-popup-close, .pinmap-popup .maplibregl-popup-close-button')).length > 0;
        const ways = ['map' as const, ...(buttonSeen ? ['button' as const] : []), ...(focusInMap ? ['escape' as const] : [])];
        const way = rand.pick(ways);
        if (way === 'escape') await page.keyboard.press('Escape');
        else if (way === 'button') await page.locator('.pinmap-popup').getByRole('button', { name: 'Close popup' }).click();
        else {
          const at = await mapPoint(false);
          if (!at) return undefined;
          await page.mouse.click(at.x, at.y);
        }
        await until(`the popup of ${open} to close`, (c) => c.popups.length === 0 && c.pinParam === null);
        figures.popupsClosed[way]++;
        return `close the popup of ${open} by ${way}`;
      }
      case 'bubbleClick': {
        const bubbles = await reachable(page, '.pinmap-cluster');
        if (bubbles.length === 0) return undefined;
        const bubble = rand.pick(bubbles);
        await page.mouse.click(bubble.point.x, bubble.point.y);
        return `click on the bubble "${bubble.id}"`;
      }
      case 'fullscreen': {
        const before = (await controls()).fullscreen?.state;
        await root.locator('.pinmap-fullscreen button').click();
        await until(`fullscreen to leave ${before}`, (c) => c.fullscreen?.state !== before);
        return `fullscreen ${before} → ${(await controls()).fullscreen?.state}`;
      }
      case 'windowResize': {
        const size = { width: rand.int(480, 1000), height: rand.int(360, 760) };
        await page.setViewportSize(size);
        figures.resizes.window++;
        return `window ${size.width}×${size.height}`;
      }
      case 'containerResize': {
        const share = { width: rand.int(60, 100), height: rand.int(60, 100) };
        await page.evaluate((share) => {
          const container = document.getElementById('root')!;
          container.style.width = `${share.width}%`;
          container.style.height = `${share.height}%`;
        }, share);
        figures.resizes.container++;
        return `container ${share.width}% × ${share.height}%`;
      }
      case 'viewSwitch': {
        const from = await view();
        const to = from === 'vector' ? 'hybrid' : 'vector';
        await root.locator(`.pinmap-view-switch [data-view="${to}"]`).click();
        await until(`the ${to} view`, (c) => c.view === to);
        figures.viewSwitches++;
        return `view ${from} → ${to}`;
      }
      case 'geolocation':
        return geolocationStep(outcome ?? rand.pick(['success', 'success', 'timeout', 'unavailable', 'denial', 'off'] as const));
    }
  }

  /** A geolocation event: the control is turned on where needed, then the browser answers. */
  async function geolocationStep(outcome: GeolocationOutcome | 'off'): Promise<string | undefined> {
    const state = (await controls()).geolocate?.state;
    let allowed = '';
    if (state === 'UNAVAILABLE') {
      // Denied: the user allows locating again, and the control comes back.
      await page.evaluate(() => (window as unknown as { __soakGeolocation: GeolocationControl }).__soakGeolocation.allow());
      await until('the geolocate control OFF once allowed again', (c) => c.geolocate?.state === 'OFF');
      figures.geolocation.allowedAgain++;
      if (outcome === 'off') return 'geolocation allowed again';
      allowed = 'allowed again, then ';
    }
    const described = await geolocationOutcome(outcome, allowed ? 'OFF' : state);
    return described && `${allowed}${described}`;
  }

  async function geolocationOutcome(outcome: GeolocationOutcome | 'off', state: string | undefined): Promise<string | undefined> {
    const button = root.locator('.pinmap-geolocate button');
    if (outcome === 'off') {
      if (state === 'OFF' || state === 'BACKGROUND') return undefined;
      await button.click();
      await until('the geolocate control OFF', (c) => c.geolocate?.state === 'OFF');
      figures.geolocation.turnedOff++;
      return `geolocation turned off from ${state}`;
    }
    if (state === 'OFF') {
      await button.click();
      // The browser answers with the context's position: wait for it, so what follows is not a race with it.
      await until('the first position', (c) => c.geolocate?.state === 'ACTIVE_LOCK');
    }
    const before = (await controls()).geolocate?.state;
    const background = before === 'BACKGROUND' || before === 'BACKGROUND_ERROR';
    if (outcome === 'success') {
      const [lng, lat] = rand.pick(PLACES);
      const position = { longitude: lng + rand.int(-50, 50) / 1000, latitude: lat + rand.int(-50, 50) / 1000, accuracy: rand.int(100, 5000) };
      await page.context().setGeolocation(position);
      const expected = background ? 'BACKGROUND' : 'ACTIVE_LOCK';
      await until(`geolocate ${expected} at the new position`, (c) => c.geolocate?.state === expected && c.geolocate.dots === 1 && c.geolocate.staleDots === 0);
      figures.geolocation.successes++;
      return `geolocation ${before} → position ${position.latitude.toFixed(3)}, ${position.longitude.toFixed(3)} ±${position.accuracy} m`;
    }
    if (outcome === 'denial') {
      await page.evaluate(() => (window as unknown as { __soakGeolocation: GeolocationControl }).__soakGeolocation.deny());
      await until('geolocate UNAVAILABLE after a denial', (c) => c.geolocate?.state === 'UNAVAILABLE' && c.geolocate.dots === 0);
      figures.geolocation.denials++;
      return `geolocation ${before} → denied (code 1)`;
    }
    const code = outcome === 'timeout' ? 3 : 2;
    const told = await page.evaluate((code) => (window as unknown as { __soakGeolocation: GeolocationControl }).__soakGeolocation.fail(code), code);
    if (told === 0) throw fail(`geolocate ${before} had no open request to fail`);
    const expected = background ? 'BACKGROUND_ERROR' : 'ACTIVE_ERROR';
    await until(`geolocate ${expected} after error ${code}`, (c) => c.geolocate?.state === expected);
    figures.geolocation[outcome === 'timeout' ? 'timeouts' : 'unavailable']++;
    return `geolocation ${before} → error ${code} (${outcome})`;
  }

  await page.goto(start);
  await settle();
  started = Date.now();
  // The first round: every kind of step and every geolocation outcome once. It starts with what
  // needs the vector view, pins and bubbles in view (as the start shows them) or an open popup;
  // the rest comes in a random order.
  const head: StepKind[] = ['pinClick', 'popupClose', 'bubbleClick', 'rotate', 'compass'];
  const firstRound: [StepKind, GeolocationOutcome?][] = [
    ...head.map((k) => [k] as [StepKind]),
    ...rand.shuffle([...STEP_KINDS.filter((k) => k !== 'geolocation' && !head.includes(k)).map((k) => [k] as [StepKind]), ...GEOLOCATION_OUTCOMES.map((o) => ['geolocation', o] as [StepKind, GeolocationOutcome])]),
  ];
  const weighted = STEP_KINDS.flatMap((kind) => Array<StepKind>(WEIGHTS[kind]).fill(kind));
  let deferred = 0;
  while (firstRound.length > 0 || Date.now() - started < durationMs) {
    let drawn: [StepKind, GeolocationOutcome?] = firstRound.length > 0 ? firstRound.shift()! : [rand.pick(weighted)];
    const attempt = async (drawn: [StepKind, GeolocationOutcome?]) => {
      try {
        return await step(...drawn);
      } catch (error) {
        if (error instanceof SoakFailure) throw error;
        throw fail(`${drawn.join(' ')} step ${history.length + 1} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    let description = await attempt(drawn);
    while (description === undefined) {
      figures.redrawn++;
      // In the first round a step that cannot run now waits for later in the round (a few times).
      if (firstRound.length > 0 && deferred < 40) {
        deferred++;
        firstRound.splice(Math.min(firstRound.length, 2), 0, drawn);
        drawn = firstRound.shift()!;
      } else drawn = [rand.pick(weighted)];
      description = await attempt(drawn);
    }
    figures.steps[drawn[0]]++;
    const line = `${String(history.length + 1).padStart(4)} ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s  ${description}`;
    history.push(line);
    log(line);
    await settle();
  }
  figures.durationMs = Date.now() - started;
  figures.webgl = await liveWebGLContexts(page);
  if (figures.webgl.alive !== 1) throw fail(`${figures.webgl.alive} live WebGL contexts at the end, not 1`);
  return figures;
}

/** The figures as a few lines for the console. */
export function describeFigures(f: SoakFigures): string {
  const total = Object.values(f.steps).reduce((a, b) => a + b, 0);
  const g = f.geolocation;
  return [
    `Soak: seed ${f.seed}, ${(f.durationMs / 1000).toFixed(0)} s, ${total} steps (${f.redrawn} draws redrawn), ${f.checks} consistency checks passed`,
    `  steps: ${STEP_KINDS.map((k) => `${k} ${f.steps[k]}`).join(', ')}`,
    `  popups opened ${f.popupsOpened}, closed by Esc ${f.popupsClosed.escape}, close button ${f.popupsClosed.button}, map click ${f.popupsClosed.map}`,
    `  geolocation: ${g.successes} successes, ${g.timeouts + g.unavailable} errors (${g.timeouts} timeouts, ${g.unavailable} position unavailable), ${g.denials} denials, allowed again ${g.allowedAgain}, turned off ${g.turnedOff}`,
    `  resizes: ${f.resizes.window} window, ${f.resizes.container} container; view switches ${f.viewSwitches}; WebGL contexts ${f.webgl.created} made, ${f.webgl.alive} alive at the end`,
    `  console errors ${f.consoleErrors.length}, CSP violations ${f.cspViolations.length}`,
  ].join('\n');
}
