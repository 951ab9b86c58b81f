import type { PinOptions } from '../config/pin-options.ts';
import { parsePins } from '../pins/data.ts';
import { isCsvFile, parseCsvPins } from '../pins/csv.ts';
import type { PinReading, PinSet } from '../pins/types.ts';

export { describePinSet } from '../pins/data.ts';
import { MESSAGES, httpFailure, isHtmlAnswer, reasonOf } from '../config/errors.ts';
import { PinArchiveError, isPinArchiveUrl, openPinArchive } from './pin-archive.ts';

/** Pins could not be had at all (the file failed or is not GeoJSON); the map goes on without them. */
export class PinLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PinLoadError';
  }
}

/**
 * Fetches (for a URL) and validates a config's pins: GeoJSON, or CSV (`isCsvFile`). A URL is
 * resolved against `baseUrl` (the page); `started` is its fetch when that was started already
 * (`startPinRequest`); `reading` says which fields to keep and a CSV file's columns. Resolves with
 * the pins that can be shown and what was skipped; rejects with a `PinLoadError` whose message
 * names the URL and the reason.
 */
export async function loadPinSet(
  pins: string | object,
  pinStyles: Record<string, PinOptions>,
  baseUrl: string,
  signal?: AbortSignal,
  reading: PinReading = {},
  started?: Promise<Response>,
): Promise<PinSet> {
  if (isPinArchiveUrl(pins)) return loadPinArchive(pins, pinStyles, baseUrl);
  const where = typeof pins === 'string' ? new URL(pins, baseUrl).href : 'the config';
  let data: unknown = pins;
  let csv: string | undefined;
  if (typeof pins === 'string') {
    let response: Response;
    try {
      response = await (started ?? fetch(where, signal ? { signal } : {}));
    } catch (error) {
      throw new PinLoadError(`Could not load the pins from ${where}: ${reasonOf(error)}`);
    }
    if (!response.ok) throw new PinLoadError(`Could not load the pins from ${where}: ${httpFailure(response.status)}`);
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new PinLoadError(`Could not load the pins from ${where}: ${reasonOf(error)}`);
    }
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
async function loadPinArchive(pins: string, pinStyles: Record<string, PinOptions>, baseUrl: string): Promise<PinSet> {
  let archive;
  try {
    archive = await openPinArchive(pins, pinStyles, baseUrl);
  } catch (error) {
    if (error instanceof PinArchiveError) throw error;
    const where = new URL(pins.slice('pmtiles://'.length), baseUrl).href;
    throw new PinLoadError(`Could not load the pins from ${where}: ${reasonOf(error).replace(/^Bad response code: (\d+)$/, 'HTTP $1')}`);
  }
  // The legend draws each category as the archive's looks do: the file's style with config's over it.
  const set: PinSet = { pins: [], skipped: [], warnings: [], pinStyles: archive.pinStyles, archive };
  if (archive.metadata.attribution !== undefined) set.attribution = archive.metadata.attribution;
  return set;
}
