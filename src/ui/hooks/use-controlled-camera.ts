import { useEffect, useRef } from 'react';
import type { MapAdapter } from '../../map/adapter.ts';
import { cameraOf, showsViewState, viewStateOf, type ViewState } from '../view-state.ts';
import type { EventsRef } from '../pinmap-api.ts';
import { useLatest } from './use-latest.ts';

/**
 * The controlled camera: the map jumps to `viewState` whenever it changes, except while the
 * camera moves (a gesture or an animation is not fought); every change is told with `onMove`;
 * when a movement ends somewhere the view state did not follow, the map goes back to it.
 */
export function useControlledCamera(adapter: MapAdapter | undefined, viewState: ViewState | undefined, events: EventsRef): void {
  const wanted = useLatest(viewState);
  const moving = useRef(false);
  const { longitude, latitude, zoom, bearing, pitch } = viewState ?? {};
  useEffect(() => {
    if (!adapter) return;
    let frame = 0;
    const follow = () => {
      frame = 0;
      const target = wanted.current;
      if (target && !moving.current && !showsViewState(adapter.getCamera(), target)) adapter.jumpTo(cameraOf(target, adapter.getCamera()));
    };
    const stopCamera = adapter.onCameraChange((camera) => events.current.onMove?.({ viewState: viewStateOf(camera) }));
    const stopMotion = adapter.onMotion((event) => {
      if (event.type === 'motion.started') moving.current = true;
      if (event.type !== 'motion.ended') return;
      moving.current = false;
      // The state the move was told to has rendered by the next frame; whatever it did not take, goes back.
      if (wanted.current && !frame) frame = requestAnimationFrame(follow);
    });
    return () => {
      stopCamera();
      stopMotion();
      if (frame) cancelAnimationFrame(frame);
      moving.current = false;
    };
  }, [adapter, wanted, events]);
  useEffect(() => {
    if (!adapter || longitude === undefined || latitude === undefined || zoom === undefined || moving.current) return;
    const target = { longitude, latitude, zoom, bearing, pitch };
    if (!showsViewState(adapter.getCamera(), target)) adapter.jumpTo(cameraOf(target, adapter.getCamera()));
  }, [adapter, longitude, latitude, zoom, bearing, pitch]);
}
