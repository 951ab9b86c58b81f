import { assign, enqueueActions, fromCallback, fromPromise, setup, spawnChild, stopChild } from 'xstate';
import type { EventObject, SnapshotFrom } from 'xstate';
import { GEOLOCATION_TIMEOUT_MS, LOCATE_MAX_ZOOM, ONE_SHOT_FINISH_MS } from './constants.ts';
import { accuracyBounds } from './geo.ts';
import type { GeoPosition, LngLatBounds } from './geo.ts';

/** The top-level states, as `snapshot.value` and the button's `data-state` show them. */
export type GeolocateState =
  | 'CHECKING'
  | 'UNAVAILABLE'
  | 'OFF'
  | 'WAITING_ACTIVE'
  | 'ACTIVE_LOCK'
  | 'BACKGROUND'
  | 'ACTIVE_ERROR'
  | 'BACKGROUND_ERROR'
  | 'ONE_SHOT';

/** What `checkSupport` finds: locating works, or why it cannot. */
export type SupportResult = 'supported' | 'denied' | 'unsupported' | 'insecure';

/** Why the button is disabled. */
export type UnavailableReason = Exclude<SupportResult, 'supported'>;

/** The browser's permission states, as the Permissions API reports them. */
export type GeolocationPermission = 'granted' | 'denied' | 'prompt';

/** The options handed to the browser with every position request (the DOM's PositionOptions). */
export type PositionRequestOptions = {
  enableHighAccuracy: boolean;
  /** How old, in ms, a cached position may be. */
  maximumAge: number;
  /** How long, in ms, the browser may take before it reports error code 3. */
  timeout: number;
};

/** Position options used where config gives none; config overrides them field by field. */
export const DEFAULT_POSITION_OPTIONS: Readonly<PositionRequestOptions> = {
  enableHighAccuracy: false,
  maximumAge: 0,
  timeout: GEOLOCATION_TIMEOUT_MS,
};

/** How the camera fits the accuracy circle where config says nothing. */
export const DEFAULT_FIT_OPTIONS: Readonly<{ maxZoom: number }> = { maxZoom: LOCATE_MAX_ZOOM };

/** The machine's input, from the site's config. */
export type GeolocateInput = {
  /** Keep following the user (watch) rather than locate once. */
  trackUserLocation: boolean;
  /** Move the camera to the position; false shows the dot and leaves the camera alone. */
  fitCamera: boolean;
  /** Merged over DEFAULT_POSITION_OPTIONS field by field. */
  positionOptions?: Partial<PositionRequestOptions> | undefined;
  /** Merged over DEFAULT_FIT_OPTIONS. */
  fitOptions?: { maxZoom?: number | undefined } | undefined;
};

/** What the position actors receive as input. */
export type PositionRequest = { options: PositionRequestOptions };

/** A geolocation error as the browser reports it: 1 denied, 2 unavailable, 3 timeout. */
export type PositionFailure = { code: number; message: string };

/** The events `watchPosition` and `getCurrentPosition` send back to the machine. */
export type PositionSourceEvent =
  | { type: 'position.received'; position: GeoPosition }
  | ({ type: 'position.error' } & PositionFailure);

/** The event `watchPermission` sends back whenever the browser's permission state changes. */
export type PermissionChangedEvent = { type: 'permission.changed'; state: GeolocationPermission };

export type GeolocateEvent =
  | { type: 'geolocate.click' }
  /** The app sends this only for moves the user started that are not zooms or resizes. */
  | { type: 'map.userMoved' }
  | PositionSourceEvent
  | PermissionChangedEvent;

/** What `fitCameraToPosition` receives: the position and the box that holds its accuracy circle. */
export type FitToPositionParams = { position: GeoPosition; bounds: LngLatBounds; maxZoom: number };

export type GeolocateContext = {
  trackUserLocation: boolean;
  fitCamera: boolean;
  positionOptions: PositionRequestOptions;
  maxZoom: number;
  /** The last position received, until it is cleared. */
  position: GeoPosition | undefined;
  /** The last error reported, for the UI to describe. */
  error: PositionFailure | undefined;
  /** Why the button is disabled, while it is. */
  reason: UnavailableReason | undefined;
};

