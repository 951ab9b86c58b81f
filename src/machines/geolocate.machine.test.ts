import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import type { AnyEventObject } from 'xstate';
import { accuracyBounds } from './geo.ts';
import type { GeoPosition } from './geo.ts';
import {
  DEFAULT_FIT_OPTIONS,
  DEFAULT_POSITION_OPTIONS,
  geolocateMachine,
  isGeolocateEnabled,
  isGeolocateWatching,
} from './geolocate.machine.ts';
import type {
  GeolocateInput,
  GeolocateState,
  GeolocationPermission,
  PositionRequest,
  PositionSourceEvent,
  SupportResult,
} from './geolocate.machine.ts';

const HOME: GeoPosition = { lng: 20, lat: 10, accuracy: 700 };
const AWAY: GeoPosition = { lng: 21, lat: 11, accuracy: 50 };

/** A fake position source: records what it was started with and lets the test answer through it. */
function fakeSource() {
  const source = {
    inputs: [] as PositionRequest[],
    running: false,
    sendBack: undefined as ((event: AnyEventObject) => void) | undefined,
    logic: fromCallback<AnyEventObject, PositionRequest>(({ input, sendBack }) => {
      source.inputs.push(input);
      source.running = true;
      source.sendBack = sendBack;
      return () => {
        source.running = false;
      };
    }),
    send(event: PositionSourceEvent) {
      source.sendBack?.(event);
    },
  };
  return source;
}

type StartOptions = {
  input?: Partial<GeolocateInput>;
  /** What the support check answers; a never-settling promise keeps the machine checking. */
  support?: SupportResult | Promise<SupportResult>;
};

/** Starts the machine with fake browser and map, and waits for the support check to answer. */
async function start({ input = {}, support = 'supported' }: StartOptions = {}) {
  const clock = new SimulatedClock();
  const watch = fakeSource();
  const once = fakeSource();
  const permission = { sendBack: undefined as ((event: AnyEventObject) => void) | undefined };
  const map = {
    showPosition: vi.fn<(position: GeoPosition) => void>(),
    markPositionStale: vi.fn(),
    clearPosition: vi.fn(),
    fitCameraToPosition: vi.fn<(params: { position: GeoPosition; bounds: unknown; maxZoom: number }) => void>(),
  };
  const machine = geolocateMachine.provide({
    actors: {
      checkSupport: fromPromise<SupportResult>(() => Promise.resolve(support)),
      watchPosition: watch.logic,
      getCurrentPosition: once.logic,
      watchPermission: fromCallback(({ sendBack }) => {
        permission.sendBack = sendBack;
      }),
    },
    actions: {
      showPosition: (_, params) => map.showPosition(params.position),
      markPositionStale: () => map.markPositionStale(),
      clearPosition: () => map.clearPosition(),
      fitCameraToPosition: (_, params) => map.fitCameraToPosition(params),
    },
  });
  const actor = createActor(machine, {
    clock,
    input: { trackUserLocation: true, fitCamera: true, ...input },
  });
  actor.start();
  if (!(support instanceof Promise)) await waitFor(actor, (snapshot) => !snapshot.matches('CHECKING'));
  const state = () => actor.getSnapshot().value as GeolocateState;
  const click = () => actor.send({ type: 'geolocate.click' });
  const permissionChanged = (state: GeolocationPermission) => permission.sendBack?.({ type: 'permission.changed', state });
  return { actor, clock, watch, once, map, state, click, permissionChanged };
}

type Started = Awaited<ReturnType<typeof start>>;

/** Routes from OFF (tracking on) into each tracking state, through the events the spec names. */
const routes: Record<'WAITING_ACTIVE' | 'ACTIVE_LOCK' | 'BACKGROUND' | 'ACTIVE_ERROR' | 'BACKGROUND_ERROR', (m: Started) => void> = {
  WAITING_ACTIVE: (m) => m.click(),
  ACTIVE_LOCK: (m) => {
    m.click();
    m.watch.send({ type: 'position.received', position: HOME });
  },
  BACKGROUND: (m) => {
    routes.ACTIVE_LOCK(m);
    m.actor.send({ type: 'map.userMoved' });
  },
  ACTIVE_ERROR: (m) => {
    routes.ACTIVE_LOCK(m);
    m.watch.send({ type: 'position.error', code: 2, message: 'Position unavailable' });
  },
  BACKGROUND_ERROR: (m) => {
    routes.BACKGROUND(m);
    m.watch.send({ type: 'position.error', code: 3, message: 'Timeout expired' });
  },
};

