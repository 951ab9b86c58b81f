import { MESSAGES, reasonOf } from '../config/errors.ts';
import { policyViolationFor, watchPolicyViolations } from './policy-violations.ts';

/**
 * The one way Pinmap fetches anything: the style, tiles, glyphs and sprites (MapLibre's requests,
 * through `map-requests.ts`), PMTiles archives (`pmtiles.ts`), pin files (`pin-source.ts`) and the
 * app's `?config=`. The token rule (`request-transform.ts`) has decided the URL and headers by
 * then; this holds every request to the same limits:
 *
 * - Redirects: a request that carries a header of the site's (the token as a header) is sent
 *   with `redirect: 'manual'`, and a redirect is refused with a named error. A browser does not
 *   let a page read where a redirect points, so it cannot be followed by hand without the header;
 *   followed by the browser, a custom header would go along to whatever origin it names.
 * - A timeout until the server starts to answer, and a stall timeout while the body comes.
 * - A limit on the bytes of the body, counted as they arrive, after the browser has undone any
 *   `Content-Encoding` (a small gzip file that inflates to gigabytes stops at the limit).
 * - The caller's abort signal (a map destroyed) stops the request and the reading.
 * - Progress, for the files large enough to show it.
 * - A request the page's Content Security Policy refused is named as such, with the directive
 *   and the origin to add (`policy-violations.ts`), not as a bare "Failed to fetch"; one of the
 *   page's own origin that a redirect took to an origin the policy refuses says so (the browser
 *   tells the page neither where it pointed nor that it was a redirect). Watched from the page's
 *   first request on, a `?config=` or a pin file before any map.
 *
 * Every failure but an abort is a {@link RequestError}; its message says why, without the URL
 * (the caller names what it asked for).
 */

/** Why a request failed. */
export type RequestFailure = 'http' | 'network' | 'policy' | 'redirect' | 'timeout' | 'stalled' | 'too-large';

/** A request that failed: `failure` says how, the message says why; `status` for an HTTP error. */
export class RequestError extends Error {
  override name = 'RequestError';
  constructor(
    message: string,
    readonly failure: RequestFailure,
    readonly status = 0,
  ) {
    super(message);
  }
}

/** How a request is made. */
export interface RequestOptions {
  /** Headers to send: the token's (the token rule's), a `Range`. */
  headers?: Record<string, string> | undefined;
  /** Stops the request and the reading of its body (a map destroyed, a request no longer needed). */
  signal?: AbortSignal | undefined;
  /** Milliseconds the server has to start answering; none by default. */
  timeout?: number | undefined;
  /** The browser's HTTP cache mode (`fetch`'s `cache`); the browser's default when not given. */
  cache?: RequestCache | undefined;
}

/** How a body is read. */
export interface BodyOptions {
  /** The most bytes the body may have once decompressed; more is a `too-large` error. */
  maxBytes?: number | undefined;
  /** The config option that sets `maxBytes`, named in its error. */
  limitOption?: string | undefined;
  /** Milliseconds the body may stall (no bytes) before it is a `stalled` error; none by default. */
  stallTimeout?: number | undefined;
  /** Told the bytes read so far and the total when the server announced it. */
  onProgress?: ((loaded: number, total: number | undefined) => void) | undefined;
}

/** Header names that carry nothing of the site's own: a request with only these follows redirects. */
const PLAIN_HEADERS = new Set(['range', 'accept', 'if-none-match', 'last-event-id']);

/** Whether a redirect would take a header of the site's (the token) along. */
export function carriesSiteHeaders(headers: Record<string, string> | undefined): boolean {
  return Object.keys(headers ?? {}).some((name) => !PLAIN_HEADERS.has(name.toLowerCase()));
}

/**
 * Sends a request and resolves once its answer's headers are in (any status: the caller judges
 * it). Rejects with a {@link RequestError} (or the signal's abort).
 */
