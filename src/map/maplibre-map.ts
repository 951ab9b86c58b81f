import { GPUInitializationError, getWorkerUrl, setWorkerUrl, type Map as MapLibreMap, type MapOptions, type StyleSpecification } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url&no-inline';
import 'maplibre-gl/dist/maplibre-gl.css';
import type { MapFailure } from '../machines/map-status.machine.ts';
import type { PinmapConfig, Theme } from '../config/schema.ts';
import { EMBEDDED_DARK_STYLE_PATH, EMBEDDED_STYLE_PATH, STREETS_STYLE_PATHS, TILE_RETRY } from '../config/constants.ts';
import { MESSAGES, reasonOf } from '../config/errors.ts';
import { localeWith } from '../config/locale.ts';
import { archiveFailure, prefetchArchives, registerPmtilesProtocol } from './pmtiles.ts';
import { accessTokenOf, redactToken, tokenRuleOf } from './request-transform.ts';
import { mapRequestTransform } from './map-requests.ts';
import { resolveStyleUrls } from './style-urls.ts';
import { carryPinmapParts } from './style-carry.ts';
import { prefersReducedMotion } from './reduced-motion.ts';

/**
 * What both views' MapLibre maps share: the worker, the style (and how its URLs resolve), the
 * token rule, the error reporting and the attributions. The vector view's map fills the
 * container; the hybrid view's map is a layer of Leaflet's.
 */

// The worker beside Pinmap's files, unless the app set one on the MapLibre it shares with Pinmap's
// React entry (the app's own `setWorkerUrl`, before or after, wins).
if (!getWorkerUrl()) setWorkerUrl(workerUrl);

/**
 * The theme a map starts in: the config's, where `auto` (resolved by the React layer, which
 * hands the engine `light` or `dark`) counts as light.
 */
export function themeOf(config: PinmapConfig): Theme {
  return config.theme === 'dark' ? 'dark' : 'light';
}

/**
 * The style a config asks for in a theme: the embedded basemap's light or dark look; the site's
 * `darkStyle` in the dark theme if it gave one; else the site's `style` in both (only the
 * controls and popups turn dark).
 */
function themedStyle(config: PinmapConfig, theme: Theme): PinmapConfig['style'] {
  return theme === 'dark' && config.style !== undefined && config.darkStyle !== undefined ? config.darkStyle : config.style;
}

/**
 * The style URL a config asks for (in `theme`), made absolute against the page; undefined for an
 * inline style. With `streets`, the Protomaps style of the theme beside the embedded basemap
 * (its source is pointed at the archive when it arrives: {@link withStreets}).
 */
export function styleUrlOf(config: PinmapConfig, theme: Theme = themeOf(config)): string | undefined {
  if (config.streets !== undefined) return besideTheBundle(STREETS_STYLE_PATHS[theme]);
  const style = themedStyle(config, theme);
  if (typeof style === 'object') return undefined;
  return style === undefined ? embeddedStyleUrl(theme) : new URL(style, document.baseURI).href;
}

/**
 * A style as the config shows it: with `streets`, every source of the Protomaps style (it has
 * one) reads the street map archive, resolved against the page, and takes its credit from the
 * archive's own metadata rather than the style's (written for the fixture it was made over).
 */
export function withStreets(style: StyleSpecification, config: PinmapConfig): StyleSpecification {
  if (config.streets === undefined) return style;
  const url = `pmtiles://${new URL(config.streets, document.baseURI).href}`;
  const sources = Object.fromEntries(
    Object.entries(style.sources).map(([id, source]) => {
      const { attribution: _credit, ...rest } = source as typeof source & { attribution?: string };
      return [id, { ...rest, url }];
    }),
  ) as StyleSpecification['sources'];
  return { ...style, sources };
}

/**
 * The embedded basemap is built next to the code (dist/basemap beside dist/assets and
 * dist/lib), so it is found from the bundle's own URL wherever a page loads it from; the
 * development server serves it at the site root. In an app that bundles the library, the code
 * is in the app's assets folder and `pinmap/vite` puts the basemap beside it (README, "Using the
 * library"). The path is not written as `new URL('…', import.meta.url)`: a host's bundler would
 * take that for one file of its own to copy (or, as a template, for a glob), while the basemap is
 * a folder whose files the style names relative to itself.
 */
