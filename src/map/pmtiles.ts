import { addProtocol, type AddProtocolAction, type RequestTransformFunction, type ResourceType } from 'maplibre-gl';
import { PMTiles, SharedPromiseCache, TileType, bytesToHeader, type RangeResponse, type Source } from 'pmtiles';
import { formatBytes } from '../config/errors.ts';
import { InflateLimitError, inflateWithin } from './inflate.ts';
import { MAP_RESOURCE_LIMIT, headersOf } from './map-requests.ts';
import { openRequest, readBody, RequestError } from './request-path.ts';

/**
 * PMTiles archives as MapLibre sources: any style source (vector or raster) may name its `url`
 * as `pmtiles://<archive URL>`, and its tiles are read from the one archive with HTTP range
 * requests, from any static host. One protocol for every map on the page, both views (the hybrid
 * view's vector layer is a MapLibre map too); registered when the first map is made.
 *
 * The archive is read by the `pmtiles` package's reader through a source of our own
 * ({@link ArchiveSource}), so that:
 * - the access-token rule holds for the range requests too: MapLibre's `transformRequest` (see
 *   `request-transform.ts`) sees every `pmtiles://` request and decides, from the archive's own
 *   origin, whether it carries the token (as a query parameter in the URL, or as a header); the
 *   source fetches exactly the URL and headers it was handed, through the request path
 *   (`request-path.ts`: a redirect refused for a header token, bytes counted, the abort);
 * - a server that ignores `Range` and sends the whole file still works (the file is kept and
 *   read from memory), up to {@link WHOLE_FILE_LIMIT};
 * - every way an archive can be broken is an {@link ArchiveError} whose message says what is
 *   wrong (HTTP status, refused range, truncated file, not a PMTiles archive, unsupported version,
 *   data that is not compressed as the header says, a directory that points outside the file or
 *   cannot be parsed: `archiveProblem`), each naming the piece at fault (its header, root
 *   directory, metadata, a leaf directory, a tile), filed by {@link archiveFailure}. The map
 *   reports it as a notice naming the archive (`watchMapErrors`), and the rest of the map goes
 *   on. A passing server error (HTTP 5xx) or a network failure is only a failed tile: warned
 *   about in the console and tried again, as loose tiles are.
 */

/** A server that ignores `Range` is read whole only up to this size; a bigger archive is an error. */
export const WHOLE_FILE_LIMIT = 64 * 1024 * 1024;

/**
 * The cache mode of the second request for a range answered short: the browser's HTTP cache is
 * bypassed before the archive is called truncated. Chromium's in-memory HTTP cache (a private window, a
 * browser started for automation) can answer one of several range requests in flight for the same
 * file, once the file's cache entry holds some of its bytes, with a `206` whose body is only the
 * start of the range (often nothing): the part the entry held, then the network's bytes up to the
 * entry's next 4 KiB block, reported as a success. A map past its archive's last zoom (16.5 over
 * pins tiled to 15) asks for the same tile several times at once (each overzoomed tile asks for its
 * parent), which met this on the first load. The server's own answer is what a file that really
 * ends early gives again.
 */
const PAST_THE_CACHE: RequestCache = 'no-store';

/** The PMTiles header's size, and its magic bytes ("PMTiles"). */
const HEADER_BYTES = 127;
const MAGIC = 'PMTiles';
const SUPPORTED_VERSION = 3;

/**
 * Something wrong with a PMTiles archive or the server holding it; the message is the reason.
 * `transient` for what may pass by itself (a server error, HTTP 5xx): the tile is tried again,
 * with a console warning and no notice, as for any tile.
 */
export class ArchiveError extends Error {
  override name = 'ArchiveError';
  constructor(
    message: string,
    readonly transient = false,
    /** The page refused the read (a redirect refused, the page's policy), not the archive's bytes. */
    readonly refusal = false,
  ) {
    super(message);
  }
}

/** What is wrong with each archive that could not be read, by its URL without a token. */
const failures = new Map<string, string>();

/** An archive URL without an `access_token` parameter: how failures are filed and looked up. */
function failureKey(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.searchParams.delete('access_token');
    return parsed.href;
  } catch {
    return url;
  }
}

/**
 * Why the archive at `url` cannot be read, if it cannot (its header, directories or data are
 * broken, or its server refuses it: not a passing server error); undefined once it reads again.
 */
