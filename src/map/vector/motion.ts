import type { Map as MapLibreMap, MapLibreEvent } from 'maplibre-gl';
import type { Gesture, MapMotionEvent } from '../adapter.ts';

/** The key under which an animation's tag rides on MapLibre's event data. */
const TAG = 'pinmapAnimation';

type MotionEventData = MapLibreEvent & { originalEvent?: unknown; [TAG]?: string };

/**
 * The vector map's movements as the adapter's motion events (see `MapMotionEvent`): a camera
 * animation started by code carries its tag on MapLibre's events, and its end is complete when
 * it lasted its duration (`AnimationClock`).
 */
export function createMotion(map: MapLibreMap) {
  const animations = new AnimationClock();
  return {
    /**
     * Starts a tagged animation's clock; returns the event data to hand MapLibre's camera call
     * (`easeTo(options, eventData)`), so the tag comes back on its motion events.
     */
    tagged(tag: string, duration: number | undefined): { [TAG]: string } {
      animations.start(tag, duration);
      return { [TAG]: tag };
    },
    /** Calls `listener` with the motion events from now on; returns what stops it. */
    listen: (listener: (event: MapMotionEvent) => void) => listenToMotion(map, animations, listener),
  };
}

/**
 * Turns MapLibre's movement events into the adapter's motion events: an animation's tag comes
 * back from its event data; a user's input shows as `originalEvent` (a container resize carries
 * its ResizeObserver entries instead, so it is not taken for the user).
 */
function listenToMotion(map: MapLibreMap, animations: AnimationClock, listener: (event: MapMotionEvent) => void): () => void {
  const byUser = (event: MotionEventData) => event.originalEvent !== undefined;
  const onStart = (event: MotionEventData) => {
    listener({ type: 'motion.started', tag: event[TAG], byUser: byUser(event) });
    // The keyboard moves the camera with eases of its own, without drag or zoom start events.
    if (event.originalEvent instanceof KeyboardEvent) listener({ type: 'user.gesture', gesture: keyboardGesture(event.originalEvent) });
  };
  const onEnd = (event: MotionEventData) => {
    const user = byUser(event);
    const tag = event[TAG];
    listener({ type: 'motion.ended', tag, byUser: user, completed: tag === undefined || animations.hasRunItsCourse(tag) });
    if (user) listener({ type: 'user.moveEnded', bearing: map.getBearing() });
  };
  const onMove = (event: MotionEventData) => {
    const tag = event[TAG];
    if (tag !== undefined) listener({ type: 'motion.frame', tag });
  };
  const gestures: [string, Gesture][] = [
    ['dragstart', 'drag'],
    ['zoomstart', 'zoom'],
    ['rotatestart', 'rotate'],
    ['pitchstart', 'pitch'],
  ];
  const gestureHandlers = gestures.map(([type, gesture]) => {
    const handler = (event: MotionEventData) => {
      if (byUser(event)) listener({ type: 'user.gesture', gesture });
    };
    map.on(type as 'dragstart', handler);
    return [type, handler] as const;
  });
  map.on('movestart', onStart);
  map.on('move', onMove);
  map.on('moveend', onEnd);
  return () => {
    map.off('movestart', onStart);
    map.off('move', onMove);
    map.off('moveend', onEnd);
    for (const [type, handler] of gestureHandlers) map.off(type as 'dragstart', handler);
  };
}

/** What a key does to MapLibre's camera: +, - and = zoom; Shift with an arrow rotates or pitches; other keys pan. */
function keyboardGesture(event: KeyboardEvent): Gesture {
  if (['+', '-', '=', '_'].includes(event.key)) return 'zoom';
  if (event.shiftKey) return event.key === 'ArrowUp' || event.key === 'ArrowDown' ? 'pitch' : 'rotate';
  return 'drag';
}

/**
 * When each tagged animation started and how long it was asked to last. MapLibre draws an
 * animation's last frame only once its duration has passed, so an end that comes earlier is one
 * that was cut short. (A flight without a given duration picks its own length: its end counts
 * as complete.)
 */
class AnimationClock {
  private readonly runs = new Map<string, { startedAt: number; duration: number | undefined }>();

  start(tag: string, duration: number | undefined): void {
    this.runs.clear(); // one animation at a time: a new one replaces the old
    this.runs.set(tag, { startedAt: performance.now(), duration });
  }

  hasRunItsCourse(tag: string): boolean {
    const run = this.runs.get(tag);
    if (!run || run.duration === undefined) return true;
    return performance.now() - run.startedAt >= run.duration - 1;
  }
}
