import { z } from './zod.ts';
import { DEFAULTS, LIMITS } from './constants.ts';
import { reasonOf } from './errors.ts';
import { LOCALE_KEYS } from './locale.ts';
import { closestMatch } from 'leven';
import { finite, pinOptionsSchema, pinOptionsShape } from './pin-options.ts';
import type { ControlName, Corner, PinmapConfig } from './types.ts';

export { pinOptionsSchema } from './pin-options.ts';
export type * from './types.ts';

/**
 * The one validated config object of a Pinmap (PRODUCT.md, "Config"). It comes from code
 * (`createPinmap(el, config)`, `<Pinmap config={…}/>`) or from `?config=<url>` in the app.
 * `parseConfig` turns untrusted input into a `PinmapConfig` with every default filled in, or a
 * `ConfigError` whose `problems` each name the option that is wrong.
 */

const CORNERS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const satisfies readonly Corner[];

const CONTROLS = ['navigation', 'geolocate', 'scale', 'fullscreen', 'attribution', 'view', 'list', 'legend', 'search'] as const satisfies readonly ControlName[];

/** Where each control sits by default (PRODUCT.md, "Controls, in four corners"). */
export const DEFAULT_CONTROL_CORNERS: Record<ControlName, Corner> = {
  fullscreen: 'top-left',
  navigation: 'top-right',
  geolocate: 'top-right',
  scale: 'bottom-left',
  attribution: 'bottom-right',
  // The switch between the vector and hybrid views (shown by default only with raster layers).
  view: 'top-left',
  // The pin panels are shown only when config asks (`true` puts them here): the search box above
  // the top-left buttons (its results open over them), the list of the pins in view below them,
  // and the legend above the attribution, where it has the height of the right side to itself.
  search: 'top-left',
  list: 'top-left',
  legend: 'bottom-right',
};

/** The controls that show only when config names them (the pin panels). */
const OPT_IN_CONTROLS: readonly ControlName[] = ['list', 'legend', 'search'];

const urlString = z
  .string({ error: 'must be a URL string' })
  .check(z.minLength(1, { error: 'must be a URL string, not empty' }), z.refine(isFetchableUrl, { error: 'must be an http(s) URL or a path relative to the page' }));

/**
 * The pins' URL: a GeoJSON file, or a pre-tiled pin archive (README, "Pre-tiled pins") as
 * `pmtiles://` and then an http(s) URL or a path relative to the page.
 */
const pinsUrl = z
  .string({ error: 'must be a URL string' })
  .check(
    z.minLength(1, { error: 'must be a URL string, not empty' }),
    z.refine((value) => (value.startsWith('pmtiles://') ? value !== 'pmtiles://' && isFetchableUrl(value.slice('pmtiles://'.length)) : isFetchableUrl(value)), {
      // `pmtiles://` alone would resolve to the page itself.
      error: (issue) => (issue.input === 'pmtiles://' ? 'must name the archive after pmtiles:// (an http(s) URL or a path relative to the page)' : 'must be an http(s) URL or a path relative to the page'),
    }),
  );


/** Any http(s) page: a relative path resolves to http(s) against every one of them. */
const PAGE_BASE = 'https://page.invalid/';

/**
 * True when `value` resolves, as the page would resolve it, to an http(s) URL. It is resolved
 * rather than matched: the URL parser drops tabs and newlines anywhere and control characters at
 * the ends, so `java\tscript:…` is a `javascript:` URL, not a relative path.
 */
export function isFetchableUrl(value: string): boolean {
  if (/^\s|\s$/.test(value)) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return false;
  try {
    const { protocol, hostname } = new URL(value, PAGE_BASE);
    // A host the URL standard forbids (`tiles example.com`) makes Node's parser throw, while
    // Chromium's escapes it (`tiles%20example.com`): refused alike, here and in every browser.
    return (protocol === 'http:' || protocol === 'https:') && !hostname.includes('%');
  } catch {
    return false;
  }
}

const origin = z
  .string({ error: 'must be an origin such as https://tiles.example.com' })
  .check(
    z.refine(
      (value) => {
        try {
          const url = new URL(value);
          return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value.replace(/\/$/, '');
        } catch {
          return false;
        }
      },
      { error: 'must be an origin such as https://tiles.example.com (scheme, host and port only)' },
    ),
  );

