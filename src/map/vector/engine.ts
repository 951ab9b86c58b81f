import { Map as MapLibreMap } from 'maplibre-gl';
import type { Camera } from '../../config/address.ts';
import type { EngineEvents, MapAdapter } from '../adapter.ts';
import type { PinmapConfig } from '../../config/schema.ts';
import { localeWith } from '../../config/locale.ts';
import { describeFailure, onMapAttributionsChange, releaseBeforeRemove, sharedMapOptions, showTheme, styleReadiness, themeOf, themesDiffer, visibleAttributions, watchMapErrors } from '../maplibre-map.ts';
import { distanceBetween } from '../scale.ts';
import type { PinLayer } from '../pin-layer.ts';
import type { Pin } from '../../pins/types.ts';
import type { PinOptions } from '../../config/pin-options.ts';
import { warnIfStyleSheetMissing } from '../stylesheets.ts';
import { boxContains } from '../../pins/filter.ts';
import { createMotion } from './motion.ts';
import { createUserLocationMarkers } from './user-location.ts';

/**
 * The vector view: one MapLibre map in the container. Reports its status as map status machine
 * events; a WebGL failure or a style that cannot load is reported, never thrown, so the page
 * can show it.
 */
export function createVectorEngine(container: HTMLElement, config: PinmapConfig, events: EngineEvents): MapAdapter {
  warnIfStyleSheetMissing('maplibre');
  const locale = localeWith(config.locale);

  let map: MapLibreMap;
  try {
    map = new MapLibreMap({
      ...sharedMapOptions(config),
      container,
      center: config.center,
      zoom: config.zoom,
      bearing: config.bearing,
      pitch: config.pitch,
      minPitch: config.minPitch,
      maxPitch: config.maxPitch,
      // The snap to north is the camera machine's (config.bearingSnap): it runs as a tagged
      // animation like every other timed camera move, so a gesture can interrupt it, reduced
      // motion makes it instant, its state shows on the navigation control, and the hybrid view
      // (which never rotates) needs no snap of its own. MapLibre's own snap would move the camera
      // behind the machine's back, so it is off.
      bearingSnap: 0,
    });
  } catch (error) {
    events.onStatus({ type: 'map.failed', failure: describeFailure(error, config) });
    return failedAdapter(config);
  }

  let theme = themeOf(config);
  const errors = watchMapErrors(map, config, (failure) => events.onStatus({ type: 'map.failed', failure }), () => theme, events.onNotice);
  // Idle means drawn and done: the map has rendered everything and no pins are on their way.
  let mapIdle = false;
  let pendingPinSets = 0;
  let destroyed = false;
  const busy = () => {
    mapIdle = false;
    events.onStatus({ type: 'map.busy' });
  };
  const reportIdleIfDone = () => {
    if (mapIdle && pendingPinSets === 0) events.onStatus({ type: 'map.idle' });
  };
  map.on('movestart', busy);
  map.on('dataloading', busy);
  map.on('idle', () => {
    mapIdle = true;
    reportIdleIfDone();
  });

  const pinListeners = new Set<(id: string | null) => void>();
  const pinClickListeners = new Set<(id: string) => void>();
  const attributionListeners = new Set<() => void>();
  const pinSetListeners = new Set<() => void>();
  // The pins' code (markers, GPU layers, grouping, popups) is a chunk of its own, loaded when the
  // first pins come, beside the style and the tiles: a map without pins never loads it.
  const whenStyleLoaded = styleReadiness(map);
  let pinLayer: PinLayer | undefined;
  let pinLayerLoading: Promise<PinLayer> | undefined;
  let hiddenCategories: readonly string[] = [];
  const loadPinLayer = (): Promise<PinLayer> =>
    (pinLayerLoading ??= import('./pins.ts').then(({ createVectorPins }) => {
      const layer = createVectorPins(map, {
        domPinLimit: config.domPinLimit,
        clusterLabel: locale['PinLayer.Cluster'],
        onOpenPinChange: (id) => pinListeners.forEach((listener) => listener(id)),
        onPinClick: (id) => pinClickListeners.forEach((listener) => listener(id)),
        whenStyleLoaded,
      });
      if (hiddenCategories.length > 0) layer.setHidden(hiddenCategories);
      if (destroyed) layer.destroy();
      else pinLayer = layer;
      return layer;
    }));
  const getCamera = (): Camera => {
    const c = map.getCenter();
    return { center: [c.lng, c.lat], zoom: map.getZoom(), bearing: map.getBearing(), pitch: map.getPitch() };
  };
  const userLocation = createUserLocationMarkers(map);
  const motion = createMotion(map);
  const stopEndingDrags = endDragsReleasedOutside(map);

  return {
    view: 'vector',
    canRotate: true,
    getCamera,
    getZoomRange: () => ({ min: map.getMinZoom(), max: map.getMaxZoom() }),
    jumpTo(camera) {
      map.jumpTo(camera);
    },
    easeTo(camera, { tag, duration = DEFAULT_EASE }) {
      map.easeTo({ ...camera, duration }, motion.tagged(tag, duration));
    },
    flyTo(camera, { tag, duration }) {
      map.flyTo({ ...camera, ...(duration === undefined ? {} : { duration }) }, motion.tagged(tag, duration));
    },
    fitBounds(bounds, { tag, duration = DEFAULT_EASE, maxZoom, padding }) {
      map.fitBounds(bounds, { maxZoom, duration, bearing: map.getBearing(), linear: true, ...(padding ? { padding } : {}) }, motion.tagged(tag, duration));
    },
    stopAnimation() {
      map.stop();
    },
    onCameraChange(listener) {
      const handler = () => listener(getCamera());
      map.on('move', handler);
      return () => map.off('move', handler);
    },
    setPins(pins) {
      pendingPinSets++;
      const layer = loadPinLayer();
      const letGo = layer.then((l) => l.expectPins());
      // Busy until the pins are placed; what MapLibre has drawn stays drawn (a pin set given to
      // an idle map, e.g. loaded again after a failure, must not wait for a render that never comes).
      events.onStatus({ type: 'map.busy' });
      return Promise.all([pins, layer])
        .then(([set, l]) => {
          // A set that arrives after the map was removed is not shown (nor grouped in a worker of its own).
          if (!destroyed) return l.setPins(set).then(() => pinSetListeners.forEach((listener) => listener()));
        })
        // The caller shows why (the pins, or the pins' code, could not be loaded); the map goes on without these pins.
        .catch(() => letGo.then((release) => release()).catch(() => {}))
        .finally(() => {
          pendingPinSets--;
          // Markers are on the map at once; a symbol layer is done at the map's next idle.
          if (pinLayer?.mode === 'gl') {
            mapIdle = false;
            map.triggerRepaint();
          }
          reportIdleIfDone();
          attributionListeners.forEach((listener) => listener());
        });
    },
    openPin: (id, options) => pinLayer?.open(id, options) ?? false,
    pinView: (id) => (pinLayerLoading ? pinLayerLoading.then((l) => l.viewOf(id)) : Promise.resolve(undefined)),
    closePin: () => pinLayer?.close(),
    onOpenPinChange(listener) {
      pinListeners.add(listener);
      return () => pinListeners.delete(listener);
    },
    onPinClick(listener) {
      pinClickListeners.add(listener);
      return () => pinClickListeners.delete(listener);
    },
    getMap: () => map,
    onMotion: (listener) => motion.listen(listener),
    getPins: () => pinLayer?.pins ?? NO_PINS,
    getPinStyles: () => pinLayer?.pinStyles ?? NO_PIN_STYLES,
    getCategoryCounts: () => pinLayer?.categories,
    getShownPins: () => pinLayer?.shownPins(),
    onShownPinsChange(listener) {
      // Pre-tiled pins are drawn from tiles read as the map goes: once it rests, they are all in.
      map.on('idle', listener);
      return () => map.off('idle', listener);
    },
    onPinsChange(listener) {
      pinSetListeners.add(listener);
      return () => pinSetListeners.delete(listener);
    },
    viewContains() {
      const bounds = map.getBounds();
      const box: [number, number, number, number] = [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()];
      if (map.getBearing() === 0 && map.getPitch() === 0) return (lngLat) => boxContains(box, lngLat);
      // Rotated or pitched, the box holds more than the view: the points in it are projected.
      const { clientWidth: width, clientHeight: height } = map.getContainer();
      const centre = map.getCenter().lng;
      return (lngLat) => {
        if (!boxContains(box, lngLat)) return false;
        const { x, y } = map.project([lngLat[0] + 360 * Math.round((centre - lngLat[0]) / 360), lngLat[1]]);
        return x >= 0 && x <= width && y >= 0 && y <= height;
      };
    },
    setHiddenCategories(categories) {
      hiddenCategories = categories;
      pinLayer?.setHidden(categories);
    },
    measure(pixels) {
      const { clientWidth: width, clientHeight: height } = map.getContainer();
      if (!width || !height) return undefined;
      const left = map.unproject([width / 2 - pixels / 2, height / 2]);
      const right = map.unproject([width / 2 + pixels / 2, height / 2]);
      return distanceBetween([left.lng, left.lat], [right.lng, right.lat]);
    },
    setUserLocation: userLocation.set,
    getAttributions() {
      const credits = visibleAttributions(map);
      return pinLayer?.attribution ? [...credits, pinLayer.attribution] : credits;
    },
    onAttributionsChange(listener) {
      attributionListeners.add(listener);
      const stop = onMapAttributionsChange(map, listener);
      return () => {
        stop();
        attributionListeners.delete(listener);
      };
    },
    setTheme(next) {
      if (next === theme) return;
      theme = next;
      if (themesDiffer(config)) showTheme(map, config, next);
    },
    retry: errors.retry,
    destroy() {
      destroyed = true;
      pinListeners.clear();
      pinClickListeners.clear();
      attributionListeners.clear();
      pinSetListeners.clear();
      pinLayer?.destroy();
      userLocation.set(undefined);
      stopEndingDrags();
      releaseBeforeRemove(map);
      map.remove();
    },
  };
}

