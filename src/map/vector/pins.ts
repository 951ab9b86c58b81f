import { MercatorCoordinate, type Map as MapLibreMap, type MapMouseEvent } from 'maplibre-gl';
import { isShown } from '../../pins/filter.ts';
import type { Pin, PinSet } from '../../pins/types.ts';
import { AppPinHosts } from '../app-pins.ts';
import { keepFocusedPinsInView } from '../dom-pins.ts';
import { createLabelCollision } from '../label-collision.ts';
import { PinGlides } from '../pin-glide.ts';
import { createPinGroup } from '../pin-group.ts';
import { PinSetState, focusReturn, type PinLayer, type PinLayerOptions } from '../pin-layer.ts';
import { followUpdate, redrawKeepingPopup, takeUpdate } from '../pin-update.ts';
import { createDomPins } from './dom-pins-layer.ts';
import { SpareIndexWorker, createGlPins } from './gl-pins-layer.ts';
import { gatherPinMarkers, pinGroupElement } from './markers.ts';
import { createPinImages } from './pin-images.ts';
import { createVectorFan } from './pin-fan-out.ts';
import { createPinPopup } from './pin-popup.ts';
import { drawnPinCount } from './pin-symbol-layers.ts';
import type { PinStrategy, PinStrategyInput } from './pin-strategy.ts';
import { createPretiledPins } from './pretiled-pins-layer.ts';
import '../../pins/icon-font.ts';

/** What the vector view's pin layer is given beyond what both views' are. */
export interface VectorPinLayerOptions extends PinLayerOptions {
  /** Sets of up to this many pins are DOM markers; larger sets are GPU symbols with clusters. */
  domPinLimit: number;
  /** How long, in ms, a pin moved by an update glides to its new place (config `pinTransition`). */
  pinTransition: number;
  /**
   * Resolves once the map's style has loaded (`styleReadiness`, made with the map: the layer
   * itself may be made later, when the first pins come).
   */
  whenStyleLoaded: () => Promise<void>;
}

/**
 * Draws a pin set on a MapLibre map, one way per set (a `PinStrategy`): a pin archive as the
 * pre-tiled layer (`pretiled-pins-layer.ts`); up to `domPinLimit` pins as DOM markers
 * (`dom-pins-layer.ts`); a larger set as the inline GL layer (`gl-pins-layer.ts`), one GeoJSON
 * source of the pins' groups and a symbol layer whose images are the same pin icons rasterised
 * at the device pixel ratio. Whichever way, one popup is open at a time (`pin-popup.ts`), a click
 * on the map closes it, and hidden categories, `open` and `viewOf` work alike.
 */
