import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { Map as MapLibreMap, MapMouseEvent } from 'maplibre-gl';
import { TILE_RETRY } from '../../config/constants.ts';
import type { Camera } from '../../config/address.ts';
import type { EngineEvents, MapAdapter } from '../adapter.ts';
import type { PinmapConfig, RasterLayerConfig } from '../../config/schema.ts';
import { MESSAGES, reasonOf } from '../../config/errors.ts';
import { accessTokenOf, providerOriginOf, redactToken, tokenRuleOf, tokenTransform } from '../request-transform.ts';
import { tokenTileLayer } from './token-tile-layer.ts';
import { policyViolationFor } from '../policy-violations.ts';
import { createHybridPins } from './pins.ts';
import { LEAFLET_POPUP_MAX_WIDTH } from './pin-popup.ts';
import { localeWith } from '../../config/locale.ts';
import { describeFailure, onMapAttributionsChange, sharedMapOptions, showTheme, themeOf, themesDiffer, visibleAttributions, watchMapErrors } from '../maplibre-map.ts';
import { DEFAULT_EASE, Listeners, measureAcross, viewContainsIn, wirePins } from '../adapter-wiring.ts';
import { resolveTemplate } from '../style-urls.ts';
import { warnIfStyleSheetMissing } from '../stylesheets.ts';
import { VectorLayer } from './vector-layer.ts';
import { createLabelCollision, type CollisionBox } from '../label-collision.ts';
import { createMotion } from './motion.ts';
import { createUserLocationLayers } from './user-location.ts';
import { toLeafletZoom, toMapLibreZoom } from './zoom.ts';
import { prefersReducedMotion } from '../reduced-motion.ts';

/** Stacking within the vector layer's pane: raster layers below it, the vector layer, raster layers above it. */
const Z_INDEX = { rasterBelow: 10, vector: 100, rasterAbove: 110 } as const;

/** A pane of our own for the user's accuracy circle: over the map layers, under the pins. */
const LOCATION_PANE = 'pinmapLocation';

/** Leaflet's tile fade-in, when fades are on; the map is idle once it is over. */
const TILE_FADE_MS = 200;

/**
 * The hybrid view: a Leaflet map (the raster web map) holding the vector map as a layer, with
 * the config's raster tile layers below or above it, the pins as Leaflet markers, and the user's
 * position as Leaflet layers. Bearing and pitch stay 0. When WebGL cannot start, the Leaflet
 * map, its raster layers and the pins stay, and the failure is a notice over them.
 */
