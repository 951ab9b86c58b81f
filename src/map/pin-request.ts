import { archiveReader } from './pmtiles.ts';
import { openRequest } from './request-path.ts';
import { withToken, type TokenRule } from './request-transform.ts';

/** How a config's pins are fetched: the token rule, the limits, and progress (`pinRequestOf`). */
export interface PinRequest {
  /** The token rule of the map (a pin file on the provider's origin carries the token). */
  rule?: TokenRule | undefined;
  /** Milliseconds the server has to start answering, and the body may stall (config `pinsTimeout`). */
  timeout?: number | undefined;
  /** The most bytes the file may have once decompressed (config `maxPinBytes`). */
  maxBytes?: number | undefined;
  /** Told the bytes read so far and the total when known, as a pin file arrives. */
  onProgress?: ((loaded: number, total: number | undefined) => void) | undefined;
}

/**
 * The first request of a config's pins, made while the pins' code (`pin-source.ts`, a chunk of
 * its own) loads, so the file or archive is on its way from the start, as it would be on a page
 * that fetched it itself:
 * - a GeoJSON URL is requested through the request path (the token rule, the timeout), and
 *   `loadPinSet` reads that response (within the size limit) and reports its faults;
 * - a pre-tiled archive (`pmtiles://…`) has its header read by the reader the page and the map
 *   share (`archiveReader`), which `openPinArchive` then finds read.
 * Inline pins need no request. Nothing here reports a failure: `loadPinSet` does, as without it.
 */
export function startPinRequest(pins: unknown, baseUrl: string, signal: AbortSignal, request: PinRequest = {}): Promise<Response> | undefined {
  if (typeof pins !== 'string') return undefined;
  let url: string;
  try {
    url = new URL(pins.startsWith('pmtiles://') ? pins.slice('pmtiles://'.length) : pins, baseUrl).href;
  } catch {
    return undefined; // `loadPinSet` says what is wrong with the URL
  }
  if (pins.startsWith('pmtiles://')) {
    const archive = withToken(url, request.rule);
    archiveReader(archive.url, archive.headers).getHeader().catch(() => {});
    return undefined;
  }
  const response = openPinRequest(url, signal, request);
  response.catch(() => {});
  return response;
}

/** Sends the request for a GeoJSON pin file at `url` (absolute): the token rule, the timeout, the abort. */
export function openPinRequest(url: string, signal: AbortSignal | undefined, request: PinRequest): Promise<Response> {
  const { url: withRule, headers } = withToken(url, request.rule);
  return openRequest(withRule, { headers, signal, timeout: request.timeout });
}
