import type { PinmapConfigInput } from '../src/config/schema.ts';
import type { Tolerance } from './compare.ts';
import { readFileSync } from 'node:fs';
import { DEFAULT_APP_CONFIG } from '../src/ui/default-config.ts';
import { pinmapLocaleDe } from '../src/config/locales/de.ts';
import { cityLngLats } from '../src/testing/pin-features.testing.ts';

/** A step taken before the capture, as data. */
export type SceneAction =
  | { type: 'click'; selector: string }
  | { type: 'press'; key: string }
  /** Types the text one key at a time into what has focus. */
  | { type: 'type'; text: string }
  | { type: 'drag'; from: [number, number]; to: [number, number] }
  | { type: 'wheel'; at: [number, number]; deltaY: number }
  /** Answers the driven geolocation (see `drivenGeolocation`) with its position, or fails it with an error code. */
  | { type: 'geolocation'; send: 'position' }
  | { type: 'geolocation'; send: 'error'; code: 1 | 2 | 3 }
  /** Waits until the element's `data-state` says `state`. */
  | { type: 'waitForState'; selector: string; state: string }
  /** Waits until an element is shown. */
  | { type: 'waitForSelector'; selector: string }
  /** A click at a point of the page (a GPU pin has no element to click). */
  | { type: 'clickAt'; at: [number, number] };

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
  /**
   * For what only React renders (`renderPopup`, `renderPin`): the props of the React test page
   * (`tests/pages/react-api.tsx`, on the development server) in place of the app and `config`;
   * the test settings are added to their `config`.
   */
  react?: { config: PinmapConfigInput } & Record<string, unknown>;
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
  /**
   * Pins moved by one event of the pin stream (config `pinsStream`), captured `at` ms into their
   * glide (`pinTransition`) on Playwright's clock, with motion not reduced: the event is answered
   * once the map is idle and its clock stopped on a frame's edge, so the frame is the same run
   * after run. The event adds the pin `added` too: its marker says the update is on the map.
   */
  glide?: { event: { add: unknown[]; update: unknown[] }; added: string; at: number };
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

/** A pin of the glide scenes: [id, longitude, latitude]. */
const glidePin = ([id, lng, lat]: [string, number, number]) => ({ type: 'Feature' as const, id, geometry: { type: 'Point' as const, coordinates: [lng, lat] }, properties: { title: `Bus ${id}` } });

/**
 * Pins that move, half-way through their glide, in both views: three of five pins moved by a
 * stream event (a north-east, b east, c south), one added, two still.
 */
