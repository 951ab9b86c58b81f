import { Map as MapLibreMap } from 'maplibre-gl';
import type { Camera } from '../../config/address.ts';
import type { EngineEvents, MapAdapter } from '../adapter.ts';
import type { PinmapConfig } from '../../config/schema.ts';
import { localeWith } from '../../config/locale.ts';
import { describeFailure, onMapAttributionsChange, releaseBeforeRemove, sharedMapOptions, showTheme, styleReadiness, themeOf, themesDiffer, visibleAttributions, watchMapErrors } from '../maplibre-map.ts';
import { DEFAULT_EASE, measureAcross, viewContainsIn, wirePins } from '../adapter-wiring.ts';
import { warnIfStyleSheetMissing } from '../stylesheets.ts';
import { tilesInView } from '../tile-cover.ts';
import { nearestCopy } from '../../pins/filter.ts';
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
  const busy = () => {
    mapIdle = false;
    events.onStatus({ type: 'map.busy' });
  };
  const reportIdleIfDone = () => {
    if (mapIdle && pins.pending() === 0) events.onStatus({ type: 'map.idle' });
  };
  map.on('movestart', busy);
  map.on('dataloading', busy);
  map.on('idle', () => {
    mapIdle = true;
    reportIdleIfDone();
  });

  // The pins' code (markers, GPU layers, grouping, popups) is a chunk of its own, loaded when the
  // first pins come, beside the style and the tiles: a map without pins never loads it.
  const whenStyleLoaded = styleReadiness(map);
  const pins = wirePins(
    events,
    (told) =>
      import('./pins.ts').then(({ createVectorPins }) =>
        createVectorPins(map, { ...told, domPinLimit: config.domPinLimit, pinTransition: config.pinTransition, clusterLabel: locale['PinLayer.Cluster'], pinsLabel: locale['PinLayer.Pins'], zoomedInLabel: locale['PinLayer.ZoomedIn'], whenStyleLoaded }),
      ),
    () => {
      // Markers are on the map at once; a symbol layer is done at the map's next idle.
      if (pins.layer()?.mode === 'gl') {
        mapIdle = false;
        map.triggerRepaint();
      }
      reportIdleIfDone();
    },
    // A pre-tiled set's first tiles are read while the pins' code and the style load.
    (archive) => archive.readAhead(tilesInView(map, archive.source)),
  );
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
    resizeFromTop(pixels) {
      // MapLibre's own resize (its ResizeObserver) comes later in the frame, the centre kept; here
      // it is at once, so the pan reckons with the new size, and the next frame draws both.
      map.resize();
      map.panBy([0, pixels / 2], { animate: false });
    },
    onCameraChange(listener) {
      const handler = () => listener(getCamera());
      map.on('move', handler);
      return () => map.off('move', handler);
    },
    ...pins.adapter,
    getMap: () => map,
    onMotion: (listener) => motion.listen(listener),
    onShownPinsChange(listener) {
      // Pre-tiled pins are drawn from tiles read as the map goes: once it rests, they are all in.
      map.on('idle', listener);
      return () => map.off('idle', listener);
    },
    viewContains() {
      const bounds = map.getBounds();
      if (map.getBearing() === 0 && map.getPitch() === 0) return viewContainsIn(bounds);
      // Rotated or pitched, the bounds hold more than the view: the points in them are projected.
      const { clientWidth: width, clientHeight: height } = map.getContainer();
      const centre = map.getCenter().lng;
      return viewContainsIn(bounds, (lngLat) => {
        const { x, y } = map.project([nearestCopy(lngLat[0], centre), lngLat[1]]);
        return x >= 0 && x <= width && y >= 0 && y <= height;
      });
    },
    measure(pixels) {
      const { clientWidth: width, clientHeight: height } = map.getContainer();
      return measureAcross(pixels, width, height, (x, y) => map.unproject([x, y]));
    },
    setUserLocation: userLocation.set,
    getAttributions() {
      const credits = visibleAttributions(map);
      const pinCredit = pins.layer()?.attribution;
      return pinCredit ? [...credits, pinCredit] : credits;
    },
    onAttributionsChange(listener) {
      const stopPins = pins.attributionListeners.add(listener);
      const stop = onMapAttributionsChange(map, listener);
      return () => {
        stop();
        stopPins();
      };
    },
    setTheme(next) {
      if (next === theme) return;
      theme = next;
      if (themesDiffer(config)) showTheme(map, config, next);
    },
    retry: errors.retry,
    destroy() {
      pins.destroy();
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
    resizeFromTop: () => {},
    onCameraChange: () => () => {},
    setPins: () => Promise.resolve(),
    setPopupContent: () => {},
    setAppPins: () => {},
    onAppPinsChange: () => () => {},
    updatePins: () => Promise.resolve(),
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
    getShownBubbles: () => undefined,
    getArchive: () => undefined,
    onShownPinsChange: () => () => {},
    onPinsChange: () => () => {},
    onBubblePins: () => () => {},
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