export function createHybridEngine(parent: HTMLElement, config: PinmapConfig, events: EngineEvents): MapAdapter {
  // Leaflet leaves its classes and attributes on its container when it is removed: it gets an
  // element of its own, which goes with it, so the next map (of either view) starts clean.
  const container = document.createElement('div');
  container.className = 'pinmap-leaflet';
  parent.append(container);
  warnIfStyleSheetMissing('leaflet');
  warnIfStyleSheetMissing('maplibre');
  const locale = localeWith(config.locale);
  // Leaflet's own animations (zoom, tile fade, throw after a drag) stop for users who ask for less motion.
  const reducedMotion = prefersReducedMotion();
  const fades = config.fadeDuration > 0 && !reducedMotion;

  const map = L.map(container, {
    center: [config.center[1], config.center[0]],
    zoom: toLeafletZoom(config.zoom),
    minZoom: toLeafletZoom(config.minZoom),
    maxZoom: toLeafletZoom(config.maxZoom),
    // Any zoom, as in the vector view (the address may hold 3.27); the buttons step by 1.
    zoomSnap: 0,
    zoomDelta: 1,
    wheelPxPerZoomLevel: 120,
    zoomControl: false,
    attributionControl: false,
    // The vector layer watches the container itself (which also follows the window).
    trackResize: false,
    worldCopyJump: true,
    fadeAnimation: fades,
    zoomAnimation: !reducedMotion,
    markerZoomAnimation: !reducedMotion,
    inertia: !reducedMotion,
    tapTolerance: Math.max(1, config.clickTolerance),
  });
  // Named as MapLibre names its canvas: the map's Tab stop, before its pins' group.
  map.getContainer().setAttribute('role', 'region');
  map.getContainer().setAttribute('aria-label', 'Map');
  const pane = config.vectorLayer.pane;
  if (!map.getPane(pane)) map.createPane(pane);
  map.createPane(LOCATION_PANE).style.zIndex = '450';

  // Busy and idle: Leaflet's moves and tiles, MapLibre's drawing, and pins on their way.
  let moving = false;
  let glIdle = false;
  /** The pins' groups of the view are on their way (a pin archive's tiles, the pin index's worker). */
  let pinGroupsLoading = false;
  let destroyed = false;
  const busy = () => events.onStatus({ type: 'map.busy' });
  // The pins are Leaflet markers, made with the map (`pins.load()` below): they follow it from the start.
  const shownPinListeners = new Listeners();
  const pins = wirePins(
    events,
    (told) =>
      createHybridPins(map, {
        ...told,
        groupInWorkerAbove: config.domPinLimit,
        pinTransition: config.pinTransition,
        clusterLabel: locale['PinLayer.Cluster'],
        pinsLabel: locale['PinLayer.Pins'],
        zoomedInLabel: locale['PinLayer.ZoomedIn'],
        closeLabel: locale['Popup.Close'],
        onShown: (boxes) => {
          shownBoxes = boxes;
          collision?.set(boxes);
        },
        onLoading: (loading) => {
          pinGroupsLoading = loading;
          if (loading) busy();
          else checkIdle();
        },
        // A pin archive's tiles follow the token rule of every other request of the map.
        transformRequest: tokenTransform(accessTokenOf(config), providerOriginOf(config, document.baseURI), config.accessTokenHeader),
        onTiledPinsShown: () => shownPinListeners.tell(),
        // A damaged pin archive is the same notice as the vector view gives for a map tiles archive; the rest of the map goes on.
        onArchiveUnreadable: (url, reason) => events.onNotice?.(redactToken(MESSAGES.archiveFailed(url, reason), accessTokenOf(config))),
      }),
    () => checkIdle(),
  );
  const rasterLayers = config.rasterLayers.map((layer, index) => createRasterLayer(layer, index, pane));
  /** When each raster layer's latest tile arrived (its fade-in ends 200 ms later). */
  const lastTileAt = new Map<L.TileLayer, number>();
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const checkIdle = () => {
    if (destroyed || moving || pins.pending() > 0 || pinGroupsLoading || !glIdle) return;
    if ((map as unknown as { _animatingZoom?: boolean })._animatingZoom) return;
    const now = performance.now();
    let wait = 0;
    for (const layer of rasterLayers) {
      if (!map.hasLayer(layer)) continue;
      // Not `isLoading()`: Leaflet leaves that true when a zoom drops the tiles still loading.
      if (!(layer as unknown as { _noTilesToLoad(): boolean })._noTilesToLoad()) return;
      if (fades) wait = Math.max(wait, (lastTileAt.get(layer) ?? -Infinity) + TILE_FADE_MS - now);
    }
    clearTimeout(idleTimer);
    if (wait > 0) idleTimer = setTimeout(checkIdle, wait);
    else events.onStatus({ type: 'map.idle' });
  };
  for (const layer of rasterLayers) {
    layer.on('loading', busy);
    layer.on('tileload tileerror', () => lastTileAt.set(layer, performance.now()));
    layer.on('load', checkIdle);
    retryRasterTiles(layer, busy, (url) =>
      // An image the page's policy refused says so, with the directive and the origin to add.
      void policyViolationFor(url).then((violation) => {
        const why = violation ? ` (${MESSAGES.blockedByPolicy(violation.directive, violation.origin)})` : '';
        console.warn(`Pinmap: a raster tile could not be loaded; it is tried again while in view: ${redactToken(url, accessTokenOf(config))}${why}`);
      }),
    );
    layer.addTo(map);
  }

  // The vector map, as a layer. Its WebGL failure leaves the rest of the map working.
  let glMap: MapLibreMap | undefined;
  let retryStyle: (() => void) | undefined;
  let theme = themeOf(config);
  // The pins' places on the vector map, so its labels keep out from under them.
  let collision: ReturnType<typeof createLabelCollision> | undefined;
  let shownBoxes: CollisionBox[] = [];
  const vectorLayer = new VectorLayer(config.vectorLayer, sharedMapOptions(config), {
    onMapCreated(created) {
      glMap = created;
      collision = createLabelCollision(created);
      collision.set(shownBoxes);
      retryStyle = watchMapErrors(created, config, (failure) => events.onStatus({ type: 'map.failed', failure }), () => theme, events.onNotice).retry;
      created.on('movestart', () => {
        glIdle = false;
        busy();
      });
      created.on('dataloading', () => {
        glIdle = false;
        busy();
      });
      created.on('idle', () => {
        glIdle = true;
        checkIdle();
      });
      if (config.vectorLayer.interactive) created.on('click', (event) => (featureClick = namedFeatureAt(created, event)));
    },
    onFailed(error) {
      glIdle = true; // nothing of MapLibre's to wait for
      console.warn(`Pinmap: the vector layer could not start, so the map goes on with its raster layers and pins (${reasonOf(error)})`);
      events.onNotice?.(describeFailure(error, config).message);
    },
  });
  vectorLayer.addTo(map);
  vectorLayer.getContainer()?.style.setProperty('z-index', String(Z_INDEX.vector));

  map.on('movestart zoomstart', () => {
    moving = true;
    busy();
  });
  map.on('moveend zoomend', () => {
    moving = false;
    // MapLibre follows at once, not one update interval later: the move's last frame is drawn
    // from where the move ended, and idle waits for it.
    vectorLayer.resync();
    checkIdle();
  });

  void pins.load();
  const userLocation = createUserLocationLayers(map, LOCATION_PANE);

  // An interactive vector layer hears clicks first (MapLibre's canvas is under Leaflet's own
  // listeners); the feature's popup opens on Leaflet's click of the same event, after Leaflet has
  // closed the popups a click on the map closes.
  let featureClick: FeatureClick | undefined;
  map.on('click', (event: L.LeafletMouseEvent) => {
    const hit = featureClick;
    featureClick = undefined;
    if (hit && hit.event === event.originalEvent) openFeaturePopup(map, hit);
  });
  const motion = createMotion(map);

  const getCamera = (): Camera => {
    const center = map.getCenter();
    return { center: [center.lng, center.lat], zoom: toMapLibreZoom(map.getZoom()), bearing: 0, pitch: 0 };
  };
  const target = (camera: Partial<Camera>): [L.LatLng, number] => {
    const now = getCamera();
    const [lng, lat] = camera.center ?? now.center;
    // Within the map's zoom range: Leaflet's `flyTo` does not keep to it as `setView` does.
    const zoom = Math.max(map.getMinZoom(), Math.min(map.getMaxZoom(), toLeafletZoom(camera.zoom ?? now.zoom)));
    return [L.latLng(lat, lng), zoom];
  };

  return {
    view: 'hybrid',
    canRotate: false,
    getCamera,
    getZoomRange: () => ({ min: toMapLibreZoom(map.getMinZoom()), max: toMapLibreZoom(map.getMaxZoom()) }),
    jumpTo(camera) {
      const [center, zoom] = target(camera);
      map.setView(center, zoom, { animate: false });
    },
    easeTo(camera, { tag, duration = DEFAULT_EASE }) {
      const [center, zoom] = target(camera);
      motion.animate(tag, duration, () => map.flyTo(center, zoom, { duration: duration / 1000 }), () => map.setView(center, zoom, { animate: false }));
    },
    flyTo(camera, { tag, duration }) {
      const [center, zoom] = target(camera);
      motion.animate(
        tag,
        duration,
        () => map.flyTo(center, zoom, duration === undefined ? {} : { duration: duration / 1000 }),
        () => map.setView(center, zoom, { animate: false }),
      );
    },
    fitBounds(bounds, { tag, duration = DEFAULT_EASE, maxZoom, padding }) {
      const box = L.latLngBounds([bounds[0][1], bounds[0][0]], [bounds[1][1], bounds[1][0]]);
      const options = {
        maxZoom: toLeafletZoom(maxZoom),
        ...(padding ? { paddingTopLeft: L.point(padding.left, padding.top), paddingBottomRight: L.point(padding.right, padding.bottom) } : {}),
      };
      motion.animate(tag, duration, () => map.flyToBounds(box, { ...options, duration: duration / 1000 }), () => map.fitBounds(box, { ...options, animate: false }));
    },
    stopAnimation: () => motion.stop(),
    resizeFromTop(pixels) {
      // Leaflet keeps the centre (the vector layer's ResizeObserver would, a moment later); the
      // pan then puts the content back where it was. Leaflet pans by whole pixels.
      map.invalidateSize({ pan: true });
      map.panBy([0, Math.round(pixels / 2)], { animate: false });
    },
    onCameraChange(listener) {
      const handler = () => listener(getCamera());
      map.on('move zoom', handler);
      return () => map.off('move zoom', handler);
    },
    ...pins.adapter,
    getMap: () => glMap,
    onMotion: (listener) => motion.listen(listener),
    onShownPinsChange: (listener) => shownPinListeners.add(listener),
    viewContains: () => viewContainsIn(map.getBounds()),
    measure(pixels) {
      const { x: width, y: height } = map.getSize();
      return measureAcross(pixels, width, height, (x, y) => map.containerPointToLatLng([x, y]));
    },
    setUserLocation: userLocation.set,
    getAttributions() {
      const zoom = toMapLibreZoom(map.getZoom());
      const credits = glMap ? visibleAttributions(glMap) : [];
      config.rasterLayers.forEach((layer, index) => {
        if (layer.attribution && map.hasLayer(rasterLayers[index]!) && showsAt(layer, zoom)) credits.push(layer.attribution);
      });
      const pinCredit = pins.layer()?.attribution;
      if (pinCredit) credits.push(pinCredit);
      return [...new Set(credits)];
    },
    onAttributionsChange(listener) {
      const stopPins = pins.attributionListeners.add(listener);
      const stopGl = glMap ? onMapAttributionsChange(glMap, listener) : () => {};
      map.on('zoomend layeradd layerremove', listener);
      return () => {
        stopGl();
        map.off('zoomend layeradd layerremove', listener);
        stopPins();
      };
    },
    setTheme(next) {
      if (next === theme) return;
      theme = next;
      // The vector layer's map changes look in place; Leaflet, its raster layers and the pins stay.
      if (glMap && themesDiffer(config)) showTheme(glMap, config, next);
    },
    retry() {
      retryStyle?.();
    },
    destroy() {
      destroyed = true;
      clearTimeout(idleTimer);
      motion.destroy();
      pins.destroy();
      shownPinListeners.clear();
      collision?.destroy();
      userLocation.set(undefined);
      // Removing the Leaflet map removes every layer: the vector layer frees MapLibre's map.
      map.remove();
      container.remove();
    },
  };

  function createRasterLayer(layer: RasterLayerConfig, index: number, inPane: string): L.TileLayer {
    // A layer on the provider's origin carries the token, as every request there may.
    return tokenTileLayer(resolveTemplate(layer.url, document.baseURI), tokenRuleOf(config, document.baseURI), {
      pane: inPane,
      opacity: layer.opacity,
      zIndex: (layer.placement === 'above' ? Z_INDEX.rasterAbove : Z_INDEX.rasterBelow) + index,
      className: `pinmap-raster-layer pinmap-raster-${layer.placement}`,
      ...(layer.minZoom === undefined ? {} : { minZoom: toLeafletZoom(layer.minZoom) }),
      ...(layer.maxZoom === undefined ? {} : { maxZoom: toLeafletZoom(layer.maxZoom) }),
      ...(layer.maxTileZoom === undefined ? {} : { maxNativeZoom: layer.maxTileZoom }),
    });
  }
}

