import type { PinOptions } from '../config/pin-options.ts';
import { parsePins } from '../pins/data.ts';
import { isCsvFile, parseCsvPins } from '../pins/csv.ts';
import type { PinReading, PinSet } from '../pins/types.ts';

export { describePinSet } from '../pins/data.ts';
import { MESSAGES, httpFailure, isHtmlAnswer, reasonOf } from '../config/errors.ts';
import { PinArchiveError, isPinArchiveUrl, openPinArchive } from './pin-archive.ts';
import { openPinRequest, type PinRequest } from './pin-request.ts';
import { openRequest, readBody } from './request-path.ts';
import { withToken } from './request-transform.ts';
import { archiveProblem } from './pmtiles.ts';

/** Pins could not be had at all (the file failed or is not GeoJSON); the map goes on without them. */
export class PinLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PinLoadError';
  }
}

/**
 * Fetches (for a URL) and validates a config's pins: GeoJSON, or CSV (`isCsvFile`). A URL is
 * resolved against `baseUrl` (the page) and fetched through the request path with `request`'s
 * token rule, timeout, size limit and progress; `started` is its request when that was sent
 * already (`startPinRequest`); `reading` says which fields to keep and a CSV file's columns.
 * Resolves with the pins that can be shown and what was skipped; rejects with a `PinLoadError`
 * whose message names the URL and the reason.
 */
export async function loadPinSet(
  pins: string | object,
  pinStyles: Record<string, PinOptions>,
  baseUrl: string,
  signal?: AbortSignal,
  reading: PinReading = {},
  started?: Promise<Response>,
  request: PinRequest = {},
): Promise<PinSet> {
  if (isPinArchiveUrl(pins)) return loadPinArchive(pins, pinStyles, baseUrl, request);
  const where = typeof pins === 'string' ? new URL(pins, baseUrl).href : 'the config';
  let data: unknown = pins;
  let csv: string | undefined;
  if (typeof pins === 'string') {
    let response: Response;
    let bytes: Uint8Array;
    try {
      response = await (started ?? openPinRequest(where, signal, request));
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new PinLoadError(`Could not load the pins from ${where}: ${httpFailure(response.status)}`);
      }
      bytes = await readBody(response, { maxBytes: request.maxBytes, limitOption: 'maxPinBytes', stallTimeout: request.timeout, onProgress: request.onProgress });
    } catch (error) {
      if (error instanceof PinLoadError) throw error;
      throw new PinLoadError(`Could not load the pins from ${where}: ${reasonOf(error)}`);
    }
    const text = new TextDecoder().decode(bytes);
    const type = response.headers.get('Content-Type');
    const isCsv = isCsvFile(where, type, text);
    if (isHtmlAnswer(type, text)) throw new PinLoadError(`Could not load the pins from ${where}: ${MESSAGES.htmlAnswer(isCsv ? 'CSV' : 'JSON')}`);
    if (isCsv) csv = text;
    else {
      try {
        data = JSON.parse(text);
      } catch {
        throw new PinLoadError(`Could not load the pins from ${where}: the file is not valid JSON`);
      }
    }
  }
  try {
    return csv === undefined ? parsePins(data, pinStyles, reading) : parseCsvPins(csv, pinStyles, reading);
  } catch (error) {
    throw new PinLoadError(`Could not show the pins from ${where}: ${reasonOf(error)}`);
  }
}

/**
 * A pre-tiled pin archive (`pmtiles://…`): its header and metadata are read now, its tiles by the
 * map. Rejects with a `PinLoadError` naming the URL when it cannot be read (an HTTP error, no
 * network, not an archive), or a `PinArchiveError` when it is not a pin archive of this Pinmap.
 */
async function loadPinArchive(pins: string, pinStyles: Record<string, PinOptions>, baseUrl: string, request: PinRequest): Promise<PinSet> {
  let archive;
  try {
    archive = await openPinArchive(pins, pinStyles, baseUrl, request);
  } catch (caught) {
    if (caught instanceof PinArchiveError) throw caught;
    const error = archiveProblem(caught);
    const where = new URL(pins.slice('pmtiles://'.length), baseUrl).href;
    throw new PinLoadError(`Could not load the pins from ${where}: ${reasonOf(error).replace(/^Bad response code: (\d+)$/, 'HTTP $1')}`);
  }
  // The legend draws each category as the archive's looks do: the file's style with config's over it.
  const set: PinSet = { pins: [], skipped: [], warnings: [], pinStyles: archive.pinStyles, archive };
  if (archive.metadata.attribution !== undefined) set.attribution = archive.metadata.attribution;
  return set;
}

/** What an update by id (`updatePins`, a new `pins` value) needs beside: see `src/pins/diff.ts`. */
export { parsePins } from '../pins/data.ts';
export { applyPinChanges, updateNotice } from '../pins/diff.ts';

/** A pin file read again (config `pinsRefresh`): its pins, and the `ETag` to send next time. */
export interface RefreshedPins {
  set: PinSet;
  etag: string | undefined;
}

/**
 * Reads a pin file (GeoJSON or CSV at a URL) again, for `pinsRefresh`: sent with `If-None-Match`
 * and the `ETag` of the last reading (when it had one), past the browser's cache, so a server
 * that has nothing new answers `304 Not Modified`, which resolves with undefined (nothing
 * changes). A new file is read and checked as `loadPinSet` reads it (token rule, timeout, size
 * limit); a failure rejects with a `PinLoadError` naming the URL and the reason.
 */
export async function refreshPinSet(
  pins: string,
  etag: string | undefined,
  pinStyles: Record<string, PinOptions>,
  baseUrl: string,
  signal: AbortSignal | undefined,
  reading: PinReading = {},
  request: PinRequest = {},
): Promise<RefreshedPins | undefined> {
  const where = new URL(pins, baseUrl).href;
  const { url, headers } = withToken(where, request.rule);
  let response: Response;
  try {
    response = await openRequest(url, { headers: { ...headers, ...(etag === undefined ? {} : { 'If-None-Match': etag }) }, signal, timeout: request.timeout, cache: 'no-store' });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new PinLoadError(`Could not load the pins from ${where}: ${reasonOf(error)}`);
  }
  if (response.status === 304) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  const set = await loadPinSet(pins, pinStyles, baseUrl, signal, reading, Promise.resolve(response), request);
  return { set, etag: response.headers.get('ETag') ?? undefined };
}
