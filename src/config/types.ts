import type { LocaleKey } from './locale.ts';

/**
 * The config's types as the library's users read them: every option with its doc comment (type,
 * default, unit), so an editor shows it on hover. The zod schema in schema.ts is what validates;
 * types.test.ts checks that these types and the schema's stay the same, option by option.
 */

/** A corner of the map, where controls sit. */
export type Corner = 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';

/** The controls a config can place or hide. */
export type ControlName = 'navigation' | 'geolocate' | 'scale' | 'fullscreen' | 'attribution' | 'view' | 'list' | 'legend' | 'search';

/** A MapLibre style given inline (style specification version 8); MapLibre validates the rest. */
export interface InlineStyle {
  /** Always 8: the MapLibre style specification's version. */
  version: 8;
  /** The style's sources, by id. */
  sources: Record<string, unknown>;
  /** The style's layers, drawn in order. */
  layers: unknown[];
  [key: string]: unknown;
}

/**
 * A GeoJSON FeatureCollection of pins (README, "Pins"), as code passes it: any GeoJSON
 * `FeatureCollection` type (such as `GeoJSON.FeatureCollection`) fits. Each feature is checked
 * when the pins are read (Point features with an `id` and a `title`).
 */
export interface PinCollectionInput {
  type: 'FeatureCollection';
  /** The pins: GeoJSON Point features; a feature that cannot be shown is skipped with a notice. */
  features: readonly unknown[];
}

/** The look of a pin (README, "Pins"): every option is optional, and zeros are honoured. */
export interface PinOptionsInput {
  /** Icon-font classes of the glyph in the pin's head, e.g. `'fa-solid fa-star'` (Font Awesome Free 7 is bundled). Default `''`: no glyph. */
  iconClasses?: string | undefined;
  /** Glyph colour, any CSS colour. Default `'#ffffff'`. */
  iconColor?: string | undefined;
  /** Glyph size in px, 0 or more. Default `16`. */
  iconSize?: number | undefined;
  /** Horizontal nudge of the glyph in px, negative allowed. Default `0`. */
  iconXOffset?: number | undefined;
  /** Vertical nudge of the glyph in px, negative allowed. Default `0`. */
  iconYOffset?: number | undefined;
  /** Pin fill, any CSS colour. Default `'#3FB1CE'`. */
  markerColor?: string | undefined;
  /** Pin fill opacity, 0 (transparent) to 1. Default `1`. */
  markerFillOpacity?: number | undefined;
  /** Pin outline colour, any CSS colour. Default: the `markerColor`. */
  markerStrokeColor?: string | undefined;
  /** Pin outline width in px, 0 for none. Default `1`. */
  markerStrokeWidth?: number | undefined;
  /** SVG path data of the pin's outline in its 32 × 52 px box, tip at (16, 52). Default: Pinmap's pin. */
  markerPath?: string | undefined;
  /** Where a popup attaches, `[x, y]` in px from the pin's tip. Default `[0, -50]`. */
  popupAnchor?: [number, number] | undefined;
  /** Size of the whole pin, its glyph and its popupAnchor, 0.5 to 3 (1 = 32 × 52 px); the tip stays on the point. Default `1`. */
  scale?: number | undefined;
  /** Up to 3 characters (or a number) drawn in the pin's head instead of a glyph. Default: none. */
  label?: string | number | undefined;
  /** A soft shadow under the pin. Default `false`. */
  shadow?: boolean | undefined;
}

/** Pin options after validation: as written, with a `label` always a string. */
export interface PinOptions extends Omit<PinOptionsInput, 'label'> {
  /** Up to 3 characters drawn in the pin's head instead of a glyph. Default: none. */
  label?: string | undefined;
}

/** A raster tile layer of the hybrid view (README, "Hybrid view"). */
export interface RasterLayerConfigInput {
  /** Tile URL template with `{z}`, `{x}` and `{y}` (256 px tiles), http(s) or relative to the page. Required. */
  url: string;
  /** Credit shown in the attribution while the layer shows. Default: none. */
  attribution?: string | undefined;
  /** Opacity, 0 to 1. Default `1`. */
  opacity?: number | undefined;
  /** MapLibre zoom from which the layer shows. Default: always. */
  minZoom?: number | undefined;
  /** MapLibre zoom up to which the layer shows. Default: always. */
  maxZoom?: number | undefined;
  /** `'below'` or `'above'` the vector layer, within its pane. Default `'below'`. */
  placement?: 'above' | 'below' | undefined;
  /** The highest `{z}` the server has tiles of, 0 to 30; above it, tiles are scaled up. Default: none. */
  maxTileZoom?: number | undefined;
}

