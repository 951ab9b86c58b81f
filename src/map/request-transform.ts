import type { RequestParameters, RequestTransformFunction } from 'maplibre-gl';
import type { PinmapConfig } from '../config/schema.ts';

/**
 * The maps provider's origin: `providerOrigin` if the config names one, else the origin of the
 * style URL. Undefined when there is no provider (the embedded basemap, an inline style).
 */
export function providerOriginOf(config: Pick<PinmapConfig, 'providerOrigin' | 'style'>, base: string): string | undefined {
  if (config.providerOrigin) return new URL(config.providerOrigin).origin;
  if (typeof config.style !== 'string') return undefined;
  return new URL(config.style, base).origin;
}

/** The token the maps see: the vector layer's own (hybrid view option) or the config's. */
export function accessTokenOf(config: Pick<PinmapConfig, 'accessToken' | 'vectorLayer'>): string | undefined {
  return config.vectorLayer.accessToken || config.accessToken;
}

/** Who gets the token, and how: what `tokenTransform` applies to each request. */
export interface TokenRule {
  /** The token; none: no request carries one. */
  token?: string | undefined;
  /** The only origin whose requests carry it. */
  providerOrigin?: string | undefined;
  /** The header that carries it; none: the `access_token` query parameter. */
  header?: string | undefined;
}

/** A config's token rule (`base`: the page, for a relative style URL). */
export function tokenRuleOf(config: Pick<PinmapConfig, 'accessToken' | 'vectorLayer' | 'providerOrigin' | 'style' | 'accessTokenHeader'>, base: string): TokenRule {
  return { token: accessTokenOf(config), providerOrigin: providerOriginOf(config, base), header: config.accessTokenHeader };
}

/**
 * Attaches the access token to requests for the provider's own origin and to no other request:
 * as the `access_token` query parameter, or, when `header` names one, as that request header
 * (`Authorization` carries it as a bearer token). Undefined when there is nothing to attach.
 * A `pmtiles://` URL is judged by its archive's URL: an archive on the provider's origin is
 * fetched with the token, any other without.
 */
export function tokenTransform(token: string | undefined, providerOrigin: string | undefined, header?: string): RequestTransformFunction | undefined {
  if (!token || !providerOrigin) return undefined;
  const forUrl = (url: string): RequestParameters => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { url };
    }
    if (parsed.origin !== providerOrigin) return { url };
    if (header) return { url, headers: { [header]: /^authorization$/i.test(header) ? `Bearer ${token}` : token } };
    if (!parsed.searchParams.has('access_token')) parsed.searchParams.set('access_token', token);
    return { url: parsed.href };
  };
  return (url, resourceType) => {
    if (!url.startsWith(PMTILES_SCHEME)) return forUrl(url);
    // A PMTiles archive's TileJSON (`pmtiles://<archive>`) or one of its tiles
    // (`pmtiles://<archive>/z/x/y.ext`): the rule applies to the archive's URL, which the
    // protocol then fetches with range requests, with the URL and headers given here.
    const rest = url.slice(PMTILES_SCHEME.length);
    const tile = resourceType === 'Tile' ? PMTILES_TILE_SUFFIX.exec(rest) : null;
    const archive = tile ? rest.slice(0, tile.index) : rest;
    const forArchive = forUrl(archive);
    return { ...forArchive, url: `${PMTILES_SCHEME}${forArchive.url}${tile ? tile[0] : ''}` };
  };
}

const PMTILES_SCHEME = 'pmtiles://';

/** The URL and headers a request of Pinmap's own (not MapLibre's) is made with under `rule`. */
export function withToken(url: string, rule: TokenRule | undefined): { url: string; headers: Record<string, string> } {
  const params = rule ? tokenTransform(rule.token, rule.providerOrigin, rule.header)?.(url) : undefined;
  if (!params || params instanceof Promise) return { url, headers: {} };
  return { url: params.url, headers: (params.headers as Record<string, string> | undefined) ?? {} };
}
/** The `/z/x/y` (and extension) a PMTiles tile URL ends with. */
const PMTILES_TILE_SUFFIX = /\/\d+\/\d+\/\d+(?:\.[a-z]+)?$/i;

/**
 * Text with every spelling of the token blanked, for messages and logs: as it is, percent-encoded
 * (any character of it, in upper or lower case hex: `encodeURIComponent`, `URLSearchParams` and
 * the URL parser each encode other characters), and form-encoded (a space as `+`).
 */
export function redactToken(text: string, token: string | undefined): string {
  if (!token) return text;
  return text.replace(tokenPattern(token), '[token]');
}

/** The pattern of every spelling of `token` (see `redactToken`), made once per token. */
const patterns = new Map<string, RegExp>();

function tokenPattern(token: string): RegExp {
  let pattern = patterns.get(token);
  if (pattern) return pattern;
  const parts = Array.from(token, (character) => {
    const spellings = [escapeRegExp(character), percentEncoded(character)];
    if (character === ' ') spellings.push('\\+');
    return `(?:${spellings.join('|')})`;
  });
  pattern = new RegExp(parts.join(''), 'g');
  if (patterns.size > 16) patterns.clear();
  patterns.set(token, pattern);
  return pattern;
}

/** A character's UTF-8 bytes as `%XX` in either case of hex, as a pattern. */
function percentEncoded(character: string): string {
  return Array.from(new TextEncoder().encode(character), (byte) =>
    `%${[...byte.toString(16).padStart(2, '0')].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('')}`,
  ).join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