/** A click on a vector feature that has a name. */
interface FeatureClick {
  event: Event;
  name: string;
  lngLat: [number, number];
}

/** The topmost named feature under a click on the vector layer, if any. */
function namedFeatureAt(map: MapLibreMap, event: MapMouseEvent): FeatureClick | undefined {
  const feature = map.queryRenderedFeatures(event.point).find((f) => typeof f.properties?.name === 'string' && f.properties.name !== '');
  return feature && { event: event.originalEvent, name: feature.properties.name as string, lngLat: [event.lngLat.lng, event.lngLat.lat] };
}

/** A popup naming the clicked feature (as text: a name from a tile is data, not markup). */
function openFeaturePopup(map: L.Map, hit: FeatureClick): void {
  const content = document.createElement('p');
  content.className = 'pinmap-popup-title';
  content.textContent = hit.name;
  L.popup({ className: 'pinmap-popup pinmap-leaflet-popup pinmap-feature-popup', maxWidth: LEAFLET_POPUP_MAX_WIDTH })
    .setLatLng([hit.lngLat[1], hit.lngLat[0]])
    .setContent(content)
    .openOn(map);
}

/** Whether a raster layer shows at a (MapLibre) zoom. */
function showsAt(layer: RasterLayerConfig, zoom: number): boolean {
  return (layer.minZoom === undefined || zoom >= layer.minZoom) && (layer.maxZoom === undefined || zoom <= layer.maxZoom);
}