/**
 * Which `?pins=<url>` (`addressPins`) or `?config=<url>` (`addressConfig`) the app takes from its
 * address: `'same-origin'` (a file on the page's own origin), `'any'`, or a list of the origins
 * allowed besides the page's own.
 */
const addressOrigins = z.union([z.enum(['same-origin', 'any']), z.array(origin, { error: 'must be a list of origins' })], {
  error: 'must be "same-origin", "any" or a list of origins such as ["https://data.example.com"]',
});

/** A MapLibre style given inline: only its outline is checked here, MapLibre validates the rest. */
const styleObject = z.looseObject({
  version: z.literal(8, { error: 'must be 8 (MapLibre style version)' }),
  sources: z.record(z.string(), z.unknown(), { error: 'must be an object of sources' }),
  layers: z.array(z.unknown(), { error: 'must be an array of layers' }),
});

const featureCollection = z.looseObject({
  type: z.literal('FeatureCollection', { error: 'must be "FeatureCollection"' }),
  features: z.array(z.unknown(), { error: 'must be an array of features' }),
});

/** A zoom level within PRODUCT.md's range; each check says its own message (else zod uses the type's). */
const zoomInRange = finite('zoom').check(z.gte(LIMITS.minZoom, { error: `must be at least ${LIMITS.minZoom}` }), z.lte(LIMITS.maxZoom, { error: `must be at most ${LIMITS.maxZoom}` }));

const rasterLayer = z
  .strictObject({
    url: z.string({ error: 'must be a tile URL template with {z}, {x} and {y}' }).check(
      z.refine((u) => /\{z\}/.test(u) && /\{x\}/.test(u) && /\{y\}/.test(u) && isFetchableUrl(u), {
        error: 'must be a tile URL template with {z}, {x} and {y}',
      }),
    ),
    attribution: z.optional(z.string({ error: 'must be a string' })),
    opacity: z._default(finite('0..1').check(z.gte(0, { error: 'must be between 0 and 1' }), z.lte(1, { error: 'must be between 0 and 1' })), 1),
    minZoom: z.optional(zoomInRange),
    maxZoom: z.optional(zoomInRange),
    placement: z._default(z.enum(['above', 'below'], { error: 'must be "above" or "below" (the vector layer)' }), 'below'),
    /** The highest zoom level the server has tiles of (the `{z}` in the URL); above it, they are scaled up. */
    maxTileZoom: z.optional(z.int({ error: 'must be a whole tile zoom level' }).check(z.gte(0, { error: 'must be 0 or more' }), z.lte(30, { error: 'must be at most 30' }))),
  })
  .check(
    z.refine((l) => l.minZoom === undefined || l.maxZoom === undefined || l.minZoom <= l.maxZoom, {
      path: ['minZoom'],
      error: 'must not be greater than maxZoom',
    }),
  );

const vectorLayer = z.strictObject({
  accessToken: z.optional(z.string({ error: 'must be a string' }).check(z.minLength(1, { error: 'must not be empty' }))),
  updateInterval: z._default(finite('ms').check(z.gte(0, { error: 'must be 0 or more (ms)' })), DEFAULTS.vectorLayerUpdateInterval),
  padding: z._default(finite('share of the view').check(z.gte(0, { error: 'must be 0 or more' })), DEFAULTS.vectorLayerPadding),
  interactive: z._default(z.boolean({ error: 'must be true or false' }), false),
  pane: z._default(
    z.string({ error: 'must be a Leaflet pane name' }).check(
      z.minLength(1),
      // Leaflet keeps panes by name in a plain object, where this one name cannot be a key.
      z.refine((name) => name !== '__proto__', { error: 'must be a Leaflet pane name, not "__proto__"' }),
    ),
    'tilePane',
  ),
  className: z.optional(z.string({ error: 'must be a string of CSS classes' })),
});

const CORNER_MESSAGE = `must be one of ${CORNERS.map((c) => `"${c}"`).join(', ')} or false`;
/** A corner or false; `true` (the default corner) only for the controls shown on request (checked on `controls`). */
const controlPlacement = z.union([z.enum(CORNERS), z.boolean()], { error: CORNER_MESSAGE });

