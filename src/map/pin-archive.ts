import type { PMTiles } from 'pmtiles';
import type { ArchivePinSearch, ArchiveTileSource, PinArchive, Pin, CategoryCount } from '../pins/types.ts';
import { PIN_ARCHIVE, bubbleZoom, pinBucket, type PinArchiveMetadata, type PinIndexEntry, type PinIndexInfo, type PinLeavesInfo, type PinSearchInfo, type PinTileProperties } from '../pins/archive-format.ts';
import { describeValue, mergeStyles } from '../pins/data.ts';
import type { PinOptions } from '../config/pin-options.ts';
import { MESSAGES, reasonOf } from '../config/errors.ts';
import { answerMissingTiles, archiveReader, forgetArchiveReader, readTilesAhead, type MissingTileAnswer } from './pmtiles.ts';
import type { PinRequest } from './pin-request.ts';
import { RequestError } from './request-path.ts';
import { withToken } from './request-transform.ts';
import { ArchiveBubbleLeaves } from './pin-archive-leaves.ts';
import { ArchiveSearch } from './pin-archive-search.ts';
import { ArchiveSectionError, SECTION_LIMITS, inflateJson, readPiece } from './archive-sections.ts';


/**
 * The most pins a bubble's list loads (`PinArchive.bubblePins`): a bubble at a low maximum zoom may
 * hold a hundred thousand; its list then shows the first of them and says how many it holds.
 */
export const BUBBLE_PINS_LISTED = 500;

/** The archive is not a pin archive of this Pinmap (another tool made it, or another version). */
export class PinArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PinArchiveError';
  }
}

/** `pmtiles://…` for a pre-tiled pin archive, not a GeoJSON URL. */
export const isPinArchiveUrl = (pins: unknown): pins is string => typeof pins === 'string' && pins.startsWith('pmtiles://');

/**
 * Opens the archive at `pins` (`pmtiles://<URL or path>`, resolved against `baseUrl`): reads its
 * header and metadata here; the map's source then reads its tiles through the `pmtiles://`
 * protocol (`pmtiles.ts`), which every map has. Rejects with the fetch's reason (an HTTP status, no network, not an archive), or
 * a `PinArchiveError` naming what the metadata lacks.
 */