/** A raster layer after validation, its defaults filled in. */
export interface RasterLayerConfig extends Omit<RasterLayerConfigInput, 'opacity' | 'placement'> {
  /** Opacity, 0 to 1. Default `1`. */
  opacity: number;
  /** `'below'` or `'above'` the vector layer, within its pane. Default `'below'`. */
  placement: 'above' | 'below';
}

/**
 * The columns of a CSV pin file (README, "CSV pins"), each a header name matched without regard
 * to case. A column not named here is found by its usual names: `lat`, `latitude` or `y`; `lng`,
 * `lon`, `long`, `longitude` or `x`; `id`; `title` or `name`; `category`; `description`; `url`.
 */
export interface CsvColumns {
  /** The latitude column (degrees; a decimal comma is read where the file's delimiter is a semicolon). */
  lat?: string | undefined;
  /** The longitude column (degrees; as `lat`). */
  lng?: string | undefined;
  /** The id column. Without one, a pin's id is its line number. */
  id?: string | undefined;
  /** The title column (the pin's name in its popup, the list and the search). */
  title?: string | undefined;
  /** The category column (its legend entry and `pinStyles`). */
  category?: string | undefined;
  /** The description column (the popup's text). */
  description?: string | undefined;
  /** The link column (an http(s) URL shown as a link in the popup). */
  url?: string | undefined;
}

/** The vector layer of the hybrid view (README, "Hybrid view"). */
export interface VectorLayerConfigInput {
  /** The provider's token for the vector map (sent to the provider's origin only). Default: the config's `accessToken`. */
  accessToken?: string | undefined;
  /** Milliseconds between the layer's updates while the map moves. Default `32`. */
  updateInterval?: number | undefined;
  /** Extra area drawn around the view, as a share of its size. Default `0.1`. */
  padding?: number | undefined;
  /** Whether the layer takes pointer events (a click on a named feature shows its name). Default `false`. */
  interactive?: boolean | undefined;
  /** The Leaflet pane the layer is drawn in (made if missing). Default `'tilePane'`. */
  pane?: string | undefined;
  /** CSS classes added to the layer's canvas. Default: none. */
  className?: string | undefined;
}

/** The vector layer options after validation, their defaults filled in. */
export interface VectorLayerConfig extends Required<Omit<VectorLayerConfigInput, 'accessToken' | 'className'>>, Pick<VectorLayerConfigInput, 'accessToken' | 'className'> {}

/**
 * A Pinmap's config as a site owner writes it (README, "Configuration"): one object, every key
 * optional, validated by `parseConfig` (a bad option is an error naming it).
 */