/** A pin property the search looks in: a name as GeoJSON properties have them. */
const searchField = z
  .string({ error: 'must be the name of a pin property' })
  .check(
    z.minLength(1, { error: 'must be the name of a pin property, not empty' }),
    z.refine((name) => !['pin', '__proto__'].includes(name), { error: 'must be the name of a text property (not "pin" or "__proto__")' }),
  );
/** A column of a CSV pin file, by its header name. */
const csvColumn = z.optional(z.string({ error: 'must be a column name of the CSV header' }).check(z.minLength(1, { error: 'must be a column name, not empty' })));

/** The columns of a CSV pin file that are not found by their usual names (types.ts, `CsvColumns`). */
const csvColumns = z.strictObject(
  { lat: csvColumn, lng: csvColumn, id: csvColumn, title: csvColumn, category: csvColumn, description: csvColumn, url: csvColumn },
  { error: 'must be an object of pin field → CSV column name (lat, lng, id, title, category, description, url)' },
);

/** The themes a config may ask for; `auto` follows the system. */
const THEMES = ['light', 'dark', 'auto'] as const;
/** A theme as shown: `auto` resolved to one of these. */
export type Theme = 'light' | 'dark';

const schema = z
  .strictObject(
    {
      style: z.optional(z.union([urlString, styleObject], { error: 'must be a style URL or a MapLibre style object' })),
      accessToken: z.optional(z.string({ error: 'must be a string' }).check(z.minLength(1, { error: 'must not be empty' }))),
      providerOrigin: z.optional(origin),
      /** Send the token as this request header instead of the `access_token` query parameter. */
      accessTokenHeader: z.optional(
        z.string({ error: 'must be a header name' }).check(z.regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, { error: 'must be a header name (letters, digits and - only)' })),
      ),
      view: z._default(z.enum(['vector', 'hybrid'], { error: 'must be "vector" or "hybrid"' }), 'vector'),
      center: z._default(
        z.tuple(
          [
            finite('longitude').check(z.gte(-180, { error: 'longitude must be between -180 and 180' }), z.lte(180, { error: 'longitude must be between -180 and 180' })),
            finite('latitude').check(z.gte(-90, { error: 'latitude must be between -90 and 90' }), z.lte(90, { error: 'latitude must be between -90 and 90' })),
          ],
          { error: 'must be [longitude, latitude]' },
        ),
        DEFAULTS.center,
      ),
      zoom: z._default(finite('zoom'), DEFAULTS.zoom),
      bearing: z._default(finite('degrees'), 0),
      pitch: z._default(finite('degrees'), 0),
      minZoom: z._default(finite('zoom').check(z.gte(LIMITS.minZoom, { error: `must be at least ${LIMITS.minZoom}` })), LIMITS.minZoom),
      maxZoom: z._default(finite('zoom').check(z.lte(LIMITS.maxZoom, { error: `must be at most ${LIMITS.maxZoom}` })), LIMITS.maxZoom),
      minPitch: z._default(finite('degrees').check(z.gte(LIMITS.minPitch, { error: `must be at least ${LIMITS.minPitch}` })), LIMITS.minPitch),
      maxPitch: z._default(finite('degrees').check(z.lte(LIMITS.maxPitch, { error: `must be at most ${LIMITS.maxPitch}` })), LIMITS.maxPitch),
      bearingSnap: z._default(finite('degrees').check(z.gte(0, { error: 'must be 0 or more (degrees)' })), DEFAULTS.bearingSnap),
      clickTolerance: z._default(finite('px').check(z.gte(0, { error: 'must be 0 or more (px)' })), DEFAULTS.clickTolerance),
      fadeDuration: z._default(finite('ms').check(z.gte(0, { error: 'must be 0 or more (ms)' })), DEFAULTS.fadeDuration),
      styleTimeout: z._default(finite('ms').check(z.positive({ error: 'must be more than 0 (ms)' })), DEFAULTS.styleTimeout),
      pinsTimeout: z._default(finite('ms').check(z.positive({ error: 'must be more than 0 (ms)' })), DEFAULTS.pinsTimeout),
      maxPinBytes: z._default(z.int({ error: 'must be a whole number of bytes' }).check(z.positive({ error: 'must be more than 0 (bytes)' })), DEFAULTS.maxPinBytes),
      pixelRatio: z.optional(finite('device pixels per CSS pixel').check(z.positive({ error: 'must be more than 0' }), z.lte(4, { error: 'must be at most 4' }))),
      preserveDrawingBuffer: z._default(z.boolean({ error: 'must be true or false' }), false),
      hash: z._default(z.boolean({ error: 'must be true or false' }), false),
      pins: z.optional(z.union([pinsUrl, featureCollection], { error: 'must be a GeoJSON URL or a GeoJSON FeatureCollection' })),
      addressPins: z._default(addressOrigins, 'same-origin'),
      addressConfig: z._default(addressOrigins, 'same-origin'),
      pinStyles: z._default(z.record(z.string(), pinOptionsSchema, { error: 'must be an object of category → pin options' }), {}),
      domPinLimit: z._default(
        z
          .int({ error: 'must be a whole number of pins' })
          .check(z.gte(0, { error: 'must be 0 or more' }), z.lte(DEFAULTS.domPinLimitMax, { error: `must be at most ${DEFAULTS.domPinLimitMax}` })),
        DEFAULTS.domPinLimit,
      ),
      openPin: z.optional(z.string({ error: 'must be a pin id' }).check(z.minLength(1, { error: 'must be a pin id, not empty' }))),
      /** Pin categories hidden on load (the legend's filter; the app takes it from `?hide=`). */
      hiddenCategories: z._default(z.array(z.string({ error: 'must be a category name' }), { error: 'must be an array of category names' }), []),
      /** Pin properties the search box looks in besides the title (e.g. `['description']`). */
      searchFields: z._default(z.array(searchField, { error: 'must be an array of pin property names' }), []),
      /** Pin properties the popup shows below its text, as `name: value` lines. */
      popupFields: z._default(z.array(searchField, { error: 'must be an array of pin property names' }), []),
      /** The pin property the pin list shows on the second line of entries whose title is repeated in the list. */
      listDetailField: z.optional(searchField),
      csv: z.optional(csvColumns),
      fitPins: z._default(z.boolean({ error: 'must be true or false' }), true),
      /** How long, in ms, a moved pin glides to its new place (0: it jumps); shorter when updates come faster. */
      pinTransition: z._default(
        finite('ms').check(z.gte(0, { error: 'must be 0 or more (ms)' }), z.lte(DEFAULTS.pinTransitionMax, { error: `must be at most ${DEFAULTS.pinTransitionMax} (ms)` })),
        DEFAULTS.pinTransition,
      ),
      /** Seconds between two reads of the pins' URL (a GeoJSON or CSV file); only the difference is applied. */
      pinsRefresh: z.optional(
        z
          .number({ error: 'must be a number of seconds' })
          .check(
            z.refine(Number.isFinite, { error: 'must be a number of seconds' }),
            z.gte(DEFAULTS.pinsRefreshMin, { error: `must be at least ${DEFAULTS.pinsRefreshMin} (seconds)` }),
            z.lte(DEFAULTS.pinsRefreshMax, { error: `must be at most ${DEFAULTS.pinsRefreshMax} (seconds, a day)` }),
          ),
      ),
      /** A server-sent event stream of pin changes `{ add, update, remove }` applied to the pins by id. */
      pinsStream: z.optional(urlString),
      controls: z._default(
        z
          .partialRecord(z.enum(CONTROLS, { error: `must name a control: ${CONTROLS.join(', ')}` }), controlPlacement, { error: 'must be an object of control → corner or false' })
          .check((payload) => {
            for (const [name, placement] of Object.entries(payload.value)) {
              if (placement !== true || OPT_IN_CONTROLS.includes(name as ControlName)) continue;
              payload.issues.push({ code: 'custom', input: placement, path: [name], message: CORNER_MESSAGE });
            }
          }),
        {},
      ),
      units: z._default(z.enum(['metric', 'imperial', 'nautical'], { error: 'must be "metric", "imperial" or "nautical"' }), 'metric'),
      locale: z._default(
        z.partialRecord(z.enum(LOCALE_KEYS), z.string({ error: 'must be a string' }).check(z.minLength(1, { error: 'must not be empty' })), {
          error: 'must be an object of string key → text',
        }),
        {},
      ),
      rasterLayers: z._default(z.array(rasterLayer, { error: 'must be an array of raster layers' }), []),
      // prefault: an absent vectorLayer is parsed as {}, so its fields' own defaults apply.
      vectorLayer: z.prefault(vectorLayer, {}),
      trackUserLocation: z._default(z.boolean({ error: 'must be true or false' }), true),
      /** Whether locating the user also moves the camera to the position (false: only the dot shows). */
      fitToUserLocation: z._default(z.boolean({ error: 'must be true or false' }), true),
      /** Light or dark map and controls; `auto` follows the system's `prefers-color-scheme`, live. */
      theme: z._default(z.enum(THEMES, { error: 'must be "light", "dark" or "auto"' }), 'auto'),
      /** The basemap in the dark theme, when `style` is the site's own (the embedded basemap has its dark look). */
      darkStyle: z.optional(z.union([urlString, styleObject], { error: 'must be a style URL or a MapLibre style object' })),
      /** A street map archive (Protomaps schema): the basemap, in the Protomaps light and dark styles. */
      streets: z.optional(
        z
          .string({ error: 'must be the URL of a street map archive (.pmtiles)' })
          .check(
            z.minLength(1, { error: 'must be the URL of a street map archive (.pmtiles), not empty' }),
            z.refine(isFetchableUrl, { error: 'must be the URL of a street map archive (.pmtiles): an http(s) URL or a path relative to the page' }),
          ),
      ),
    },
    { error: 'must be an object' },
  )
  .check(
    // Cross-option checks run even when other options are wrong, so one pass reports everything.
    ordered('minZoom', 'maxZoom'),
    ordered('minPitch', 'maxPitch'),
    // A refresh reads the pins' file again: inline pins have none, and pre-tiled pins stay static.
    z.refine((c) => typeof c.pins === 'string' && !c.pins.startsWith('pmtiles://'), {
      path: ['pinsRefresh'],
      error: (issue) => {
        const pins = (issue.input as { pins?: unknown }).pins;
        if (typeof pins === 'string') return 'pre-tiled pins (pmtiles://) stay as they were tiled and are not read again; refresh a GeoJSON or CSV file instead';
        return 'needs pins given as a URL (a GeoJSON or CSV file) to read again';
      },
      when: (payload) => typeof payload.value === 'object' && payload.value !== null && (payload.value as { pinsRefresh?: unknown }).pinsRefresh !== undefined,
    }),
    z.refine((c) => !(typeof c.pins === 'string' && c.pins.startsWith('pmtiles://')), {
      path: ['pinsStream'],
      error: 'cannot change pre-tiled pins (pmtiles://), which stay as they were tiled; README "Pre-tiled pins" says how to show live pins with them',
      when: (payload) => typeof payload.value === 'object' && payload.value !== null && (payload.value as { pinsStream?: unknown }).pinsStream !== undefined,
    }),
    // The street map is the basemap: a style of the site's own would be a second one.
    z.refine((c) => c.style === undefined && c.darkStyle === undefined, {
      path: ['streets'],
      error: (issue) => `cannot be given with ${(issue.input as { style?: unknown }).style === undefined ? 'darkStyle' : 'style'}: the street map is the basemap (in the Protomaps light and dark styles); give one of them`,
      when: (payload) => typeof payload.value === 'object' && payload.value !== null && (payload.value as { streets?: unknown }).streets !== undefined,
    }),
    z.refine((c) => c.pitch >= c.minPitch && c.pitch <= c.maxPitch, {
      path: ['pitch'],
      error: (issue) => {
        const c = issue.input as { pitch: number; minPitch: number; maxPitch: number };
        return `must be between minPitch ${c.minPitch} and maxPitch ${c.maxPitch} (got ${c.pitch})`;
      },
      when: (payload) => allNumbers(payload.value, 'pitch', 'minPitch', 'maxPitch'),
    }),
  );