/** The error code a browser reports when the user refuses (or has refused) the permission. */
const PERMISSION_DENIED = 1;

const geolocateSetup = setup({
  types: {
    input: {} as GeolocateInput,
    context: {} as GeolocateContext,
    events: {} as GeolocateEvent,
    tags: {} as 'watching' | 'busy',
  },
  actors: {
    /** Finds out whether locating can work here. The default answers 'unsupported'. */
    checkSupport: fromPromise<SupportResult>(async () => 'unsupported'),
    /** Watches the position, sending PositionSourceEvents, until it is stopped. */
    watchPosition: fromCallback<EventObject, PositionRequest>(() => undefined),
    /** Asks for one position, sending one PositionSourceEvent; stopping it discards the answer. */
    getCurrentPosition: fromCallback<EventObject, PositionRequest>(() => undefined),
    /** Sends PermissionChangedEvent whenever the geolocation permission changes. */
    watchPermission: fromCallback<EventObject>(() => undefined),
  },
  actions: {
    /** Places the dot and the accuracy circle at the position, drawn as fresh (not stale). */
    showPosition: (_, _params: { position: GeoPosition }) => undefined,
    /** Greys the dot out: the last position is kept but may be out of date. No-op without one. */
    markPositionStale: () => undefined,
    /** Removes the dot and the accuracy circle. */
    clearPosition: () => undefined,
    /** Fits the camera to the bounds (keeping its bearing), no further in than maxZoom. */
    fitCameraToPosition: (_, _params: FitToPositionParams) => undefined,
    recordPosition: assign({
      position: ({ event, context }) => (event.type === 'position.received' ? event.position : context.position),
    }),
    recordError: assign({
      error: ({ event, context }) =>
        event.type === 'position.error' ? { code: event.code, message: event.message } : context.error,
    }),
    forgetPosition: assign({ position: undefined }),
    recordUnavailable: assign((_, params: { reason: UnavailableReason }) => ({ reason: params.reason })),
    clearReason: assign({ reason: undefined }),
  },
  guards: {
    isSupported: (_, params: { result: SupportResult }) => params.result === 'supported',
    isTracking: ({ context }) => context.trackUserLocation,
    /** Only a control that moves the camera has a lock to lose. */
    isFollowingCamera: ({ context }) => context.fitCamera,
    isPermissionDeniedError: ({ event }) => event.type === 'position.error' && event.code === PERMISSION_DENIED,
    isPermissionDenied: ({ event }) => event.type === 'permission.changed' && event.state === 'denied',
    /** A denial lifted: the browser now grants, or will ask again. */
    isDenialLifted: ({ context, event }) =>
      context.reason === 'denied' && event.type === 'permission.changed' && event.state !== 'denied',
  },
  delays: {
    oneShotFinish: ONE_SHOT_FINISH_MS,
  },
});

/** Shows the recorded position. */
const showRecordedPosition = geolocateSetup.createAction(
  enqueueActions(({ context, enqueue }) => {
    if (context.position === undefined) return;
    enqueue({ type: 'showPosition', params: { position: context.position } });
  }),
);

/** Fits the camera to the recorded position, when the config lets the control move the camera. */
const fitToRecordedPosition = geolocateSetup.createAction(
  enqueueActions(({ context, enqueue }) => {
    if (!context.fitCamera || context.position === undefined) return;
    const params: FitToPositionParams = {
      position: context.position,
      bounds: accuracyBounds(context.position),
      maxZoom: context.maxZoom,
    };
    enqueue({ type: 'fitCameraToPosition', params });
  }),
);

/** A click while locating turns it off: the watch ends and the dot goes. */
const stopLocating = () => ({ target: 'OFF' as const, actions: ['stopWatch' as const, 'forgetPosition' as const, 'clearPosition' as const] });

/** Error code 1 while watching: the watch ends, the dot goes, and the button is disabled. */
const deniedWhileWatching = () => ({
  guard: 'isPermissionDeniedError' as const,
  target: 'UNAVAILABLE' as const,
  actions: [
    'stopWatch' as const,
    'recordError' as const,
    'forgetPosition' as const,
    'clearPosition' as const,
    { type: 'recordUnavailable' as const, params: { reason: 'denied' as const } },
  ],
});

