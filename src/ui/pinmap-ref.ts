import type { MapAdapter } from '../map/adapter.ts';
import type { PinmapConfig } from '../config/schema.ts';
import { cameraOf, viewStateOf } from './view-state.ts';
import type { PinmapRef } from './pinmap-api.ts';
import { checkPinChanges, PinChangesError, type PinChangesChecked } from '../config/pin-changes.ts';
import type { PinSet } from '../pins/types.ts';
import { loadPinCode } from './hooks/use-pin-source.ts';
import { prefersReducedMotion } from '../map/reduced-motion.ts';

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
    updatePins: (changes) => updatePinsById(adapter, config.current, checkPinChanges(changes)),
  };
}

/** Each map's updates by `updatePins`, one after the other: each applies to the pins the one before left. */
const updates = new WeakMap<MapAdapter, Promise<unknown>>();

/**
 * Applies known changes to the map's pins (`PinmapRef.updatePins`, a pin stream's events): the
 * features are checked as a pin file's are (a bad one skipped), applied to the pins on the map by
 * id (`applyPinChanges`), and the result is shown as any new `pins` value is (`updatePins`). What
 * was left out, and why, is told to `tell` (by default, the console).
 */
export function updatePinsById(adapter: MapAdapter, config: PinmapConfig, changes: PinChangesChecked, tell: (said: string[]) => void = warnUpdate): Promise<void> {
  if (adapter.getArchive()) return Promise.reject(new PinChangesError('updatePins: pre-tiled pins (a pmtiles:// archive) stay as they were tiled; give new pins instead'));
  const before = updates.get(adapter) ?? Promise.resolve();
  const set = before.then(async (): Promise<PinSet> => {
    const { parsePins, applyPinChanges } = await loadPinCode();
    const pinStyles = { ...adapter.getPinStyles() };
    const reading = { searchFields: config.searchFields, popupFields: config.popupFields, listDetailField: config.listDetailField };
    const read = (features: unknown[]) => parsePins({ type: 'FeatureCollection', features }, pinStyles, reading);
    const add = read(changes.add);
    const update = read(changes.update);
    const { list, problems } = applyPinChanges(adapter.getPins(), { add: add.pins, update: update.pins, remove: changes.remove });
    const said = [...add.skipped.map((skipped) => `add: ${skipped.reason}`), ...update.skipped.map((skipped) => `update: ${skipped.reason}`), ...problems];
    if (said.length > 0) tell(said);
    return { pins: list, skipped: [], warnings: [], pinStyles };
  });
  const done = adapter.updatePins(set);
  updates.set(
    adapter,
    done.catch(() => {}),
  );
  return done;
}

function warnUpdate(said: string[]): void {
  console.warn(`Pinmap: updatePins: ${said.join('; ')}`);
}

/** How long `fitBounds` eases when not told (MapLibre's own default for camera animations). */
const FIT_DURATION = 500;

function withDuration<T extends object>(options: T, duration: number | undefined): T & { duration?: number } {
  return duration === undefined ? options : { ...options, duration };
}
