import type { PinOptions } from './pin-options.ts';
import { parsePins, type PinSet } from './pin-data.ts';
import { reasonOf } from './errors.ts';

/** Pins could not be had at all (the file failed or is not GeoJSON); the map goes on without them. */
export class PinLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PinLoadError';
  }
}

/**
 * Fetches (for a URL) and validates a config's pins. A URL is resolved against `baseUrl` (the
 * page). Resolves with the pins that can be shown and what was skipped; rejects with a
 * `PinLoadError` whose message names the URL and the reason.
 */
export async function loadPinSet(
  pins: string | object,
  pinStyles: Record<string, PinOptions>,
  baseUrl: string,
  signal?: AbortSignal,
  keepFields: readonly string[] = [],
): Promise<PinSet> {
  const where = typeof pins === 'string' ? new URL(pins, baseUrl).href : 'the config';
  let data: unknown = pins;
  if (typeof pins === 'string') {
    let response: Response;
    try {
      response = await fetch(where, signal ? { signal } : {});
    } catch (error) {
      throw new PinLoadError(`Could not load the pins from ${where}: ${reasonOf(error)}`);
    }
    if (!response.ok) throw new PinLoadError(`Could not load the pins from ${where}: HTTP ${response.status}`);
    try {
      data = await response.json();
    } catch {
      throw new PinLoadError(`Could not load the pins from ${where}: the file is not valid JSON`);
    }
  }
  try {
    return parsePins(data, pinStyles, keepFields);
  } catch (error) {
    throw new PinLoadError(`Could not show the pins from ${where}: ${reasonOf(error)}`);
  }
}