function glideScenes(): Scene[] {
  const pins = { type: 'FeatureCollection' as const, features: [['a', 2, 46], ['b', 3, 44], ['c', 8, 46.5], ['d', 4.5, 45], ['still', 7.5, 47.5]].map((pin) => glidePin(pin as [string, number, number])) };
  const event = { add: [glidePin(['new', 3.5, 47.6])], update: [glidePin(['a', 5, 47]), glidePin(['b', 6.5, 44.5]), glidePin(['c', 8, 44.8])] };
  const what = 'Pins moved by a pinsStream event, 512 ms into their 1024 ms glide on a stopped clock: a, b and c between their old and new places (eased: seven eighths of the way), the added pin "new" in place, d and "still" where they were';
  return (['vector', 'hybrid'] as const).map((view) => ({
    name: view === 'vector' ? 'pins-glide-half-way' : 'pins-glide-half-way-hybrid',
    description: `${what}; ${view} view.`,
    config: { view, style: plainStyle, center: [5, 46], zoom: 5, pins, pinTransition: 1024, pinsTimeout: 600_000, controls: { ...noControls, view: false } },
    viewport: small,
    deviceScaleFactor: 1,
    glide: { event, added: 'new', at: 512 },
    capture: 'map',
  }));
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
  ...cityZoomScenes(),
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
  ...glideScenes(),
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
    name: 'pins-fan-out',
    description: 'Six flats of one house (one coordinate) fanned out after a click on the stack, at zoom 19 where no pin is in a bubble: a leg from the spot to each pin on a circle, the other pins faded.',
    config: {
      style: plainStyle,
      center: [10, 50],
      zoom: 19,
      controls: noControls,
      pins: {
        type: 'FeatureCollection',
        features: [
          ...Array.from({ length: 6 }, (_, i) => ({ type: 'Feature' as const, id: `flat-${i + 1}`, geometry: { type: 'Point' as const, coordinates: [10, 50] }, properties: { title: `Flat ${i + 1}` } })),
          { type: 'Feature' as const, id: 'house', geometry: { type: 'Point' as const, coordinates: [10.0001, 50.000025] }, properties: { title: 'House' } },
        ],
      },
    },
    viewport: small,
    deviceScaleFactor: 1,
    actions: [{ type: 'clickAt', at: [240, 150] }, { type: 'waitForSelector', selector: '.pinmap-fan-pin' }],
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
    // The zoom buttons' corner comes first after the map (README, "Keyboard").
    actions: [
      { type: 'click', selector: 'canvas.maplibregl-canvas' },
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
  ...pinPanelScenes(),
  ...labelScenes(),
  ...darkScenes(),
  ...rtlScenes(),
  ...keyboardScenes(),
  ...cityBubbleScenes(),
  ...reactScenes(),
  {
    name: 'webgl-failed',
    description: "The page on a machine where WebGL cannot start: the 'Failed to initialize WebGL' panel.",
    viewport: desktop,
    deviceScaleFactor: 1,
    webgl: false,
    expectState: 'error',
    capture: 'page',
  },
  ...protomapsScenes(),
];

/**
 * A Protomaps basemap brought by the site owner: `@protomaps/basemaps` layers (light and dark
 * flavours) over a PMTiles extract in the Protomaps schema (the fixture in fixtures/protomaps).
 */
function protomapsScenes(): Scene[] {
  return (['light', 'dark'] as const).map((flavor) => ({
    name: `protomaps-${flavor}`,
    description: `The Protomaps "${flavor}" basemap over Europe at zoom 3, from one PMTiles archive: earth, ocean, dashed borders, country names and cities with their icons, offline fonts.`,
    config: { style: `protomaps/style-${flavor}.json`, center: [12, 48], zoom: 3, controls: basemapOnly },
    viewport: desktop,
    deviceScaleFactor: 1,
    capture: 'map' as const,
  }));
}

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
 * Pins over the basemap's labels: a pin on Brussels, a bubble of four pins on Paris and a pin at
 * sea. Brussels' and Paris' labels, which would sit under them, are left out; the other places
 * (Antwerp, Rotterdam, Amsterdam, Lille…) keep their labels.
 */
function labelPins() {
  return {
  type: 'FeatureCollection' as const,
  features: [
    ['brussels', 4.3488, 50.8505],
    ['paris-1', 2.35, 48.86],
    ['paris-2', 2.3, 48.84],
    ['paris-3', 2.4, 48.88],
    ['paris-4', 2.33, 48.9],
    ['north-sea', 3.0, 53.5],
  ].map(([id, lng, lat]) => ({ type: 'Feature', id, geometry: { type: 'Point', coordinates: [lng, lat] }, properties: { title: id } })),
  };
}

function labelScenes(): Scene[] {
  const config = (renderer: 'dom' | 'gl', extra: PinmapConfigInput = {}): PinmapConfigInput => ({
    center: [3.3, 50.3],
    zoom: 5,
    pins: labelPins(),
    domPinLimit: renderer === 'dom' ? 500 : 0,
    controls: noControls,
    ...extra,
  });
  const what = 'A pin on Brussels, a bubble of four pins on Paris and a pin at sea: the labels of Brussels and Paris, under them, are left out; every other label keeps its place.';
  return [
    { name: 'labels-under-pins-gl-1x', description: `${what} GPU pins, vector view.`, config: config('gl'), viewport: small, deviceScaleFactor: 1, capture: 'map' },
    { name: 'labels-under-pins-gl-2x', description: `${what} GPU pins, vector view, 2× screen.`, config: config('gl'), viewport: small, deviceScaleFactor: 2, capture: 'map' },
    { name: 'labels-under-pins-dom-1x', description: `${what} DOM pins, vector view.`, config: config('dom'), viewport: small, deviceScaleFactor: 1, capture: 'map' },
    { name: 'labels-under-pins-dom-2x', description: `${what} DOM pins, vector view, 2× screen.`, config: config('dom'), viewport: small, deviceScaleFactor: 2, capture: 'map' },
    { name: 'labels-under-pins-hybrid-1x', description: `${what} Leaflet pins, hybrid view.`, config: config('dom', { view: 'hybrid' }), viewport: small, deviceScaleFactor: 1, capture: 'map' },
    { name: 'labels-under-pins-dark-narrow', description: `${what} GPU pins, dark theme, narrow.`, config: config('gl', { theme: 'dark' }), viewport: { width: 360, height: 360 }, deviceScaleFactor: 1, capture: 'map' },
  ];
}

/**
 * The embedded basemap past its world zooms, light and dark: the Dutch coast at zoom 8 (1:10m
 * coasts, towns between the cities, the default pins over their names) and Haarlem at zoom 12
 * (the town and the villages around it, the coast; the no-streets note has faded).
 */
function cityZoomScenes(): Scene[] {
  const places = [
    { at: 'z8', center: [5, 52.2] as [number, number], zoom: 8, pins: 'pins/cities.geojson', what: 'The Dutch coast at zoom 8: the 1:10m coastline, towns thinned so their names keep apart, the default pins over the city names' },
    { at: 'z12', center: [4.6, 52.375] as [number, number], zoom: 12, what: 'Haarlem at zoom 12: the town, Zandvoort and the villages around it, the coast' },
  ];
  return places.flatMap(({ at, center, zoom, pins, what }) =>
    (['light', 'dark'] as const).map((theme): Scene => ({
      name: `${theme === 'dark' ? 'dark-' : ''}basemap-${at}`,
      description: `${what}${theme === 'dark' ? ', in the dark look' : ''}.`,
      config: { theme, center, zoom, controls: basemapOnly, ...(pins ? { pins } : {}) },
      viewport: desktop,
      deviceScaleFactor: 1,
      capture: 'map',
    })),
  );
}

/**
 * What an app renders with React, light and dark (on the React test page): a popup of its own
 * (`renderPopup`: a heading, the hours, a link and buttons) and price tags in place of a few of
 * many GPU pins (`renderPin`, `highlightedPins`).
 */
function reactScenes(): Scene[] {
  const stores = {
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', id: 'paris', geometry: { type: 'Point', coordinates: [2.35, 48.86] }, properties: { title: 'Paris', category: 'capital', hours: '9:00–19:00' } },
      { type: 'Feature', id: 'lyon', geometry: { type: 'Point', coordinates: [4.84, 45.76] }, properties: { title: 'Lyon', category: 'city', hours: '10:00–18:00' } },
      { type: 'Feature', id: 'nice', geometry: { type: 'Point', coordinates: [7.27, 43.7] }, properties: { title: 'Nice', category: 'city', hours: '8:30–20:00' } },
    ],
  };
  const flats = {
    type: 'FeatureCollection',
    // A 5 × 4 grid, each pin nudged off it, far enough apart at zoom 6 to stand alone but for one pair.
    features: Array.from({ length: 20 }, (_, i) => {
      const coordinates = [2.4 + (i % 5) * 1.05 + ((i * 7) % 5) * 0.08, 45.5 + Math.floor(i / 5) * 0.62 + ((i * 3) % 4) * 0.05];
      return { type: 'Feature', id: `flat-${String(i)}`, geometry: { type: 'Point', coordinates }, properties: { title: `Flat ${String(i)}`, price: String(600 + ((i * 137) % 900)) } };
    }).concat([{ type: 'Feature', id: 'flat-20', geometry: { type: 'Point', coordinates: [4.62, 46.14] }, properties: { title: 'Flat 20', price: '750' } }]),
  };
  // The plain backdrop, dark in the dark theme.
  const darkStyle = { ...plainStyle, layers: [{ id: 'backdrop', type: 'background' as const, paint: { 'background-color': '#1f2933' } }] };
  return (['light', 'dark'] as const).flatMap((theme): Scene[] => {
    const prefix = theme === 'dark' ? 'dark-' : '';
    return [
      {
        name: `${prefix}react-popup`,
        description: `A popup of the app's own (renderPopup): the store's name as a heading, its hours, a link and two buttons, in the popup's frame over Lyon's pin, ${theme} theme, vector view.`,
        react: { store: true, initialViewState: { longitude: 4, latitude: 47, zoom: 4.5 }, pins: stores, config: { style: plainStyle, darkStyle, theme, popupFields: ['hours'], controls: noControls } },
        actions: [
          { type: 'click', selector: '.pinmap-pin[data-pin-id="lyon"]' },
          { type: 'waitForSelector', selector: '.store-card' },
        ],
        viewport: small,
        deviceScaleFactor: 1,
        capture: 'map',
      },
      {
        name: `${prefix}react-price-tags`,
        description: `Price tags of the app's own (renderPin) for four of 21 GPU pins: three stand on their pins' places in place of the pins, the fourth is in the bubble of two and stays in it; the other pins as ever, ${theme} theme, vector view.`,
        react: {
          priceTags: true,
          highlightedPins: ['flat-0', 'flat-3', 'flat-7', 'flat-12'],
          initialViewState: { longitude: 4.5, latitude: 46.5, zoom: 6 },
          pins: flats,
          config: { style: plainStyle, darkStyle, theme, domPinLimit: 0, popupFields: ['price'], controls: noControls },
        },
        viewport: small,
        deviceScaleFactor: 1,
        capture: 'map',
      },
    ];
  });
}

