import type { Pin, PinReading, PinSet, SkippedFeature } from './types.ts';
import { pinOptionsShape, type PinOptionName, type PinOptions } from '../config/pin-options.ts';

/**
 * Pin data (PRODUCT.md, "Config" `pins` and `pinStyles`; "Popups"): turns an untrusted GeoJSON
 * FeatureCollection into the pins the map shows.
 *
 * - Input that is not a FeatureCollection at all throws a `PinDataError`; the map keeps working
 *   and shows the message as a notice.
 * - A bad feature (no usable id, missing or non-numeric coordinates, latitude outside ±90, a
 *   geometry other than Point, a duplicate id, a property of the wrong type) is skipped with a
 *   reason that names the feature and what is wrong; every good feature still becomes a pin.
 * - A bad per-pin option (`properties.pin`), a bad option in the file's own `pinStyles`, a
 *   non-http(s) `url` or a non-string `attribution` is dropped with one warning each, and the
 *   default (or the category's style) applies instead.
 *
 * The checks are plain JavaScript, not a zod object per feature, so 100k features parse quickly;
 * only present `pin` option fields go through their zod schema (`pinOptionsShape`).
 *
 * About 540 lines, on purpose: every rule a pin is checked by (the browser's GeoJSON and CSV
 * readers and the tiler all use `PinChecker`) is in this one file, read top to bottom.
 */


/** Thrown when pin data is not a GeoJSON FeatureCollection at all; the message says what it was. */
export class PinDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PinDataError';
  }
}

/** Longest piece of a value (a bad value, a header name, a cell, a title) quoted back in a message. */
export const QUOTE_MAX = 80;

/** A short description of a value for messages: `a string "abc"`, `an array`, `null`, `the number 3`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `the string ${quote(value)}`;
    case 'number':
      return `the number ${String(value)}`;
    case 'boolean':
      return `${String(value)}`;
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

/** `text` in double quotes for a message, cut at `QUOTE_MAX` characters with an ellipsis: a 50 MB cell is a short message. */
export function quote(text: string): string {
  return JSON.stringify(text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}…` : text);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const hasOwn = Object.prototype.hasOwnProperty;

/** A checked option value: its parsed value, or the message of its first problem and the part of the value it is about. */
type OptionCheck = { ok: true; value: unknown } | { ok: false; message: string; got: unknown };

/**
 * Remembers the outcome of checking primitive option values, per field, within one `parsePins`
 * call: large pin sets tend to repeat the same few colours and sizes.
 */
type OptionCache = Map<PinOptionName, Map<unknown, OptionCheck>>;

/** Validates one option field on its own; returns the parsed value or the message of its first problem. */
function checkOption(name: PinOptionName, value: unknown, cache?: OptionCache): OptionCheck {
  const primitive = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  if (cache && primitive) {
    let byValue = cache.get(name);
    if (!byValue) cache.set(name, (byValue = new Map()));
    const known = byValue.get(value);
    if (known) return known;
    const checked = checkOptionUncached(name, value);
    byValue.set(value, checked);
    return checked;
  }
  return checkOptionUncached(name, value);
}

function checkOptionUncached(name: PinOptionName, value: unknown): OptionCheck {
  const result = pinOptionsShape[name].safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const path = issue?.path ?? [];
  let got: unknown = value;
  for (const step of path) got = isRecord(got) || Array.isArray(got) ? (got as Record<PropertyKey, unknown>)[step as PropertyKey] : undefined;
  const where = path.map((p) => `[${String(p)}]`).join('');
  return { ok: false, message: `${where} ${issue?.message ?? 'is not valid'}`, got };
}

/** Whose options are being checked, for warnings: a pin (by id) or a category of the file's `pinStyles`. */
type OptionsOwner = { pinId: string; category?: string; categoryStyle?: PinOptions } | { styleCategory: string };

/** `pin "paris"` or `pins` (the file), to start a warning. */
function ownerLabel(owner: OptionsOwner): string {
  return 'pinId' in owner ? `pin ${quote(owner.pinId)}` : 'pins';
}

/**
 * Validates pin options field by field into `target`: a valid field is set, an invalid or unknown
 * one is left out with one warning each, naming the owner and the field and saying what applies
 * instead (the category's style or the default).
 */
function lenientOptions(input: unknown, target: Record<string, unknown>, owner: OptionsOwner, warnings: string[], cache?: OptionCache): void {
  const isPin = 'pinId' in owner;
  const prefix = isPin ? 'pin' : `pinStyles.${owner.styleCategory}`;
  if (!isRecord(input)) {
    warnings.push(`${ownerLabel(owner)}: ${prefix} must be an object of pin options (got ${describeValue(input)}); it is ignored`);
    return;
  }
  for (const key in input) {
    if (!hasOwn.call(input, key)) continue;
    const value = input[key];
    if (!hasOwn.call(pinOptionsShape, key)) {
      warnings.push(`${ownerLabel(owner)}: ${prefix}.${key} is not a pin option; it is ignored`);
      continue;
    }
    const checked = checkOption(key as PinOptionName, value, cache);
    if (checked.ok) {
      target[key] = checked.value;
      continue;
    }
    const fromStyle = isPin && owner.category !== undefined && owner.categoryStyle !== undefined && hasOwn.call(owner.categoryStyle, key);
    const instead = fromStyle ? `the ${quote(owner.category ?? '')} style's value is used` : 'the default is used';
    warnings.push(`${ownerLabel(owner)}: ${prefix}.${key}${checked.message} (got ${describeValue(checked.got)}); ${instead}`);
  }
}