/** Checks `low <= high` whenever both are numbers, reporting on `low`. */
function ordered(low: 'minZoom' | 'minPitch', high: 'maxZoom' | 'maxPitch') {
  return z.refine<Record<string, unknown>>((c) => (c[low] as number) <= (c[high] as number), {
    path: [low],
    error: (issue) => {
      const c = issue.input as Record<string, number>;
      return `must not be greater than ${high} (${low} ${c[low]} > ${high} ${c[high]})`;
    },
    when: (payload) => allNumbers(payload.value, low, high),
  });
}

function allNumbers(value: unknown, ...keys: string[]): boolean {
  return typeof value === 'object' && value !== null && keys.every((k) => Number.isFinite((value as Record<string, unknown>)[k]));
}

/**
 * The schema's own input and output types. The documented `PinmapConfigInput` and `PinmapConfig`
 * (types.ts) are what the code and the library's users name; types.test.ts keeps
 * them equal to these.
 */
export type ConfigSchemaInput = z.input<typeof schema>;
export type ConfigSchemaOutput = z.output<typeof schema>;

/** One thing wrong with a config: the option's dotted path and what is wrong with it. */
export interface ConfigProblem {
  /** The option's dotted path, e.g. `minZoom`, `controls.scale`, `rasterLayers[0].url`; `config` for the whole object. */
  option: string;
  /** What is wrong with it, e.g. `must be at least -2`. */
  message: string;
}

