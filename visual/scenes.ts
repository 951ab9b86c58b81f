import type { PinmapConfigInput } from '../src/map/config.ts';
import type { Tolerance } from './compare.ts';
import { DEFAULT_APP_CONFIG } from '../src/ui/default-config.ts';

/** A step taken before the capture, as data. */
export type SceneAction =
  | { type: 'click'; selector: string }
  | { type: 'press'; key: string }
  | { type: 'drag'; from: [number, number]; to: [number, number] }
  | { type: 'wheel'; at: [number, number]; deltaY: number }
  /** Answers the driven geolocation (see `drivenGeolocation`) with its position, or fails it with an error code. */
  | { type: 'geolocation'; send: 'position' }
  | { type: 'geolocation'; send: 'error'; code: 1 | 2 | 3 }
  /** Waits until the element's `data-state` says `state`. */
  | { type: 'waitForState'; selector: string; state: string };

/**
 * One screenshot scene: what to open, how big, what to do, what to capture and how strictly to
 * compare. The map is captured once `data-map-state` says `expectState`, the fonts are loaded
 * and two frames have passed.
 */
export interface Scene {
  name: string;
  description: string;
  /** Config served to the app as `?config=<url>`; test settings (no fade, fixed pixel ratio) are added. */
  config?: PinmapConfigInput;
  /** Extra address after the config: `?view=…`, `#map=…`. */
  address?: string;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  /** WebGL off, as on a machine where it cannot start. */
  webgl?: boolean;
  /** Geolocation granted by the browser context, at this position. */
  geolocation?: { longitude: number; latitude: number; accuracy: number };
  /** Geolocation that answers only when an action says so (position 20, 10 ± 700 m). */
  drivenGeolocation?: boolean;
  actions?: SceneAction[];
  /** Which state the map settles in; `idle` unless the scene shows a failure. */
  expectState?: 'idle' | 'error';
  /** The map root (`map`) or the whole page (`page`, for corner and panel scenes). */
  capture: 'map' | 'page';
  tolerance?: Partial<Tolerance>;
}

const desktop = { width: 800, height: 600 };
const narrow = { width: 640, height: 480 };
const small = { width: 480, height: 360 };

/** The basemap scenes show the basemap and its credits (the attribution control), no other control. */
const basemapOnly = { navigation: false, geolocate: false, scale: false, fullscreen: false } as const;
/** Nothing over the map but the pins. */
const noControls = { ...basemapOnly, attribution: false } as const;
/** The scale alone, for its scenes. */
const scaleOnly = { ...basemapOnly, attribution: false, scale: 'bottom-left' } as const;

const geolocateButton = '.pinmap-geolocate button';
const geolocateControl = '.pinmap-geolocate';
const position = { longitude: 20, latitude: 10, accuracy: 700 };
const waitFor = (state: string): SceneAction => ({ type: 'waitForState', selector: geolocateControl, state });

/** A plain backdrop, so pin scenes show the pins and nothing that could move under them. */
const plainStyle = {
  version: 8 as const,
  sources: {},
  layers: [{ id: 'backdrop', type: 'background', paint: { 'background-color': '#e9eef2' } }],
};

/** One pin per option, each varying that option alone from the defaults (PRODUCT.md, "Pin icon"). */
const optionGrid: [string, Record<string, unknown>][] = [
  ['defaults', {}],
  ['iconClasses', { iconClasses: 'fa-solid fa-star' }],
  ['iconColor', { iconClasses: 'fa-solid fa-star', iconColor: '#ffd400' }],
  ['iconSize', { iconClasses: 'fa-solid fa-star', iconSize: 10 }],
  ['iconXOffset', { iconClasses: 'fa-solid fa-star', iconXOffset: 4 }],
  ['iconYOffset', { iconClasses: 'fa-solid fa-star', iconYOffset: -5 }],
  ['markerColor', { markerColor: '#d7263d' }],
  ['markerFillOpacity', { markerFillOpacity: 0 }],
  ['markerStrokeColor', { markerStrokeColor: '#1d2733', markerStrokeWidth: 2 }],
  ['markerStrokeWidth', { markerStrokeWidth: 0 }],
  ['markerPath', { markerPath: 'M4 2 H28 V30 H20 L16 52 L12 30 H4 Z' }],
  ['scale-small', { iconClasses: 'fa-solid fa-star', scale: 0.5 }],
  ['scale-large', { iconClasses: 'fa-solid fa-star', scale: 1.5 }],
  ['label', { label: '12' }],
  ['shadow', { iconClasses: 'fa-solid fa-star', shadow: true }],
  ['fa-v4', { iconClasses: 'fa fa-star' }],
  ['fa-v5', { iconClasses: 'fas fa-star' }],
  ['no-glyph', { iconClasses: 'fa-solid fa-no-such-glyph' }],
];

