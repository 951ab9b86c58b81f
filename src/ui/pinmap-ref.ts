import type { MapAdapter } from '../map/adapter.ts';
import type { PinmapConfig } from '../config/schema.ts';
import { cameraOf, viewStateOf } from './view-state.ts';
import type { PinmapRef } from './pinmap-api.ts';

/** The imperative handle of one map. */
export function pinmapRefOf(adapter: MapAdapter, config: { current: PinmapConfig }): PinmapRef {
  const duration = (options: { duration?: number } | undefined) => (prefersReducedMotion() ? 0 : options?.duration);
  return {
    getViewState: () => viewStateOf(adapter.getCamera()),
    jumpTo: (view) => adapter.jumpTo(cameraOf(view, adapter.getCamera())),
    flyTo: (view, options) => adapter.flyTo(cameraOf(view, adapter.getCamera()), withDuration({ tag: 'ref.flyTo' }, duration(options))),
    fitBounds: (bounds, options) =>
      adapter.fitBounds(bounds, withDuration({ tag: 'ref.fitBounds', maxZoom: options?.maxZoom ?? config.current.maxZoom }, duration(options) ?? FIT_DURATION)),
    openPin: (id) => adapter.openPin(id),
    closePin: () => adapter.closePin(),
    getMap: () => adapter.getMap(),
  };
}

/** How long `fitBounds` eases when not told (MapLibre's own default for camera animations). */
const FIT_DURATION = 500;

function withDuration<T extends object>(options: T, duration: number | undefined): T & { duration?: number } {
  return duration === undefined ? options : { ...options, duration };
}

function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}
