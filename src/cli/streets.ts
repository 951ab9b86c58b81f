import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { PMTiles, TileType, zxyToTileId, type Entry, type Header, type Source } from 'pmtiles';
import { PmtilesWriter } from '../tiler/pmtiles-writer.ts';

/**
 * `pinmap streets` (README, "Streets for your area"): cuts an area out of a Protomaps basemap
 * build (a PMTiles v3 archive, a URL or a file) into an archive of its own, reading only what the
 * area needs with Range requests: the header and root directory (the first 16 KiB), the
 * metadata, the leaf directories that cover the area's tiles, and the tiles themselves, nearby
 * ones in one request. The tiles are copied byte for byte (as compressed in the source) and
 * written with the tiler's writer (`src/tiler/pmtiles-writer.ts`); the source's metadata
 * (attribution, vector_layers) is kept, the header gets the area's bounds and zooms.
 */

/** `[west, south, east, north]` in degrees. */
export type BBox = [number, number, number, number];

/**
 * The Protomaps daily builds of the whole planet (docs.protomaps.com, "Basemap Downloads"; the
 * list of builds: https://maps.protomaps.com/builds/), one file a day named by its date.
 */
export const PROTOMAPS_BUILDS = 'https://build.protomaps.com/';

/** The build of the day before `now` (UTC): today's may not be published yet; old ones are removed after a while. */
export function defaultSource(now: Date = new Date()): string {
  const day = new Date(now.getTime() - 24 * 3600 * 1000);
  const date = day.toISOString().slice(0, 10).replaceAll('-', '');
  return `${PROTOMAPS_BUILDS}${date}.pmtiles`;
}

/** The most tiles one extract may have: a city or a small region at zoom 15, a country at a lower `--maxzoom`. */
export const MAX_TILES = 50_000;
/** The highest zoom a Protomaps build has (and the default). */
export const DEFAULT_MAX_ZOOM = 15;
/** Two tiles' ranges closer than this are read in one request (the bytes between are read and dropped). */
const MERGE_GAP = 64 * 1024;
/** The most bytes one request asks for. */
const MAX_REQUEST = 8 * 1024 * 1024;
/** Requests at once. */
const PARALLEL = 4;
/** The latitude limit of Web Mercator tiles. */
const MAX_LAT = 85.0511287798066;

/** What is wrong with what `pinmap streets` was given or read; the message says what. */
export class StreetsError extends Error {
  override name = 'StreetsError';
}

export interface StreetsProgress {
  tiles: number;
  total: number;
  bytesRead: number;
}

export interface StreetsOptions {
  bbox: BBox;
  /** A PMTiles archive: an http(s) URL or a file. */
  from: string;
  /** Zooms 0..maxZoom (at most the source's). */
  maxZoom?: number;
  /** The archive to write. */
  out: string;
  onProgress?: (progress: StreetsProgress) => void;
  /** Told of every range read (offset, length): the tests count them. */
  onRead?: (offset: number, length: number) => void;
}

export interface StreetsResult {
  tiles: number;
  minZoom: number;
  maxZoom: number;
  bounds: BBox;
  bytesRead: number;
  requests: number;
  sourceBytes: number | undefined;
  outputBytes: number;
  attribution: string | undefined;
}

/** Checks a bbox: numbers, in range, west < east, south < north; names what is wrong. */
export function checkBBox(bbox: readonly number[]): BBox {
  if (bbox.length !== 4 || bbox.some((n) => !Number.isFinite(n))) throw new StreetsError('the bbox must be four numbers: west,south,east,north (degrees), e.g. --bbox 4.85,52.33,4.95,52.40');
  const [west, south, east, north] = bbox as BBox;
  if (west < -180 || east > 180) throw new StreetsError(`the bbox's longitudes must be within -180..180 (west ${west}, east ${east})`);
  if (south < -90 || north > 90) throw new StreetsError(`the bbox's latitudes must be within -90..90 (south ${south}, north ${north}): is it west,south,east,north?`);
  if (west >= east) throw new StreetsError(`the bbox's west (${west}) must be less than its east (${east})${west > east ? ': an area across the antimeridian (180°) is cut as two, one each side' : ''}`);
  if (south >= north) throw new StreetsError(`the bbox's south (${south}) must be less than its north (${north})`);
  return [west, south, east, north];
}