function embeddedStyleUrl(theme: Theme): string {
  return besideTheBundle(theme === 'dark' ? EMBEDDED_DARK_STYLE_PATH : EMBEDDED_STYLE_PATH);
}

/** A file of the folders built beside the code (`basemap/`, `protomaps/`), found as {@link embeddedStyleUrl} says. */
function besideTheBundle(file: string): string {
  return import.meta.env.DEV ? new URL(file, document.baseURI).href : relativeToBundle(`../${file}`);
}

/** `path` resolved against the URL of the bundle this code is in. */
function relativeToBundle(path: string): string {
  const bundle: string = import.meta.url;
  return new URL(path, bundle).href;
}

/** The style as MapLibre takes it (in `theme`): the URL, or the inline style object. */
export function styleInputOf(config: PinmapConfig, theme: Theme = themeOf(config)): string | StyleSpecification {
  return styleUrlOf(config, theme) ?? (themedStyle(config, theme) as StyleSpecification);
}

/** Whether the two themes show different basemaps (else a theme switch leaves the map alone). */
export function themesDiffer(config: PinmapConfig): boolean {
  return config.style === undefined || config.darkStyle !== undefined;
}

/**
 * Shows the basemap of `theme` without making a new map: MapLibre diffs the two styles (the
 * embedded looks differ only in paint colours, so only those change) and the camera, popups,
 * markers, pin images and Pinmap's layers stay. A style that cannot be diffed is loaded afresh,
 * still with Pinmap's layers carried over (their images are drawn again when asked for).
 */
export function showTheme(map: MapLibreMap, config: PinmapConfig, theme: Theme): void {
  const url = styleUrlOf(config, theme);
  map.setStyle(styleInputOf(config, theme), {
    diff: true,
    transformStyle: (previous, next) => carryPinmapParts(previous, withStreets(resolveStyleUrls(next, url ?? document.baseURI), config)),
  });
}

/**
 * The MapLibre options both views share: style (with its relative URLs resolved, and the headers
 * of the PMTiles archives it names asked for as soon as it arrives), the token's request
 * transform, zoom limits, click tolerance, fade (none under `prefers-reduced-motion`), pixel
 * ratio, drawing buffer, no attribution control of MapLibre's own (Pinmap draws its own), and
 * MapLibre's strings from Pinmap's locale table.
 */