/** The dark theme: the embedded basemap's dark look, the controls, a popup, in both views. */
function darkScenes(): Scene[] {
  const app = (extra: PinmapConfigInput): PinmapConfigInput => ({ ...DEFAULT_APP_CONFIG, theme: 'dark', center: [2.35, 48.86], zoom: 5, ...extra });
  const openParis: SceneAction[] = [{ type: 'click', selector: '.pinmap-pin[data-pin-id="paris-fr"]' }];
  return [
    {
      name: 'dark-basemap-z3',
      description: "The embedded basemap's dark look at zoom 3 over Europe: dark land and water, light labels on dark halos.",
      config: { theme: 'dark', center: [10, 48], zoom: 3, controls: basemapOnly },
      viewport: desktop,
      deviceScaleFactor: 1,
      capture: 'map',
    },
    {
      name: 'dark-controls-popup-desktop',
      description: "The dark theme with every control (the view switch too) and Paris's popup open, vector view, wide.",
      config: app({ controls: { view: 'top-left' } }),
      actions: openParis,
      viewport: desktop,
      deviceScaleFactor: 1,
      capture: 'page',
    },
    {
      name: 'dark-controls-popup-narrow-2x',
      description: "The dark theme on a narrow 2× screen: compact attribution, every control, Paris's popup, vector view.",
      config: app({}),
      actions: openParis,
      viewport: narrow,
      deviceScaleFactor: 2,
      capture: 'page',
    },
    {
      name: 'locale-de-dark-controls',
      description: "The German locale in the dark theme: the view switch reads Karte | Hybrid, Paris's popup open, the compact attribution expanded, vector view, small screen.",
      config: app({ locale: pinmapLocaleDe }),
      actions: openParis,
      viewport: small,
      deviceScaleFactor: 1,
      capture: 'page',
    },
    {
      name: 'dark-error-panels',
      description: "The dark theme's error panel and pin notice: WebGL cannot start ('Failed to initialize WebGL'), and a pin without coordinates was skipped (the notice with its count).",
      config: {
        theme: 'dark',
        pins: {
          type: 'FeatureCollection',
          features: [
            { type: 'Feature', id: 'good', geometry: { type: 'Point', coordinates: [0, 0] }, properties: { title: 'Good' } },
            { type: 'Feature', id: 'bad', geometry: null, properties: { title: 'Bad' } },
          ],
        },
      },
      viewport: narrow,
      deviceScaleFactor: 1,
      webgl: false,
      expectState: 'error',
      // The map's error can come before the pins are read: the notice is waited for.
      actions: [{ type: 'waitForSelector', selector: '.pinmap-notice' }],
      capture: 'page',
    },
    {
      name: 'dark-config-error',
      description: 'A config with errors that asks for the dark theme: the error panel, dark, naming each option.',
      config: { theme: 'dark', zoom: 'far', controls: { compass: 'top-left' } } as unknown as PinmapConfigInput,
      viewport: small,
      deviceScaleFactor: 1,
      expectState: 'error',
      capture: 'page',
    },
    {
      name: 'dark-hybrid-popup',
      description: "The dark theme in the hybrid view: the vector layer's dark look under the hatch overlay, Leaflet's popup of Paris dark, the controls.",
      config: app({ view: 'hybrid' }),
      actions: openParis,
      viewport: desktop,
      deviceScaleFactor: 1,
      capture: 'page',
    },
  ];
}