/** A box around pins (`[[west, south], [east, north]]`, east may pass 180), padded by a tenth of its size and at least `minPad` degrees each side, within the world. */
export function paddedBBox(bounds: [[number, number], [number, number]], minPad = 0.01): BBox {
  const [[west, south], [east, north]] = bounds;
  if (east > 180) throw new StreetsError(`the pins lie across the antimeridian (180°, from ${west} to ${east - 360}): cut each side with --bbox`);
  const padX = Math.max((east - west) / 10, minPad);
  const padY = Math.max((north - south) / 10, minPad);
  return [Math.max(-180, west - padX), Math.max(-MAX_LAT, south - padY), Math.min(180, east + padX), Math.min(MAX_LAT, north + padY)];
}

/** The tile column of longitude `lng` at zoom `z`. */
function tileX(lng: number, z: number): number {
  const n = 2 ** z;
  return Math.min(n - 1, Math.max(0, Math.floor(((lng + 180) / 360) * n)));
}

/** The tile row of latitude `lat` at zoom `z` (Web Mercator, row 0 at the north). */
function tileY(lat: number, z: number): number {
  const n = 2 ** z;
  const phi = (Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180;
  const y = ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * n;
  return Math.min(n - 1, Math.max(0, Math.floor(y)));
}

/** The tile ids covering `bbox` at zooms `minZoom..maxZoom`, in increasing order. */
export function tilesOf(bbox: BBox, minZoom: number, maxZoom: number): number[] {
  const ids: number[] = [];
  for (let z = minZoom; z <= maxZoom; z++) {
    const [x0, x1, y0, y1] = [tileX(bbox[0], z), tileX(bbox[2], z), tileY(bbox[3], z), tileY(bbox[1], z)];
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) ids.push(zxyToTileId(z, x, y));
  }
  return ids.sort((a, b) => a - b);
}

/** How many tiles cover `bbox` at zooms `minZoom..maxZoom`, without listing them. */
export function tileCount(bbox: BBox, minZoom: number, maxZoom: number): number {
  let count = 0;
  for (let z = minZoom; z <= maxZoom; z++) count += (tileX(bbox[2], z) - tileX(bbox[0], z) + 1) * (tileY(bbox[1], z) - tileY(bbox[3], z) + 1);
  return count;
}

/** A source that counts what it reads, and knows the whole size once seen. */
interface CountingSource extends Source {
  bytesRead: number;
  requests: number;
  size: number | undefined;
  close(): Promise<void>;
}