export async function openPinArchive(pins: string, pinStyles: Record<string, PinOptions>, baseUrl: string, request: PinRequest = {}): Promise<PinArchive> {
  const href = new URL(pins.slice('pmtiles://'.length), baseUrl).href;
  // The map's own reader of the archive (the token rule applied as to the map's requests): its
  // tiles are then read with the header, root directory and metadata already read here.
  const { url: readUrl, headers } = withToken(href, request.rule);
  const archive = archiveReader(readUrl, headers);
  let header: Awaited<ReturnType<PMTiles['getHeader']>>;
  let raw: Record<string, unknown> | null;
  try {
    [header, raw] = await within(request.timeout, (async () => [await archive.getHeader(), (await archive.getMetadata()) as Record<string, unknown> | null] as const)());
  } catch (error) {
    forgetArchiveReader(readUrl, headers);
    throw error;
  }
  if (header.tileType !== 1) throw new PinArchiveError(`${href} holds no vector tiles (its tile type is ${header.tileType}); pins need an archive made by pinmap-tile-pins`);
  const metadata = checkMetadata(raw, href);
  if (metadata.cutFrom !== undefined) {
    answerMissingTiles(readUrl, headers, cutTiles(metadata.cutFrom));
    // Its code loads now, beside the first tiles, not after the first one found missing.
    import('../pins/archive-cut.ts').catch(() => {});
  }

  const styles = mergeStyles(metadata.pinStyles, pinStyles, []);
  const looks = metadata.looks.map((look) => Object.freeze({ ...(look.category === undefined ? {} : styles[look.category]), ...look.pin }));
  // The pin index follows the tile data (see `PinIndexInfo`).
  const indexAt = header.tileDataOffset + (header.tileDataLength ?? 0);
  const { buckets } = metadata.index;
  /** Each bucket read so far (a few KB each), by number. */
  const read = new Map<number, Promise<PinIndexEntry[]>>();
  const bucketOf = (bucket: number) => {
    let entries = read.get(bucket);
    if (!entries) {
      entries = readBucket(archive, indexAt, metadata.index, bucket, href);
      read.set(bucket, entries);
      // A failed read is tried again next time.
      entries.catch(() => read.delete(bucket));
    }
    return entries;
  };
  const url = `pmtiles://${href}`;
  const damageListeners = new Set<(notice: string) => void>();
  /** Tells the page about a damaged section (`onDamage`), and rejects as `work` did. */
  const told = <T>(work: Promise<T>): Promise<T> =>
    work.catch((error: unknown) => {
      if (error instanceof ArchiveSectionError) for (const listener of damageListeners) listener(error.notice);
      throw error;
    });
  const categoryOf = (look: number) => metadata.looks[look]?.category;
  // The search index follows the pin index (format version 3).
  const searchIndex =
    metadata.version >= 3 && metadata.search
      ? new ArchiveSearch(async (offset, length) => (await archive.source.getBytes(offset, length)).data, indexAt + metadata.index.length, metadata.search, categoryOf, href)
      : undefined;
  const search: ArchivePinSearch | undefined = searchIndex && {
    fields: searchIndex.fields,
    prepare: () => searchIndex.prepare(),
    search: (query, limit, hidden) => told(searchIndex.search(query, limit, hidden)),
  };
  // The bubbles' pins follow the search index (format version 4).
  const leaves =
    metadata.version >= 4 && metadata.leaves && metadata.search
      ? new ArchiveBubbleLeaves(async (offset, length) => (await archive.source.getBytes(offset, length)).data, indexAt + metadata.index.length + metadata.search.length, metadata.leaves, metadata.count, href)
      : undefined;
  const source: ArchiveTileSource = {
    type: 'vector',
    tiles: [`${url}/{z}/{x}/{y}`],
    minzoom: header.minZoom,
    maxzoom: header.maxZoom,
    bounds: [header.minLon, header.minLat, header.maxLon, header.maxLat],
    ...(metadata.attribution ? { attribution: metadata.attribution } : {}),
  };
  return {
    url,
    source,
    metadata,
    looks,
    pinStyles: styles,
    categories: archiveCategories(metadata),
    ...(search ? { search } : {}),
    bubbleCategories: metadata.version >= 3 && (metadata.categories?.length ?? 0) > 0,
    ...(leaves
      ? {
          async bubblePins(properties, lngLat, hidden) {
            const clusterId = Number(properties.cluster_id);
            const entries = await told(leaves.pins(bubbleZoom(clusterId, metadata.count), Number(properties.first), Number(properties.point_count), BUBBLE_PINS_LISTED));
            return entries.flatMap(([id, title, look]) => {
              const category = categoryOf(look);
              if (category !== undefined && hidden.has(category)) return [];
              const pin: Pin = { id, title, description: '', lngLat, options: looks[look] ?? {} };
              if (category !== undefined) pin.category = category;
              return [pin];
            });
          },
        }
      : {}),
    onDamage(listener) {
      damageListeners.add(listener);
      return () => damageListeners.delete(listener);
    },
    readAhead(tiles) {
      readTilesAhead(readUrl, headers, tiles);
    },
    async find(id) {
      const entry = (await told(bucketOf(pinBucket(id, buckets)))).find((candidate) => candidate[0] === id);
      if (!entry) return undefined;
      const [, lng, lat, aloneMask, title, description, url, category, look] = entry;
      const pin: Pin = { id, title, description, lngLat: [lng, lat], options: looks[look] ?? {} };
      if (url !== null) pin.url = url;
      if (category !== null) pin.category = category;
      return { pin, aloneMask };
    },
  };
}

/** `work`, or a `timeout` error once `ms` have passed without it settling. */
async function within<T>(ms: number | undefined, work: Promise<T>): Promise<T> {
  if (ms === undefined) return work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RequestError(MESSAGES.requestTimedOut(ms), 'timeout')), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One bucket of the pin index: its two offsets from the table, then its gzipped entries, each
 * checked against the index's declared length and read within `SECTION_LIMITS.indexBucket`.
 */