/** The option grid as pins, 6 to a row, 8° apart around [0, 0]. */
const optionGridPins = {
  type: 'FeatureCollection' as const,
  features: optionGrid.map(([name, pin], i) => ({
    type: 'Feature',
    id: name,
    geometry: { type: 'Point', coordinates: [-20 + (i % 6) * 8, 8 - Math.floor(i / 6) * 9] },
    properties: { title: name, pin },
  })),
};

function pinGridScene(renderer: 'dom' | 'gl', deviceScaleFactor: 1 | 2): Scene {
  return {
    name: `pins-options-${renderer}-${deviceScaleFactor}x`,
    description: `Each pin option varied alone from the defaults, drawn as ${renderer === 'dom' ? 'DOM markers' : 'GPU symbol images'} on a ${deviceScaleFactor}× screen.`,
    config: { style: plainStyle, center: [0, 0], zoom: 3, pins: optionGridPins, domPinLimit: renderer === 'dom' ? 500 : 0, controls: noControls },
    viewport: { width: 560, height: 360 },
    deviceScaleFactor,
    capture: 'map',
  };
}

export const scenes: Scene[] = [
  {
    name: 'basemap-z1',
    description: 'The embedded world basemap at zoom 1: continents, oceans, borders, country labels.',
    config: { center: [10, 20], zoom: 1, controls: basemapOnly },
    viewport: desktop,
    deviceScaleFactor: 1,
    capture: 'map',
  },
  {
    name: 'basemap-z3',
    description: 'Europe and North Africa at zoom 3: borders, coastlines, big-city labels.',
    config: { center: [12, 45], zoom: 3, controls: basemapOnly },
    viewport: desktop,
    deviceScaleFactor: 1,
    capture: 'map',
  },
  {
    name: 'basemap-z5',
    description: 'Central Europe at zoom 5 on a 2× screen: smaller cities appear, labels stay crisp.',
    config: { center: [10, 50], zoom: 5, controls: basemapOnly },
    viewport: { width: 600, height: 450 },
    deviceScaleFactor: 2,
    capture: 'map',
  },
  {
    name: 'basemap-keyboard',
    description: 'Keyboard use of the map: focus it, zoom in with + and pan with the arrow keys.',
    config: { center: [12, 45], zoom: 3, controls: basemapOnly },
    viewport: desktop,
    deviceScaleFactor: 1,
    actions: [
      { type: 'click', selector: 'canvas.maplibregl-canvas' },
      { type: 'press', key: '+' },
      { type: 'press', key: 'ArrowRight' },
      { type: 'press', key: 'ArrowDown' },
    ],
    capture: 'map',
  },
  pinGridScene('dom', 1),
  pinGridScene('dom', 2),
  pinGridScene('gl', 1),
  pinGridScene('gl', 2),
  {
    name: 'pins-default-z2',
    description: 'The default world-city pins over the basemap at zoom 2 (DOM markers, glyph per category).',
    config: { center: [10, 30], zoom: 2, pins: 'pins/cities.geojson' },
    viewport: desktop,
    deviceScaleFactor: 1,
    capture: 'map',
  },
  {
    name: 'pins-default-z5',
    description: 'The default pins over Western Europe at zoom 5.',
    config: { center: [5, 48], zoom: 5, pins: 'pins/cities.geojson' },
    viewport: desktop,
    deviceScaleFactor: 1,
    capture: 'map',
  },
  {
    name: 'pins-popup',
    description: "An open popup: title, description and link, attached at the pin's popupAnchor.",
    config: { center: [2.35, 48.86], zoom: 5, pins: 'pins/cities.geojson' },
    viewport: desktop,
    deviceScaleFactor: 1,
    actions: [{ type: 'click', selector: '.pinmap-pin[data-pin-id="paris-fr"]' }],
    capture: 'map',
  },
  {
    name: 'pins-clusters',
    description: 'The default pins as a GPU layer with clusters: bubbles with counts, single pins beside them.',
    config: { center: [10, 30], zoom: 2, pins: 'pins/cities.geojson', domPinLimit: 0 },
    viewport: desktop,
    deviceScaleFactor: 1,
    capture: 'map',
  },
  ...preTiledPinScenes(),
  {
    name: 'controls-desktop',
    description: 'Every control in its default corner at 800 px: fullscreen, zoom and compass, geolocation, metric scale, full attribution.',
    config: { center: [12, 45], zoom: 3 },
    viewport: desktop,
    deviceScaleFactor: 1,
    capture: 'page',
  },
  {
    name: 'controls-narrow',
    description: 'The corners at 640 px wide: the attribution turns compact and shows itself expanded at first.',
    config: { center: [12, 45], zoom: 3 },
    viewport: narrow,
    deviceScaleFactor: 1,
    actions: [{ type: 'waitForState', selector: '.pinmap-attrib', state: 'compact.expanded' }],
    capture: 'page',
  },
  {
    name: 'controls-rotated-2x',
    description: 'Controls on a 2× screen with the map rotated 30°: the compass needle shows the bearing.',
    config: { center: [12, 45], zoom: 3, bearing: 30 },
    viewport: small,
    deviceScaleFactor: 2,
    capture: 'page',
  },
  {
    name: 'controls-focus-ring',
    description: 'Keyboard focus on the zoom-in button (Tab from the map): the focus ring.',
    config: { center: [12, 45], zoom: 3 },
    viewport: small,
    deviceScaleFactor: 1,
    actions: [
      { type: 'click', selector: 'canvas.maplibregl-canvas' },
      { type: 'press', key: 'Tab' },
      { type: 'press', key: 'Tab' },
    ],
    capture: 'page',
  },
  {
    name: 'attribution-compact-collapsed',
    description: 'At 640 px, after the first drag: the compact attribution collapses to its ⓘ button.',
    config: { center: [12, 45], zoom: 3 },
    viewport: narrow,
    deviceScaleFactor: 1,
    actions: [
      { type: 'drag', from: [320, 240], to: [300, 220] },
      { type: 'waitForState', selector: '.pinmap-attrib', state: 'compact.collapsed' },
    ],
    capture: 'page',
  },
  ...(['metric', 'imperial', 'nautical'] as const).map(
    (units): Scene => ({
      name: `scale-${units}`,
      description: `The scale in ${units} units at zoom 5.5 over latitude 45.`,
      config: { center: [12, 45], zoom: 5.5, units, controls: scaleOnly },
      viewport: small,
      deviceScaleFactor: 1,
      capture: 'page',
    }),
  ),
  {
    name: 'geolocate-waiting',
    description: 'Geolocation WAITING_ACTIVE: asked, no answer yet (no spinning under reduced motion).',
    config: { center: [20, 10], zoom: 4 },
    viewport: small,
    deviceScaleFactor: 1,
    drivenGeolocation: true,
    actions: [{ type: 'click', selector: geolocateButton }, waitFor('WAITING_ACTIVE')],
    capture: 'page',
  },
  {
    name: 'geolocate-active-lock',
    description: 'Geolocation ACTIVE_LOCK: the camera fits the 700 m accuracy circle around the blue dot.',
    config: { center: [0, 40], zoom: 3 },
    viewport: small,
    deviceScaleFactor: 1,
    geolocation: position,
    actions: [{ type: 'click', selector: geolocateButton }, waitFor('ACTIVE_LOCK')],
    capture: 'page',
  },
  {
    name: 'geolocate-background',
    description: 'Geolocation BACKGROUND: the user dragged the map away; the dot stays, the button shows it no longer follows.',
    config: { center: [0, 40], zoom: 3 },
    viewport: small,
    deviceScaleFactor: 1,
    geolocation: position,
    actions: [{ type: 'click', selector: geolocateButton }, waitFor('ACTIVE_LOCK'), { type: 'drag', from: [240, 180], to: [180, 140] }, waitFor('BACKGROUND')],
    capture: 'page',
  },
  {
    name: 'geolocate-active-error',
    description: 'Geolocation ACTIVE_ERROR: a position, then error 2; the dot turns grey, the button red.',
    config: { center: [0, 40], zoom: 3 },
    viewport: small,
    deviceScaleFactor: 1,
    drivenGeolocation: true,
    actions: [
      { type: 'click', selector: geolocateButton },
      { type: 'geolocation', send: 'position' },
      waitFor('ACTIVE_LOCK'),
      { type: 'geolocation', send: 'error', code: 2 },
      waitFor('ACTIVE_ERROR'),
    ],
    capture: 'page',
  },
  {
    name: 'geolocate-background-error',
    description: 'Geolocation BACKGROUND_ERROR: dragged away, then error 3 (timeout).',
    config: { center: [0, 40], zoom: 3 },
    viewport: small,
    deviceScaleFactor: 1,
    drivenGeolocation: true,
    actions: [
      { type: 'click', selector: geolocateButton },
      { type: 'geolocation', send: 'position' },
      waitFor('ACTIVE_LOCK'),
      { type: 'drag', from: [240, 180], to: [180, 140] },
      waitFor('BACKGROUND'),
      { type: 'geolocation', send: 'error', code: 3 },
      waitFor('BACKGROUND_ERROR'),
    ],
    capture: 'page',
  },
  {
    name: 'geolocate-unavailable',
    description: "Geolocation UNAVAILABLE: permission denied (error 1); the button is disabled ('Location not available').",
    config: { center: [20, 10], zoom: 4 },
    viewport: small,
    deviceScaleFactor: 1,
    drivenGeolocation: true,
    actions: [{ type: 'click', selector: geolocateButton }, { type: 'geolocation', send: 'error', code: 1 }, waitFor('UNAVAILABLE')],
    capture: 'page',
  },
  {
    name: 'geolocate-one-shot',
    description: 'Geolocation ONE_SHOT (tracking off): one request pending.',
    config: { center: [20, 10], zoom: 4, trackUserLocation: false },
    viewport: small,
    deviceScaleFactor: 1,
    drivenGeolocation: true,
    actions: [{ type: 'click', selector: geolocateButton }, waitFor('ONE_SHOT')],
    capture: 'page',
  },
  ...hybridScenes(),
  {
    name: 'webgl-failed',
    description: "The page on a machine where WebGL cannot start: the 'Failed to initialize WebGL' panel.",
    viewport: desktop,
    deviceScaleFactor: 1,
    webgl: false,
    expectState: 'error',
    capture: 'page',
  },
];

