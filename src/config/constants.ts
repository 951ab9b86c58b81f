/**
 * The product's constants (PRODUCT.md, "Map options and limits"). Everything that needs one of
 * these numbers imports it from here, so the spec and the code say the same thing once.
 */
export const LIMITS = {
  /** Lowest zoom a site may allow. */
  minZoom: -2,
  /** Highest zoom a site may allow. */
  maxZoom: 22,
  /** Lowest pitch in degrees. */
  minPitch: 0,
  /** Highest pitch in degrees. */
  maxPitch: 60,
} as const;

/**
 * Defaults of the options this code has so far; the constants of controls, pins and popups join
 * here with the code that uses them.
 */
export const DEFAULTS = {
  /** A rotation that ends within this many degrees of north snaps to north. */
  bearingSnap: 7,
  /** Pixels a pointer may move and still count as a click. */
  clickTolerance: 3,
  /** Symbol fade-in, in milliseconds. */
  fadeDuration: 300,
  /** Initial camera when neither config nor address names one. */
  center: [0, 20] as [number, number],
  zoom: 1,
  /**
   * Pin sets up to this many pins are DOM elements (focusable, read by screen readers); larger
   * sets are drawn on the GPU as a clustered symbol layer.
   */
  domPinLimit: 500,
  /** Above this, DOM markers make panning stutter; config may not ask for more. */
  domPinLimitMax: 2000,
  /** How long, in ms, a moved pin glides to its new place (config `pinTransition`). */
  pinTransition: 300,
  /** The longest glide config may ask for, in ms. */
  pinTransitionMax: 5000,
  /** The shortest and longest time, in seconds, between two reads of a pin URL (config `pinsRefresh`). */
  pinsRefreshMin: 1,
  pinsRefreshMax: 86_400,
  /** Popups are at most this wide (CSS). */
  popupMaxWidth: '240px',
  /** Hybrid view: how often, in ms, the vector layer follows the Leaflet map while panning. */
  vectorLayerUpdateInterval: 32,
  /** Hybrid view: extra area drawn around the view, as a share of its size. */
  vectorLayerPadding: 0.1,
  /**
   * How long, in ms, the style document may take to arrive: a server that does not answer in
   * time is a style that could not be loaded (the error panel, with Retry), not a blank map.
   */
  styleTimeout: 8000,
  /**
   * How long, in ms, a pin file (or the app's `?config=`) may take to start arriving, and may then
   * stall: a server that does not answer in time is a notice with Retry, not a map loading for ever.
   */
  pinsTimeout: 10_000,
  /**
   * The most bytes a pin file may have once decompressed (counted as it arrives): 100k pins of
   * GeoJSON are about 25 MB; a file that inflates without end stops here.
   */
  maxPinBytes: 200_000_000,
} as const;

/**
 * A tile that fails to load (a server error, the network gone) is fetched again while it is in
 * view: first after `firstDelay` ms, then after twice as long each time, at most `maxDelay` ms
 * apart. A vector tile the server says does not exist (404) is not asked for again; a raster
 * tile cannot tell (an image that fails says nothing of why), so it is asked for again at most
 * `rasterRetries` times, not for ever.
 */
export const TILE_RETRY = {
  firstDelay: 1000,
  maxDelay: 8000,
  rasterRetries: 5,
} as const;

/** Room kept around a fitted box, in px: more above, where the pins stand up from their points (52 px). */
export interface FitPadding {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/**
 * How the camera opens on the pins (config `fitPins`) and the pin list's "Show all pins" fits
 * them: no further in than `maxZoom` (a single pin, or pins in one street, show their
 * surroundings), with `padding` around them (less on a small map: at most `paddingShare` of its
 * width or height on each side).
 */
export const FIT_PINS = {
  maxZoom: 14,
  padding: { top: 64, right: 32, bottom: 24, left: 32 } satisfies FitPadding,
  paddingShare: 0.2,
} as const;

/** Where the app serves its embedded offline basemap, relative to the page. */
export const EMBEDDED_STYLE_PATH = 'basemap/style.json';
/** The embedded basemap's dark look, beside it (same sources, layers and fonts; other colours). */
export const EMBEDDED_DARK_STYLE_PATH = 'basemap/style-dark.json';
/**
 * The Protomaps light and dark styles beside the embedded basemap (`@protomaps/basemaps`' layers
 * on the embedded Noto Sans faces, a sprite): config `streets` shows its archive in them.
 */
export const STREETS_STYLE_PATHS = { light: 'protomaps/style-light.json', dark: 'protomaps/style-dark.json' } as const;
/**
 * The zoom past the embedded basemap's detail (its coasts end at zoom 7 and its village names by
 * 9, and it has no streets): from here on the map says once that a street map style shows more
 * (locale `Basemap.NoStreets`).
 */
export const EMBEDDED_BASEMAP_DETAIL_ZOOM = 11;

/**
 * Pixels (at MapLibre's 512 px tiles) within which pins merge into a cluster, and the last zoom
 * at which any do (above it every pin stands alone); the DOM and the GPU pins, in both views, and
 * the pin tiler group alike. The radius is where a bubble starts; the grouping then merges any two
 * groups whose drawn discs would overlap (`groupDiscRadius` in src/pins/bubble.ts), so bubbles
 * never hide each other. It must be at least two lone pins' discs (`CLUSTER_RADIUS` ≥ 2 ×
 * `groupDiscRadius(1)`): two lone pins are always further apart than the radius.
 */
export const CLUSTER_RADIUS = 40;
export const CLUSTER_MAX_ZOOM = 18;

/**
 * A large pin set is grouped a few zooms at a time, each range on its own and only when a view
 * needs it, so the first view's bubbles do not wait for every zoom's (100k pins: about 0.1 s for
 * zooms 0–4 against over 1 s for all 19 in one go). Within a range, a bubble splits into the
 * bubbles of the next zoom; across two ranges the pins are grouped afresh. Sets of up to
 * `fromPins` pins are grouped at every zoom at once.
 */
export const CLUSTER_TIERS = {
  fromPins: 10_000,
  zooms: [
    [0, 4],
    [5, 6],
    [7, 8],
    [9, 10],
    [11, 12],
    [13, 14],
    [15, 16],
    [17, 18],
  ] as const satisfies readonly (readonly [number, number])[],
};
