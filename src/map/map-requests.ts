import { addProtocol, type AddProtocolAction, type RequestParameters, type RequestTransformFunction } from 'maplibre-gl';
import { reasonOf } from '../config/errors.ts';
import { fetchBytes, RequestError } from './request-path.ts';
import { tokenTransform, type TokenRule } from './request-transform.ts';
import { watchPolicyViolations } from './policy-violations.ts';

/**
 * MapLibre's requests (style, tiles, glyphs, sprites, images) through Pinmap's request path
 * (`request-path.ts`). The map's `transformRequest` applies the token rule, then hands every
 * http(s) URL to the `pinmap://` protocol registered here, which fetches it in the page with the
 * request path's rules: no redirect for a request that carries the token in a header, a size
 * limit, the abort MapLibre gives, and a request the page's policy refused named as such.
 * (MapLibre's workers hand a protocol's requests to the page, where the protocol runs.)
 */

const SCHEME = 'pinmap';
const PREFIX = `${SCHEME}://`;

/** The most bytes one map resource (a style, a tile, a sprite) may have, decompressed. */
export const MAP_RESOURCE_LIMIT = 64 * 1024 * 1024;

/**
 * The map's `transformRequest`: the token rule for `rule`, then every http(s) request through
 * the request path. Other schemes (`pmtiles://`, `data:`, an app's own protocol) are left as the
 * token rule leaves them.
 */
export function mapRequestTransform(rule: TokenRule): RequestTransformFunction {
  registerRequestProtocol();
  const token = tokenTransform(rule.token, rule.providerOrigin, rule.header);
  return (url, resourceType) => {
    const params = (token?.(url, resourceType) as RequestParameters | undefined) ?? { url };
    if (!/^https?:\/\//i.test(params.url)) return params;
    return { ...params, url: `${PREFIX}${params.url}` };
  };
}

/** Header values as a plain record (MapLibre passes what the request transform returned). */
export function headersOf(params: RequestParameters): Record<string, string> {
  const headers: unknown = params.headers;
  if (!headers || typeof headers !== 'object') return {};
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  return Object.fromEntries(Object.entries(headers as Record<string, unknown>).map(([name, value]) => [name, String(value)]));
}

/**
 * Fetches one of MapLibre's requests (`pinmap://<http(s) URL>`) through the request path and
 * hands MapLibre the kind of data it asked for. A failure names the URL, as MapLibre's own
 * errors do (the map's warnings and error panel show it, with the token blanked).
 */
export const loadMapResource: AddProtocolAction = async (params, abortController) => {
  const url = params.url.slice(PREFIX.length);
  let fetched;
  try {
    fetched = await fetchBytes(url, { headers: headersOf(params), signal: abortController.signal, maxBytes: MAP_RESOURCE_LIMIT });
  } catch (error) {
    if (!(error instanceof RequestError)) throw error; // an abort, as MapLibre expects it
    throw Object.assign(new RequestError(`${error.status > 0 ? error.message || 'failed' : reasonOf(error)}: ${url}`, error.failure, error.status), { url });
  }
  const { bytes, response } = fetched;
  const expiry = { cacheControl: response.headers.get('Cache-Control'), expires: response.headers.get('Expires') };
  if (params.type === 'json') return { data: JSON.parse(new TextDecoder().decode(bytes)) as object, ...expiry };
  if (params.type === 'string') return { data: new TextDecoder().decode(bytes) as unknown as ArrayBuffer, ...expiry };
  return { data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, ...expiry };
};

let registered = false;

/** Registers the `pinmap://` protocol with MapLibre (once per page) and starts watching the page's policy. */
export function registerRequestProtocol(): void {
  if (registered) return;
  registered = true;
  watchPolicyViolations();
  addProtocol(SCHEME, loadMapResource);
}