/**
 * The embedded basemap with labels in Arabic and Hebrew on top, as a style object: its URLs point
 * into the app's basemap folder. Right-to-left names, joined Arabic letters, and names that mix
 * scripts.
 */
function rtlStyle(): { version: 8; sources: Record<string, unknown>; layers: unknown[]; [key: string]: unknown } {
  const basemap = JSON.parse(readFileSync('fixtures/basemap/style.json', 'utf8')) as {
    version: 8;
    sources: { basemap: { tiles: string[] } };
    'font-faces': Record<string, { url: string }[]>;
    layers: { type: string }[];
  };
  const fontFaces = Object.fromEntries(Object.entries(basemap['font-faces']).map(([name, faces]) => [name, faces.map((face) => ({ ...face, url: `basemap/${face.url}` }))]));
  const names: [string, number, number][] = [
    ['القاهرة', 31.24, 30.04],
    ['الإسكندرية', 29.92, 31.2],
    ['ירושלים', 35.21, 31.77],
    ['תל אביב-יפו', 34.78, 32.08],
    ['عمّان', 35.93, 31.95],
    ['Port Said بورسعيد', 32.3, 31.26],
  ];
  return {
    ...basemap,
    sources: {
      // The embedded style's tile URLs are relative to it (`pmtiles://basemap.pmtiles/…`); this style is the page's.
      basemap: { ...basemap.sources.basemap, tiles: basemap.sources.basemap.tiles.map((url) => url.replace(/^(pmtiles:\/\/)?/, '$1basemap/')) },
      names: {
        type: 'geojson',
        data: {
          type: 'FeatureCollection',
          features: names.map(([name, lng, lat]) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [lng, lat] }, properties: { name } })),
        },
      },
    },
    'font-faces': fontFaces,
    // The basemap without its own place labels, and the names above it.
    layers: [
      ...basemap.layers.filter((layer) => layer.type !== 'symbol'),
      {
        id: 'rtl-names',
        type: 'symbol',
        source: 'names',
        layout: { 'text-field': ['get', 'name'], 'text-font': ['Noto Sans Regular'], 'text-size': 15, 'text-anchor': 'top' },
        paint: { 'text-color': '#1f1f24', 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 },
      },
    ],
  };
}