export function archiveFailure(url: string): string | undefined {
  return failures.get(failureKey(url));
}

/**
 * What went wrong reading an archive, as an {@link ArchiveError} where the archive is at fault:
 * an error of the reader's own (a directory or metadata it cannot parse) means the archive is
 * damaged. The request path's own failures (a network fault, an abort) stay as they are.
 */
export function archiveProblem(error: unknown): unknown {
  if (error instanceof ArchiveError || error instanceof RequestError || (error instanceof Error && error.name === 'AbortError')) return error;
  // The reader parses two things: its metadata (JSON) and its directories (varints).
  const reason = error instanceof Error ? error.message : String(error);
  return new ArchiveError(error instanceof SyntaxError ? `its metadata is damaged (not JSON: ${reason})` : `its directory is damaged (${reason})`);
}

/**
 * The piece of an archive each buffer `ArchiveSource.getBytes` handed the reader was read from
 * ("a tile", "its metadata", "a leaf directory"), so that data that does not decompress is named
 * by its section. The root directory is the one piece the reader cuts out of the first bytes
 * itself, so a buffer not listed here is the root directory.
 */
const pieces = new WeakMap<ArrayBuffer, string>();

/** Files or clears the archive's failure after a request for it. */
function noteOutcome(url: string, error: unknown): void {
  if (error === undefined) failures.delete(failureKey(url));
  else if (error instanceof ArchiveError && !error.transient) failures.set(failureKey(url), error.message);
}

const COMPRESSION_NAMES: Record<number, string> = { 2: 'gzip', 3: 'brotli', 4: 'zstd' };

/**
 * Undoes the archive's compression (header bytes 97 for directories and metadata, 98 for tiles),
 * within `MAP_RESOURCE_LIMIT` as any tile (a gzip bomb stops there). Data that does not decompress
 * is an error saying the header promised a compression the data does not have.
 */
async function decompress(data: ArrayBuffer, compression: number): Promise<ArrayBuffer> {
  if (compression === 0 || compression === 1) return data;
  const piece = pieces.get(data) ?? 'its root directory';
  if (compression !== 2) throw new ArchiveError(`its header says ${piece} is compressed with ${COMPRESSION_NAMES[compression] ?? `method ${compression}`}, which browsers cannot read (use gzip or none)`);
  try {
    return toArrayBuffer(await inflateWithin(data, MAP_RESOURCE_LIMIT));
  } catch (error) {
    if (error instanceof InflateLimitError) throw new ArchiveError(`${piece} inflates to more than ${formatBytes(MAP_RESOURCE_LIMIT)}`);
    throw new ArchiveError(`${piece} is not gzip-compressed, though its header says it is`);
  }
}

/** The bytes as an ArrayBuffer of their own. */
function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : (bytes.slice().buffer as ArrayBuffer);
}

/** The total size out of a `Content-Range` header (`bytes a-b/total`, or a star for the range). */
function totalSizeOf(response: Response): number | undefined {
  const match = /\/(\d+)\s*$/.exec(response.headers.get('Content-Range') ?? '');
  return match ? Number(match[1]) : undefined;
}

/**
 * One archive on one server, read with range requests: the URL and headers are used exactly as
 * given (the token rule has been applied to them already). Checks what comes back, so a broken
 * archive or server is a clear {@link ArchiveError}.
 */
