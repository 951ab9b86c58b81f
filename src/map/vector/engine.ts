import { Map as MapLibreMap, Marker, type MapLibreEvent } from 'maplibre-gl';
import type { Camera } from '../../config/address.ts';
import type { EngineEvents, Gesture, MapAdapter, MapMotionEvent, UserLocation } from '../adapter.ts';
import type { PinmapConfig } from '../../config/schema.ts';
import { localeWith } from '../../config/locale.ts';
import { describeFailure, onMapAttributionsChange, releaseBeforeRemove, sharedMapOptions, showTheme, styleReadiness, themeOf, themesDiffer, visibleAttributions, watchMapErrors } from '../maplibre-map.ts';
import { accuracyCircleDiameter, distanceBetween } from '../scale.ts';
import type { PinLayer } from '../pin-layer.ts';
import type { Pin } from '../../pins/types.ts';
import type { PinOptions } from '../../config/pin-options.ts';
import { warnIfStyleSheetMissing } from '../stylesheets.ts';
import { boxContains } from '../../pins/filter.ts';

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
  const animations = new AnimationClock();
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
      animations.start(tag, duration);
      map.easeTo({ ...camera, duration }, { [TAG]: tag });
    },
    flyTo(camera, { tag, duration }) {
      animations.start(tag, duration);
      map.flyTo({ ...camera, ...(duration === undefined ? {} : { duration }) }, { [TAG]: tag });
    },
    fitBounds(bounds, { tag, duration = DEFAULT_EASE, maxZoom, padding }) {
      animations.start(tag, duration);
      map.fitBounds(bounds, { maxZoom, duration, bearing: map.getBearing(), linear: true, ...(padding ? { padding } : {}) }, { [TAG]: tag });
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
    onMotion(listener) {
      return listenToMotion(map, animations, listener);
    },
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

/** The key under which an animation's tag rides on MapLibre's event data. */
const TAG = 'pinmapAnimation';
/** MapLibre's ease length, used when a caller gives none. */
const DEFAULT_EASE = 500;

type MotionEventData = MapLibreEvent & { originalEvent?: unknown; [TAG]?: string };

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
  map.on('moveend', onEnd);
  return () => {
    map.off('movestart', onStart);
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

/**
 * The user's dot and accuracy circle as two MapLibre markers (elements styled by Pinmap's
 * style sheet). The circle's diameter is 2·accuracy over the metres a pixel covers at the dot,
 * measured over 100 px as the map is drawn, and follows every zoom.
 */
function createUserLocationMarkers(map: MapLibreMap) {
  let current: UserLocation | undefined;
  let dot: Marker | undefined;
  let circle: Marker | undefined;

  const resizeCircle = () => {
    if (!current || !circle) return;
    const at = map.project(current.lngLat);
    const a = map.unproject(at);
    const b = map.unproject([at.x + 100, at.y]);
    const metresPerPixel = distanceBetween([a.lng, a.lat], [b.lng, b.lat]) / 100;
    if (!(metresPerPixel > 0)) return;
    const diameter = `${accuracyCircleDiameter(current.accuracy, metresPerPixel)}px`;
    const element = circle.getElement();
    element.style.width = diameter;
    element.style.height = diameter;
  };

  const remove = () => {
    dot?.remove();
    circle?.remove();
    dot = circle = undefined;
    map.off('zoom', resizeCircle);
  };

  return {
    set(location: UserLocation | undefined) {
      current = location;
      if (!location) return remove();
      if (!dot || !circle) {
        const circleElement = document.createElement('div');
        circleElement.className = 'pinmap-user-accuracy';
        const dotElement = document.createElement('div');
        dotElement.className = 'pinmap-user-dot';
        circle = new Marker({ element: circleElement, pitchAlignment: 'map' }).setLngLat(location.lngLat).addTo(map);
        dot = new Marker({ element: dotElement }).setLngLat(location.lngLat).addTo(map);
        map.on('zoom', resizeCircle);
      }
      dot.setLngLat(location.lngLat);
      circle.setLngLat(location.lngLat);
      dot.getElement().classList.toggle('pinmap-user-dot-stale', location.stale);
      circle.getElement().classList.toggle('pinmap-user-accuracy-stale', location.stale);
      resizeCircle();
    },
  };
}

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