/** A pin named in Arabic among GPU pins, its popup open, over the basemap with Arabic and Hebrew labels. */
function rtlScenes(): Scene[] {
  const pins = {
    type: 'FeatureCollection' as const,
    features: [
      { type: 'Feature', id: 'canal', geometry: { type: 'Point', coordinates: [32.5, 29.95] }, properties: { title: 'قناة السويس', description: 'ممر مائي يصل البحر المتوسط بالبحر الأحمر' } },
      { type: 'Feature', id: 'museum', geometry: { type: 'Point', coordinates: [34.2, 30.6] }, properties: { title: 'מוזיאון ישראל', description: 'מוזיאון בירושלים' } },
      { type: 'Feature', id: 'port', geometry: { type: 'Point', coordinates: [34.3, 29.0] }, properties: { title: 'Port' } },
    ],
  };
  const config = (theme: 'light' | 'dark'): PinmapConfigInput => ({
    style: rtlStyle(),
    theme,
    // The canal's pin at the centre of the map, where the scene clicks its head.
    center: [32.5, 29.95],
    zoom: 5.3,
    pins,
    domPinLimit: 0,
    controls: noControls,
  });
  const actions: SceneAction[] = [
    { type: 'clickAt', at: [small.width / 2, small.height / 2 - 30] },
    { type: 'waitForSelector', selector: '.pinmap-popup[data-pin-id="canal"]' },
  ];
  const what = 'Arabic and Hebrew labels drawn by MapLibre (joined letters, right to left, mixed with Latin), and a GPU pin named in Arabic with its popup open (right-aligned), over a site style of its own';
  return [
    { name: 'rtl-labels-popup-1x', description: `${what}.`, config: config('light'), actions, viewport: small, deviceScaleFactor: 1, capture: 'map' },
    { name: 'rtl-labels-popup-dark-2x', description: `${what}; dark theme (the site's style keeps its look, the popup is dark), 2× screen.`, config: config('dark'), actions, viewport: small, deviceScaleFactor: 2, capture: 'map' },
  ];
}