/**
 * Leaflet leaves a raster tile that failed to load empty (and counts it as loaded) for as long as
 * it is in view. This asks for it again, as the vector map's tiles are (`TILE_RETRY`): after
 * `firstDelay` ms, doubling up to `maxDelay`, until it loads, leaves the view or has been asked
 * for `rasterRetries` more times. The map is busy while a tile is asked for again, and its first
 * failure is one warning naming its URL.
 */
function retryRasterTiles(layer: L.TileLayer, onRetry: () => void, warn: (url: string) => void): void {
  type GridTile = { el: HTMLElement; loaded?: number };
  const tiles = () => (layer as unknown as { _tiles: Record<string, GridTile> })._tiles;
  const keyOf = (coords: L.Coords) => `${coords.x}:${coords.y}:${coords.z}`;
  const failing = new Map<string, { failures: number; timer: ReturnType<typeof setTimeout> | undefined }>();
  const forget = (event: L.TileEvent) => {
    const key = keyOf(event.coords);
    clearTimeout(failing.get(key)?.timer);
    failing.delete(key);
  };
  layer.on('tileload', forget);
  layer.on('tileunload', forget);
  // A layer that fetches its tiles itself (the token as a header: `token-tile-layer.ts`) is asked
  // to fetch one again; any other is given its image's URL again.
  const reload = (layer as unknown as { reloadTile?: (tile: HTMLImageElement) => void }).reloadTile?.bind(layer) ?? ((image: HTMLImageElement, url: string) => (image.src = url));
  layer.on('tileerror', (event: L.TileErrorEvent) => {
    const key = keyOf(event.coords);
    const image = event.tile as HTMLImageElement;
    const url = image.dataset.pinmapTile ?? image.src;
    const entry = failing.get(key) ?? { failures: 0, timer: undefined };
    failing.set(key, entry);
    entry.failures++;
    if (entry.failures === 1) warn(url);
    clearTimeout(entry.timer);
    if (entry.failures > TILE_RETRY.rasterRetries) return; // perhaps a tile the server does not have
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      const tile = tiles()[key];
      if (!tile || tile.el !== image) return void failing.delete(key);
      // Not loaded until it answers: Leaflet's 'load' (and the map's idle) wait for it again.
      delete tile.loaded;
      onRetry();
      reload(image, url);
    }, Math.min(TILE_RETRY.firstDelay * 2 ** (entry.failures - 1), TILE_RETRY.maxDelay));
  });
}
