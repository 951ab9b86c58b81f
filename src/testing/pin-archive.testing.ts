import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, vi } from 'vitest';
import { openPinArchive } from '../map/pin-archive.ts';
import { forgetArchiveReader } from '../map/pmtiles.ts';
import type { PinArchive } from '../pins/types.ts';
import { tilePins, type TilePinsOptions } from '../tiler/tile-pins.ts';

/**
 * Pin archives for the tests of the page's archive reading: made by the pin tiler from a pin
 * collection, and served by a stand-in for `fetch` that answers range requests from their bytes,
 * as a static host does. Only tests import this file.
 */

/** The archive `pinmap-tile-pins` makes of `collection` (a GeoJSON FeatureCollection). */
export async function tileCollection(collection: unknown, options: TilePinsOptions = {}): Promise<Buffer> {
  const folder = mkdtempSync(join(tmpdir(), 'pinmap-archive-testing-'));
  try {
    const path = join(folder, 'pins.pmtiles');
    await tilePins(Readable.from([JSON.stringify(collection)]), path, { name: 'pins', ...options });
    return readFileSync(path);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A range request the stand-in answered: its first byte and its length. */
export interface ServedRange {
  url: string;
  offset: number;
  length: number;
}

/**
 * A `fetch` that answers range requests for the archives in `files` (URL → bytes) as a static host
 * does (206 and Content-Range), and 404 for any other URL; `served` lists each request answered.
 */
export function rangeFetch(files: Record<string, Buffer>): { fetch: typeof fetch; served: ServedRange[] } {
  const served: ServedRange[] = [];
  const answer = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = String(input instanceof Request ? input.url : input);
    const bytes = files[url];
    if (!bytes) return new Response('not found', { status: 404 });
    const headers = new Headers(init?.headers);
    const range = /^bytes=(\d+)-(\d+)$/.exec(headers.get('range') ?? '');
    if (!range) return new Response(new Uint8Array(bytes), { status: 200 });
    const from = Number(range[1]);
    const end = Math.min(Number(range[2]), bytes.length - 1);
    served.push({ url, offset: from, length: end - from + 1 });
    return new Response(new Uint8Array(bytes.subarray(from, end + 1)), { status: 206, headers: { 'Content-Range': `bytes ${from}-${end}/${bytes.length}` } });
  };
  return { fetch: answer as typeof fetch, served };
}

/** Archives opened by `openServedArchive`, each at a URL of its own. */
let opened = 0;

/**
 * Opens `bytes` as the page opens a pin archive, at a URL of its own under `host` (the page keeps
 * one reader per URL; it is forgotten after the test), with `fetch` stubbed by `rangeFetch`: the
 * archive, and the range requests served for it so far.
 */
export async function openServedArchive(bytes: Buffer, host: string): Promise<{ archive: PinArchive; served: ServedRange[] }> {
  const url = `${host}/pins-${++opened}.pmtiles`;
  const fake = rangeFetch({ [url]: bytes });
  vi.stubGlobal('fetch', fake.fetch);
  afterEach(() => forgetArchiveReader(url));
  return { archive: await openPinArchive(`pmtiles://${url}`, {}, `${host}/`), served: fake.served };
}

/**
 * `bytes` (an archive `pinmap-tile-pins` made) with its `pinmap` metadata changed by `change`:
 * written where it was when it fits there, else after the archive's end (the header's offset and
 * length, bytes 24..40, say where); nothing else moves. For archives as an older tiler or another
 * tool made them.
 */
export function withMetadata(bytes: Buffer, change: (pinmap: Record<string, unknown>) => void): Buffer {
  const at = Number(bytes.readBigUInt64LE(24));
  const length = Number(bytes.readBigUInt64LE(32));
  const metadata = JSON.parse(gunzipSync(bytes.subarray(at, at + length)).toString('utf8')) as { pinmap: Record<string, unknown> };
  change(metadata.pinmap);
  const changed = gzipSync(JSON.stringify(metadata), { level: 9 });
  const fits = changed.length <= length;
  const copy = fits ? Buffer.from(bytes) : Buffer.concat([bytes, changed]);
  if (fits) changed.copy(copy, at);
  else copy.writeBigUInt64LE(BigInt(bytes.length), 24);
  copy.writeBigUInt64LE(BigInt(changed.length), 32);
  return copy;
}