export class ArchiveSource implements Source {
  /** The whole file, once a server sent it all instead of the range asked for. */
  private whole: Promise<ArrayBuffer> | undefined;
  /**
   * The first bytes (the reader's first request: header, root directory and, in archives laid
   * out as the format recommends, the metadata): later requests inside them cost no round trip.
   */
  private first: ArrayBuffer | undefined;
  /** The file's size, once a server said it (a range's `Content-Range`, or the whole file). */
  private size: number | undefined;
  /** Where the header says its root directory, metadata and leaf directories start and end, once read. */
  private layout: { piece: string; from: number; to: number }[] = [];

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string> = {},
    private readonly onWholeFile: (bytes: number) => void = () => {},
  ) {}

  getKey(): string {
    return this.url;
  }

  async getBytes(offset: number, length: number, signal?: AbortSignal): Promise<RangeResponse> {
    if (this.first && offset > 0 && offset + length <= this.first.byteLength) return { data: this.named(this.first.slice(offset, offset + length), offset) };
    // Only a damaged directory points outside the file (or at no whole byte).
    if (offset > 0 && (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || length < 0 || (this.size !== undefined && offset + length > this.size))) {
      throw new ArchiveError(`its directory is damaged: it points to bytes ${offset}–${offset + length - 1}${this.size === undefined ? '' : `, past the end of the file (${this.size} bytes)`}`);
    }
    let data = this.whole ? (await this.whole).slice(offset, offset + length) : await this.fetchRange(offset, length, signal);
    // A range answered short may be the browser's cache at fault, not the file: asked again past
    // the cache, the server's own answer decides (see `PAST_THE_CACHE`).
    if (offset > 0 && data.byteLength < length && this.whole === undefined) data = await this.fetchRange(offset, length, signal, PAST_THE_CACHE);
    if (offset === 0) {
      this.checkHeader(data);
      this.first = data;
      this.layout = layoutOf(bytesToHeader(data.slice(0, HEADER_BYTES)));
    }
    else if (data.byteLength < length) {
      throw new ArchiveError(`the archive is truncated: bytes ${offset}–${offset + length - 1} (${this.pieceAt(offset)}) were asked for and ${data.byteLength} came`);
    }
    return { data: this.named(data, offset) };
  }

  /** `data`, filed as the piece of the archive at `offset` (`pieces`). */
  private named(data: ArrayBuffer, offset: number): ArrayBuffer {
    pieces.set(data, this.pieceAt(offset));
    return data;
  }

  /** The piece of the archive at `offset`, as its header places them (a pin archive keeps more after its tiles). */
  private pieceAt(offset: number): string {
    return this.layout.find((piece) => offset >= piece.from && offset < piece.to)?.piece ?? 'past its tiles';
  }

  private async fetchRange(offset: number, length: number, signal?: AbortSignal, cache?: RequestCache): Promise<ArrayBuffer> {
    const request = async (from: number, to: number) => {
      try {
        return await openRequest(this.url, { headers: { ...this.headers, Range: `bytes=${from}-${to}` }, signal, cache });
      } catch (error) {
        // A redirect refused or a request the page's policy blocks will not pass by itself.
        if (error instanceof RequestError && (error.failure === 'redirect' || error.failure === 'policy')) throw new ArchiveError(error.message, false, true);
        throw error;
      }
    };
    let response = await request(offset, offset + length - 1);
    // The reader asks for the first 16 KiB at once; a smaller file is asked for again, whole.
    const total = response.status === 416 ? totalSizeOf(response) : undefined;
    if (offset === 0 && total !== undefined && total > 0 && total < length) response = await request(0, total - 1);
    if (response.status === 416) throw new ArchiveError(`the server refused the byte range ${offset}–${offset + length - 1} (HTTP 416)${total === undefined ? '' : `: the file has ${total} bytes`}`);
    if (!response.ok) throw new ArchiveError(`the server answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`, response.status >= 500);
    if (response.status === 206) {
      const size = totalSizeOf(response);
      this.size ??= size;
      const data = toArrayBuffer(await readBody(response, { maxBytes: WHOLE_FILE_LIMIT }));
      if (offset === 0 && size !== undefined) this.checkSize(data, size);
      return data;
    }
    // 200: the server ignored Range and is sending the whole file.
    const tooBig = (size: string) => new ArchiveError(`the server ignores Range requests and the archive (${size}) is too big to read whole; serve it from a host that answers Range`);
    const announced = Number(response.headers.get('Content-Length') ?? NaN);
    if (announced > WHOLE_FILE_LIMIT) {
      await response.body?.cancel();
      throw tooBig(`${announced} bytes`);
    }
    this.whole = readBody(response, { maxBytes: WHOLE_FILE_LIMIT }).then(toArrayBuffer, (error: unknown) => {
      throw error instanceof RequestError && error.failure === 'too-large' ? tooBig(`over ${WHOLE_FILE_LIMIT} bytes`) : error;
    });
    const whole = await this.whole;
    this.size = whole.byteLength;
    this.onWholeFile(whole.byteLength);
    if (offset === 0) this.checkSize(whole, whole.byteLength);
    return whole.slice(offset, offset + length);
  }

  /** The first bytes must be a PMTiles version 3 header. */
  private checkHeader(data: ArrayBuffer): void {
    if (data.byteLength < HEADER_BYTES) throw new ArchiveError(`the archive is truncated: it has ${data.byteLength} bytes, less than a PMTiles header`);
    const magic = new TextDecoder().decode(new Uint8Array(data, 0, MAGIC.length));
    if (magic !== MAGIC) throw new ArchiveError('it is not a PMTiles archive (wrong magic number)');
    const version = new Uint8Array(data)[7];
    if (version !== SUPPORTED_VERSION) throw new ArchiveError(`it is PMTiles version ${version}; only version ${SUPPORTED_VERSION} is supported`);
  }

  /** The file must be as long as its header says (header, directories, metadata and tiles). */
  private checkSize(first: ArrayBuffer, fileSize: number): void {
    this.checkHeader(first); // a header that is not one cannot be read for its sizes
    const header = bytesToHeader(first.slice(0, HEADER_BYTES));
    const ends = [
      header.rootDirectoryOffset + header.rootDirectoryLength,
      header.jsonMetadataOffset + header.jsonMetadataLength,
      header.leafDirectoryOffset + (header.leafDirectoryLength ?? 0),
      header.tileDataOffset + (header.tileDataLength ?? 0),
    ];
    const needed = Math.max(...ends);
    if (fileSize < needed) throw new ArchiveError(`the archive is truncated: its header describes ${needed} bytes, the file has ${fileSize}`);
  }
}

