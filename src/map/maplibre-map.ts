import { GPUInitializationError, setWorkerUrl, type Map as MapLibreMap, type MapOptions, type StyleSpecification } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url&no-inline';
import 'maplibre-gl/dist/maplibre-gl.css';
import type { MapFailure } from '../machines/map-status.machine.ts';
import type { PinmapConfig } from './config.ts';
import { EMBEDDED_STYLE_PATH } from './constants.ts';
import { MESSAGES, reasonOf } from './errors.ts';
import { localeWith } from './locale.ts';
import { accessTokenOf, providerOriginOf, redactToken, tokenTransform } from './request-transform.ts';
import { resolveStyleUrls } from './style-urls.ts';

/**
 * What both views' MapLibre maps share: the worker, the style (and how its URLs resolve), the
 * token rule, the error reporting and the attributions. The vector view's map fills the
 * container; the hybrid view's map is a layer of Leaflet's.
 */

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

/** The style as MapLibre takes it: the URL, or the inline style object. */
export function styleInputOf(config: PinmapConfig): string | StyleSpecification {
  return styleUrlOf(config) ?? (config.style as StyleSpecification);
}

/**
 * The MapLibre options both views share: style (with its relative URLs resolved), the token's
 * request transform, zoom limits, click tolerance, fade, pixel ratio, drawing buffer, no
 * attribution control of MapLibre's own (Pinmap draws its own), and MapLibre's strings from
 * Pinmap's locale table.
 */
export function sharedMapOptions(config: PinmapConfig): Omit<MapOptions, 'container'> {
  const styleUrl = styleUrlOf(config);
  // The token reaches the provider's origin only, and never a message or a log.
  const transformRequest = tokenTransform(accessTokenOf(config), providerOriginOf(config, document.baseURI), config.accessTokenHeader);
  return {
    style: styleInputOf(config),
    transformStyle: (_previous, next) => resolveStyleUrls(next, styleUrl ?? document.baseURI),
    ...(transformRequest ? { transformRequest } : {}),
    minZoom: config.minZoom,
    maxZoom: config.maxZoom,
    clickTolerance: config.clickTolerance,
    fadeDuration: config.fadeDuration,
    ...(config.pixelRatio === undefined ? {} : { pixelRatio: config.pixelRatio }),
    canvasContextAttributes: { preserveDrawingBuffer: config.preserveDrawingBuffer },
    attributionControl: false,
    locale: { 'Popup.Close': localeWith(config.locale)['Popup.Close'] },
  };
}

/**
 * Frees what MapLibre's `remove()` leaves behind; call it just before. MapLibre 6 drops the
 * style on `remove()` without destroying its glyph manager, so the style's `font-faces` (the
 * embedded basemap has two) stay in `document.fonts`, with their font data, for as long as the
 * page lives: two more for every map made and removed. Destroying the glyph manager (what
 * MapLibre's own `Style.destroy` does) takes them out. MapLibre's internals, so each step is
 * optional.
 */
export function releaseFontFaces(map: MapLibreMap): void {
  const internals = map as unknown as { style?: { glyphManager?: { destroy?(): void } } };
  internals.style?.glyphManager?.destroy?.();
}

/** What the user reads when a map cannot start or its style cannot load (the token blanked). */
export function describeFailure(error: unknown, config: PinmapConfig): MapFailure {
  if (isWebGLFailure(error)) return { message: MESSAGES.webglFailed, retryable: false };
  const styleUrl = styleUrlOf(config);
  return { message: redactToken(MESSAGES.styleFailed(styleUrl ?? 'the inline style', reasonOf(error)), accessTokenOf(config)), retryable: true };
}

/** Whether an error says WebGL could not start. */
export function isWebGLFailure(error: unknown): boolean {
  return error instanceof GPUInitializationError;
}

/**
 * Reports a map's errors: lost WebGL, or a style that never loaded, stops the map (`onFailed`);
 * anything else (a tile, image or source that failed) leaves it usable and is a console
 * warning, with the token blanked. Returns whether the style has loaded, for retries.
 */
export function watchMapErrors(map: MapLibreMap, config: PinmapConfig, onFailed: (failure: MapFailure) => void) {
  let styleLoaded = false;
  map.on('style.load', () => {
    styleLoaded = true;
  });
  map.on('error', (event) => {
    const error = event.error;
    if (isWebGLFailure(error) || (!styleLoaded && !('sourceId' in event))) {
      onFailed(describeFailure(error, config));
    } else {
      console.warn(`Pinmap: ${redactToken(reasonOf(error), accessTokenOf(config))}`);
    }
  });
  return {
    /** Loads the style afresh after a failure. */
    retry() {
      styleLoaded = false;
      // A style that never loaded cannot be diffed or transformed against: drop it, then load
      // afresh (MapLibre would otherwise wait for the failed style's load event forever).
      map.setStyle(null, { transformStyle: undefined });
      map.setStyle(styleInputOf(config), { diff: false });
    },
  };
}

/**
 * The attribution of every source a visible layer draws from at the current zoom, once each,
 * in style order: what the attribution control gathers from.
 */
export function visibleAttributions(map: MapLibreMap): string[] {
  let order: string[];
  try {
    order = map.getLayersOrder();
  } catch {
    return []; // no style (yet, or after a failure)
  }
  const zoom = map.getZoom();
  const seen = new Set<string>();
  const attributions: string[] = [];
  for (const id of order) {
    const layer = map.getLayer(id);
    if (!layer || !layer.source || layer.isHidden(zoom)) continue;
    if (seen.has(layer.source)) continue;
    seen.add(layer.source);
    const attribution = map.getSource(layer.source)?.attribution;
    if (typeof attribution === 'string') attributions.push(attribution);
  }
  return attributions;
}

/**
 * Calls `listener` when a map's attributions may have changed: a new style, a source's
 * metadata or visibility, a zoom that shows or hides layers. Returns what stops it.
 */
export function onMapAttributionsChange(map: MapLibreMap, listener: () => void): () => void {
  const onData = (event: { dataType?: string; sourceDataType?: string }) => {
    if (event.dataType === 'style' || (event.dataType === 'source' && (event.sourceDataType === 'metadata' || event.sourceDataType === 'visibility'))) listener();
  };
  map.on('styledata', onData);
  map.on('sourcedata', onData);
  map.on('zoomend', listener);
  return () => {
    map.off('styledata', onData);
    map.off('sourcedata', onData);
    map.off('zoomend', listener);
  };
}