/**
 * The geolocation control's cycle, mirrored on the button as `data-state`.
 *
 * - `CHECKING`: the button is disabled while the `checkSupport` actor finds out whether the
 *   browser can locate the user at all.
 * - `UNAVAILABLE`: the button is disabled; `context.reason` says why: `'unsupported'` (no
 *   geolocation in this browser), `'denied'` (the user refused the permission, now or before) or
 *   `'insecure'` (the page is neither https nor localhost, where browsers refuse to locate).
 *   A denied permission that the browser later reports as granted (or back to prompting) enables
 *   the button again.
 * - With tracking on: `OFF` → click → `WAITING_ACTIVE` → first position → `ACTIVE_LOCK`, where
 *   the camera follows every position; a user move of the map goes to `BACKGROUND`, where only the
 *   dot follows; a click there returns to `ACTIVE_LOCK`. Errors 2 (position unavailable) and 3
 *   (timeout) go to `ACTIVE_ERROR` / `BACKGROUND_ERROR` with the dot kept but stale. A click in
 *   any of these except `BACKGROUND` turns tracking off.
 * - With tracking off: a click starts `ONE_SHOT`, a single position request that ends with the
 *   answer, an error, or after `oneShotFinish` (10000 ms) without one; the dot stays afterwards.
 * - Error 1 (permission denied), in any mode, stops locating, removes the dot and disables the
 *   button (`UNAVAILABLE`, reason `'denied'`).
 *
 * Everything that touches the browser or the map is injected: the actors `checkSupport`,
 * `watchPosition`, `getCurrentPosition`, `watchPermission` and the actions `showPosition`,
 * `markPositionStale`, `clearPosition`, `fitCameraToPosition`. Their defaults do nothing (and
 * `checkSupport` answers `'unsupported'`), so the bare machine is inert; the app provides the real
 * ones with `geolocateMachine.provide()`.
 */