async function startIn(target: keyof typeof routes, options: StartOptions = {}) {
  const m = await start(options);
  routes[target](m);
  expect(m.state()).toBe(target);
  m.map.showPosition.mockClear();
  m.map.fitCameraToPosition.mockClear();
  m.map.markPositionStale.mockClear();
  return m;
}

describe('geolocate machine: support', () => {
  it('keeps the button disabled while support is being checked', async () => {
    const m = await start({ support: new Promise<SupportResult>(() => undefined) });
    expect(m.state()).toBe('CHECKING');
    expect(isGeolocateEnabled(m.actor.getSnapshot())).toBe(false);
  });

  it('enables the button, off, when the browser can locate', async () => {
    const m = await start();
    expect(m.state()).toBe('OFF');
    expect(isGeolocateEnabled(m.actor.getSnapshot())).toBe(true);
    expect(isGeolocateWatching(m.actor.getSnapshot())).toBe(false);
  });

  it.each(['unsupported', 'denied', 'insecure'] as const)('disables the button when the check finds %s', async (result) => {
    const m = await start({ support: result });
    expect(m.state()).toBe('UNAVAILABLE');
    expect(m.actor.getSnapshot().context.reason).toBe(result);
    expect(isGeolocateEnabled(m.actor.getSnapshot())).toBe(false);
    m.click();
    expect(m.state()).toBe('UNAVAILABLE');
    expect(m.watch.inputs).toHaveLength(0);
    expect(m.once.inputs).toHaveLength(0);
  });

  it('treats a failing support check as no support', async () => {
    const actor = createActor(
      geolocateMachine.provide({ actors: { checkSupport: fromPromise<SupportResult>(() => Promise.reject(new Error('boom'))) } }),
      { input: { trackUserLocation: true, fitCamera: true } },
    ).start();
    await waitFor(actor, (snapshot) => !snapshot.matches('CHECKING'));
    expect(actor.getSnapshot().value).toBe('UNAVAILABLE');
    expect(actor.getSnapshot().context.reason).toBe('unsupported');
  });

  it('is inert without the app: the bare machine reports no support', async () => {
    const actor = createActor(geolocateMachine, { input: { trackUserLocation: true, fitCamera: true } }).start();
    await waitFor(actor, (snapshot) => !snapshot.matches('CHECKING'));
    expect(actor.getSnapshot().value).toBe('UNAVAILABLE');
    expect(actor.getSnapshot().context.reason).toBe('unsupported');
  });
});

describe('geolocate machine: permission changes', () => {
  it.each(['granted', 'prompt'] as const)('enables the button again when a denied permission becomes %s', async (state) => {
    const m = await start({ support: 'denied' });
    m.permissionChanged(state);
    expect(m.state()).toBe('OFF');
    expect(m.actor.getSnapshot().context.reason).toBeUndefined();
    expect(isGeolocateEnabled(m.actor.getSnapshot())).toBe(true);
  });

  it('enables the button again after a denial reported as error code 1, once permission is granted', async () => {
    const m = await startIn('ACTIVE_LOCK');
    m.watch.send({ type: 'position.error', code: 1, message: 'User denied Geolocation' });
    expect(m.state()).toBe('UNAVAILABLE');
    m.permissionChanged('granted');
    expect(m.state()).toBe('OFF');
    m.click();
    expect(m.state()).toBe('WAITING_ACTIVE');
    expect(m.watch.running).toBe(true);
  });

  it.each(['unsupported', 'insecure'] as const)('keeps the button disabled for %s whatever the permission says', async (result) => {
    const m = await start({ support: result });
    m.permissionChanged('granted');
    m.permissionChanged('denied');
    expect(m.state()).toBe('UNAVAILABLE');
    expect(m.actor.getSnapshot().context.reason).toBe(result);
  });

  it('stays denied when the browser repeats the denial', async () => {
    const m = await start({ support: 'denied' });
    m.permissionChanged('denied');
    expect(m.state()).toBe('UNAVAILABLE');
    expect(m.actor.getSnapshot().context.reason).toBe('denied');
  });

  it('disables the button, stops watching and removes the dot when the permission is revoked while tracking', async () => {
    const m = await startIn('ACTIVE_LOCK');
    m.permissionChanged('denied');
    expect(m.state()).toBe('UNAVAILABLE');
    expect(m.actor.getSnapshot().context.reason).toBe('denied');
    expect(m.watch.running).toBe(false);
    expect(m.map.clearPosition).toHaveBeenCalledTimes(1);
  });

  it('ignores a grant while the button is already enabled', async () => {
    const m = await start();
    m.permissionChanged('granted');
    expect(m.state()).toBe('OFF');
  });
});