export interface PinmapConfigInput {
  /** MapLibre style: a URL (http(s) or relative to the page) or an inline style object. Default: the embedded offline basemap. */
  style?: string | InlineStyle | undefined;
  /** The maps provider's credential, added as `access_token` to requests for the provider's origin only. Default: none. */
  accessToken?: string | undefined;
  /** The only origin that receives the token, e.g. `'https://tiles.example.com'`. Default: the style URL's origin. */
  providerOrigin?: string | undefined;
  /** Send the token as this request header instead (`Authorization` carries it as `Bearer <token>`). Default: none (a query parameter). */
  accessTokenHeader?: string | undefined;
  /** `'vector'` (MapLibre) or `'hybrid'` (Leaflet holding the vector map as a layer among raster layers). Default `'vector'`. */
  view?: 'vector' | 'hybrid' | undefined;
  /** Initial centre, `[longitude, latitude]` in degrees. Default `[0, 20]`. */
  center?: [number, number] | undefined;
  /** Initial zoom (MapLibre's, 512 px tiles). Default `1`. */
  zoom?: number | undefined;
  /** Initial bearing in degrees clockwise from north. Default `0`. */
  bearing?: number | undefined;
  /** Initial pitch in degrees. Default `0`. */
  pitch?: number | undefined;
  /** Lowest zoom, at least -2 and not above `maxZoom`. Default `-2`. */
  minZoom?: number | undefined;
  /** Highest zoom, at most 22. Default `22`. */
  maxZoom?: number | undefined;
  /** Lowest pitch in degrees, at least 0 and not above `maxPitch`. Default `0`. */
  minPitch?: number | undefined;
  /** Highest pitch in degrees, at most 60. Default `60`. */
  maxPitch?: number | undefined;
  /** A rotation that ends within this many degrees of north snaps to north. Default `7`. */
  bearingSnap?: number | undefined;
  /** How far, in px, a pointer may move and still click. Default `3`. */
  clickTolerance?: number | undefined;
  /** Label and pin fade-in in ms; none for users who ask for less motion (`prefers-reduced-motion`). Default `300`. */
  fadeDuration?: number | undefined;
  /** How long, in ms, the style document may take to arrive before it is an error (with Retry). Default `8000`. */
  styleTimeout?: number | undefined;
  /** How long, in ms, a pin file (and the app's `?config=`) may take to start arriving, or stall while it comes, before it is an error (with Retry). Default `10000`. */
  pinsTimeout?: number | undefined;
  /** The most bytes a pin file may have once decompressed, counted as it arrives (a whole number). Default `200000000` (200 MB). */
  maxPinBytes?: number | undefined;
  /** Device pixels per CSS pixel for the canvas, above 0 and at most 4. Default: the screen's. */
  pixelRatio?: number | undefined;
  /** Keep the canvas readable (screenshots). Default `false`. */
  preserveDrawingBuffer?: boolean | undefined;
  /** Keep the camera in the page address as `#map=zoom/lat/lng/bearing/pitch`. Default `false`. */
  hash?: boolean | undefined;
  /** The pins: a GeoJSON URL or FeatureCollection (README, "Pins"). Default: none. */
  pins?: string | PinCollectionInput | undefined;
  /**
   * Which `?pins=<url>` in the app's address replaces `pins`: `'same-origin'` (files on the page's
   * own origin only), `'any'`, or a list of the origins allowed besides the page's own. A refused
   * one is a notice, and the config's pins stay. Default `'same-origin'`.
   */
  addressPins?: 'same-origin' | 'any' | string[] | undefined;
  /**
   * Which `?config=<url>` in the app's address replaces the site's own config (the app's built-in
   * one, `src/ui/default-config.ts`): `'same-origin'` (files on the page's own origin only),
   * `'any'`, or a list of the origins allowed besides the page's own. A refused one is a notice,
   * and the site's config stays. A config from another origin cannot widen `addressPins` or
   * `addressConfig` beyond the site's. Default `'same-origin'`.
   */
  addressConfig?: 'same-origin' | 'any' | string[] | undefined;
  /** Pin look per category (a pin's `properties.category`); wins over the pin file's own `pinStyles` field by field. Default `{}`. */
  pinStyles?: Record<string, PinOptionsInput> | undefined;
  /** Pin sets up to this size (a whole number, 0 to 2000) are DOM elements, larger ones a clustered GPU layer (in the hybrid view, Leaflet markers grouped in a worker). Default `500`. */
  domPinLimit?: number | undefined;
  /** The id of the pin whose popup is open on load. Default: none. */
  openPin?: string | undefined;
  /**
   * Where each control sits: a corner, or `false` to hide it; `true` shows a control that is off
   * by default (`list`, `legend`, `search`) in its default corner. Default: fullscreen and view
   * top-left (view only with raster layers), navigation and geolocate top-right, scale
   * bottom-left, attribution bottom-right; list, legend and search off.
   */
  controls?: Partial<Record<ControlName, Corner | boolean>> | undefined;
  /** Categories whose pins are hidden on load (the legend's toggles change them; `?hide=` in the app). Default `[]`. */
  hiddenCategories?: string[] | undefined;
  /** Pin properties (besides the title) the search box looks in, such as `'description'`. Default `[]`. */
  searchFields?: string[] | undefined;
  /** Pin properties (other than title, description and url) the popup shows below its text, as `name: value` lines, in this order. Default `[]`. */
  popupFields?: string[] | undefined;
  /**
   * The pin property (e.g. a CSV column, `'address'`) the pin list shows on the second line of the
   * entries whose title is repeated in the list ("12", "12", "12"), so they can be told apart;
   * where a pin lacks it (or pre-tiled pins, whose list reads only their description, url and
   * category), its latitude and longitude. Default: none, the latitude and longitude.
   */
  listDetailField?: string | undefined;
  /** The columns of a CSV pin file, where their names are not the usual ones (README, "CSV pins"). Default: found by their usual names. */
  csv?: CsvColumns | undefined;
  /** Open the map on the pins (their bounds, or a pin archive's) when neither the config nor the page address gives a camera (`center` or `zoom`). Default `true`. */
  fitPins?: boolean | undefined;
  /**
   * How long, in ms (0 to 5000), a pin moved by an update glides to its new place; an update that
   * comes sooner than that after the last one shortens the glide to the time between them, and
   * under `prefers-reduced-motion` pins jump. 0 makes them jump always. Default `300`.
   */
  pinTransition?: number | undefined;
  /**
   * Seconds (1 to 86,400) between two reads of `pins` given as a URL (a GeoJSON or CSV file): each
   * read sends `If-None-Match` with the last `ETag`, a `304` changes nothing, and a new file is
   * applied by pin id, as a new `pins` value is (README, "Pins that move"). Default: none (read once).
   */
  pinsRefresh?: number | undefined;
  /**
   * A server-sent event stream of pin changes, `{ "add": [...], "update": [...], "remove": [ids] }`
   * per event, applied by pin id (README, "Pins that move"): an http(s) URL or a path relative to
   * the page, fetched as pin files are (token rule, `pinsTimeout`, `maxPinBytes` per event).
   * Default: none.
   */
  pinsStream?: string | undefined;
  /** `'light'`, `'dark'`, or `'auto'` to follow the system's `prefers-color-scheme` live. Default `'auto'`. */
  theme?: 'light' | 'dark' | 'auto' | undefined;
  /** The basemap in the dark theme when `style` is the site's own (the embedded basemap has its dark look): a style URL or object. Default: none (the site's style keeps its look). */
  darkStyle?: string | InlineStyle | undefined;
  /**
   * A street map archive in the Protomaps basemap schema (made by `pinmap streets`, README
   * "Streets for your area"): the URL of the `.pmtiles` file, http(s) or relative to the page. The
   * basemap is then this archive in the Protomaps light and dark styles on the embedded fonts
   * (`theme` picks one); not with `style` or `darkStyle`. Default: none (the embedded basemap).
   */
  streets?: string | undefined;
  /** Scale units. Default `'metric'`. */
  units?: 'metric' | 'imperial' | 'nautical' | undefined;
  /** Overrides of the controls' titles and unit names, by locale key (README, "Controls"); an unknown key is an error. Default `{}`. */
  locale?: Partial<Record<LocaleKey, string>> | undefined;
  /** Raster tile layers of the hybrid view. Default `[]`. */
  rasterLayers?: RasterLayerConfigInput[] | undefined;
  /** The vector layer of the hybrid view. Default: each of its options' defaults. */
  vectorLayer?: VectorLayerConfigInput | undefined;
  /** Geolocation keeps following the user; `false`: one position per click. Default `true`. */
  trackUserLocation?: boolean | undefined;
  /** Locating moves the camera to the position; `false` shows the dot and circle and leaves the camera alone. Default `true`. */
  fitToUserLocation?: boolean | undefined;
}

/** The options that stay optional after validation: those without a default. */
type OptionalConfigKey =
  | 'style'
  | 'accessToken'
  | 'providerOrigin'
  | 'accessTokenHeader'
  | 'pixelRatio'
  | 'pins'
  | 'openPin'
  | 'darkStyle'
  | 'streets'
  | 'csv'
  | 'listDetailField'
  | 'pinsRefresh'
  | 'pinsStream';

/** A config after validation (`parseConfig`), with every default filled in. */
export interface PinmapConfig
  extends Required<Omit<PinmapConfigInput, OptionalConfigKey | 'pinStyles' | 'rasterLayers' | 'vectorLayer'>>,
    Pick<PinmapConfigInput, Exclude<OptionalConfigKey, 'pins'>> {
  /** The pins as given: a GeoJSON URL, or a FeatureCollection (its features are checked when the pins are read). */
  pins?: string | { type: 'FeatureCollection'; features: unknown[]; [key: string]: unknown } | undefined;
  /** Pin look per category. */
  pinStyles: Record<string, PinOptions>;
  /** Raster tile layers of the hybrid view. */
  rasterLayers: RasterLayerConfig[];
  /** The vector layer of the hybrid view. */
  vectorLayer: VectorLayerConfig;
}