/** The pieces of an archive, where its header says they are. */
function layoutOf(header: ReturnType<typeof bytesToHeader>): { piece: string; from: number; to: number }[] {
  return [
    { piece: 'its root directory', from: header.rootDirectoryOffset, to: header.rootDirectoryOffset + header.rootDirectoryLength },
    { piece: 'its metadata', from: header.jsonMetadataOffset, to: header.jsonMetadataOffset + header.jsonMetadataLength },
    { piece: 'a leaf directory', from: header.leafDirectoryOffset, to: header.leafDirectoryOffset + (header.leafDirectoryLength ?? 0) },
    { piece: 'a tile', from: header.tileDataOffset, to: header.tileDataOffset + (header.tileDataLength ?? 0) },
  ];
}

/** An archive URL as messages show it: an access token in it blanked. */
const shownUrl = (url: string): string => url.replace(/([?&]access_token=)[^&]*/, '$1[token]');

/** The archive readers made so far, one per archive URL and headers. */
const archives = new Map<string, PMTiles>();

const archiveKey = (url: string, headers: Record<string, string>): string => `${url}\n${JSON.stringify(headers)}`;

function archiveFor(url: string, headers: Record<string, string>): PMTiles {
  const key = archiveKey(url, headers);
  let archive = archives.get(key);
  if (!archive) {
    const source = new ArchiveSource(url, headers, (bytes) =>
      console.warn(`Pinmap: the server of ${shownUrl(url)} ignores Range requests; the whole archive (${bytes} bytes) was read at once.`),
    );
    // The reader's cache decompresses the directories itself, with the package's own gzip (no
    // limit: a leaf directory that is a gzip bomb would inflate whole) unless it is given ours.
    archive = new PMTiles(source, new SharedPromiseCache(undefined, undefined, decompress), decompress);
    archives.set(key, archive);
  }
  return archive;
}

/**
 * The reader of the archive at `url` with `headers` (the token rule applied to both, as the map's
 * `pmtiles://` tiles of it are read): a page that reads the archive's header and metadata itself
 * (a pre-tiled pin archive) shares it, so they are read once. `forgetArchiveReader` after a failure,
 * so the next read starts afresh.
 */
export function archiveReader(url: string, headers: Record<string, string> = {}): PMTiles {
  return archiveFor(url, headers);
}

/** Drops the reader `archiveReader` gave for `url` and `headers`, and with it what it had read. */
export function forgetArchiveReader(url: string, headers: Record<string, string> = {}): void {
  archives.delete(archiveKey(url, headers));
}

/** The `/z/x/y` (and extension) of a tile URL template, after the archive's URL. */
const TILE_TEMPLATE = /\/\{z\}\/\{x\}\/\{y\}(?:\.[a-z]+)?$/i;