/**
 * Checks the collection's own `pinStyles` (warnings for bad parts) and lays config's validated
 * `pinStyles` over it, per category and per field.
 */
export function mergeStyles(fileStyles: unknown, configStyles: Record<string, PinOptions>, warnings: string[]): Record<string, PinOptions> {
  // No prototype: categories such as "constructor" or "__proto__" are plain keys.
  const merged = Object.create(null) as Record<string, PinOptions>;
  if (fileStyles !== undefined) {
    if (!isRecord(fileStyles)) {
      warnings.push(`pins: pinStyles must be an object of category → pin options (got ${describeValue(fileStyles)}); it is ignored`);
    } else {
      for (const category of Object.keys(fileStyles)) {
        const style: Record<string, unknown> = {};
        lenientOptions(fileStyles[category], style, { styleCategory: category }, warnings);
        if (isRecord(fileStyles[category])) merged[category] = style as PinOptions;
      }
    }
  }
  for (const category of Object.keys(configStyles)) {
    merged[category] = { ...merged[category], ...configStyles[category] };
  }
  return merged;
}

/**
 * Wraps a longitude into -180..180 (190 → -170, -181 → 179); values already in range, 180 and
 * -180 included, are kept as they are.
 */
export function wrapLongitude(lng: number): number {
  if (lng >= -180 && lng <= 180) return lng;
  const wrapped = ((((lng + 180) % 360) + 360) % 360) - 180;
  return wrapped === 0 ? 0 : wrapped;
}

/** Why a position is not usable, or its [lng, lat] with the longitude wrapped. */
function readPosition(geometry: unknown): [number, number] | string {
  if (geometry === null || geometry === undefined) return 'has no geometry (a pin needs a Point)';
  if (!isRecord(geometry)) return `geometry must be a GeoJSON Point (got ${describeValue(geometry)})`;
  if (geometry.type !== 'Point') {
    return typeof geometry.type === 'string'
      ? `geometry is a ${geometry.type}, not a Point`
      : `geometry must be a GeoJSON Point (its type is ${describeValue(geometry.type)})`;
  }
  const coordinates = geometry.coordinates;
  if (!Array.isArray(coordinates)) return `coordinates must be [longitude, latitude] (got ${describeValue(coordinates)})`;
  if (coordinates.length < 2 || coordinates.length > 3) {
    return `coordinates must be [longitude, latitude] or [longitude, latitude, altitude] (got ${coordinates.length} value${coordinates.length === 1 ? '' : 's'})`;
  }
  const [lng, lat, altitude] = coordinates as unknown[];
  if (typeof lng !== 'number' || !Number.isFinite(lng)) return `longitude must be a finite number (got ${describeValue(lng)})`;
  if (typeof lat !== 'number' || !Number.isFinite(lat)) return `latitude must be a finite number (got ${describeValue(lat)})`;
  if (coordinates.length === 3 && (typeof altitude !== 'number' || !Number.isFinite(altitude))) {
    return `altitude must be a finite number when given (got ${describeValue(altitude)})`;
  }
  if (lat < -90 || lat > 90) return `latitude ${lat} is outside -90..90`;
  return [wrapLongitude(lng), lat];
}

