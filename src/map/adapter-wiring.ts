import type { PinOptions } from '../config/pin-options.ts';
import { boxContains } from '../pins/filter.ts';
import type { Pin, PinArchive, PinSet } from '../pins/types.ts';
import { createPopupContent } from '../pins/popup-content.ts';
import type { AppPinHost, BubblePins, EngineEvents, MapAdapter, PopupContent } from './adapter.ts';
import type { PinLayer, PinLayerOptions } from './pin-layer.ts';
import { distanceBetween } from './scale.ts';

/**
 * What both engines' adapters (`vector/engine.ts`, `hybrid/engine.ts`) share, written once: their
 * listener sets, the pin part of `MapAdapter` over a `PinLayer` (`wirePins`), and `measure` and
 * `viewContains` from what each engine tells of its view.
 */

/** A camera ease's length in ms when a caller gives none (`AnimationOptions.duration`): MapLibre's. */
export const DEFAULT_EASE = 500;

/** Listeners of one kind: each added with what removes it, all told in the order they came. */
export class Listeners<Args extends unknown[] = []> {
  private readonly listeners = new Set<(...args: Args) => void>();

  /** Adds a listener; returns what removes it (the adapter's unsubscribe). */
  add(listener: (...args: Args) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls every listener with `args`. */
  tell(...args: Args): void {
    this.listeners.forEach((listener) => listener(...args));
  }

  /** Forgets every listener (the map is gone). */
  clear(): void {
    this.listeners.clear();
  }
}

/** The part of `MapAdapter` that the pin layer answers. */
export type PinAdapter = Pick<
  MapAdapter,
  'setPins' | 'updatePins' | 'setPopupContent' | 'setAppPins' | 'onAppPinsChange' | 'openPin' | 'pinView' | 'closePin' | 'onOpenPinChange' | 'onPinClick' | 'onPinsChange' | 'onBubblePins' | 'getPins' | 'getPinStyles' | 'getCategoryCounts' | 'getShownPins' | 'getShownBubbles' | 'getArchive' | 'setHiddenCategories'
>;

/** What a pin layer is told to call by the adapter that holds it. */
export type PinLayerEvents = Pick<PinLayerOptions, 'onOpenPinChange' | 'onPinClick' | 'onBubblePins' | 'popupContent' | 'onAppPinsChange'>;

/** An engine's pin layer wired to its adapter (see `wirePins`). */
export interface PinWiring {
  /** The pin part of the engine's adapter. */
  readonly adapter: PinAdapter;
  /** The pin layer, once made. */
  layer(): PinLayer | undefined;
  /** Makes the pin layer (its code may load first), unless it is made or on its way; `setPins` calls it. */
  load(): Promise<PinLayer>;
  /** How many pin sets are on their way: the map does not report itself idle meanwhile. */
  pending(): number;
  /** Told after each pin set has come onto the map or failed: the pins' credit may have changed. */
  readonly attributionListeners: Listeners;
  /** Forgets every listener and destroys the pin layer (one made later is destroyed as it comes). */
  destroy(): void;
}

/** What a map shows before its first pins (their layer is not made yet). */
const NO_PINS: readonly Pin[] = [];
const NO_PIN_STYLES: Readonly<Record<string, PinOptions>> = {};

/**
 * Wires the pin layer that `make` makes (at once, or once its code is loaded) to an engine's
 * adapter: the listeners of popups, pin clicks and new pin sets; `setPins`, which reports the
 * map busy until the pins are placed and then calls `onSettled` (the engine checks whether it is
 * idle) and the attribution listeners; and the pin questions, answered as a map without pins
 * until the layer is made. Hidden categories set before then are the layer's from the start.
 * `onArchive` is told of a pre-tiled pin set as soon as its archive is open.
 */
export function wirePins(events: EngineEvents, make: (told: PinLayerEvents) => PinLayer | Promise<PinLayer>, onSettled: () => void, onArchive?: (archive: PinArchive) => void): PinWiring {
  const openPinListeners = new Listeners<[id: string | null]>();
  const pinClickListeners = new Listeners<[id: string]>();
  const pinSetListeners = new Listeners();
  const bubblePinsListeners = new Listeners<[bubble: BubblePins]>();
  const attributionListeners = new Listeners();
  const appPinListeners = new Listeners<[hosts: ReadonlyMap<string, AppPinHost>]>();
  /** The pins the app draws itself (`setAppPins`), given to the layer once made. */
  let appPins: readonly string[] = [];
  /** The hosts last told, for a listener added later. */
  let appHosts: ReadonlyMap<string, AppPinHost> = new Map();
  let current: PinLayer | undefined;
  let loading: Promise<PinLayer> | undefined;
  let hidden: readonly string[] = [];
  /** What the next popups hold (`setPopupContent`); the default content when undefined. */
  let popupContent: PopupContent | undefined;
  /** The archive of the pin set last given, when its pins are pre-tiled. */
  let archive: PinArchive | undefined;
  let pendingSets = 0;
  let destroyed = false;

  const adopt = (made: PinLayer): PinLayer => {
    if (hidden.length > 0) made.setHidden(hidden);
    if (appPins.length > 0) made.setAppPins(appPins);
    if (destroyed) made.destroy();
    else current = made;
    return made;
  };
  const load = (): Promise<PinLayer> => {
    if (loading) return loading;
    const made = make({ onOpenPinChange: (id) => openPinListeners.tell(id), onPinClick: (id) => pinClickListeners.tell(id), onBubblePins: (bubble) => bubblePinsListeners.tell(bubble),
      popupContent: (pin) => (popupContent ?? createPopupContent)(pin),
      onAppPinsChange: (hosts) => {
        appHosts = hosts;
        appPinListeners.tell(hosts);
      },
    });
    loading = made instanceof Promise ? made.then(adopt) : Promise.resolve(adopt(made));
    return loading;
  };

  /** Shows a pin set once it comes: afresh (`setPins`), or by id over the set shown (`updatePins`). */
  const place = (pins: Promise<PinSet>, inPlace: boolean): Promise<void> => {
      pendingSets++;
      const layer = load();
      const letGo = layer.then((made) => made.expectPins());
      // An archive may be read ahead of the layer (`onArchive`): its code may still be loading.
      if (onArchive) pins.then((set) => set.archive && !destroyed && onArchive(set.archive)).catch(() => {});
      // Busy until the pins are placed; what the map has drawn stays drawn (a pin set given to
      // an idle map, e.g. loaded again after a failure, must not wait for a render that never comes).
      events.onStatus({ type: 'map.busy' });
      return (
        Promise.all([pins, layer])
          .then(([set, made]) => {
            // A set that arrives after the map was removed is not shown (nor grouped in a worker of its own).
            if (destroyed) return;
            archive = set.archive;
            return (inPlace ? made.updatePins(set) : made.setPins(set)).then(() => pinSetListeners.tell());
          })
          // The caller shows why (the pins, or the pins' code, could not be loaded); the map goes on without these pins.
          .catch(() => letGo.then((release) => release()).catch(() => {}))
          .finally(() => {
            pendingSets--;
            onSettled();
            attributionListeners.tell();
          })
      );
  };

  const adapter: PinAdapter = {
    setPins: (pins) => place(pins, false),
    updatePins: (pins) => place(pins, true),
    setPopupContent(content) {
      popupContent = content;
    },
    setAppPins(ids) {
      appPins = ids;
      current?.setAppPins(ids);
    },
    onAppPinsChange(listener) {
      const remove = appPinListeners.add(listener);
      if (appHosts.size > 0) listener(appHosts);
      return remove;
    },
    openPin: (id, options) => current?.open(id, options) ?? false,
    pinView(id) {
      if (current) return current.viewOf(id);
      return loading ? loading.then((made) => made.viewOf(id)) : Promise.resolve(undefined);
    },
    closePin: () => current?.close(),
    onOpenPinChange: (listener) => openPinListeners.add(listener),
    onPinClick: (listener) => pinClickListeners.add(listener),
    onPinsChange: (listener) => pinSetListeners.add(listener),
    onBubblePins: (listener) => bubblePinsListeners.add(listener),
    getPins: () => current?.pins ?? NO_PINS,
    getPinStyles: () => current?.pinStyles ?? NO_PIN_STYLES,
    getCategoryCounts: () => current?.categories,
    getShownPins: () => current?.shownPins(),
    getShownBubbles: () => current?.shownBubbles(),
    getArchive: () => archive,
    setHiddenCategories(categories) {
      hidden = categories;
      current?.setHidden(categories);
    },
  };

  return {
    adapter,
    layer: () => current,
    load,
    pending: () => pendingSets,
    attributionListeners,
    destroy() {
      destroyed = true;
      openPinListeners.clear();
      pinClickListeners.clear();
      pinSetListeners.clear();
      bubblePinsListeners.clear();
      attributionListeners.clear();
      appPinListeners.clear();
      current?.destroy();
    },
  };
}

/** A view's bounds as both engines give them (MapLibre's `LngLatBounds`, Leaflet's `LatLngBounds`). */
interface ViewBounds {
  getWest(): number;
  getSouth(): number;
  getEast(): number;
  getNorth(): number;
}

/** `[west, south, east, north]` of a view; west and east as the map gives them (they may pass ±180). */
export function boxOf(bounds: ViewBounds): [number, number, number, number] {
  return [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()];
}

/**
 * `MapAdapter.viewContains` for a view of these bounds: a point within them, on any copy of the
 * world that shows, and where `onScreen` is given (a rotated or pitched view, whose bounds hold
 * more than it shows), one that it also finds on the screen.
 */
export function viewContainsIn(bounds: ViewBounds, onScreen?: (lngLat: [number, number]) => boolean): (lngLat: [number, number]) => boolean {
  const box = boxOf(bounds);
  if (!onScreen) return (lngLat) => boxContains(box, lngLat);
  return (lngLat) => boxContains(box, lngLat) && onScreen(lngLat);
}

/**
 * `MapAdapter.measure` on a map `width` × `height` CSS px: metres between two points `pixels`
 * apart, centred horizontally at its vertical middle, where `unproject` turns a point of the
 * map's container into coordinates; undefined while the map has no size.
 */
export function measureAcross(pixels: number, width: number, height: number, unproject: (x: number, y: number) => { lng: number; lat: number }): number | undefined {
  if (!width || !height) return undefined;
  const left = unproject(width / 2 - pixels / 2, height / 2);
  const right = unproject(width / 2 + pixels / 2, height / 2);
  return distanceBetween([left.lng, left.lat], [right.lng, right.lat]);
}
