import { MESSAGES } from './errors.ts';
import { isFetchableUrl } from './schema.ts';

/**
 * The page address as the camera's and the view's memory (PRODUCT.md, "Page address"):
 * `#map=zoom/lat/lng/bearing/pitch` and `?view=vector|hybrid`. Pure string work, so it is unit
 * tested without a browser; anything that does not parse is ignored, never thrown.
 */

/** Where the map looks: what `#map=zoom/lat/lng/bearing/pitch` keeps. */
export interface Camera {
  /** `[longitude, latitude]` in degrees. */
  center: [number, number];
  /** Zoom level (MapLibre's, 512 px tiles). */
  zoom: number;
  /** Degrees clockwise from north. */
  bearing: number;
  /** Degrees of tilt, 0 looking straight down. */
  pitch: number;
}

/** The map's view: `'vector'` (MapLibre) or `'hybrid'` (Leaflet holding the vector map as a layer). */
export type ViewName = 'vector' | 'hybrid';

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

function toNumber(text: string | undefined): number | undefined {
  if (text === undefined || !NUMBER.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** The `map=` entry of a hash such as `#map=3/50.1/10.2/0/0&other=1`, or undefined. */
function mapEntry(hash: string): string | undefined {
  const body = hash.replace(/^#/, '');
  for (const part of body.split('&')) {
    const [key, ...rest] = part.split('=');
    if (key === 'map') return rest.join('=');
  }
  return undefined;
}

/**
 * Reads the camera from an address hash. Zoom, latitude and longitude are required; bearing and
 * pitch default to 0. Out-of-range values (|lat| > 90, |lng| > 180) and any garbage give undefined.
 */
export function parseMapHash(hash: string): Camera | undefined {
  let entry: string | undefined;
  try {
    entry = mapEntry(decodeURIComponent(hash));
  } catch {
    return undefined;
  }
  if (entry === undefined) return undefined;
  const parts = entry.split('/');
  if (parts.length < 3 || parts.length > 5) return undefined;
  const [zoom, lat, lng] = [toNumber(parts[0]), toNumber(parts[1]), toNumber(parts[2])];
  const bearing = parts[3] === undefined ? 0 : toNumber(parts[3]);
  const pitch = parts[4] === undefined ? 0 : toNumber(parts[4]);
  if (zoom === undefined || lat === undefined || lng === undefined || bearing === undefined || pitch === undefined) return undefined;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return undefined;
  return { center: [lng, lat], zoom, bearing, pitch };
}

/**
 * Writes the camera as a `map=` entry, with as many decimals as the zoom needs to stay within a
 * pixel, keeping any other entries of the existing hash.
 */
export function formatMapHash(camera: Camera, existingHash = ''): string {
  const precision = Math.max(0, Math.ceil((camera.zoom * Math.LN2 + Math.log(512 / 360 / 0.5)) / Math.LN10));
  const m = Math.pow(10, precision);
  const round = (v: number, factor: number) => Math.round(v * factor) / factor;
  const fields = [round(camera.zoom, 100), round(camera.center[1], m), round(camera.center[0], m)];
  const bearing = round(camera.bearing, 10);
  const pitch = Math.round(camera.pitch);
  if (bearing !== 0 || pitch !== 0) fields.push(bearing);
  if (pitch !== 0) fields.push(pitch);
  const entry = `map=${fields.map((v) => (Object.is(v, -0) ? 0 : v)).join('/')}`;
  const others = existingHash
    .replace(/^#/, '')
    .split('&')
    .filter((part) => part !== '' && !part.startsWith('map='));
  return `#${[entry, ...others].join('&')}`;
}

/** Reads `?view=` from a search string; anything but the two names gives undefined. */
export function parseView(search: string): ViewName | undefined {
  const view = new URLSearchParams(search).get('view');
  return view === 'vector' || view === 'hybrid' ? view : undefined;
}

/**
 * Reads `?hide=cat1,cat2` (the legend's hidden categories) from a search string: names split at
 * commas, a comma or percent sign inside a name written as `%2C` / `%25` (see `formatHidden`);
 * empty names are dropped. Undefined when there is no `hide`.
 */
export function parseHidden(search: string): string[] | undefined {
  const value = new URLSearchParams(search).get('hide');
  if (value === null) return undefined;
  return value
    .split(',')
    .map((name) => name.replace(/%2C/gi, ',').replace(/%25/g, '%'))
    .filter((name) => name !== '');
}

/**
 * The page address with `?hide=` set to these categories (removed when there are none), commas
 * between names kept readable; the rest of the address stays as it was.
 */
export function withHidden(href: string, hidden: readonly string[]): string {
  const url = new URL(href);
  if (hidden.length === 0) {
    url.searchParams.delete('hide');
    return url.href;
  }
  url.searchParams.set('hide', hidden.map((name) => name.replace(/%/g, '%25').replace(/,/g, '%2C')).join(','));
  // URLSearchParams writes the separating commas as %2C; a comma inside a name is %252C by now.
  url.search = url.search.replace(/%2C/g, ',');
  return url.href;
}

/** Which origins the app takes a file of its address from (config `addressPins`, `addressConfig`). */
export type AddressOrigins = 'same-origin' | 'any' | string[];

/** A rule as config gives it, read safely: anything but `'any'` or a list of strings is `'same-origin'`. */
function originsRule(rule: unknown): AddressOrigins {
  if (rule === 'any') return 'any';
  if (Array.isArray(rule)) return rule.filter((entry): entry is string => typeof entry === 'string').map((entry) => entry.replace(/\/$/, ''));
  return 'same-origin';
}

/**
 * Why the app does not take the file `value` of its address, or undefined when it does: it must be
 * an http(s) URL or a path (`pmtiles://` and one of those for a pin archive, where `archives`),
 * on the page's own origin unless the rule `allowed` allows any origin (`'any'`) or lists it.
 * `refused` words the reason as the message for the parameter.
 */
function addressRefusal(value: string, allowed: unknown, pageHref: string, noun: string, refused: (shown: string, reason: string) => string, archives: boolean): string | undefined {
  const shown = value.length > 200 ? `${value.slice(0, 199)}…` : value;
  const target = archives && value.startsWith('pmtiles://') ? value.slice('pmtiles://'.length) : value;
  if (target === '' || !isFetchableUrl(target)) return refused(shown, 'it is not an http(s) URL or a path');
  const rule = originsRule(allowed);
  if (rule === 'any') return undefined;
  const origin = new URL(target, pageHref).origin;
  const listed = rule === 'same-origin' ? [] : rule;
  if (origin === new URL(pageHref).origin || listed.includes(origin)) return undefined;
  return refused(shown, listed.length === 0 ? `this map takes ${noun} from its own site only` : `this map takes ${noun} from its own site and ${listed.join(', ')} only`);
}

/**
 * Why the app does not take `?pins=<value>` from its address, or undefined when it does: the
 * value must be an http(s) URL or a path (`pmtiles://` and one of those for a pin archive), on
 * the page's own origin unless config `addressPins` allows any origin (`'any'`) or lists it. A
 * link cannot so swap a site's pins for someone else's, under the site's name.
 */
export function addressPinsRefusal(value: string, allowed: unknown, pageHref: string): string | undefined {
  return addressRefusal(value, allowed, pageHref, 'pins', MESSAGES.addressPinsRefused, true);
}

/**
 * Why the app does not take `?config=<value>` from its address, or undefined when it does: as
 * `?pins=` (an http(s) URL or a path, on the page's own origin unless the site's config
 * `addressConfig` allows any origin or lists it). A link cannot so put another site's config
 * (its pins, texts and links) on a site under its name.
 */
export function addressConfigRefusal(value: string, allowed: unknown, pageHref: string): string | undefined {
  return addressRefusal(value, allowed, pageHref, 'configs', MESSAGES.addressConfigRefused, false);
}

/**
 * The narrower of two rules of which origins the address may name: a config read from another
 * origin through the address (`?config=`) keeps its own `addressPins` and `addressConfig` only
 * where they do not widen the site's (`site`): `'any'` gives way to the other rule, a list to
 * `'same-origin'`, and two lists keep the origins both name.
 */
export function narrowerOrigins(site: unknown, read: unknown): AddressOrigins {
  const [a, b] = [originsRule(site), originsRule(read)];
  if (a === 'any') return b;
  if (b === 'any') return a;
  if (a === 'same-origin' || b === 'same-origin') return 'same-origin';
  const both = a.filter((origin) => b.includes(origin));
  return both.length === 0 ? 'same-origin' : both;
}

/** Whether `url` (absolute, or relative to the page) is on the page's own origin. */
export function isPageOrigin(url: string, pageHref: string): boolean {
  try {
    return new URL(url, pageHref).origin === new URL(pageHref).origin;
  } catch {
    return false;
  }
}