/** An archive on a web server, read with Range requests only: a server that sends the whole file instead is refused. */
function httpSource(url: string, onRead?: (offset: number, length: number) => void): CountingSource {
  const source: CountingSource = {
    bytesRead: 0,
    requests: 0,
    size: undefined,
    getKey: () => url,
    async getBytes(offset, length) {
      onRead?.(offset, length);
      source.requests++;
      let response: Response;
      try {
        response = await fetch(url, { headers: { Range: `bytes=${offset}-${offset + length - 1}` } });
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        throw new StreetsError(`cannot reach ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
      }
      if (response.status === 404) throw new StreetsError(`${url}: no such file on the server (404)${url.startsWith(PROTOMAPS_BUILDS) ? `: the builds there are listed at https://maps.protomaps.com/builds/; give one with --from` : ''}`);
      if (response.status === 416 && offset === 0) {
        // Smaller than the first read: ask again for what there is.
        const size = Number(response.headers.get('Content-Range')?.match(/\*\/(\d+)/)?.[1]);
        await response.body?.cancel();
        if (Number.isFinite(size) && size > 0) return source.getBytes(0, size);
      }
      if (response.status === 200) {
        await response.body?.cancel();
        throw new StreetsError(`${url}: the server sent the whole file instead of the bytes asked for: it does not answer Range requests, so the area cannot be cut from it`);
      }
      if (response.status !== 206) {
        await response.body?.cancel();
        throw new StreetsError(`${url}: the server answered ${response.status} ${response.statusText}`);
      }
      const total = Number(response.headers.get('Content-Range')?.match(/\/(\d+)$/)?.[1]);
      if (Number.isFinite(total)) source.size = total;
      const data = await response.arrayBuffer();
      source.bytesRead += data.byteLength;
      return { data };
    },
    close: async () => {},
  };
  return source;
}

/** An archive on disk. */
async function fileSource(file: string, onRead?: (offset: number, length: number) => void): Promise<CountingSource> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw new StreetsError(`${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  const { size } = await handle.stat();
  const source: CountingSource = {
    bytesRead: 0,
    requests: 0,
    size,
    getKey: () => file,
    async getBytes(offset, length) {
      onRead?.(offset, length);
      source.requests++;
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      source.bytesRead += bytesRead;
      return { data: buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + bytesRead) as ArrayBuffer };
    },
    close: () => handle.close(),
  };
  return source;
}

/** Where one wanted tile's bytes are in the source. */
interface TileAt {
  id: number;
  offset: number;
  length: number;
}

/**
 * Finds where each of `wanted` (sorted tile ids) is, reading the root directory and only the
 * leaf directories whose ids include a wanted one.
 */
async function locate(archive: PMTiles, header: Header, wanted: number[]): Promise<TileAt[]> {
  const found: TileAt[] = [];
  const firstAtLeast = (id: number) => {
    let lo = 0;
    let hi = wanted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (wanted[mid]! < id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const walk = async (offset: number, length: number, depth: number): Promise<void> => {
    if (depth > 3) throw new StreetsError('the archive\'s directories are nested too deep: it is not a valid PMTiles archive');
    const entries: Entry[] = await archive.cache.getDirectory(archive.source, offset, length, header);
    const leaves: Promise<void>[] = [];
    for (const [i, entry] of entries.entries()) {
      const end = entry.runLength === 0 ? (entries[i + 1]?.tileId ?? Infinity) : entry.tileId + entry.runLength;
      const first = firstAtLeast(entry.tileId);
      if (first >= wanted.length || wanted[first]! >= end) continue;
      if (entry.runLength === 0) leaves.push(walk(header.leafDirectoryOffset + entry.offset, entry.length, depth + 1));
      else for (let k = first; k < wanted.length && wanted[k]! < end; k++) found.push({ id: wanted[k]!, offset: header.tileDataOffset + entry.offset, length: entry.length });
    }
    await Promise.all(leaves);
  };
  await walk(header.rootDirectoryOffset, header.rootDirectoryLength, 0);
  return found.sort((a, b) => a.id - b.id);
}

/** Ranges of the source to read, each with the distinct tiles in it: each tile's bytes once, nearby ones together. */
export function batches<T extends { offset: number; length: number }>(tiles: readonly T[], gap = MERGE_GAP, max = MAX_REQUEST): { offset: number; length: number; tiles: T[] }[] {
  const distinct = [...new Map(tiles.map((tile) => [tile.offset, tile])).values()].sort((a, b) => a.offset - b.offset);
  const ranges: { offset: number; length: number; tiles: T[] }[] = [];
  for (const tile of distinct) {
    const last = ranges.at(-1);
    const end = tile.offset + tile.length;
    if (last && tile.offset - (last.offset + last.length) <= gap && end - last.offset <= max) {
      last.length = Math.max(last.length, end - last.offset);
      last.tiles.push(tile);
    } else ranges.push({ offset: tile.offset, length: tile.length, tiles: [tile] });
  }
  return ranges;
}

/** Cuts `options.bbox` out of `options.from` into `options.out`. */
export async function extractStreets(options: StreetsOptions): Promise<StreetsResult> {
  const bbox = checkBBox(options.bbox);
  const requestedMax = options.maxZoom ?? DEFAULT_MAX_ZOOM;
  if (!Number.isInteger(requestedMax) || requestedMax < 0 || requestedMax > 20) throw new StreetsError(`--maxzoom must be a whole number 0..20, not ${options.maxZoom}`);
  const isUrl = /^https?:\/\//i.test(options.from);
  const source = isUrl ? httpSource(options.from, options.onRead) : await fileSource(options.from, options.onRead);
  try {
    const archive = new PMTiles(source);
    let header: Header;
    try {
      header = await archive.getHeader();
    } catch (error) {
      if (error instanceof StreetsError) throw error;
      throw new StreetsError(`${options.from} is not a PMTiles archive (version 3): ${(error as Error).message}`);
    }
    if (header.specVersion !== 3) throw new StreetsError(`${options.from} is a PMTiles archive of version ${header.specVersion}: only version 3 is read`);
    if (header.tileType !== TileType.Mvt) throw new StreetsError(`${options.from} holds ${TileType[header.tileType] ?? 'unknown'} tiles, not vector tiles: give a Protomaps basemap build`);
    const minZoom = header.minZoom;
    const maxZoom = Math.min(requestedMax, header.maxZoom);
    const total = tileCount(bbox, minZoom, maxZoom);
    if (total > MAX_TILES) {
      throw new StreetsError(`the area needs ${total.toLocaleString('en-US')} tiles at zooms ${minZoom}..${maxZoom}, more than the ${MAX_TILES.toLocaleString('en-US')} one extract may have: give a smaller bbox or a lower --maxzoom`);
    }
    const metadata = (await archive.getMetadata()) as Record<string, unknown>;
    const found = await locate(archive, header, tilesOf(bbox, minZoom, maxZoom));
    if (found.length === 0) throw new StreetsError(`${options.from} has no tiles in the bbox ${bbox.join(',')} (its bounds: ${[header.minLon, header.minLat, header.maxLon, header.maxLat].join(',')})`);

    const writer = new PmtilesWriter({ dedupe: true });
    try {
      // The tiles' bytes go to a scratch file as the ranges arrive, then into the archive in tile id order.
      const scratchPath = writer.scratchPath('source-tiles.bin');
      const scratch = openSync(scratchPath, 'w+');
      const at = new Map<number, number>();
      let scratchLength = 0;
      let done = 0;
      try {
        const ranges = batches(found);
        const sharing = new Map<number, number>();
        for (const tile of found) sharing.set(tile.offset, (sharing.get(tile.offset) ?? 0) + 1);
        let next = 0;
        const worker = async () => {
          while (next < ranges.length) {
            const range = ranges[next++]!;
            const { data } = await source.getBytes(range.offset, range.length);
            const bytes = new Uint8Array(data);
            if (bytes.length < range.length) throw new StreetsError(`${options.from} ended before its tile data did: the archive is cut short`);
            for (const tile of range.tiles) {
              writeSync(scratch, bytes, tile.offset - range.offset, tile.length, scratchLength);
              at.set(tile.offset, scratchLength);
              scratchLength += tile.length;
              done += sharing.get(tile.offset)!;
            }
            options.onProgress?.({ tiles: done, total: found.length, bytesRead: source.bytesRead });
          }
        };
        await Promise.all(Array.from({ length: PARALLEL }, worker));
        for (const tile of found) {
          const bytes = Buffer.allocUnsafe(tile.length);
          readSync(scratch, bytes, 0, tile.length, at.get(tile.offset)!);
          writer.addTile(tile.id, bytes);
        }
      } finally {
        closeSync(scratch);
      }
      const zooms = found.map((tile) => zoomOf(tile.id));
      const outMin = Math.min(...zooms);
      const outMax = Math.max(...zooms);
      const centerZoom = Math.min(outMax, Math.max(outMin, Math.floor(Math.log2(360 / (bbox[2] - bbox[0])))));
      const { bytes } = writer.finish(
        options.out,
        {
          tileCompression: header.tileCompression,
          tileType: header.tileType,
          minZoom: outMin,
          maxZoom: outMax,
          bounds: bbox,
          center: [(bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2, centerZoom],
        },
        metadata,
      );
      return {
        tiles: found.length,
        minZoom: outMin,
        maxZoom: outMax,
        bounds: bbox,
        bytesRead: source.bytesRead,
        requests: source.requests,
        sourceBytes: source.size,
        outputBytes: bytes,
        attribution: typeof metadata?.attribution === 'string' ? metadata.attribution : undefined,
      };
    } finally {
      if (!writer.finishedOrFailed) writer.abandon();
    }
  } finally {
    await source.close();
  }
}

/** The zoom of a tile id (the ids of zoom z start at (4^z - 1) / 3). */
function zoomOf(id: number): number {
  let z = 0;
  while ((4 ** (z + 1) - 1) / 3 <= id) z++;
  return z;
}