export async function openRequest(url: string, { headers, signal, timeout, cache }: RequestOptions = {}): Promise<Response> {
  // From the page's first request on, whichever it is: a `?config=` or a pin file is asked for
  // before any map (whose request protocol watched the policy once) is made.
  watchPolicyViolations();
  const timer = new AbortController();
  const combined = signal ? AbortSignal.any([signal, timer.signal]) : timer.signal;
  const timeoutId = timeout === undefined ? undefined : setTimeout(() => timer.abort(), timeout);
  let response: Response;
  try {
    response = await fetch(url, { ...(headers ? { headers } : {}), ...(cache ? { cache } : {}), signal: combined, redirect: carriesSiteHeaders(headers) ? 'manual' : 'follow' });
  } catch (error) {
    if (signal?.aborted) throw error;
    if (timer.signal.aborted) throw new RequestError(MESSAGES.requestTimedOut(timeout ?? 0), 'timeout');
    const violation = await policyViolationFor(url);
    // The page's own origin is refused only where a redirect took the request elsewhere: the
    // browser reports the URL asked for, and keeps where the redirect pointed to itself.
    if (violation) throw new RequestError(violation.origin === globalThis.location?.origin ? MESSAGES.redirectBlockedByPolicy(violation.directive) : MESSAGES.blockedByPolicy(violation.directive, violation.origin), 'policy');
    throw new RequestError(reasonOf(error), 'network');
  } finally {
    clearTimeout(timeoutId);
  }
  // Browsers hide a redirect's answer (`opaqueredirect`); other runtimes hand it over as it is.
  if (response.type === 'opaqueredirect' || (carriesSiteHeaders(headers) && response.status >= 300 && response.status < 400)) {
    await response.body?.cancel().catch(() => {});
    throw new RequestError(MESSAGES.requestRedirected, 'redirect');
  }
  return response;
}

/** A failed HTTP status as a {@link RequestError}: `reasonOf` reads it as `HTTP 404 (Not Found)`. */
export function httpError(response: Response): RequestError {
  return new RequestError(response.statusText, 'http', response.status);
}

/**
 * The body's length as the server announced it, when that is the length of what is read (no
 * `Content-Encoding` the page can see); undefined when unknown.
 */
function announcedLength(response: Response): number | undefined {
  const length = Number(response.headers.get('Content-Length') ?? NaN);
  const encoding = response.headers.get('Content-Encoding');
  return Number.isFinite(length) && (!encoding || encoding === 'identity') ? length : undefined;
}

/**
 * Reads a body whole, counting its bytes as they come: past `maxBytes` the reading stops with a
 * `too-large` error, and a body that stalls for `stallTimeout` ms stops with a `stalled` one.
 */
export async function readBody(response: Response, { maxBytes, limitOption, stallTimeout, onProgress }: BodyOptions = {}): Promise<Uint8Array> {
  const tooLarge = () => new RequestError(MESSAGES.requestTooLarge(maxBytes ?? 0, limitOption), 'too-large');
  // A Content-Length past the limit fails at once: what is decompressed is no smaller.
  const announced = Number(response.headers.get('Content-Length') ?? NaN);
  if (maxBytes !== undefined && announced > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const total = announcedLength(response);
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await readWithin(reader, stallTimeout);
    if (done) break;
    loaded += value.byteLength;
    if (maxBytes !== undefined && loaded > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
    onProgress?.(loaded, total);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * The reader's next chunk, or a `stalled` error (with the reading cancelled) after `ms`; a body
 * the network cut short is a `network` error (an abort stays as it is).
 */
async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number | undefined): Promise<ReadableStreamReadResult<Uint8Array>> {
  return nextChunk(reader, ms).catch((error: unknown) => {
    if (error instanceof RequestError || (error instanceof Error && error.name === 'AbortError')) throw error;
    throw new RequestError(reasonOf(error), 'network');
  });
}

async function nextChunk(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number | undefined): Promise<ReadableStreamReadResult<Uint8Array>> {
  if (ms === undefined) return reader.read();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reader.cancel().catch(() => {});
      reject(new RequestError(MESSAGES.requestStalled(ms), 'stalled'));
    }, ms);
  });
  try {
    return await Promise.race([reader.read(), stalled]);
  } finally {
    clearTimeout(timer);
  }
}

/** What {@link fetchBytes} reads: the body, and the answer it came with. */
export interface FetchedBytes {
  bytes: Uint8Array;
  response: Response;
}

/**
 * Fetches a file whole through the request path: the answer must be a success (else an `http`
 * error), and its body is read within the limits. `timeout` covers the start of the answer and,
 * as a stall timeout, every wait for more of the body.
 */
export async function fetchBytes(url: string, options: RequestOptions & Omit<BodyOptions, 'stallTimeout'> = {}): Promise<FetchedBytes> {
  const response = await openRequest(url, options);
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw httpError(response);
  }
  const bytes = await readBody(response, { ...options, stallTimeout: options.timeout });
  return { bytes, response };
}