async function readBucket(archive: PMTiles, indexAt: number, index: PinIndexInfo, bucket: number, href: string): Promise<PinIndexEntry[]> {
  const read = async (offset: number, length: number) => (await archive.source.getBytes(offset, length)).data;
  const section = { from: indexAt, to: indexAt + index.length };
  const table = (index.buckets + 1) * 8;
  const bounds = new DataView(await readPiece(read, indexAt + bucket * 8, 16, { ...section, limit: 16 }, href, 'pin index', `the offsets of bucket ${bucket}`));
  const start = bounds.getFloat64(0, true);
  const end = bounds.getFloat64(8, true);
  if (!(end > start) || start < table) throw new ArchiveSectionError(href, 'pin index', `bucket ${bucket} spans ${start} to ${end}`);
  const data = await readPiece(read, indexAt + start, end - start, { ...section, limit: SECTION_LIMITS.indexBucket }, href, 'pin index', `bucket ${bucket}`);
  const entries = await inflateJson(data, SECTION_LIMITS.indexBucket, href, 'pin index', `bucket ${bucket}`);
  if (!Array.isArray(entries)) throw new ArchiveSectionError(href, 'pin index', `bucket ${bucket} is not a list`);
  return entries as PinIndexEntry[];
}

/** Tiles above (`cutFromAbove`) kept read: the tiles in view share a few. */
const TILES_ABOVE_KEPT = 64;

/**
 * The answer for the tiles a version-5 archive leaves out: each cut from the nearest tile above it
 * the archive has (`cutFromAbove`). The last tiles above read are kept, by address, as the map
 * asks for a tile's siblings together; a failed read is not kept.
 */
function cutTiles(cutFrom: number): MissingTileAnswer {
  const kept = new Map<string, Promise<Uint8Array | undefined>>();
  // Its decoder and encoder are a chunk of their own (openPinArchive starts loading it): not every pin set needs them.
  return async (z, x, y, read) =>
    (await import('../pins/archive-cut.ts')).cutFromAbove(
      (tz, tx, ty) => {
        const key = `${tz}/${tx}/${ty}`;
        let tile = kept.get(key);
        if (tile) kept.delete(key);
        else {
          tile = read(tz, tx, ty);
          tile.catch(() => kept.delete(key));
        }
        kept.set(key, tile);
        if (kept.size > TILES_ABOVE_KEPT) kept.delete(kept.keys().next().value!);
        return tile;
      },
      z,
      x,
      y,
      cutFrom,
    );
}