export function sharedMapOptions(config: PinmapConfig): Omit<MapOptions, 'container'> {
  registerPmtilesProtocol();
  const styleUrl = styleUrlOf(config);
  // The token reaches the provider's origin only, and never a message or a log; every request
  // goes through the request path (map-requests.ts).
  const transformRequest = mapRequestTransform(tokenRuleOf(config, document.baseURI));
  return {
    style: styleInputOf(config),
    transformStyle: (_previous, next) => {
      const style = withStreets(resolveStyleUrls(next, styleUrl ?? document.baseURI), config);
      // Its archives' headers are read while MapLibre sets the style up.
      prefetchArchives(style, transformRequest);
      return style;
    },
    transformRequest,
    minZoom: config.minZoom,
    maxZoom: config.maxZoom,
    clickTolerance: config.clickTolerance,
    // Labels and pins appear without a fade for users who ask for less motion, as in Leaflet's tiles.
    fadeDuration: prefersReducedMotion() ? 0 : config.fadeDuration,
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
 * optional. And a map made with `transformStyle` whose style has not arrived yet puts off
 * dropping the style until it loads, so `remove()` would leave the style's request running (and
 * load the style into a removed map): dropping it without the transform first aborts the request.
 */
export function releaseBeforeRemove(map: MapLibreMap): void {
  const internals = map as unknown as { style?: { glyphManager?: { destroy?(): void } } };
  internals.style?.glyphManager?.destroy?.();
  map.setStyle(null, { transformStyle: undefined });
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
 * so does a style URL that does not answer within `config.styleTimeout` (its request is
 * aborted). A tile that failed is fetched again while it stays in view (`retryFailedTiles`);
 * that and anything else (an image, a font, a sprite or a source that failed) leave the map
 * usable and are console warnings, with the token blanked. A PMTiles archive that cannot be read
 * (`pmtiles://` sources; see `archiveFailure`) is also a notice on the page (`onNotice`) naming
 * the archive and the reason, once per archive and reason. Returns the retry of the style (of
 * the theme `theme()` says is shown).
 */
export function watchMapErrors(
  map: MapLibreMap,
  config: PinmapConfig,
  onFailed: (failure: MapFailure) => void,
  theme: () => Theme = () => themeOf(config),
  onNotice?: (message: string) => void,
) {
  const token = accessTokenOf(config);
  const styleUrl = styleUrlOf(config);
  let styleLoaded = false;
  let styleTimer: ReturnType<typeof setTimeout> | undefined;
  const fail = (failure: MapFailure) => {
    clearTimeout(styleTimer);
    onFailed(failure);
  };
  /** Drops the style, and with it any request for it still on its way. */
  const dropStyle = () => map.setStyle(null, { transformStyle: undefined });
  const watchStyleTime = () => {
    clearTimeout(styleTimer);
    if (styleUrl === undefined) return; // an inline style needs no request
    styleTimer = setTimeout(() => {
      if (styleLoaded) return;
      dropStyle();
      fail({ message: redactToken(MESSAGES.styleTimedOut(styleUrl, config.styleTimeout), token), retryable: true });
    }, config.styleTimeout);
  };
  watchStyleTime();
  const tiles = retryFailedTiles(map, (message) => console.warn(`Pinmap: ${redactToken(message, token)}`));

  map.on('style.load', () => {
    styleLoaded = true;
    clearTimeout(styleTimer);
  });
  map.on('remove', () => {
    clearTimeout(styleTimer);
    tiles.stop();
  });
  const archivesReported = new Set<string>();
  map.on('error', (event) => {
    const error = event.error;
    const archive = 'sourceId' in event ? archiveUrlOf(map, String(event.sourceId)) : undefined;
    const archiveProblem = archive === undefined ? undefined : archiveFailure(archive);
    if (archive !== undefined && archiveProblem !== undefined) {
      const message = redactToken(MESSAGES.archiveFailed(archive, archiveProblem), token);
      if (!archivesReported.has(message)) {
        archivesReported.add(message);
        onNotice?.(message);
      }
    }
    if (isWebGLFailure(error) || (!styleLoaded && !('sourceId' in event))) {
      fail(describeFailure(error, config));
    } else if (!tiles.handle(event)) {
      console.warn(`Pinmap: ${redactToken(describeMapError(error, map), token)}`);
    }
  });
  return {
    /** Loads the style afresh after a failure. */
    retry() {
      styleLoaded = false;
      archivesReported.clear();
      tiles.stop();
      // A style that never loaded cannot be diffed or transformed against: drop it, then load
      // afresh (MapLibre would otherwise wait for the failed style's load event forever).
      dropStyle();
      // The style of the theme shown now (the map may have changed theme since it started).
      const url = styleUrlOf(config, theme());
      map.setStyle(styleInputOf(config, theme()), { diff: false, transformStyle: (_previous, next) => resolveStyleUrls(next, url ?? document.baseURI) });
      watchStyleTime();
    },
  };
}

/**
 * The archive URL (without the scheme) of a `pmtiles://` source of the map's style, named as its
 * `url` (`pmtiles://<archive>`) or its `tiles` (`pmtiles://<archive>/{z}/{x}/{y}`); else undefined.
 */
function archiveUrlOf(map: MapLibreMap, sourceId: string): string | undefined {
  const source = map.getSource(sourceId) as { url?: unknown; tiles?: unknown } | undefined;
  const named = typeof source?.url === 'string' ? source.url : Array.isArray(source?.tiles) ? source.tiles[0] : undefined;
  if (typeof named !== 'string' || !named.startsWith('pmtiles://')) return undefined;
  return named.slice('pmtiles://'.length).replace(/\/\{z\}\/\{x\}\/\{y\}[^/]*$/, '');
}

/**
 * What a warning says about an error the map goes on after. MapLibre's HTTP and network errors
 * name their URL; a sprite file that arrives but cannot be read (not JSON, not an image) is
 * reported without one, so its URL is added: after the style has loaded, the sprite is the only
 * JSON and the only image MapLibre fetches that is not a source's.
 */
export function describeMapError(error: unknown, map: MapLibreMap): string {
  const reason = reasonOf(error);
  if (typeof (error as { url?: unknown } | undefined)?.url === 'string') return reason;
  const file = error instanceof SyntaxError ? '.json' : /\bimage\b/i.test(reason) ? '.png' : undefined;
  const files = file ? spriteFiles(map, file) : [];
  return files.length > 0 ? `the sprite ${files.join(', ')} could not be read: ${reason}` : reason;
}

/** The URLs of the style's sprite files with `extension` (`.json`, `.png`), as MapLibre asks for them. */
function spriteFiles(map: MapLibreMap, extension: string): string[] {
  let sprite: StyleSpecification['sprite'];
  try {
    sprite = map.getStyle()?.sprite;
  } catch {
    return [];
  }
  if (!sprite) return [];
  const scale = map.getPixelRatio() > 1 ? '@2x' : '';
  return (typeof sprite === 'string' ? [sprite] : sprite.map((entry) => entry.url)).flatMap((url) => {
    try {
      const file = new URL(url);
      file.pathname += `${scale}${extension}`;
      return [file.href];
    } catch {
      return [];
    }
  });
}

type TileErrorEvent = { error?: unknown; sourceId?: string; tile?: { tileID?: { key?: unknown; canonical?: { x: number; y: number; z: number } } } };

/**
 * MapLibre marks a tile that failed to load as errored and never asks for it again while it
 * stays in view, leaving a hole in the map. This fetches each failed tile again (MapLibre's
 * `refreshTiles`, which only reloads tiles still in view) after `TILE_RETRY.firstDelay` ms,
 * doubling up to `TILE_RETRY.maxDelay`, until it loads or leaves the view. The first failure of
 * each tile is one console warning naming it.
 */
export function retryFailedTiles(map: MapLibreMap, warn: (message: string) => void) {
  const failing = new Map<string, { failures: number; timer: ReturnType<typeof setTimeout> | undefined }>();
  const onData = (event: TileErrorEvent) => {
    const key = event.tile?.tileID?.key;
    if (key !== undefined && (event.tile as { state?: string }).state === 'loaded') {
      const entry = failing.get(`${event.sourceId}/${String(key)}`);
      if (entry) clearTimeout(entry.timer);
      failing.delete(`${event.sourceId}/${String(key)}`);
    }
  };
  map.on('sourcedata', onData);
  return {
    /** Takes a tile's error (true) or leaves the event to the caller (false). */
    handle(event: TileErrorEvent): boolean {
      const sourceId = event.sourceId;
      const tileID = event.tile?.tileID;
      const canonical = tileID?.canonical;
      if (sourceId === undefined || tileID?.key === undefined || !canonical) return false;
      const id = `${sourceId}/${String(tileID.key)}`;
      const entry = failing.get(id) ?? { failures: 0, timer: undefined };
      failing.set(id, entry);
      entry.failures++;
      const delay = Math.min(TILE_RETRY.firstDelay * 2 ** (entry.failures - 1), TILE_RETRY.maxDelay);
      if (entry.failures === 1) warn(`a tile of "${sourceId}" could not be loaded; it is tried again while in view: ${reasonOf(event.error)}`);
      clearTimeout(entry.timer);
      const { x, y, z } = canonical;
      entry.timer = setTimeout(() => {
        entry.timer = undefined;
        // The source may be gone (a new style); then there is nothing to reload.
        if (map.getSource(sourceId)) map.refreshTiles(sourceId, [{ x, y, z }]);
      }, delay);
      return true;
    },
    /** Forgets every failed tile (a new style, or the map removed). */
    stop() {
      for (const entry of failing.values()) clearTimeout(entry.timer);
      failing.clear();
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

/**
 * What resolves once the style has loaded (its sources and layers can be added to); make it
 * right after the map, before its style can have loaded, so the first load is seen. Not
 * `map.isStyleLoaded()`: that is also false while tiles load, long after the style is ready,
 * and waiting for a `style.load` that already fired would wait for ever.
 */
export function styleReadiness(map: MapLibreMap): () => Promise<void> {
  let ready = map.isStyleLoaded() === true;
  const loaded = new Promise<void>((resolve) => {
    map.on('style.load', () => {
      ready = true;
      resolve();
    });
  });
  return () => (ready ? Promise.resolve() : loaded);
}
