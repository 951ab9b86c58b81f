import { archiveReader } from './pmtiles.ts';

/**
 * The first request of a config's pins, made while the pins' code (`pin-source.ts`, a chunk of
 * its own) loads, so the file or archive is on its way from the start, as it would be on a page
 * that fetched it itself:
 * - a GeoJSON URL is fetched, and `loadPinSet` reads that response (and reports its faults);
 * - a pre-tiled archive (`pmtiles://…`) has its header read by the reader the page and the map
 *   share (`archiveReader`), which `openPinArchive` then finds read.
 * Inline pins need no request. Nothing here reports a failure: `loadPinSet` does, as without it.
 */
export function startPinRequest(pins: unknown, baseUrl: string, signal: AbortSignal): Promise<Response> | undefined {
  if (typeof pins !== 'string') return undefined;
  let url: string;
  try {
    url = new URL(pins.startsWith('pmtiles://') ? pins.slice('pmtiles://'.length) : pins, baseUrl).href;
  } catch {
    return undefined; // `loadPinSet` says what is wrong with the URL
  }
  if (pins.startsWith('pmtiles://')) {
    archiveReader(url).getHeader().catch(() => {});
    return undefined;
  }
  const response = fetch(url, { signal });
  response.catch(() => {});
  return response;
}