/** The app's own hybrid view: the vector map in Leaflet, the hatch overlay over it, the pins. */
function hybridScenes(): Scene[] {
  const hybrid = (center: [number, number], zoom: number): PinmapConfigInput => ({ ...DEFAULT_APP_CONFIG, view: 'hybrid', center, zoom });
  const base = { viewport: desktop, deviceScaleFactor: 1, capture: 'page' as const };
  return [
    {
      ...base,
      name: 'hybrid-z2',
      description: 'The hybrid view at zoom 2: the basemap as a Leaflet layer, the hatch raster overlay on land, Leaflet pins and bubbles, the view switch, the compass disabled.',
      config: hybrid([10, 30], 2),
    },
    {
      ...base,
      name: 'hybrid-z5',
      description: "The hybrid view over the Alps at zoom 5: the hatch (tiles scaled up beyond their zoom 5) meets the vector coastlines.",
      config: hybrid([10, 45], 5),
    },
    {
      ...base,
      name: 'hybrid-pan',
      description: 'The hybrid view at zoom 4 after a drag of 200 px to the left and 100 px up: tiles, vector map and pins moved together.',
      config: hybrid([10, 45], 4),
      actions: [{ type: 'drag', from: [500, 400], to: [300, 300] }],
    },
    {
      ...base,
      name: 'hybrid-zoom',
      description: 'The hybrid view after the zoom-in button, from zoom 3 to 4 over Italy.',
      config: hybrid([12, 42], 3),
      actions: [
        { type: 'click', selector: '.pinmap-zoom-in' },
        { type: 'waitForState', selector: '.pinmap-navigation', state: 'idle' },
      ],
    },
    {
      ...base,
      name: 'hybrid-popup',
      description: "The hybrid view with Paris's popup open: the same content as in the vector view, on a Leaflet popup.",
      config: hybrid([2.35, 48.86], 5),
      actions: [{ type: 'click', selector: '.pinmap-pin[data-pin-id="paris-fr"]' }],
    },
    {
      ...base,
      name: 'hybrid-webgl-failed',
      description: "The hybrid view where WebGL cannot start: Leaflet with the hatch overlay and the pins, and the 'Failed to initialize WebGL' notice.",
      config: hybrid([10, 45], 4),
      webgl: false,
    },
  ];
}

/**
 * The default pins as a pre-tiled archive (`fixtures/pins/cities.pmtiles`, made by
 * `npm run tile-pins`) at three zooms: the same pixels as the same pins inline as GPU pins
 * (`tests/pin-archive.spec.ts` compares the two).
 */
function preTiledPinScenes(): Scene[] {
  const views: [string, [number, number], number][] = [
    ['pretiled-pins-z1', [10, 30], 1],
    ['pretiled-pins-z3', [10, 48], 3],
    ['pretiled-pins-z5', [4, 48], 5],
  ];
  return views.map(([name, center, zoom]) => ({
    name,
    description: `The default pins from their pre-tiled archive (pins: "pmtiles://pins/cities.pmtiles") at zoom ${zoom}: bubbles with counts and pins, as the inline GPU pins draw them.`,
    config: { center, zoom, pins: 'pmtiles://pins/cities.pmtiles', controls: noControls },
    viewport: desktop,
    deviceScaleFactor: 1,
    capture: 'map' as const,
  }));
}