/** The archive's `pinmap` metadata, or a `PinArchiveError` naming what is missing or wrong. */
function checkMetadata(raw: Record<string, unknown> | null, href: string): PinArchiveMetadata {
  const made = 'pins need an archive made by pinmap-tile-pins';
  const pinmap = raw?.pinmap as Partial<PinArchiveMetadata> | undefined;
  if (typeof pinmap !== 'object' || pinmap === null) throw new PinArchiveError(`${href} has no "pinmap" member in its metadata; ${made}`);
  if (typeof pinmap.version !== 'number' || pinmap.version < PIN_ARCHIVE.oldestVersion || pinmap.version > PIN_ARCHIVE.version) {
    throw new PinArchiveError(
      `${href} is a pin archive of version ${describeValue(pinmap.version)}; this Pinmap reads versions ${PIN_ARCHIVE.oldestVersion} to ${PIN_ARCHIVE.version} (make the archive again with pinmap-tile-pins)`,
    );
  }
  const layers = raw?.vector_layers;
  if (!Array.isArray(layers) || !layers.some((layer) => (layer as { id?: unknown } | null)?.id === PIN_ARCHIVE.layer)) {
    throw new PinArchiveError(`${href} has no "${PIN_ARCHIVE.layer}" layer in its metadata's vector_layers; ${made}`);
  }
  if (!Array.isArray(pinmap.looks)) throw new PinArchiveError(`${href}: its metadata's pinmap.looks is ${describeValue(pinmap.looks)}, not a list of pin looks; ${made}`);
  if (pinmap.looks.length > PIN_ARCHIVE.maxLooks) {
    throw new PinArchiveError(`${href}: its metadata lists ${pinmap.looks.length} pin looks; a pin archive has at most ${PIN_ARCHIVE.maxLooks} (its metadata is damaged, or another tool made it)`);
  }
  if (typeof pinmap.count !== 'number') throw new PinArchiveError(`${href}: its metadata's pinmap.count is ${describeValue(pinmap.count)}, not a number; ${made}`);
  const index = pinmap.index as Partial<PinIndexInfo> | undefined;
  if (typeof index?.buckets !== 'number' || !Number.isSafeInteger(index.buckets) || !(index.buckets >= 1) || typeof index.length !== 'number' || !(index.length >= (index.buckets + 1) * 8)) {
    throw new PinArchiveError(`${href}: its metadata's pinmap.index is ${describeValue(pinmap.index)}, not where its pin index is; ${made}`);
  }
  const checked = { ...pinmap, pinStyles: typeof pinmap.pinStyles === 'object' && pinmap.pinStyles !== null ? pinmap.pinStyles : {} } as PinArchiveMetadata;
  if (checked.search !== undefined && !isSearchInfo(checked.search)) {
    // Only the search: the pins still show; the search box says the archive has no search index.
    console.warn(`Pinmap: ${href}: its metadata's pinmap.search is ${describeValue(checked.search)}, not where a search index is; the search finds nothing`);
    delete checked.search;
  }
  if (checked.leaves !== undefined && !isLeavesInfo(checked.leaves)) {
    // Only the bubbles' pins: a bubble at the map's maximum zoom zooms in as far as the map goes.
    console.warn(`Pinmap: ${href}: its metadata's pinmap.leaves is ${describeValue(checked.leaves)}, not where the bubbles' pins are; bubbles do not list their pins`);
    delete checked.leaves;
  }
  // Version 5 names it; an archive of an older version has every tile (and no cutFrom).
  if ((checked.version >= 5 || checked.cutFrom !== undefined) && !(Number.isInteger(checked.cutFrom) && checked.cutFrom! >= 0 && checked.cutFrom! <= PIN_ARCHIVE.maxZoom)) {
    throw new PinArchiveError(`${href}: its metadata's pinmap.cutFrom is ${describeValue(checked.cutFrom)}, not the zoom its tiles are cut from; ${made}`);
  }
  if (checked.categories !== undefined && !isCategoryList(checked.categories)) {
    // Only the legend's counts: the pins still show, their categories without counts.
    console.warn(`Pinmap: ${href}: its metadata's pinmap.categories is ${describeValue(checked.categories)}, not a list of [category, count]; the legend shows no counts`);
    delete checked.categories;
  }
  return checked;
}

/** Where the bubbles' pins are (`PinArchiveMetadata.leaves`). */
function isLeavesInfo(value: unknown): value is PinLeavesInfo {
  const info = value as Partial<PinLeavesInfo> | null;
  return (
    typeof info === 'object' &&
    info !== null &&
    Array.isArray(info.ranges) &&
    info.ranges.every((range) => Array.isArray(range) && range.length === 2 && range.every((zoom) => typeof zoom === 'number')) &&
    typeof info.orders === 'number' &&
    typeof info.length === 'number'
  );
}

/** Where a search index is (`PinArchiveMetadata.search`). */
function isSearchInfo(value: unknown): value is PinSearchInfo {
  const info = value as Partial<PinSearchInfo> | null;
  return (
    typeof info === 'object' &&
    info !== null &&
    Array.isArray(info.fields) &&
    info.fields.every((field) => typeof field === 'string') &&
    typeof info.length === 'number' &&
    Array.isArray(info.directory) &&
    info.directory.length === 2 &&
    info.directory.every((n) => typeof n === 'number' && n >= 0)
  );
}