/**
 * MapLibre ends a mouse drag (pan, rotate, pitch) on a mouseup over its canvas container only
 * (canvas, markers, popups); Pinmap's controls are beside the map, and a page is bigger than it. A
 * drag released over a control or off the map went on until the mouse next moved, so the map
 * stayed busy (no `moveend`, no idle) meanwhile: such a mouseup is handed to the canvas container.
 * Returns what stops it.
 */
function endDragsReleasedOutside(map: MapLibreMap): () => void {
  const container = map.getCanvasContainer();
  const onMouseUp = (event: MouseEvent) => {
    if (event.target instanceof Node && container.contains(event.target)) return;
    if (!map.dragPan.isActive() && !map.dragRotate.isActive()) return;
    container.dispatchEvent(new MouseEvent('mouseup', event));
  };
  document.addEventListener('mouseup', onMouseUp);
  return () => document.removeEventListener('mouseup', onMouseUp);
}

/** What a map shows before its first pins (their layer is not loaded yet). */
const NO_PINS: readonly Pin[] = [];
const NO_PIN_STYLES: Readonly<Record<string, PinOptions>> = {};

/** MapLibre's ease length, used when a caller gives none. */
const DEFAULT_EASE = 500;

/** Stands in for a map that could not be created, so the caller's bookkeeping stays simple. */
function failedAdapter(config: PinmapConfig): MapAdapter {
  const camera: Camera = { center: config.center, zoom: config.zoom, bearing: config.bearing, pitch: config.pitch };
  return {
    view: 'vector',
    canRotate: true,
    getCamera: () => camera,
    getZoomRange: () => ({ min: config.minZoom, max: config.maxZoom }),
    jumpTo: () => {},
    easeTo: () => {},
    flyTo: () => {},
    fitBounds: () => {},
    stopAnimation: () => {},
    onCameraChange: () => () => {},
    setPins: () => Promise.resolve(),
    openPin: () => false,
    pinView: () => Promise.resolve(undefined),
    closePin: () => {},
    onOpenPinChange: () => () => {},
    onPinClick: () => () => {},
    getMap: () => undefined,
    onMotion: () => () => {},
    getPins: () => [],
    getPinStyles: () => ({}),
    getCategoryCounts: () => undefined,
    getShownPins: () => undefined,
    onShownPinsChange: () => () => {},
    onPinsChange: () => () => {},
    viewContains: () => () => false,
    setHiddenCategories: () => {},
    measure: () => undefined,
    setUserLocation: () => {},
    getAttributions: () => [],
    onAttributionsChange: () => () => {},
    setTheme: () => {},
    retry: () => {},
    destroy: () => {},
  };
}
