import { assign, enqueueActions, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import {
  ANIMATION_END_GRACE_MS,
  BEARING_SNAP_DEGREES,
  FIT_TO_LOCATION_MS,
  FLY_TO_PIN_MS,
  LOCATE_MAX_ZOOM,
  RESET_NORTH_MS,
  SNAP_NORTH_MS,
  ZOOM_EASE_MS,
} from './constants.ts';
import { normalizeBearing } from './geo.ts';
import type { LngLat, LngLatBounds } from './geo.ts';
import type { FitPadding } from '../config/constants.ts';

/** The kinds of animation the camera runs. */
export type CameraAnimationKind = 'zoomIn' | 'zoomOut' | 'resetNorth' | 'snapNorth' | 'fitToLocation' | 'flyToPin';

/** What an animation does, with the parameters its kind needs. */
export type CameraMove =
  | { kind: 'zoomIn' }
  | { kind: 'zoomOut' }
  | { kind: 'resetNorth' }
  | { kind: 'snapNorth' }
  /** Fit the box, keeping the bearing, no further in than maxZoom. */
  | { kind: 'fitToLocation'; bounds: LngLatBounds; maxZoom: number; padding?: FitPadding | undefined }
  /** Fly to the centre; keep the zoom when none is given. */
  | { kind: 'flyToPin'; center: LngLat; zoom?: number | undefined };

/** One run of the camera: what `runCameraAnimation` receives. */
export type CameraAnimation = CameraMove & {
  /** Tags the map's events of this run, so its end can be told from an older one's. */
  id: number;
  /** Milliseconds; 0 means jump. */
  duration: number;
};

export type CameraAnimationOutcome = 'ended' | 'interrupted' | 'replaced' | 'timedOut';

/** How an animation finished. */
export type CameraAnimationRecord = { id: number; kind: CameraAnimationKind; outcome: CameraAnimationOutcome };

/** Each kind's duration when motion is allowed. */
export const CAMERA_ANIMATION_DURATIONS: Readonly<Record<CameraAnimationKind, number>> = {
  zoomIn: ZOOM_EASE_MS,
  zoomOut: ZOOM_EASE_MS,
  resetNorth: RESET_NORTH_MS,
  snapNorth: SNAP_NORTH_MS,
  fitToLocation: FIT_TO_LOCATION_MS,
  flyToPin: FLY_TO_PIN_MS,
};

export type CameraInput = {
  /** The user asks for reduced motion (`prefers-reduced-motion: reduce`): every animation is a jump. */
  reducedMotion: boolean;
  /** Degrees from north within which a user rotation snaps to north; 0 turns snapping off. */
  bearingSnap?: number | undefined;
};

export type CameraEvent =
  | { type: 'camera.zoomIn' }
  | { type: 'camera.zoomOut' }
  | { type: 'camera.resetNorth' }
  /** Fit the camera to a box; maxZoom defaults to the locate maximum (15). */
  | { type: 'camera.fitTo'; bounds: LngLatBounds; maxZoom?: number | undefined; padding?: FitPadding | undefined }
  | { type: 'camera.flyTo'; center: LngLat; zoom?: number | undefined }
  /** The reduced-motion preference changed; applies from the next animation on. */
  | { type: 'camera.setReducedMotion'; reduce: boolean }
  /** The map finished the animation run with this id (its `moveend`, after the full duration). */
  | { type: 'map.animationEnded'; id: number }
  /** The map stopped the animation run with this id before its end (its `moveend`, early). */
  | { type: 'map.animationStopped'; id: number }
  /** The map drew a frame of the animation run with this id: it is still under way. */
  | { type: 'map.animationProgressed'; id: number }
  /** The user started moving the camera (drag, wheel, touch, keyboard). */
  | { type: 'map.userGesture' }
  /** A rotation ended at this bearing, started by the user or not. */
  | { type: 'map.rotateEnded'; bearing: number; byUser: boolean };

export type CameraContext = {
  reducedMotion: boolean;
  bearingSnap: number;
  /** The id the next animation gets. */
  nextId: number;
  /** The animation running now. */
  current: CameraAnimation | undefined;
  /** How the latest finished animation finished. */
  last: CameraAnimationRecord | undefined;
};

const cameraSetup = setup({
  types: {
    input: {} as CameraInput,
    context: {} as CameraContext,
    events: {} as CameraEvent,
  },
  actions: {
    /** Starts the animation on the map, replacing any that runs, tagging its events with the id. */
    runCameraAnimation: (_, _animation: CameraAnimation) => undefined,
    /** Stops the animation with this id, leaving the camera where it is. */
    stopCameraAnimation: (_, _params: { id: number }) => undefined,

    /** Makes the move the current animation; a running one is recorded as replaced. */
    beginAnimation: assign(({ context }, move: CameraMove) => ({
      current: {
        ...move,
        id: context.nextId,
        duration: context.reducedMotion ? 0 : CAMERA_ANIMATION_DURATIONS[move.kind],
      },
      nextId: context.nextId + 1,
      last: context.current === undefined ? context.last : record(context.current, 'replaced'),
    })),
    finishAnimation: assign(({ context }, params: { outcome: CameraAnimationOutcome }) => ({
      current: undefined,
      last: context.current === undefined ? context.last : record(context.current, params.outcome),
    })),
    recordReducedMotion: assign({
      reducedMotion: ({ event, context }) =>
        event.type === 'camera.setReducedMotion' ? event.reduce : context.reducedMotion,
    }),
  },
  guards: {
    isCurrentAnimation: ({ context, event }) =>
      (event.type === 'map.animationEnded' || event.type === 'map.animationStopped' || event.type === 'map.animationProgressed') &&
      event.id === context.current?.id,
    /** A user rotation that ended off north but within the snap angle. */
    isNearNorth: ({ context, event }) => {
      if (event.type !== 'map.rotateEnded' || !event.byUser) return false;
      const bearing = normalizeBearing(event.bearing);
      return bearing !== 0 && Math.abs(bearing) < context.bearingSnap;
    },
  },
  delays: {
    /**
     * The animation's own duration plus the grace the map gets to report its end, from its start
     * or from the last frame the map drew of it.
     */
    animationSafety: ({ context }) => (context.current?.duration ?? 0) + ANIMATION_END_GRACE_MS,
  },
});

/** Hands the current animation to the map. */
const runCurrentAnimation = cameraSetup.createAction(
  enqueueActions(({ context, enqueue }) => {
    if (context.current === undefined) return;
    enqueue({ type: 'runCameraAnimation', params: context.current });
  }),
);

/** Stops the current animation on the map. */
const stopCurrentAnimation = cameraSetup.createAction(
  enqueueActions(({ context, enqueue }) => {
    if (context.current === undefined) return;
    enqueue({ type: 'stopCameraAnimation', params: { id: context.current.id } });
  }),
);

/**
 * The camera's timed animations, mirrored as `data-state` (`idle` or `animating`).
 *
 * A command (`camera.zoomIn`, `camera.zoomOut`, `camera.resetNorth`, `camera.fitTo`,
 * `camera.flyTo`) or a user rotation that ends less than `bearingSnap` degrees from north starts
 * an animation: the machine numbers it, picks its duration (0 under reduced motion) and asks the
 * injected `runCameraAnimation` action to run it, tagged with that number. The animation is over
 * when the map says so, not when a timer thinks so:
 *
 * - `map.animationEnded` with the running animation's id: it `ended`. Ends of older animations
 *   are ignored.
 * - `map.animationStopped` with the running animation's id, or `map.userGesture`: the map cut it
 *   short (a gesture took the camera over; the engine has already stopped the animation), so it
 *   was `interrupted`. MapLibre reports the end of an animation that a gesture stops before it
 *   reports the gesture, so the app tells a full run (`map.animationEnded`) from a cut-short one
 *   (`map.animationStopped`) when the tagged `moveend` arrives.
 * - A new command: it was `replaced` by the new animation, which the map engine runs in its place.
 * - No end reported within its duration plus ANIMATION_END_GRACE_MS (`animationSafety`), counted
 *   from its start or from the last frame the map drew of it (`map.animationProgressed`): the
 *   machine stops it with `stopCameraAnimation` and records it as `timedOut`. A map that draws
 *   slowly (a busy device, software WebGL) is still under way, and its animation runs to its end.
 *
 * `context.current` is the running animation; `context.last` the outcome of the latest one that
 * finished.
 */
export const cameraMachine = cameraSetup
  .extend({ actions: { runCurrentAnimation, stopCurrentAnimation } })
  .createMachine({
    id: 'camera',
    context: ({ input }) => ({
      reducedMotion: input.reducedMotion,
      bearingSnap: input.bearingSnap ?? BEARING_SNAP_DEGREES,
      nextId: 1,
      current: undefined,
      last: undefined,
    }),
    initial: 'idle',
    // Commands are taken in any state; from `animating` they leave and re-enter it, so the new
    // animation gets a fresh safety timer.
    on: {
      'camera.zoomIn': { target: '.animating', actions: [{ type: 'beginAnimation', params: { kind: 'zoomIn' } }, 'runCurrentAnimation'] },
      'camera.zoomOut': { target: '.animating', actions: [{ type: 'beginAnimation', params: { kind: 'zoomOut' } }, 'runCurrentAnimation'] },
      'camera.resetNorth': { target: '.animating', actions: [{ type: 'beginAnimation', params: { kind: 'resetNorth' } }, 'runCurrentAnimation'] },
      'camera.fitTo': {
        target: '.animating',
        actions: [
          {
            type: 'beginAnimation',
            params: ({ event }) => ({ kind: 'fitToLocation', bounds: event.bounds, maxZoom: event.maxZoom ?? LOCATE_MAX_ZOOM, padding: event.padding }),
          },
          'runCurrentAnimation',
        ],
      },
      'camera.flyTo': {
        target: '.animating',
        actions: [
          {
            type: 'beginAnimation',
            params: ({ event }) => ({ kind: 'flyToPin', center: event.center, zoom: event.zoom }),
          },
          'runCurrentAnimation',
        ],
      },
      'map.rotateEnded': {
        guard: 'isNearNorth',
        target: '.animating',
        actions: [{ type: 'beginAnimation', params: { kind: 'snapNorth' } }, 'runCurrentAnimation'],
      },
      'camera.setReducedMotion': { actions: 'recordReducedMotion' },
    },
    states: {
      idle: {},
      // Each command hands its animation to the map as it enters (`runCurrentAnimation`), so a
      // frame of the animation can re-enter this state, restarting its safety timer, without
      // running the animation again.
      animating: {
        after: {
          animationSafety: {
            target: 'idle',
            actions: ['stopCurrentAnimation', { type: 'finishAnimation', params: { outcome: 'timedOut' } }],
          },
        },
        on: {
          'map.animationProgressed': { guard: 'isCurrentAnimation', target: 'animating', reenter: true },
          'map.animationEnded': {
            guard: 'isCurrentAnimation',
            target: 'idle',
            actions: { type: 'finishAnimation', params: { outcome: 'ended' } },
          },
          'map.animationStopped': {
            guard: 'isCurrentAnimation',
            target: 'idle',
            actions: { type: 'finishAnimation', params: { outcome: 'interrupted' } },
          },
          'map.userGesture': {
            target: 'idle',
            actions: { type: 'finishAnimation', params: { outcome: 'interrupted' } },
          },
        },
      },
    },
  });

function record(animation: CameraAnimation, outcome: CameraAnimationOutcome): CameraAnimationRecord {
  return { id: animation.id, kind: animation.kind, outcome };
}

export type CameraSnapshot = SnapshotFrom<typeof cameraMachine>;