describe('geolocate machine: tracking', () => {
  it('starts watching with the default position options on the first click', async () => {
    const m = await start();
    m.click();
    expect(m.state()).toBe('WAITING_ACTIVE');
    expect(isGeolocateWatching(m.actor.getSnapshot())).toBe(true);
    expect(m.actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(m.watch.running).toBe(true);
    expect(m.watch.inputs).toEqual([{ options: { enableHighAccuracy: false, maximumAge: 0, timeout: 6000 } }]);
    expect(m.once.inputs).toHaveLength(0);
  });

  it('exports the defaults the spec gives', () => {
    expect(DEFAULT_POSITION_OPTIONS).toEqual({ enableHighAccuracy: false, maximumAge: 0, timeout: 6000 });
    expect(DEFAULT_FIT_OPTIONS).toEqual({ maxZoom: 15 });
  });

  it('merges config options over the defaults field by field', async () => {
    const m = await start({ input: { positionOptions: { enableHighAccuracy: true, timeout: undefined }, fitOptions: { maxZoom: 12 } } });
    m.click();
    expect(m.watch.inputs[0]?.options).toEqual({ enableHighAccuracy: true, maximumAge: 0, timeout: 6000 });
    m.watch.send({ type: 'position.received', position: HOME });
    expect(m.map.fitCameraToPosition).toHaveBeenCalledWith(expect.objectContaining({ maxZoom: 12 }));
  });

  it('locks on the first position: shows the dot and fits the accuracy circle, at most zoom 15', async () => {
    const m = await startIn('WAITING_ACTIVE');
    m.watch.send({ type: 'position.received', position: HOME });
    expect(m.state()).toBe('ACTIVE_LOCK');
    expect(m.actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(m.map.showPosition).toHaveBeenCalledWith(HOME);
    expect(m.map.fitCameraToPosition).toHaveBeenCalledWith({ position: HOME, bounds: accuracyBounds(HOME), maxZoom: 15 });
  });

  it('follows every new position with the camera while locked', async () => {
    const m = await startIn('ACTIVE_LOCK');
    m.watch.send({ type: 'position.received', position: AWAY });
    expect(m.state()).toBe('ACTIVE_LOCK');
    expect(m.map.showPosition).toHaveBeenCalledWith(AWAY);
    expect(m.map.fitCameraToPosition).toHaveBeenCalledWith({ position: AWAY, bounds: accuracyBounds(AWAY), maxZoom: 15 });
  });

  it('goes to the background when the user moves the map, and then moves only the dot', async () => {
    const m = await startIn('ACTIVE_LOCK');
    m.actor.send({ type: 'map.userMoved' });
    expect(m.state()).toBe('BACKGROUND');
    expect(isGeolocateWatching(m.actor.getSnapshot())).toBe(true);
    m.watch.send({ type: 'position.received', position: AWAY });
    expect(m.state()).toBe('BACKGROUND');
    expect(m.map.showPosition).toHaveBeenCalledWith(AWAY);
    expect(m.map.fitCameraToPosition).not.toHaveBeenCalled();
  });

  it('returns to the lock on a click in the background, moving the camera to the last position without a new watch', async () => {
    const m = await startIn('BACKGROUND');
    m.watch.send({ type: 'position.received', position: AWAY });
    m.click();
    expect(m.state()).toBe('ACTIVE_LOCK');
    expect(m.map.fitCameraToPosition).toHaveBeenCalledWith({ position: AWAY, bounds: accuracyBounds(AWAY), maxZoom: 15 });
    expect(m.watch.inputs).toHaveLength(1);
    expect(m.watch.running).toBe(true);
  });

  it.each(['WAITING_ACTIVE', 'BACKGROUND', 'ACTIVE_ERROR', 'BACKGROUND_ERROR'] as const)(
    'ignores a user move in %s',
    async (from) => {
      const m = await startIn(from);
      m.actor.send({ type: 'map.userMoved' });
      expect(m.state()).toBe(from);
    },
  );

  it.each(['WAITING_ACTIVE', 'ACTIVE_LOCK', 'ACTIVE_ERROR', 'BACKGROUND_ERROR'] as const)(
    'turns tracking off on a click in %s: the watch stops and the dot goes',
    async (from) => {
      const m = await startIn(from);
      m.click();
      expect(m.state()).toBe('OFF');
      expect(isGeolocateWatching(m.actor.getSnapshot())).toBe(false);
      expect(m.watch.running).toBe(false);
      expect(m.map.clearPosition).toHaveBeenCalledTimes(1);
      expect(m.actor.getSnapshot().context.position).toBeUndefined();
    },
  );

  it('ignores positions from a watch that was turned off', async () => {
    const m = await startIn('ACTIVE_LOCK');
    const stopped = m.watch.sendBack;
    m.click();
    stopped?.({ type: 'position.received', position: AWAY });
    expect(m.state()).toBe('OFF');
    expect(m.map.showPosition).not.toHaveBeenCalled();
  });

  it('starts a fresh watch when tracking is turned on again', async () => {
    const m = await startIn('ACTIVE_LOCK');
    m.click();
    m.click();
    expect(m.state()).toBe('WAITING_ACTIVE');
    expect(m.watch.inputs).toHaveLength(2);
    expect(m.watch.running).toBe(true);
  });
});

describe('geolocate machine: errors while tracking', () => {
  const transient = [
    [2, 'Position unavailable'],
    [3, 'Timeout expired'],
  ] as const;

  describe.each(transient)('error code %i', (code, message) => {
    it.each([
      ['WAITING_ACTIVE', 'ACTIVE_ERROR'],
      ['ACTIVE_LOCK', 'ACTIVE_ERROR'],
      ['BACKGROUND', 'BACKGROUND_ERROR'],
      ['ACTIVE_ERROR', 'ACTIVE_ERROR'],
      ['BACKGROUND_ERROR', 'BACKGROUND_ERROR'],
    ] as const)('goes from %s to %s, keeping the dot but marking it stale', async (from, to) => {
      const m = await startIn(from);
      m.watch.send({ type: 'position.error', code, message });
      expect(m.state()).toBe(to);
      expect(m.map.markPositionStale).toHaveBeenCalledTimes(1);
      expect(m.map.clearPosition).not.toHaveBeenCalled();
      expect(m.watch.running).toBe(true);
      expect(m.actor.getSnapshot().context.error).toEqual({ code, message });
      expect(isGeolocateEnabled(m.actor.getSnapshot())).toBe(true);
    });
  });

  it('recovers from an active error to the lock on the next position, moving the camera', async () => {
    const m = await startIn('ACTIVE_ERROR');
    m.watch.send({ type: 'position.received', position: AWAY });
    expect(m.state()).toBe('ACTIVE_LOCK');
    expect(m.map.showPosition).toHaveBeenCalledWith(AWAY);
    expect(m.map.fitCameraToPosition).toHaveBeenCalledTimes(1);
  });

  it('recovers from a background error to the background on the next position, leaving the camera', async () => {
    const m = await startIn('BACKGROUND_ERROR');
    m.watch.send({ type: 'position.received', position: AWAY });
    expect(m.state()).toBe('BACKGROUND');
    expect(m.map.showPosition).toHaveBeenCalledWith(AWAY);
    expect(m.map.fitCameraToPosition).not.toHaveBeenCalled();
  });

  it.each(['WAITING_ACTIVE', 'ACTIVE_LOCK', 'BACKGROUND', 'ACTIVE_ERROR', 'BACKGROUND_ERROR'] as const)(
    'on error code 1 in %s: turns tracking off, removes the dot and disables the button',
    async (from) => {
      const m = await startIn(from);
      m.watch.send({ type: 'position.error', code: 1, message: 'User denied Geolocation' });
      expect(m.state()).toBe('UNAVAILABLE');
      expect(m.actor.getSnapshot().context.reason).toBe('denied');
      expect(m.watch.running).toBe(false);
      expect(m.map.clearPosition).toHaveBeenCalledTimes(1);
      expect(isGeolocateEnabled(m.actor.getSnapshot())).toBe(false);
      expect(isGeolocateWatching(m.actor.getSnapshot())).toBe(false);
    },
  );
});

describe('geolocate machine: showing the position without moving the camera', () => {
  it('shows every position but never fits the camera', async () => {
    const m = await start({ input: { fitCamera: false } });
    m.click();
    m.watch.send({ type: 'position.received', position: HOME });
    expect(m.state()).toBe('ACTIVE_LOCK');
    m.watch.send({ type: 'position.received', position: AWAY });
    expect(m.map.showPosition).toHaveBeenCalledTimes(2);
    expect(m.map.fitCameraToPosition).not.toHaveBeenCalled();
  });

  it('has no lock to lose, so a user move keeps the state', async () => {
    const m = await start({ input: { fitCamera: false } });
    m.click();
    m.watch.send({ type: 'position.received', position: HOME });
    m.actor.send({ type: 'map.userMoved' });
    expect(m.state()).toBe('ACTIVE_LOCK');
  });

  it('does not move the camera in one-shot mode either', async () => {
    const m = await start({ input: { fitCamera: false, trackUserLocation: false } });
    m.click();
    m.once.send({ type: 'position.received', position: HOME });
    expect(m.map.showPosition).toHaveBeenCalledWith(HOME);
    expect(m.map.fitCameraToPosition).not.toHaveBeenCalled();
  });
});

describe('geolocate machine: one-shot mode (tracking off)', () => {
  const oneShot = { input: { trackUserLocation: false } };

  it('asks for one position with the position options, without watching or pressing the button', async () => {
    const m = await start(oneShot);
    m.click();
    expect(m.state()).toBe('ONE_SHOT');
    expect(m.once.inputs).toEqual([{ options: { enableHighAccuracy: false, maximumAge: 0, timeout: 6000 } }]);
    expect(m.watch.inputs).toHaveLength(0);
    expect(isGeolocateWatching(m.actor.getSnapshot())).toBe(false);
  });

  it('shows the position, fits the camera and finishes when the answer comes', async () => {
    const m = await start(oneShot);
    m.click();
    m.once.send({ type: 'position.received', position: HOME });
    expect(m.state()).toBe('OFF');
    expect(m.once.running).toBe(false);
    expect(m.map.showPosition).toHaveBeenCalledWith(HOME);
    expect(m.map.fitCameraToPosition).toHaveBeenCalledWith({ position: HOME, bounds: accuracyBounds(HOME), maxZoom: 15 });
    expect(m.map.clearPosition).not.toHaveBeenCalled();
  });

  it('finishes after 10000 ms without an answer and ignores a late one', async () => {
    const m = await start(oneShot);
    m.click();
    const late = m.once.sendBack;
    m.clock.increment(9999);
    expect(m.state()).toBe('ONE_SHOT');
    expect(m.once.running).toBe(true);
    m.clock.increment(1);
    expect(m.state()).toBe('OFF');
    expect(m.once.running).toBe(false);
    late?.({ type: 'position.received', position: HOME });
    expect(m.map.showPosition).not.toHaveBeenCalled();
  });

  it('refits the camera on every click, keeping the dot between attempts', async () => {
    const m = await start(oneShot);
    m.click();
    m.once.send({ type: 'position.received', position: HOME });
    m.click();
    m.once.send({ type: 'position.received', position: AWAY });
    expect(m.once.inputs).toHaveLength(2);
    expect(m.map.fitCameraToPosition).toHaveBeenCalledTimes(2);
    expect(m.map.fitCameraToPosition).toHaveBeenLastCalledWith(expect.objectContaining({ position: AWAY }));
    expect(m.map.clearPosition).not.toHaveBeenCalled();
  });

  it('restarts the attempt and its 10000 ms timer on a click while waiting', async () => {
    const m = await start(oneShot);
    m.click();
    m.clock.increment(6000);
    m.click();
    expect(m.once.inputs).toHaveLength(2);
    m.clock.increment(4000);
    expect(m.state()).toBe('ONE_SHOT');
    m.clock.increment(5999);
    expect(m.state()).toBe('ONE_SHOT');
    m.clock.increment(1);
    expect(m.state()).toBe('OFF');
  });

  it.each([
    [2, 'Position unavailable'],
    [3, 'Timeout expired'],
  ] as const)('finishes on error code %i, marking a shown dot stale', async (code, message) => {
    const m = await start(oneShot);
    m.click();
    m.once.send({ type: 'position.received', position: HOME });
    m.click();
    m.once.send({ type: 'position.error', code, message });
    expect(m.state()).toBe('OFF');
    expect(m.map.markPositionStale).toHaveBeenCalledTimes(1);
    expect(m.map.clearPosition).not.toHaveBeenCalled();
    expect(isGeolocateEnabled(m.actor.getSnapshot())).toBe(true);
  });

  it('disables the button and removes the dot on error code 1', async () => {
    const m = await start(oneShot);
    m.click();
    m.once.send({ type: 'position.received', position: HOME });
    m.click();
    m.once.send({ type: 'position.error', code: 1, message: 'User denied Geolocation' });
    expect(m.state()).toBe('UNAVAILABLE');
    expect(m.actor.getSnapshot().context.reason).toBe('denied');
    expect(m.map.clearPosition).toHaveBeenCalledTimes(1);
    m.clock.increment(10000);
    expect(m.state()).toBe('UNAVAILABLE');
  });
});