export function createVectorPins(map: MapLibreMap, options: VectorPinLayerOptions): PinLayer {
  const state = new PinSetState();
  let openId: string | undefined;
  /** How the current set is drawn; none before the first set, for an empty one, and while none is set. */
  let strategy: PinStrategy | undefined;
  /** Counts `setPins` calls (and `destroy`): what comes back for an earlier set is dropped. */
  let generation = 0;
  const popup = createPinPopup(map, options.popupContent, () => {
    openId = undefined;
    options.onOpenPinChange(null);
  });
  // DOM pins and bubbles keep the basemap's labels from under them (see label-collision.ts).
  const collision = createLabelCollision(map);
  const images = createPinImages(map);
  const spareWorker = new SpareIndexWorker();
  const glides = new PinGlides(options.pinTransition);
  // A DOM pin or bubble reached by Tab beyond the view's edge is panned into it.
  const releaseFocus = keepFocusedPinsInView(map.getContainer(), (dx, dy) => map.panBy([dx, dy], { duration: 0 }));
  // Every mode's pins and bubbles (DOM markers, the GPU pins' stand-ins) are one Tab stop.
  const stopGathering = gatherPinMarkers(map);
  const pinGroup = createPinGroup(map.getContainer(), pinGroupElement(map), {
    label: options.pinsLabel,
    zoomedInLabel: options.zoomedInLabel,
    mapElement: () => map.getCanvas(),
    topInWorld: () => MercatorCoordinate.fromLngLat(map.unproject([0, 0])).y * 512 * 2 ** map.getZoom(),
    countInView: () => drawnPinCount(map),
  });
  // Once every 'idle' listener has run (the stand-ins follow what is drawn on 'idle' too).
  const onIdle = () => queueMicrotask(() => pinGroup.rested());
  map.on('idle', onIdle);

  // A click on the map closes the popup, unless it is a click on a pin (which opens its own).
  const onMapClick = (event: MapMouseEvent) => {
    const target = event.originalEvent.target;
    if (target instanceof Element && target.closest('.pinmap-pin, .pinmap-popup')) return;
    if (strategy?.hasPinAt?.(event.point)) return;
    popup.close();
  };
  map.on('click', onMapClick);

  /** The pin with an id: one of the set's, or for pre-tiled pins one the archive's pin index has given. */
  const findPin = (id: string): Pin | undefined => state.byId.get(id) ?? strategy?.lookup?.known(id)?.pin;
  // The pins the app draws itself: DOM pins and the GPU pins' app markers, all in the pins' group.
  const appPins = new AppPinHosts(pinGroupElement(map), (id) => state.byId.get(id), options.onAppPinsChange);
  let archive: PinSet['archive'];
  // Same-place pins fan out instead of opening the popup of the one on top (see pin-fan-out.ts).
  const fan = createVectorFan(map, {
    styleOf: (pin) => state.styles.of(pin),
    pinOf: findPin,
    archive: () => archive,
    onPick(pin, stack, byKeyboard) {
      options.onPinClick(pin.id);
      const current = generation;
      const show = (full: Pin) => openPin(full, stack, byKeyboard);
      const known = findPin(pin.id);
      if (known) show(known);
      else strategy?.lookup?.open(pin.id, show, () => current === generation);
    },
  });

  function clear() {
    glides.stopAll();
    fan.fold();
    popup.close();
    strategy?.destroy();
    strategy = undefined;
  }

  function openPin(pin: Pin, trigger: HTMLElement | undefined, byKeyboard = false, pan = true, returnFocus?: () => void) {
    const marker = () => strategy?.pinElement?.(pin.id);
    popup.open(pin, state.styles.of(pin), focusReturn(trigger, returnFocus, marker), byKeyboard, pan);
    openId = pin.id;
    options.onOpenPinChange(pin.id);
  }

  /** Picks how `set` is drawn (see `createVectorPins`) and starts drawing it. */
  function strategyFor(set: PinSet, isCurrent: () => boolean): PinStrategy | undefined {
    const { styles, byId: pins } = state;
    const input: PinStrategyInput = {
      hidden: state.hidden,
      styleOf: (pin) => styles.of(pin),
      clusterLabel: options.clusterLabel,
      onPinClick: options.onPinClick,
      openPopup: (pin, trigger, byKeyboard) => {
        if (!fan.open(pin, trigger, byKeyboard)) openPin(pin, trigger, byKeyboard);
      },
      listBubble(bubble) {
        fan.fold();
        pinGroup.listed();
        options.onBubblePins(bubble);
      },
    };
    const common = { images, whenStyleLoaded: options.whenStyleLoaded, isCurrent };
    if (set.archive) {
      // Looks that draw alike share one style object (SharedStyles), so one image.
      const lookStyles = set.archive.looks.map((look) => styles.of({ options: look }));
      return createPretiledPins(map, { ...input, ...common, archive: set.archive, lookStyles });
    }
    if (set.pins.length === 0) return undefined;
    if (set.pins.length <= options.domPinLimit) return createDomPins(map, { ...input, list: set.pins, pins, collision });
    return createGlPins(map, { ...input, ...common, list: set.pins, pins, styles: styles.distinct(set.pins), attribution: set.attribution, worker: spareWorker.take(), placeOf: (id) => glides.placeOf(id) });
  }

  /** How a set of this many inline pins is drawn. */
  const modeFor = (count: number) => (count === 0 ? undefined : count <= options.domPinLimit ? 'dom' : 'gl');

  async function setPins(set: PinSet) {
    const current = ++generation;
    clear();
    // Only the GL layer of a large inline set uses the worker started ahead.
    if (set.archive || set.pins.length <= options.domPinLimit) spareWorker.drop();
    state.replace(set);
    archive = set.archive;
    strategy = strategyFor(set, () => current === generation);
    strategy?.setAppPins?.(appPins.ids);
    await strategy?.placed;
  }

  return {
    get mode() {
      return strategy?.mode ?? 'none';
    },
    get attribution() {
      return strategy?.mode === 'dom' ? state.attribution : undefined;
    },
    expectPins: () => spareWorker.start(),
    setPins,
    async updatePins(set) {
      const drawn = strategy;
      if (set.archive || archive || !drawn?.update || modeFor(set.pins.length) !== drawn.mode) {
        // Drawn another way: afresh, with the popup of a pin still there open again where it is.
        spareWorker.drop();
        await redrawKeepingPopup(state, openId, () => setPins(set), findPin, (pin) => openPin(pin, undefined, false, false));
        return;
      }
      const update = takeUpdate(state, set, glides, () => fan.fold());
      if (!update) return;
      await drawn.update({ list: set.pins, pins: state.byId, diff: update.diff });
      // A named pin's text may have changed: the app draws it anew.
      appPins.schedule();
      followUpdate(state, update, glides, popup, () => openId, (id, at) => drawn.moveMarker?.(id, at));
    },
    open(id, openOptions) {
      const show = (pin: Pin) => openPin(pin, undefined, openOptions?.byKeyboard ?? false, openOptions?.pan ?? true, openOptions?.returnFocus);
      const pin = findPin(id);
      if (pin) {
        show(pin);
        return true;
      }
      const lookup = strategy?.lookup;
      if (!lookup) return false;
      // Pre-tiled pins: not looked up yet; the popup opens when the pin index answers.
      const current = generation;
      lookup.open(id, show, () => current === generation);
      return true;
    },
    get pins() {
      return state.list;
    },
    get pinStyles() {
      return state.pinStyles;
    },
    get categories() {
      return state.categories;
    },
    shownPins: () => strategy?.shownPins?.(),
    shownBubbles: () => strategy?.shownBubbles?.(),
    setHidden(categories) {
      if (!state.hide(categories)) return;
      const open = openId === undefined ? undefined : findPin(openId);
      if (open && !isShown(open, state.hidden)) popup.close();
      strategy?.setHidden(state.hidden);
    },
    async viewOf(id) {
      const pin = findPin(id) ?? (await strategy?.lookup?.lookUp(id))?.pin;
      if (!pin) return undefined;
      const zoom = await (strategy ? strategy.revealZoom(id) : map.getZoom());
      return { center: pin.lngLat, zoom: Math.max(map.getZoom(), zoom) };
    },
    close() {
      popup.close();
    },
    setAppPins(ids) {
      appPins.setIds(ids);
      strategy?.setAppPins?.(appPins.ids);
    },
    destroy() {
      generation++;
      clear();
      appPins.destroy();
      spareWorker.drop();
      collision.destroy();
      map.off('click', onMapClick);
      popup.destroy();
      releaseFocus();
      map.off('idle', onIdle);
      stopGathering();
      pinGroup.destroy();
    },
  };
}
