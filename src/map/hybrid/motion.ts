import type L from 'leaflet';
import type { MapMotionEvent } from '../adapter.ts';
import { Listeners } from '../adapter-wiring.ts';

/**
 * Leaflet's movements as the adapter's motion events (see `MapMotionEvent`). Leaflet names no
 * animation and says nothing of who moved the map, so this keeps the books itself: a tagged
 * animation starts here and ends when Leaflet's move ends (complete when it lasted its
 * duration), or is cut short by `stop`, by the next animation, or by the user's drag, wheel,
 * double-click, pinch or keys, which are gestures.
 */
export function createMotion(map: L.Map) {
  const listeners = new Listeners<[event: MapMotionEvent]>();
  const emit = (event: MapMotionEvent) => listeners.tell(event);
  let active: { tag: string; startedAt: number; duration: number | undefined } | undefined;
  let quiet = 0;
  let userMoving = false;
  const container = map.getContainer();

  /** Runs Leaflet calls whose own move events must not count (they are reported here). */
  const quietly = (action: () => void) => {
    quiet++;
    try {
      action();
    } finally {
      quiet--;
    }
  };
  const cutShort = () => {
    if (!active) return;
    const { tag } = active;
    active = undefined;
    emit({ type: 'motion.ended', tag, byUser: false, completed: false });
  };
  /** Stops Leaflet's animation where it is, without the events of Leaflet's own `stop()`. */
  const halt = () => (map as unknown as { _stop(): void })._stop();

  const onMoveStart = () => {
    if (quiet > 0 || active) return;
    emit({ type: 'motion.started', tag: undefined, byUser: userMoving });
  };
  const onMove = () => {
    if (quiet === 0 && active) emit({ type: 'motion.frame', tag: active.tag });
  };
  const onMoveEnd = () => {
    if (quiet > 0) return;
    if (active) {
      const { tag, startedAt, duration } = active;
      active = undefined;
      emit({ type: 'motion.ended', tag, byUser: false, completed: duration === undefined || performance.now() - startedAt >= duration - 1 });
      return;
    }
    const byUser = userMoving;
    userMoving = false;
    emit({ type: 'motion.ended', tag: undefined, byUser, completed: true });
    if (byUser) emit({ type: 'user.moveEnded', bearing: 0 });
  };
  const gesture = (kind: 'drag' | 'zoom') => {
    if (active) {
      halt();
      cutShort();
    }
    userMoving = true;
    emit({ type: 'user.gesture', gesture: kind });
  };
  const onDragStart = () => gesture('drag');
  const onWheel = () => gesture('zoom');
  const onDoubleClick = () => gesture('zoom');
  const onTouchStart = (event: TouchEvent) => {
    if (event.touches.length >= 2) gesture('zoom');
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target !== container) return; // keys in a popup or on a pin are theirs
    if (['+', '-', '=', '_'].includes(event.key)) gesture('zoom');
    else if (event.key.startsWith('Arrow')) gesture('drag');
  };

  map.on('movestart', onMoveStart);
  map.on('move', onMove);
  map.on('moveend', onMoveEnd);
  map.on('dragstart', onDragStart);
  container.addEventListener('wheel', onWheel, { passive: true });
  container.addEventListener('dblclick', onDoubleClick);
  container.addEventListener('touchstart', onTouchStart, { passive: true });
  container.addEventListener('keydown', onKeyDown);

  return {
    /** Starts a tagged animation: `run` animates, `jump` moves at once (a duration of 0). */
    animate(tag: string, duration: number | undefined, run: () => void, jump: () => void) {
      if (active) {
        halt();
        cutShort();
      }
      emit({ type: 'motion.started', tag, byUser: false });
      if (duration === 0) {
        quietly(jump);
        emit({ type: 'motion.ended', tag, byUser: false, completed: true });
        return;
      }
      active = { tag, startedAt: performance.now(), duration };
      quietly(run);
      // A move to where the map already is ends at once, inside `run`: report it.
      if (active && !(map as unknown as { _flyToFrame?: number })._flyToFrame) onMoveEnd();
    },
    stop() {
      if (!active) return;
      halt();
      cutShort();
      // Leaflet's layers and tiles settle where the camera stopped (its end is reported above).
      quietly(() => map.fire('moveend'));
    },
    listen: (listener: (event: MapMotionEvent) => void) => listeners.add(listener),
    destroy() {
      listeners.clear();
      map.off('movestart', onMoveStart);
      map.off('move', onMove);
      map.off('moveend', onMoveEnd);
      map.off('dragstart', onDragStart);
      container.removeEventListener('wheel', onWheel);
      container.removeEventListener('dblclick', onDoubleClick);
      container.removeEventListener('touchstart', onTouchStart);
      container.removeEventListener('keydown', onKeyDown);
    },
  };
}