/** Thrown (or shown) when a config does not validate; each problem names its option. */
export class ConfigError extends Error {
  /** Each thing wrong with the config, naming its option. */
  readonly problems: ConfigProblem[];
  constructor(problems: ConfigProblem[]) {
    super(`Invalid Pinmap config: ${problems.map((p) => `${p.option}: ${p.message}`).join('; ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

function optionName(path: PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('') || 'config';
}

/** What an unknown key under `path` is told: that it is unknown, and the known key it is likely a slip for. */
function unknownKeyMessage(path: PropertyKey[], key: string): string {
  const unknown = path[0] === 'locale' ? 'is not a known locale key (the README lists them)' : 'is not a known option';
  const likely = closestKey(key, knownKeysAt(path));
  return likely === undefined ? unknown : `${unknown}; did you mean ${likely}?`;
}

/** The keys the config takes at `path` (an object of its), for suggestions. */
function knownKeysAt(path: PropertyKey[]): readonly string[] {
  const [first] = path;
  if (path.length === 0) return Object.keys(schema.shape);
  if (first === 'vectorLayer') return Object.keys(vectorLayer.shape);
  if (first === 'rasterLayers') return Object.keys(rasterLayer.shape);
  if (first === 'csv') return Object.keys(csvColumns.shape);
  if (first === 'pinStyles') return Object.keys(pinOptionsShape);
  if (first === 'locale') return LOCALE_KEYS;
  if (first === 'controls') return CONTROLS;
  return [];
}

/**
 * The known key `key` is most likely a slip for: the closest by edit distance, case aside
 * (`centre` → `center`, `Zoom` → `zoom`, `min_zoom` → `minZoom`): one edit away for a key of
 * up to 3 letters, else two, or a third of its length for a longer one.
 */
function closestKey(key: string, known: readonly string[]): string | undefined {
  const folded = known.map((name) => name.toLowerCase());
  const match = closestMatch(key.toLowerCase(), folded, { maxDistance: key.length <= 3 ? 1 : Math.max(2, Math.floor(key.length / 3)) });
  return match === undefined ? undefined : known[folded.indexOf(match)];
}

function toProblems(issues: z.core.$ZodIssue[]): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        problems.push({ option: optionName([...issue.path, key]), message: unknownKeyMessage(issue.path, key) });
      }
    } else if (issue.code === 'invalid_key') {
      problems.push({ option: optionName(issue.path), message: unknownKeyMessage(issue.path.slice(0, -1), String(issue.path.at(-1))) });
    } else {
      problems.push({ option: optionName(issue.path), message: tidy(issue.message) });
    }
  }
  return problems;
}

/** zod's own wording for the cases given no message of ours ("Too small: expected number to be >=-2"). */
function tidy(message: string): string {
  return message
    .replace(/^Too small: expected number to be >=(.*)$/, 'must be at least $1')
    .replace(/^Too big: expected number to be <=(.*)$/, 'must be at most $1')
    .replace(/^Invalid input: expected (\w+), received (\w+)$/, (_, expected: string, got: string) => `must be ${/^[aeiou]/i.test(expected) ? 'an' : 'a'} ${expected} (got ${got})`);
}

/** The options whose values are objects of free keys (zod records). */
const RECORD_OPTIONS = ['pinStyles', 'locale', 'controls'] as const;

/**
 * zod passes over a `__proto__` key of a record without a word (it cannot be an own key of the
 * object zod builds), so a `"__proto__"` category, locale key or control, as `JSON.parse` makes
 * them, is named here like any other key the config cannot take.
 */
function protoKeyProblems(input: unknown): ConfigProblem[] {
  if (typeof input !== 'object' || input === null) return [];
  const problems: ConfigProblem[] = [];
  for (const option of RECORD_OPTIONS) {
    const value: unknown = (input as Record<string, unknown>)[option];
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, '__proto__')) continue;
    const message = option === 'pinStyles' ? 'cannot be a category name in config' : unknownKeyMessage([option], '__proto__');
    problems.push({ option: `${option}.__proto__`, message });
  }
  return problems;
}

/** What `safeParseConfig` gives: the config with its defaults filled in, or the error naming each bad option. */
export type ParseResult = { ok: true; config: PinmapConfig } | { ok: false; error: ConfigError };

/**
 * Validates untrusted config and fills in defaults; no config at all (`undefined`) is `{}`, while
 * anything else that is not an object, `null` included, is refused as the app refuses it. Never
 * throws: config that cannot even be read (a getter or proxy that throws) is a problem of
 * `config` too.
 */
export function safeParseConfig(input: unknown): ParseResult {
  try {
    const result = schema.safeParse(input === undefined ? {} : input);
    const problems = [...(result.success ? [] : toProblems(result.error.issues)), ...protoKeyProblems(input)];
    if (result.success && problems.length === 0) return { ok: true, config: result.data };
    return { ok: false, error: new ConfigError(problems) };
  } catch (error) {
    return { ok: false, error: new ConfigError([{ option: 'config', message: `could not be read (${reasonOf(error)})` }]) };
  }
}

/** Validates untrusted config and fills in defaults; throws a `ConfigError` naming each bad option. */
export function parseConfig(input: unknown): PinmapConfig {
  const result = safeParseConfig(input);
  if (!result.ok) throw result.error;
  return result.config;
}

/** Keys of config objects whose JSON cannot be written, by identity. */
const unwritableConfigKeys = new WeakMap<object, string>();
let unwritableConfigCount = 0;

/**
 * A string that changes when the config's content does, so `<Pinmap/>` validates inline config
 * again only when it differs. Config whose JSON cannot be written (a BigInt, a cycle, a getter
 * that throws) is keyed by identity instead: it still reaches `safeParseConfig` and the error
 * panel, rather than throwing while the component renders.
 */
export function configKey(config: unknown): string {
  try {
    // No config is `{}` (see safeParseConfig), so both have one key.
    const json = JSON.stringify(config === undefined ? {} : config);
    return json === undefined ? typeof config : `json ${json}`;
  } catch {
    if ((typeof config !== 'object' && typeof config !== 'function') || config === null) return `${typeof config} ${String(config)}`;
    let key = unwritableConfigKeys.get(config);
    if (key === undefined) {
      key = `unwritable ${++unwritableConfigCount}`;
      unwritableConfigKeys.set(config, key);
    }
    return key;
  }
}

/** Where each control goes: the defaults, overridden by config; `false` means not shown. */
export function controlCorners(config: PinmapConfig): Record<ControlName, Corner | false> {
  // Without raster layers the two views show the same map, so the switch only shows if asked for.
  const view = config.controls.view ?? (config.rasterLayers.length > 0 ? DEFAULT_CONTROL_CORNERS.view : false);
  const corners = { ...DEFAULT_CONTROL_CORNERS } as Record<ControlName, Corner | false>;
  for (const name of OPT_IN_CONTROLS) corners[name] = false;
  for (const [name, placement] of Object.entries({ ...config.controls, view }) as [ControlName, Corner | boolean][]) {
    corners[name] = placement === true ? DEFAULT_CONTROL_CORNERS[name] : placement;
  }
  return corners;
}

/** Whether a config shows the embedded basemap: no `style` of the site's own, no `streets`. */
export function showsEmbeddedBasemap(config: PinmapConfig): boolean {
  return config.style === undefined && config.streets === undefined;
}