export const geolocateMachine = geolocateSetup
  .extend({
    actions: {
      startWatch: spawnChild('watchPosition', {
        id: 'watchPosition',
        input: ({ context }: { context: GeolocateContext }) => ({ options: context.positionOptions }),
      }),
      stopWatch: stopChild('watchPosition'),
      showRecordedPosition,
      fitToRecordedPosition,
    },
  })
  .createMachine({
    id: 'geolocate',
    context: ({ input }) => ({
      trackUserLocation: input.trackUserLocation,
      fitCamera: input.fitCamera,
      positionOptions: { ...DEFAULT_POSITION_OPTIONS, ...definedFields(input.positionOptions ?? {}) },
      maxZoom: input.fitOptions?.maxZoom ?? DEFAULT_FIT_OPTIONS.maxZoom,
      position: undefined,
      error: undefined,
      reason: undefined,
    }),
    invoke: { id: 'watchPermission', src: 'watchPermission' },
    initial: 'CHECKING',
    on: {
      'permission.changed': {
        guard: 'isPermissionDenied',
        target: '.UNAVAILABLE',
        actions: ['stopWatch', 'forgetPosition', 'clearPosition', { type: 'recordUnavailable', params: { reason: 'denied' } }],
      },
    },
    states: {
      CHECKING: {
        invoke: {
          id: 'checkSupport',
          src: 'checkSupport',
          onDone: [
            { guard: { type: 'isSupported', params: ({ event }) => ({ result: event.output }) }, target: 'OFF' },
            {
              target: 'UNAVAILABLE',
              actions: {
                type: 'recordUnavailable',
                params: ({ event }) => ({ reason: event.output === 'supported' ? 'unsupported' : event.output }),
              },
            },
          ],
          onError: {
            target: 'UNAVAILABLE',
            actions: { type: 'recordUnavailable', params: { reason: 'unsupported' } },
          },
        },
      },
      UNAVAILABLE: {
        on: {
          'permission.changed': [
            { guard: 'isDenialLifted', target: 'OFF', actions: 'clearReason' },
            // Any other permission news leaves the button as it is (and never reaches the root).
            {},
          ],
        },
      },
      OFF: {
        on: {
          'geolocate.click': [{ guard: 'isTracking', target: 'WAITING_ACTIVE', actions: 'startWatch' }, { target: 'ONE_SHOT' }],
        },
      },
      WAITING_ACTIVE: {
        tags: ['watching', 'busy'],
        on: {
          'geolocate.click': stopLocating(),
          'position.received': {
            target: 'ACTIVE_LOCK',
            actions: ['recordPosition', 'showRecordedPosition', 'fitToRecordedPosition'],
          },
          'position.error': [
            deniedWhileWatching(),
            { target: 'ACTIVE_ERROR', actions: ['recordError', 'markPositionStale'] },
          ],
        },
      },
      ACTIVE_LOCK: {
        tags: ['watching'],
        on: {
          'geolocate.click': stopLocating(),
          'position.received': { actions: ['recordPosition', 'showRecordedPosition', 'fitToRecordedPosition'] },
          'map.userMoved': { guard: 'isFollowingCamera', target: 'BACKGROUND' },
          'position.error': [
            deniedWhileWatching(),
            { target: 'ACTIVE_ERROR', actions: ['recordError', 'markPositionStale'] },
          ],
        },
      },
      BACKGROUND: {
        tags: ['watching'],
        on: {
          'geolocate.click': { target: 'ACTIVE_LOCK', actions: 'fitToRecordedPosition' },
          'position.received': { actions: ['recordPosition', 'showRecordedPosition'] },
          'position.error': [
            deniedWhileWatching(),
            { target: 'BACKGROUND_ERROR', actions: ['recordError', 'markPositionStale'] },
          ],
        },
      },
      ACTIVE_ERROR: {
        tags: ['watching'],
        on: {
          'geolocate.click': stopLocating(),
          'position.received': {
            target: 'ACTIVE_LOCK',
            actions: ['recordPosition', 'showRecordedPosition', 'fitToRecordedPosition'],
          },
          'position.error': [
            deniedWhileWatching(),
            { actions: ['recordError', 'markPositionStale'] },
          ],
        },
      },
      BACKGROUND_ERROR: {
        tags: ['watching'],
        on: {
          'geolocate.click': stopLocating(),
          'position.received': { target: 'BACKGROUND', actions: ['recordPosition', 'showRecordedPosition'] },
          'position.error': [
            deniedWhileWatching(),
            { actions: ['recordError', 'markPositionStale'] },
          ],
        },
      },
      ONE_SHOT: {
        tags: ['busy'],
        invoke: {
          id: 'getCurrentPosition',
          src: 'getCurrentPosition',
          input: ({ context }) => ({ options: context.positionOptions }),
        },
        after: { oneShotFinish: 'OFF' },
        on: {
          // A new click starts a new attempt, with a fresh request and a fresh timer.
          'geolocate.click': { target: 'ONE_SHOT', reenter: true },
          'position.received': {
            target: 'OFF',
            actions: ['recordPosition', 'showRecordedPosition', 'fitToRecordedPosition'],
          },
          'position.error': [
            {
              guard: 'isPermissionDeniedError',
              target: 'UNAVAILABLE',
              actions: ['recordError', 'forgetPosition', 'clearPosition', { type: 'recordUnavailable', params: { reason: 'denied' } }],
            },
            { target: 'OFF', actions: ['recordError', 'markPositionStale'] },
          ],
        },
      },
    },
  });

/** The fields of a partial options object that are actually set, so `undefined` never overrides a default. */
function definedFields<T extends object>(partial: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(partial).filter(([, value]) => value !== undefined)) as Partial<T>;
}

export type GeolocateSnapshot = SnapshotFrom<typeof geolocateMachine>;

/** Whether the button takes clicks (it is disabled while checking and when unavailable). */
export function isGeolocateEnabled(snapshot: GeolocateSnapshot): boolean {
  return snapshot.can({ type: 'geolocate.click' });
}

/** Whether tracking is on, for the button's `aria-pressed`. */
export function isGeolocateWatching(snapshot: GeolocateSnapshot): boolean {
  return snapshot.hasTag('watching');
}