/** What is wrong with a feature; a class so the good path allocates nothing. */
class Problem {
  constructor(readonly problem: string) {}
}

/** The feature's id (GeoJSON `id`, else `properties.id`) as a string, or why it has none. */
function readId(feature: Record<string, unknown>, properties: Record<string, unknown> | undefined): string | Problem {
  const fromFeature = feature.id !== undefined && feature.id !== null;
  const raw = fromFeature ? feature.id : properties?.id;
  const name = fromFeature ? 'id' : 'properties.id';
  if (raw === undefined || raw === null) return new Problem('has no id (a pin needs an `id` or `properties.id`, a string or a number)');
  if (typeof raw === 'number') {
    return Number.isFinite(raw) ? String(raw) : new Problem(`${name} must be a string or a finite number (got ${describeValue(raw)})`);
  }
  if (typeof raw !== 'string') return new Problem(`${name} must be a string or a number (got ${describeValue(raw)})`);
  if (raw.trim() === '') return new Problem(`${name} must not be empty`);
  return raw;
}

/** Reads an optional string property: absent or null is `undefined`; any other non-string is an error message. */
function optionalString(properties: Record<string, unknown>, key: string): string | undefined | Problem {
  const value = properties[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  return new Problem(`properties.${key} must be a string (got ${describeValue(value)})`);
}

/**
 * The common shape of a pin's link that surely parses: a host name of letters, digits and inner
 * hyphens ending in a name of letters (so neither an IP address nor punycode, which the parser
 * checks further), an optional port under 10000, then anything printable without spaces. Testing
 * it first spares 100k pins' links the full URL parser (about a fifth of checking them).
 */
export const PLAIN_HTTP_URL = /^https?:\/\/(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(?::\d{1,4})?(?:[/?#][\x21-\x7e]*)?$/i;

/** True for an absolute http: or https: URL (the scheme is checked first, then that it parses). */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  if (PLAIN_HTTP_URL.test(value) && !/xn--/i.test(value)) return true;
  return URL.canParse(value);
}

/**
 * Reads a collection's foreign members: its `attribution` (a non-blank string) and its own
 * `pinStyles`, checked (a bad part is dropped with a warning), with config's `pinStyles` laid
 * over them per category and field. `parsePins` starts with it; the pin tiler reads the members
 * as they stream past.
 */
export function readCollectionMembers(
  members: { attribution?: unknown; pinStyles?: unknown },
  pinStyles: Record<string, PinOptions> = {},
): { attribution?: string; pinStyles: Record<string, PinOptions>; warnings: string[] } {
  const warnings: string[] = [];
  let attribution: string | undefined;
  if (typeof members.attribution === 'string') {
    if (members.attribution.trim() !== '') attribution = members.attribution;
  } else if (members.attribution !== undefined && members.attribution !== null) {
    warnings.push(`pins: attribution must be a string (got ${describeValue(members.attribution)}); it is ignored`);
  }
  const styles = mergeStyles(members.pinStyles, pinStyles, warnings);
  return attribution === undefined ? { pinStyles: styles, warnings } : { attribution, pinStyles: styles, warnings };
}

/** Throws a `PinDataError` unless `input` is a FeatureCollection object (its `features` are not looked at). */
export function assertFeatureCollection(input: unknown): asserts input is Record<string, unknown> {
  if (!isRecord(input)) throw new PinDataError(`pins must be a GeoJSON FeatureCollection (got ${describeValue(input)})`);
  if (input.type !== 'FeatureCollection') {
    throw new PinDataError(
      `pins must be a GeoJSON FeatureCollection (got ${typeof input.type === 'string' ? `type ${quote(input.type)}` : 'an object without "type": "FeatureCollection"'})`,
    );
  }
}

/** The ids seen so far and the feature each came from: a `Map` does; the pin tiler keeps a leaner one. */
export interface IdRegistry {
  get(id: string): number | undefined;
  set(id: string, index: number): unknown;
}

/** A pin as `PinChecker.check` finds it: the pin, and the options of its own that were valid (without its category's). */
export interface CheckedPin {
  pin: Pin;
  own: PinOptions | undefined;
}

/**
 * The checks of one feature after another, as `parsePins` makes them (its rules are in its
 * comment), for a collection read whole or streamed a feature at a time (the pin tiler).
 * Skipped features and warnings are counted; the first `keep` of each are kept with their reasons.
 */
export class PinChecker {
  /** The first `keep` skipped features, with their reasons. */
  readonly skipped: SkippedFeature[] = [];
  /** The first `keep` warnings. */
  readonly warnings: string[] = [];
  skippedCount = 0;
  warningCount = 0;
  private readonly optionCache: OptionCache = new Map();
  /** Category (or none) → the options object shared by its pins that have none of their own. */
  private readonly categoryOptions = new Map<string | undefined, PinOptions>();
  /** Other properties each pin keeps as text (`Pin.fields`): the config's `searchFields` and `listDetailField`. */
  private extraFields: readonly string[] = [];
  /** Properties each pin's popup shows (`Pin.popupFields`): the config's `popupFields`. */
  private popupFields: readonly string[] = [];
  /** How reasons name an item by its index: `feature 12`, or `line 12` for a CSV file. */
  private label: (index: number) => string = (index) => `feature ${index}`;
  /** Whether reasons name an item by the name it is checked with (a CSV row's title) rather than its id. */
  private byName = false;

  /**
   * `styles`: category → pin options (`readCollectionMembers`' `pinStyles`); `ids`: where ids are
   * remembered to find duplicates; `keep`: how many reasons and warnings to keep.
   */
  constructor(
    private readonly styles: Record<string, PinOptions>,
    private readonly ids: IdRegistry = new Map<string, number>(),
    private readonly keep = Infinity,
    /** Told of every skipped feature, kept or not (the pin tiler writes them all to a file). */
    private readonly onSkipped?: (skipped: SkippedFeature) => void,
  ) {}

  /** Keeps these properties of each pin as text (`Pin.fields`), besides the ones every pin keeps. */
  keepFields(names: readonly string[]): this {
    this.extraFields = names.filter((name) => !PIN_FIELDS.has(name));
    return this;
  }

  /** Shows these properties in each pin's popup (`Pin.popupFields`), besides its title, description and link. */
  showFields(names: readonly string[]): this {
    this.popupFields = names.filter((name) => !POPUP_TEXT_FIELDS.has(name));
    return this;
  }

  /**
   * Names items in reasons with `label(index)` instead of `feature <index>` (a CSV file's
   * `line <n>`); with `byName`, by the name each is checked or rejected with (a CSV row's title:
   * `line 12 ("Café Rouge")`), not by its id.
   */
  labelled(label: (index: number) => string, byName = false): this {
    this.label = label;
    this.byName = byName;
    return this;
  }

  /** Adds warnings (counted, the first `keep` kept). */
  warn(...messages: string[]): void {
    for (const message of messages) {
      this.warningCount++;
      if (this.warnings.length < this.keep) this.warnings.push(message);
    }
  }

  /**
   * Skips the item at `index` for `problem` (counted; its reason kept among the first `keep`). Its
   * reason names it by `name`: by default its id, or, `labelled` by name, the name given (none when
   * none is).
   */
  reject(index: number, problem: string, id?: string, name: string | undefined = this.byName ? undefined : id): undefined {
    this.skippedCount++;
    if (this.skipped.length < this.keep || this.onSkipped) {
      const record: SkippedFeature[] = [];
      skip(record, index, this.label(index), problem, id, name);
      if (this.skipped.length < this.keep) this.skipped.push(record[0]!);
      this.onSkipped?.(record[0]!);
    }
    return undefined;
  }

  /**
   * The pin the feature at `index` makes, or undefined when it is skipped (its reason is recorded,
   * naming it by `name` when labelled by name).
   */
  check(feature: unknown, index: number, name?: string): CheckedPin | undefined {
    const problem = (text: string, id?: string): undefined => (this.byName ? this.reject(index, text, id, name) : this.reject(index, text, id));
    if (!isRecord(feature)) return problem(`must be a GeoJSON Feature object (got ${describeValue(feature)})`);
    const rawProperties = feature.properties;
    const properties = isRecord(rawProperties) ? rawProperties : undefined;
    const idResult = readId(feature, properties);
    const knownId = typeof idResult === 'string' ? idResult : undefined;

    if (feature.type !== 'Feature') return problem(`type must be "Feature" (got ${describeValue(feature.type)})`, knownId);
    if (typeof idResult !== 'string') return problem(idResult.problem);
    const id = idResult;
    const position = readPosition(feature.geometry);
    if (typeof position === 'string') return problem(position, id);
    if (properties === undefined) {
      return problem(
        rawProperties === undefined || rawProperties === null
          ? 'has no properties (a pin needs properties.title)'
          : `properties must be an object (got ${describeValue(rawProperties)})`,
        id,
      );
    }

    const title = properties.title;
    if (typeof title !== 'string') {
      return problem(title === undefined || title === null ? 'has no properties.title' : `properties.title must be a string (got ${describeValue(title)})`, id);
    }
    if (title.trim() === '') return problem('properties.title must not be empty', id);
    const description = optionalString(properties, 'description');
    const url = optionalString(properties, 'url');
    const category = optionalString(properties, 'category');
    if (description instanceof Problem || url instanceof Problem || category instanceof Problem) {
      const wrong = [description, url, category].find((v) => v instanceof Problem);
      return problem(wrong?.problem ?? 'has a property of the wrong type', id);
    }

    const first = this.ids.get(id);
    if (first !== undefined) return problem(`duplicate id ${quote(id)} (${this.label(first)} has it and is shown)`, id);
    this.ids.set(id, index);

    const categoryStyle = category === undefined ? undefined : this.styles[category];
    const ownOptions = properties.pin;
    let options: PinOptions;
    let own: PinOptions | undefined;
    if (ownOptions !== undefined && ownOptions !== null) {
      const valid: Record<string, unknown> = {};
      const warnings: string[] = [];
      lenientOptions(ownOptions, valid, { pinId: id, category, categoryStyle }, warnings, this.optionCache);
      this.warn(...warnings);
      own = valid as PinOptions;
      options = { ...categoryStyle, ...own };
    } else {
      // Pins with no options of their own share one (frozen) object per category, so the
      // renderers resolve and key each category's style once, not once per pin.
      options =
        this.categoryOptions.get(category) ?? this.categoryOptions.set(category, Object.freeze({ ...categoryStyle })).get(category)!;
    }

    const pin: Pin = { id, title, description: description ?? '', lngLat: position, options };
    if (url !== undefined) {
      if (isHttpUrl(url)) pin.url = url;
      else this.warn(`pin ${quote(id)}: properties.url ${quote(url)} is not an http(s) URL; it is not shown as a link`);
    }
    if (category !== undefined) pin.category = category;
    for (const name of this.extraFields) {
      const value = Object.hasOwn(properties, name) ? properties[name] : undefined;
      if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) (pin.fields ??= {})[name] = String(value);
    }
    for (const name of this.popupFields) {
      const value = Object.hasOwn(properties, name) ? properties[name] : undefined;
      const text = typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
      if (text !== '') (pin.popupFields ??= []).push([name, text]);
    }
    return { pin, own };
  }
}

/**
 * Turns GeoJSON into pins. `input` must be a FeatureCollection (else a `PinDataError` is thrown);
 * it may carry the foreign members `attribution` (a string) and `pinStyles` (category → pin
 * options). `pinStyles` given here (site config's, already validated) override the file's, per
 * category and field.
 *
 * Each feature needs:
 * - an id: the GeoJSON `id`, or else `properties.id`; a string (not blank) or a finite number,
 *   numbers become strings. The first feature with an id wins; later ones with the same id are
 *   skipped. Only pins that are shown claim their id.
 * - a Point geometry whose coordinates are two finite numbers (a third, the altitude, is allowed
 *   and ignored), latitude within -90..90. A longitude outside -180..180 is wrapped into that
 *   range (e.g. 190 → -170), as the map would show it there anyway.
 * - `properties.title`: a non-empty string.
 * Optional properties (absent or null means not given): `description` (string, default ''), `url`
 * (string; only an absolute http(s) URL is kept, any other is dropped with a warning), `category`
 * (string), `pin` (pin options, checked field by field; a bad field is dropped with a warning and
 * the category's style or the default applies). A property of the wrong type skips the feature.
 */
export function parsePins(input: unknown, pinStyles: Record<string, PinOptions> = {}, reading: PinReading = {}): PinSet {
  assertFeatureCollection(input);
  const features = input.features;
  if (!Array.isArray(features)) {
    throw new PinDataError(`pins must be a GeoJSON FeatureCollection whose "features" is an array (got ${describeValue(features)})`);
  }
  const members = readCollectionMembers(input, pinStyles);
  const checker = new PinChecker(members.pinStyles).keepFields(keptFields(reading)).showFields(reading.popupFields ?? []);
  checker.warn(...members.warnings);
  const pins: Pin[] = [];
  for (let index = 0; index < features.length; index++) {
    const checked = checker.check(features[index], index);
    if (checked) pins.push(checked.pin);
  }
  const set: PinSet = { pins, skipped: checker.skipped, warnings: checker.warnings, pinStyles: members.pinStyles };
  if (members.attribution !== undefined) set.attribution = members.attribution;
  return set;
}

/** The properties each pin keeps as text (`Pin.fields`) for a reading: the search's, and the list's detail. */
export function keptFields(reading: PinReading): string[] {
  return [...(reading.searchFields ?? []), ...(reading.listDetailField === undefined ? [] : [reading.listDetailField])];
}

/** The properties every pin keeps anyway (a search field naming one needs nothing kept). */
const PIN_FIELDS = new Set(['title', 'description', 'url', 'category', 'id']);
/** The properties a popup shows anyway (a popup field naming one is not shown twice). */
const POPUP_TEXT_FIELDS = new Set(['title', 'description', 'url']);

/** Records a skipped feature; its reason names the feature (`label`: by index or line) and, when it has one, its `name` (its id, or a CSV row's title). */
function skip(skipped: SkippedFeature[], index: number, label: string, problem: string, id?: string, name?: string): void {
  const reason = name === undefined ? `${label}: ${problem}` : `${label} (${quote(name)}): ${problem}`;
  skipped.push(id === undefined ? { index, reason } : { index, id, reason });
}

/** The first `max` lines, and one more saying how many were left out. */
function summarise(lines: readonly string[], max: number): string[] {
  if (lines.length <= max) return [...lines];
  const rest = lines.length - max;
  return [...lines.slice(0, Math.max(0, max)), `… and ${rest} more`];
}

/** The console listing of skipped features: the first `max` reasons and a count of the rest. */
export function summariseSkipped(set: Pick<PinSet, 'skipped'>, max = 5): string[] {
  return summarise(
    set.skipped.map((s) => s.reason),
    max,
  );
}

/** The console listing of warnings: the first `max` and a count of the rest. */
export function summariseWarnings(set: Pick<PinSet, 'warnings'>, max = 5): string[] {
  return summarise(set.warnings, max);
}

/** The small notice shown on the page when features were skipped ('1 pin could not be shown'), or undefined. */
export function pinNotice(set: Pick<PinSet, 'skipped'>): string | undefined {
  const count = set.skipped.length;
  if (count === 0) return undefined;
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'pin' : 'pins'} could not be shown`;
}

/** What to tell about a pin set: the page notice (only when features were skipped) and console lines. */
export interface PinSetReport {
  notice?: string;
  /** The first reasons for skipped features and the first warnings, each list capped at `max` with a count of the rest. */
  console: string[];
}

/** The notice and console lines for a pin set; both are empty when nothing was skipped or dropped. */
export function describePinSet(set: Pick<PinSet, 'skipped' | 'warnings'>, max = 5): PinSetReport {
  const lines: string[] = [];
  const notice = pinNotice(set);
  if (notice !== undefined) lines.push(`${notice}:`, ...summariseSkipped(set, max).map((line) => `  ${line}`));
  if (set.warnings.length > 0) {
    const count = set.warnings.length;
    lines.push(`${count.toLocaleString('en-US')} ${count === 1 ? 'warning' : 'warnings'} about the pins:`);
    lines.push(...summariseWarnings(set, max).map((line) => `  ${line}`));
  }
  return notice === undefined ? { console: lines } : { notice, console: lines };
}

/** A pin set's pins by id, made when one is first looked for: a large set that is only drawn never makes it. */
export class PinsById {
  private byId: Map<string, Pin> | undefined;

  constructor(private readonly list: readonly Pin[]) {}

  get size(): number {
    return this.list.length;
  }

  get(id: string): Pin | undefined {
    if (!this.byId) {
      this.byId = new Map();
      for (const pin of this.list) this.byId.set(pin.id, pin);
    }
    return this.byId.get(id);
  }
}
