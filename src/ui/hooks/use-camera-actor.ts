import { useActorRef } from '@xstate/react';
import { useEffect } from 'react';
import { cameraMachine, type CameraAnimation } from '../../machines/camera.machine.ts';
import type { MapAdapter } from '../../map/adapter.ts';
import { prefersReducedMotion, REDUCED_MOTION_QUERY } from '../../map/reduced-motion.ts';
import { inspectOptions } from '../inspect.ts';

/** Runs one camera machine animation on the map, its events tagged with the animation's id. */
function runOn(adapter: MapAdapter, animation: CameraAnimation): void {
  const options = { tag: String(animation.id), duration: animation.duration };
  const { zoom } = adapter.getCamera();
  switch (animation.kind) {
    case 'zoomIn':
      return adapter.easeTo({ zoom: zoom + 1 }, options);
    case 'zoomOut':
      return adapter.easeTo({ zoom: zoom - 1 }, options);
    case 'resetNorth':
    case 'snapNorth':
      return adapter.easeTo({ bearing: 0 }, options);
    case 'fitToLocation':
      return adapter.fitBounds(animation.bounds, { ...options, maxZoom: animation.maxZoom, padding: animation.padding });
    case 'flyToPin':
      return adapter.flyTo({ center: animation.center, ...(animation.zoom === undefined ? {} : { zoom: animation.zoom }) }, options);
  }
}

/**
 * The camera machine of one map: it runs the timed animations (zoom buttons, reset north, the
 * geolocation fit, the flight to a pin, the snap to north) through the adapter, hears from the
 * adapter when each ended or the user took over, and follows `prefers-reduced-motion` live.
 */
export function useCameraActor(adapter: MapAdapter, bearingSnap: number) {
  const actor = useActorRef(
    cameraMachine.provide({
      actions: {
        runCameraAnimation: (_, animation) => runOn(adapter, animation),
        stopCameraAnimation: () => adapter.stopAnimation(),
      },
    }),
    { input: { reducedMotion: prefersReducedMotion(), bearingSnap: adapter.canRotate ? bearingSnap : 0 }, ...inspectOptions() },
  );

  useEffect(
    () =>
      adapter.onMotion((event) => {
        if (event.type === 'motion.ended' && event.tag !== undefined) {
          actor.send({ type: event.completed ? 'map.animationEnded' : 'map.animationStopped', id: Number(event.tag) });
        }
        else if (event.type === 'motion.frame') actor.send({ type: 'map.animationProgressed', id: Number(event.tag) });
        else if (event.type === 'user.gesture') actor.send({ type: 'map.userGesture' });
        // Like MapLibre's own snap, the end of any movement the user drove is checked, not only
        // of a rotation: a bearing left just off north by any gesture snaps back.
        else if (event.type === 'user.moveEnded') actor.send({ type: 'map.rotateEnded', bearing: event.bearing, byUser: true });
      }),
    [adapter, actor],
  );

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(REDUCED_MOTION_QUERY);
    const onChange = () => actor.send({ type: 'camera.setReducedMotion', reduce: query.matches });
    onChange();
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [actor]);

  return actor;
}

export type CameraActor = ReturnType<typeof useCameraActor>;