/**
 * Starts reading the header and root directory of every `pmtiles://` archive a style's sources
 * name (their `url`, or their tile URL templates), as soon as the style has arrived, while
 * MapLibre sets the style up: the first tiles then find them read. Each request goes through
 * `transform` (the token rule) exactly as the map's own requests for that archive will, and so
 * uses the same reader. A failed read is forgotten: the map's own requests try again and report.
 */
export function prefetchArchives(style: { sources?: Record<string, unknown> }, transform?: RequestTransformFunction): void {
  const named = new Set<string>();
  for (const source of Object.values(style.sources ?? {})) {
    const { url, tiles } = source as { url?: unknown; tiles?: unknown };
    if (typeof url === 'string' && url.startsWith('pmtiles://')) named.add(url);
    const template = Array.isArray(tiles) ? tiles[0] : undefined;
    if (typeof template === 'string' && template.startsWith('pmtiles://') && TILE_TEMPLATE.test(template)) named.add(template.replace(TILE_TEMPLATE, ''));
  }
  for (const archive of named) {
    const params = transform ? transform(archive, 'Source' as ResourceType) : { url: archive };
    // A transform that answers later (none of Pinmap's does) is left to the map's own requests.
    if (!params || params instanceof Promise || !params.url.startsWith('pmtiles://')) continue;
    const archiveUrl = params.url.slice('pmtiles://'.length);
    const headers = headersOf(params);
    const reader = archiveFor(archiveUrl, headers);
    reader.getHeader().catch(() => {
      if (archives.get(archiveKey(archiveUrl, headers)) === reader) archives.delete(archiveKey(archiveUrl, headers));
    });
  }
}

const TILE_URL = /^pmtiles:\/\/(.+)\/(\d+)\/(\d+)\/(\d+)(?:\.[a-z]+)?$/i;

/**
 * MapLibre's request for a `pmtiles://` URL: the TileJSON of the archive (when a source names
 * it), or one tile. A tile the archive does not have is an empty vector tile (or no image).
 * Failures are {@link ArchiveError}s (or the network's own errors), and the archive is read
 * afresh on the next request, so an archive that comes back heals the map.
 *
 * An archive whose TileJSON cannot be made (its header or metadata cannot be read) still gets a
 * TileJSON, one that only names its tile URLs (the style's own source options give the zooms):
 * MapLibre never counts a source whose TileJSON failed as loaded again once the camera moves, so
 * the map would never be idle. Each tile then fails with the archive's reason (a notice naming
 * it) and is tried again while in view, like any failed tile.
 */
export const loadFromArchive: AddProtocolAction = async (params, abortController) => {
  const headers = headersOf(params);
  if (params.type === 'json') {
    const archiveUrl = params.url.slice('pmtiles://'.length);
    try {
      const tileJson = await archiveFor(archiveUrl, headers).getTileJson(params.url);
      abortController.signal.throwIfAborted();
      noteOutcome(archiveUrl, undefined);
      return { data: tileJson as object };
    } catch (caught) {
      abortController.signal.throwIfAborted();
      const error = archiveProblem(caught);
      archives.delete(archiveKey(archiveUrl, headers));
      noteOutcome(archiveUrl, error);
      console.warn(`Pinmap: the archive ${shownUrl(archiveUrl)} could not be read (${error instanceof Error ? error.message : String(error)}); its tiles are tried one by one.`);
      return { data: { tilejson: '3.0.0', tiles: [`${params.url}/{z}/{x}/{y}`] } };
    }
  }
  const match = TILE_URL.exec(params.url);
  if (!match) throw new ArchiveError(`"${params.url}" is not a PMTiles tile URL (pmtiles://<archive>/{z}/{x}/{y})`);
  const [, archiveUrl = '', z, x, y] = match;
  const key = `${archiveKey(archiveUrl, headers)} ${z}/${x}/${y}`;
  const early = readsAhead.get(key);
  readsAhead.delete(key);
  const answer = await (early ?? tileAnswer(archiveUrl, headers, Number(z), Number(x), Number(y), abortController.signal));
  abortController.signal.throwIfAborted();
  return answer;
};

type TileResponse = Awaited<ReturnType<AddProtocolAction>>;

/**
 * Tile `z/x/y` of the archive as the map gets it: its bytes; else, for an archive that answers
 * the tiles it lacks (`answerMissingTiles`), that answer; else an empty vector tile (or no image).
 */