/** A list of `[category, count]` (`PinArchiveMetadata.categories`). */
function isCategoryList(value: unknown): value is [string, number][] {
  return Array.isArray(value) && value.every((item) => Array.isArray(item) && typeof item[0] === 'string' && typeof item[1] === 'number' && item[1] >= 0);
}

/**
 * The archive's categories with their counts (its metadata's `categories`), then any category of
 * its looks they lack, count unknown: all of them, counts unknown, for an archive made before the
 * counts were kept (its looks are in the order their first pin came).
 */
export function archiveCategories(metadata: Pick<PinArchiveMetadata, 'looks' | 'categories'>): CategoryCount[] {
  const counts = new Map<string, number | undefined>(metadata.categories ?? []);
  for (const look of metadata.looks) if (look?.category !== undefined && !counts.has(look.category)) counts.set(look.category, undefined);
  return [...counts].map(([category, count]) => ({ category, count }));
}

/**
 * A pin as an archive's tile draws it (what its button and name need: id, title, look, and the
 * look's category), or why it cannot be shown: a feature without an id or a title, from an
 * archive another tool made. Its description and link are in the pin index (`PinArchive.find`).
 */
export function pinFromTile(properties: Record<string, unknown>, lngLat: [number, number], archive: PinArchive): Pin | string {
  const { id, title, look } = properties as Partial<Record<keyof PinTileProperties, unknown>>;
  if (typeof id !== 'string' && typeof id !== 'number') return `a pin in ${archive.url} has no "id" property`;
  if (typeof title !== 'string') return `pin "${String(id)}" in ${archive.url} has no "title" property`;
  const at = typeof look === 'number' ? look : -1;
  const pin: Pin = { id: String(id), title, description: '', lngLat, options: archive.looks[at] ?? {} };
  const category = archive.metadata.looks[at]?.category;
  if (category !== undefined) pin.category = category;
  return pin;
}

/** A pin found in an archive's pin index: the pin, and the zooms it stands alone at. */
export type FoundPin = { pin: Pin; aloneMask: number };

/** Pins looked up by id in an archive's pin index, each once; see `pinLookup`. */
export interface PinLookup {
  /**
   * The pin from the pin index; undefined when it has no such pin or cannot be read now (a console
   * error says so). Rejects with the `ArchiveSectionError` when its pin index is damaged (the
   * archive's `onDamage` has told the page), so the pin is not called missing.
   */
  lookUp(id: string): Promise<FoundPin | undefined>;
  /** A pin already found, at once (to open it again by id). */
  known(id: string): FoundPin | undefined;
  /**
   * Calls `show` with the pin once `lookUp` gives it: never at once, even for a pin found before,
   * as the views did before this was shared (opening at once from a click broke the legend's and
   * the pin list's tests). Unless `isCurrent()` says the page has moved on by then; a pin the
   * archive does not have is a console warning.
   */
  open(id: string, show: (pin: Pin) => void, isCurrent: () => boolean): void;
}

/** The pins of `archive` looked up by a page (a click, `?pin=`, the ref), kept once found. */
export function pinLookup(archive: PinArchive): PinLookup {
  const found = new Map<string, FoundPin>();
  const lookup: PinLookup = {
    known: (id) => found.get(id),
    open(id, show, isCurrent) {
      lookup.lookUp(id).then(
        (entry) => {
          if (!isCurrent()) return;
          if (entry) show(entry.pin);
          else console.warn(`Pinmap: there is no pin with the id "${id}" in the pin archive to open.`);
        },
        (error: unknown) => console.error(`Pinmap: pin "${id}" cannot be opened: ${reasonOf(error)}`),
      );
    },
    async lookUp(id) {
      const known = found.get(id);
      if (known) return known;
      try {
        const entry = await archive.find(id);
        if (entry) found.set(id, entry);
        return entry;
      } catch (error) {
        if (error instanceof ArchiveSectionError) throw error;
        console.error(`Pinmap: the pin index of ${archive.url} could not be read: ${reasonOf(error)}`);
        return undefined;
      }
    },
  };
  return lookup;
}