/**
 * The pin panels (the list of the pins in view, the legend with a category hidden, the search
 * with results), wide (800 × 600) and narrow (375 px, a phone), 1× and 2×, in both views.
 */
function pinPanelScenes(): Scene[] {
  const panels = { list: true, legend: true, search: true } as const;
  const vector = (center: [number, number], zoom: number, extra: PinmapConfigInput = {}): PinmapConfigInput => ({ center, zoom, pins: 'pins/cities.geojson', controls: panels, ...extra });
  const hybrid = (center: [number, number], zoom: number): PinmapConfigInput => ({ ...DEFAULT_APP_CONFIG, view: 'hybrid', center, zoom, controls: panels });
  const phone = { width: 375, height: 667 };
  const openList: SceneAction = { type: 'click', selector: '.pinmap-list-button' };
  const search = (text: string): SceneAction[] => [
    { type: 'click', selector: '.pinmap-search-input' },
    { type: 'type', text },
    { type: 'press', key: 'ArrowDown' },
  ];
  return [
    {
      name: 'panels-list-vector-wide',
      description: 'The list of the pins in view over Western Europe (vector view, 800 px): count, entries by title with category and first line, beside the open legend.',
      config: vector([5, 48], 5),
      viewport: desktop,
      deviceScaleFactor: 1,
      actions: [openList],
      capture: 'page',
    },
    {
      name: 'panels-list-hybrid-narrow-2x',
      description: 'The list of the pins in view in the hybrid view on a 375 px phone at 2×: the panel fills the left column down to the scale.',
      config: hybrid([5, 48], 4),
      viewport: phone,
      deviceScaleFactor: 2,
      actions: [openList],
      capture: 'page',
    },
    {
      name: 'panels-legend-hidden-vector-wide',
      description: 'The legend with "capital" hidden (?hide=capital) over GPU pins: no red capital pins, and the bubbles count only the other categories.',
      config: vector([10, 30], 2, { domPinLimit: 0 }),
      address: '&hide=capital',
      viewport: desktop,
      deviceScaleFactor: 1,
      capture: 'page',
    },
    {
      name: 'panels-legend-hidden-hybrid-narrow',
      description: 'The hybrid view on a 375 px phone: the legend opened from its button, "megacity" unchecked, its pins gone from the map and the bubbles.',
      config: hybrid([10, 30], 1),
      viewport: phone,
      deviceScaleFactor: 1,
      actions: [
        { type: 'click', selector: '.pinmap-legend-button' },
        { type: 'click', selector: '.pinmap-legend-entry[data-category="megacity"] input' },
      ],
      capture: 'page',
    },
    {
      name: 'panels-search-vector-narrow-2x',
      description: 'The search box on a 375 px phone at 2×: "san" typed, the results by title with their category, the first one chosen with ArrowDown.',
      config: vector([10, 30], 1),
      viewport: phone,
      deviceScaleFactor: 2,
      actions: search('san'),
      capture: 'page',
    },
    {
      name: 'panels-search-hybrid-wide',
      description: 'The search box in the hybrid view at 800 px: "sao" finds São Paulo (diacritics ignored), chosen with ArrowDown.',
      config: hybrid([10, 30], 2),
      viewport: desktop,
      deviceScaleFactor: 1,
      actions: search('sao'),
      capture: 'page',
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
  const vector = views.map(([name, center, zoom]) => ({
    name,
    description: `The default pins from their pre-tiled archive (pins: "pmtiles://pins/cities.pmtiles") at zoom ${zoom}: bubbles with counts and pins, as the inline GPU pins draw them.`,
    config: { center, zoom, pins: 'pmtiles://pins/cities.pmtiles', controls: noControls },
    viewport: desktop,
    deviceScaleFactor: 1,
    capture: 'map' as const,
  }));
  // The hybrid view's scenes hybrid-z2 and hybrid-popup, with the pins from the archive.
  const hybrid = (center: [number, number], zoom: number): PinmapConfigInput => ({ ...DEFAULT_APP_CONFIG, view: 'hybrid', center, zoom, pins: 'pmtiles://pins/cities.pmtiles' });
  const base = { viewport: desktop, deviceScaleFactor: 1, capture: 'page' as const };
  return [
    ...vector,
    {
      ...base,
      name: 'pretiled-pins-hybrid-z2',
      description: 'The hybrid view at zoom 2 with the default pins from their pre-tiled archive: the Leaflet pins and bubbles of hybrid-z2, from the tiles.',
      config: hybrid([10, 30], 2),
    },
    {
      ...base,
      name: 'pretiled-pins-list',
      description:
        'The list of the pins in view over Europe at zoom 2.5, the default pins from their pre-tiled archive: each lone pin drawn with its category and popup text (read from the pin index), then each bubble in view as "N pins: zoom in", biggest first.',
      config: { center: [10, 48], zoom: 2.5, pins: 'pmtiles://pins/cities.pmtiles', controls: { ...noControls, list: 'top-right' } },
      actions: [
        { type: 'click', selector: '.pinmap-list-button' },
        { type: 'waitForSelector', selector: '.pinmap-list-items[aria-busy="false"] .pinmap-list-bubble' },
      ],
    },
    {
      ...base,
      name: 'pretiled-pins-hybrid-popup',
      description: "The hybrid view with Paris's popup open, Paris read from the pre-tiled archive: the Leaflet popup of hybrid-popup.",
      config: hybrid([2.35, 48.86], 5),
      actions: [{ type: 'click', selector: '.pinmap-pin[data-pin-id="paris-fr"]' }],
    },
  ];
}

/** The keyboard among the pins: a focused pin, and the focus after a bubble's zoom (light and dark). */
function keyboardScenes(): Scene[] {
  const pins = { pins: 'pins/cities.geojson' };
  return (['light', 'dark'] as const).flatMap((theme): Scene[] => [
    {
      name: `keyboard-focused-pin-${theme}`,
      description: `The pins as one Tab stop: Tab from the map, then the arrow keys to a pin, its focus ring (${theme} theme).`,
      config: { center: [5, 48], zoom: 5, theme, ...pins },
      viewport: desktop,
      deviceScaleFactor: 1,
      actions: [
        { type: 'click', selector: 'canvas.maplibregl-canvas' },
        { type: 'press', key: 'Tab' },
        { type: 'press', key: 'ArrowDown' },
        { type: 'press', key: 'ArrowRight' },
      ],
      capture: 'map',
    },
    {
      name: `keyboard-bubble-zoom-${theme}`,
      description: `Enter on a bubble from the keyboard: once the camera rests, the focus on the first pin or bubble it split into (${theme} theme).`,
      config: { center: [5, 48], zoom: 3, theme, ...pins },
      viewport: desktop,
      deviceScaleFactor: 1,
      actions: [
        { type: 'click', selector: 'canvas.maplibregl-canvas' },
        { type: 'press', key: 'Tab' },
        { type: 'press', key: 'End' },
        { type: 'press', key: 'Enter' },
      ],
      capture: 'map',
    },
  ]);
}

/**
 * A city's addresses at zoom 16 (streets of houses metres apart, blocks of flats; `cityLngLats`):
 * bubbles with counts kept apart and lone pins between them, not a carpet of pins drawn over each
 * other (light and dark theme, vector view).
 */
function cityBubbleScenes(): Scene[] {
  const lngLats = cityLngLats([4.835, 45.76]);
  const pins = {
    type: 'FeatureCollection' as const,
    features: lngLats.map((coordinates, i) => ({ type: 'Feature' as const, id: `address-${i}`, geometry: { type: 'Point' as const, coordinates }, properties: { title: `Address ${i + 1}` } })),
  };
  // Where the view holds the most addresses (a 480 × 360 view at zoom 16 is about 0.005° by 0.0026° there).
  const around = ([lng, lat]: [number, number]) => lngLats.filter(([x, y]) => Math.abs(x - lng) < 0.0025 && Math.abs(y - lat) < 0.0013).length;
  const center = lngLats.reduce((best, lngLat) => (around(lngLat) > around(best) ? lngLat : best));
  return (['light', 'dark'] as const).map((theme): Scene => ({
    name: `pins-city-z16-${theme}`,
    description: `${lngLats.length} addresses of a city at zoom 16 (${theme} theme): bubbles with counts that never overlap each other or a pin's head, lone pins between them; no carpet of pins.`,
    config: { theme, center, zoom: 16, controls: noControls, pins },
    viewport: small,
    deviceScaleFactor: 1,
    capture: 'map',
  }));
}