async function tileAnswer(archiveUrl: string, headers: Record<string, string>, z: number, x: number, y: number, signal?: AbortSignal): Promise<TileResponse> {
  const tile = await readTile(archiveUrl, headers, z, x, y, signal);
  signal?.throwIfAborted();
  if (tile) return { data: new Uint8Array(tile.data), ...(tile.cacheControl ? { cacheControl: tile.cacheControl } : {}), ...(tile.expires ? { expires: tile.expires } : {}) };
  const answer = missingTileAnswers.get(archiveKey(archiveUrl, headers));
  if (answer) {
    const made = await answer(z, x, y, async (tz, tx, ty) => {
      const above = await readTile(archiveUrl, headers, tz, tx, ty);
      return above && new Uint8Array(above.data);
    });
    signal?.throwIfAborted();
    if (made) return { data: made };
  }
  const header = await archiveFor(archiveUrl, headers).getHeader();
  // No image for a missing raster tile: MapLibre leaves that tile empty.
  return { data: header.tileType === TileType.Mvt || header.tileType === TileType.Mlt ? new Uint8Array() : (null as unknown as ArrayBuffer) };
}

/** Tiles read ahead (`readTilesAhead`), by reader and address, until the map asks for them. */
const readsAhead = new Map<string, Promise<TileResponse>>();

/** How long a tile read ahead waits for the map's request before it is let go. */
const READ_AHEAD_KEPT_MS = 10_000;

/**
 * Starts reading tiles `[z, x, y]` of the archive at `url` (read with `headers`, as
 * `archiveReader`) now, as the map would: its first request for each then takes that read (its
 * bytes, or its failure) instead of starting its own. A read the map does not ask for within a
 * few seconds is let go.
 */
export function readTilesAhead(url: string, headers: Record<string, string>, tiles: readonly (readonly [number, number, number])[]): void {
  for (const [z, x, y] of tiles) {
    const key = `${archiveKey(url, headers)} ${z}/${x}/${y}`;
    if (readsAhead.has(key)) continue;
    const read = tileAnswer(url, headers, z, x, y);
    // Its failure is the map's to report, when it asks.
    read.catch(() => {});
    readsAhead.set(key, read);
    setTimeout(() => {
      if (readsAhead.get(key) === read) readsAhead.delete(key);
    }, READ_AHEAD_KEPT_MS);
  }
}

/**
 * Reads tile `z/x/y` of the archive (undefined where it has none). A failure is an
 * {@link ArchiveError} where the archive is at fault (`archiveProblem`), and the archive is read
 * afresh next time; a read that `signal` aborted leaves both as they were.
 */
async function readTile(archiveUrl: string, headers: Record<string, string>, z: number, x: number, y: number, signal?: AbortSignal): ReturnType<PMTiles['getZxy']> {
  try {
    const tile = await archiveFor(archiveUrl, headers).getZxy(z, x, y, signal);
    noteOutcome(archiveUrl, undefined);
    return tile;
  } catch (caught) {
    const error = archiveProblem(caught);
    if (!signal?.aborted) {
      archives.delete(archiveKey(archiveUrl, headers));
      noteOutcome(archiveUrl, error);
    }
    throw error;
  }
}

/**
 * What answers the map's request for a tile an archive lacks (`answerMissingTiles`): the tile's
 * bytes, made from other tiles of the archive (`read`), or undefined for none.
 */
export type MissingTileAnswer = (z: number, x: number, y: number, read: (z: number, x: number, y: number) => Promise<Uint8Array | undefined>) => Promise<Uint8Array | undefined>;

/** Each archive's answer for the tiles it lacks, by reader (`archiveKey`). */
const missingTileAnswers = new Map<string, MissingTileAnswer>();

/**
 * Has the `pmtiles://` protocol answer the map's requests for tiles the archive at `url` (read
 * with `headers`, as `archiveReader`) lacks with `answer`: a pre-tiled pin archive's tiles that
 * are cut from the tiles above them (`archive-cut.ts`).
 */
export function answerMissingTiles(url: string, headers: Record<string, string>, answer: MissingTileAnswer): void {
  missingTileAnswers.set(archiveKey(url, headers), answer);
}

let registered = false;

/** Registers the `pmtiles://` protocol with MapLibre, once per page. */
export function registerPmtilesProtocol(): void {
  if (registered) return;
  registered = true;
  addProtocol('pmtiles', loadFromArchive);
}
