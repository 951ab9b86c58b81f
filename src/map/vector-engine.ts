import { GPUInitializationError, Map as MapLibreMap, setWorkerUrl, type StyleSpecification } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url&no-inline';
import 'maplibre-gl/dist/maplibre-gl.css';
import type { Camera } from './address.ts';
import type { EngineEvents, MapAdapter } from './adapter.ts';
import type { PinmapConfig } from './config.ts';
import { EMBEDDED_STYLE_PATH } from './constants.ts';
import { MESSAGES, reasonOf } from './errors.ts';
import { providerOriginOf, redactToken, tokenTransform } from './request-transform.ts';
import { resolveStyleUrls } from './style-urls.ts';
import { createVectorPins } from './vector-pins.ts';
import { warnIfStyleSheetMissing } from './stylesheets.ts';

setWorkerUrl(workerUrl);

/** The style URL a config asks for, made absolute against the page; undefined for an inline style. */
export function styleUrlOf(config: PinmapConfig): string | undefined {
  if (typeof config.style === 'object') return undefined;
  return config.style === undefined ? embeddedStyleUrl() : new URL(config.style, document.baseURI).href;
}

/**
 * The embedded basemap is built next to the code (dist/basemap beside dist/assets and
 * dist/lib), so it is found from the bundle's own URL wherever a page loads it from; the
 * development server serves it at the site root.
 */
function embeddedStyleUrl(): string {
  const fromBundle = `../${EMBEDDED_STYLE_PATH}`;
  return import.meta.env.DEV ? new URL(EMBEDDED_STYLE_PATH, document.baseURI).href : new URL(fromBundle, import.meta.url).href;
}

/**
 * The vector view: one MapLibre map in the container. Reports its status as map status machine
 * events; a WebGL failure or a style that cannot load is reported, never thrown, so the page
 * can show it.
 */
export function createVectorEngine(container: HTMLElement, config: PinmapConfig, events: EngineEvents): MapAdapter {
  warnIfStyleSheetMissing('maplibre');
  const styleUrl = styleUrlOf(config);
  const styleInput: string | StyleSpecification = styleUrl ?? (config.style as StyleSpecification);
  let styleLoaded = false;
  // The token reaches the provider's origin only, and never a message or a log.
  const transformRequest = tokenTransform(config.accessToken, providerOriginOf(config, document.baseURI));
  const failureOf = (error: unknown) => describeFailure(error, styleUrl, config.accessToken);

  let map: MapLibreMap;
  try {
    map = new MapLibreMap({
      container,
      style: styleInput,
      transformStyle: (_previous, next) => resolveStyleUrls(next, styleUrl ?? document.baseURI),
      ...(transformRequest ? { transformRequest } : {}),
      center: config.center,
      zoom: config.zoom,
      bearing: config.bearing,
      pitch: config.pitch,
      minZoom: config.minZoom,
      maxZoom: config.maxZoom,
      minPitch: config.minPitch,
      maxPitch: config.maxPitch,
      bearingSnap: config.bearingSnap,
      clickTolerance: config.clickTolerance,
      fadeDuration: config.fadeDuration,
      ...(config.pixelRatio === undefined ? {} : { pixelRatio: config.pixelRatio }),
      canvasContextAttributes: { preserveDrawingBuffer: config.preserveDrawingBuffer },
      // Credits of the data shown, from the style's sources only (no library credit line).
      attributionControl: {},
    });
  } catch (error) {
    events.onStatus({ type: 'map.failed', failure: failureOf(error) });
    return failedAdapter(config);
  }

  map.on('style.load', () => {
    styleLoaded = true;
  });
  // Idle means drawn and done: the map has rendered everything and no pins are on their way.
  let mapIdle = false;
  let pendingPinSets = 0;
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
  const pinLayer = createVectorPins(map, {
    domPinLimit: config.domPinLimit,
    onOpenPinChange: (id) => pinListeners.forEach((listener) => listener(id)),
  });
  map.on('error', (event) => {
    const error = event.error;
    // Lost WebGL, or a style that never loaded, stops the map; anything else does not.
    if (error instanceof GPUInitializationError || (!styleLoaded && !('sourceId' in event))) {
      events.onStatus({ type: 'map.failed', failure: failureOf(error) });
    } else {
      // A tile, image or source that failed: the map stays usable, so this is a warning.
      console.warn(`Pinmap: ${redactToken(reasonOf(error), config.accessToken)}`);
    }
  });

  const getCamera = (): Camera => {
    const c = map.getCenter();
    return { center: [c.lng, c.lat], zoom: map.getZoom(), bearing: map.getBearing(), pitch: map.getPitch() };
  };

  return {
    view: 'vector',
    getCamera,
    jumpTo(camera) {
      map.jumpTo(camera);
    },
    onCameraChange(listener) {
      const handler = () => listener(getCamera());
      map.on('move', handler);
      return () => map.off('move', handler);
    },
    setPins(pins) {
      pendingPinSets++;
      busy();
      return pins
        .then((set) => pinLayer.setPins(set))
        .catch(() => {}) // the caller shows why; the map goes on without these pins
        .finally(() => {
          pendingPinSets--;
          // Markers are on the map at once; a symbol layer is done at the map's next idle.
          if (pinLayer.mode === 'gl') {
            mapIdle = false;
            map.triggerRepaint();
          }
          reportIdleIfDone();
        });
    },
    openPin: (id, options) => pinLayer.open(id, options),
    closePin: () => pinLayer.close(),
    onOpenPinChange(listener) {
      pinListeners.add(listener);
      return () => pinListeners.delete(listener);
    },
    retry() {
      styleLoaded = false;
      // A style that never loaded cannot be diffed or transformed against: drop it, then load
      // afresh (MapLibre would otherwise wait for the failed style's load event forever).
      map.setStyle(null, { transformStyle: undefined });
      map.setStyle(styleInput, { diff: false });
    },
    destroy() {
      pinListeners.clear();
      pinLayer.destroy();
      map.remove();
    },
  };
}

function describeFailure(error: unknown, styleUrl: string | undefined, token: string | undefined) {
  if (error instanceof GPUInitializationError) return { message: MESSAGES.webglFailed, retryable: false };
  return { message: redactToken(MESSAGES.styleFailed(styleUrl ?? 'the inline style', reasonOf(error)), token), retryable: true };
}

/** Stands in for a map that could not be created, so the caller's bookkeeping stays simple. */
function failedAdapter(config: PinmapConfig): MapAdapter {
  const camera: Camera = { center: config.center, zoom: config.zoom, bearing: config.bearing, pitch: config.pitch };
  return {
    view: 'vector',
    getCamera: () => camera,
    jumpTo: () => {},
    onCameraChange: () => () => {},
    setPins: () => Promise.resolve(),
    openPin: () => false,
    closePin: () => {},
    onOpenPinChange: () => () => {},
    retry: () => {},
    destroy: () => {},
  };
}
