import { Readable } from 'node:stream';
import { PIN_ARCHIVE, bubbleCategoryKey, tileTitle, type PinArchiveMetadata, type PinIndexInfo, type PinLeavesInfo, type PinLook, type PinSearchInfo } from '../pins/archive-format.ts';
import { PinChecker, PinDataError, assertFeatureCollection, readCollectionMembers, type CheckedPin } from '../pins/data.ts';
import type { SkippedFeature } from '../pins/types.ts';
import type { PinOptions } from '../config/pin-options.ts';
import type { CsvColumns } from '../config/types.ts';
import { boundsOf } from '../pins/bounds.ts';
import { CsvPinReader, readCsvStream, withWholeFirstLine } from '../pins/csv.ts';
import { BubbleLeavesWriter } from './bubble-leaves.ts';
import { ByteStore } from './byte-store.ts';
import { IdStore } from './id-store.ts';
import { Growable } from './growable.ts';
import { INDEX_PINS_PER_PART, RecordSpill } from './pin-lookup.ts';
import { COMPRESSION, PmtilesWriter, TILE_TYPE } from './pmtiles-writer.ts';
import { readFeatureCollection } from './read-geojson.ts';
import { SearchIndexWriter } from './search-index.ts';
import { GroupsInWorker, type Bubbles } from './zoom-groups.ts';
import { sortAlongTiles, writeZoom } from './zoom-tiles.ts';

/**
 * The pin tiler (`pinmap tile`, README "Pre-tiled pins"): a GeoJSON FeatureCollection or a CSV
 * file of any size in, one PMTiles archive of the pins' vector tiles and their pin index out
 * (`PIN_ARCHIVE`).
 *
 * 1. The file is read a feature at a time (`readFeatureCollection`, each cut out of the byte stream
 *    and given to `JSON.parse`), or a CSV file a chunk of rows at a time (`readCsvStream`); each
 *    feature or row is checked by
 *    the browser's own `PinChecker`; a good pin leaves its coordinates and look in typed arrays,
 *    its id and title as bytes (`IdStore`, which also finds duplicate ids) and its popup fields as one
 *    JSON line in a temporary file (`RecordSpill`): no object or string per pin stays.
 * 2. The pins are grouped by the browser's own `PinGrouping`, one range of zooms at a time (as the
 *    page does), so bubbles, counts and splits are those of the inline pins; each zoom's groups
 *    are read a box at a time (`groupsAt`), in two worker threads (every other range each) a few zooms ahead of the tiles being written
 *    (`GroupsInWorker`, `zoom-groups.ts`).
 * 3. Each zoom's bubbles and lone pins are written tile by tile, in tile id order, by
 *    `PointTileWriter` (positions round exactly as a GeoJSON source's do) to `PmtilesWriter`.
 *    Tiles are left uncompressed: most hold a pin or two, which gzip makes longer.
 * 4. The pin index (every pin's place and popup fields, in buckets by id; `pin-lookup.ts`) follows the
 *    tile data. A grouping worker writes it once every zoom is grouped.
 * 5. The search index (each pin's words; `search-index.ts`) follows the pin index. Its words are
 *    noted as the pins are read, and it is written while the workers group the first zooms.
 */

export interface TilePinsOptions {
  /** Archive name in its metadata. */
  name?: string;
  /** How many reasons for skipped features and warnings to keep in the result (all are counted). */
  keep?: number;
  /** Told of every skipped feature. */
  onSkipped?: (skipped: SkippedFeature) => void;
  /** The file's format; by default its first characters tell (JSON starts with `{`). */
  format?: 'geojson' | 'csv';
  /** A CSV file's columns, where not found by their usual names (config's `csv`). */
  csv?: CsvColumns;
  /** Told what is being done, for a progress line. */
  onProgress?: (message: string) => void;
  /** About how many pins a part of the pin index holds in memory while it is written (default 250,000); the output is the same. */
  indexPartPins?: number;
  /** Pin properties the search index holds besides the title (as config's `searchFields`); none by default. */
  searchFields?: readonly string[];
  /** The most bytes of the archive's root directory (`PmtilesWriter`'s `rootBytes`): tests make it small for leaf directories. */
  rootDirectoryBytes?: number;
}

export interface TilePinsResult {
  pins: number;
  features: number;
  skipped: SkippedFeature[];
  skippedCount: number;
  warnings: string[];
  warningCount: number;
  tiles: number;
  bytes: number;
  looks: number;
}

/** Thrown when the input cannot be tiled at all; the message says why. */
export class TilePinsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TilePinsError';
  }
}

/** A pin's popup fields in the spill: title, description, url, category. */
type PinRecord = [title: string, description: string, url: string | null, category: string | null];

/** Reads, checks, groups and tiles the pins of `input` into the archive at `output`. */
export async function tilePins(input: Readable, output: string, options: TilePinsOptions = {}): Promise<TilePinsResult> {
  const progress = options.onProgress ?? (() => {});
  const keep = options.keep ?? 20;
  // Directories of millions of tiles: at gzip level 6 the 23 MB of directories of 1M pins take 1.2 s instead of 5.1 s at 9, for 0.6% more bytes.
  const writer = new PmtilesWriter({ level: 6, ...(options.rootDirectoryBytes === undefined ? {} : { rootBytes: options.rootDirectoryBytes }) });
  try {
    return await tileInto(writer, input, output, options, progress, keep);
  } catch (error) {
    if (!writer.finishedOrFailed) writer.abandon();
    throw error;
  }
}

async function tileInto(writer: PmtilesWriter, input: Readable, output: string, options: TilePinsOptions, progress: (message: string) => void, keep: number): Promise<TilePinsResult> {
  const lngLats = new Growable((n) => new Float64Array(n));
  const lookOf = new Growable((n) => new Uint16Array(n));
  const ids = new IdStore();
  /**
   * Each pin's title as the tiles carry it (its name for the keyboard and screen readers;
   * `tileTitle`). It and `search` are let go of once written (see below), so they are `let`.
   */
  let titles: ByteStore | undefined = new ByteStore();
  const records = new RecordSpill(writer.scratchPath('records.jsonl'));
  const lookIds = new Map<string, number>();
  const looks: PinLook[] = [];
  let checker: PinChecker | undefined;
  const searchFields = [...new Set(options.searchFields ?? [])].filter((name) => name !== 'title');
  let search: SearchIndexWriter | undefined = new SearchIndexWriter(searchFields);

  progress('reading and checking the pins');
  /** Keeps a good pin; `where` names it for an error (`feature 12`, `line 12`). */
  const addPin = ({ pin, own }: CheckedPin, where: string) => {
    const lookKey = JSON.stringify([pin.category ?? null, own ?? null]);
    let look = lookIds.get(lookKey);
    if (look === undefined) {
      look = looks.length;
      if (look >= PIN_ARCHIVE.maxLooks) {
        throw new TilePinsError(
          `${where}: more than ${PIN_ARCHIVE.maxLooks} distinct pin looks (category and own pin options); give pins of one look a category and its style in pinStyles`,
        );
      }
      lookIds.set(lookKey, look);
      looks.push({ ...(pin.category === undefined ? {} : { category: pin.category }), ...(own === undefined ? {} : { pin: own }) });
    }
    lngLats.push(pin.lngLat[0]);
    lngLats.push(pin.lngLat[1]);
    lookOf.push(look);
    titles!.add(tileTitle(pin.title));
    search!.add(pin, look);
    const record: PinRecord = [pin.title, pin.description, pin.url ?? null, pin.category ?? null];
    records.add(JSON.stringify(record));
  };
  const { format, input: file } = options.format ? { format: options.format, input } : await sniffFormat(input);
  let read: { members: Record<string, unknown>; featureCount: number };
  if (format === 'csv') {
    checker = new PinChecker({}, ids, keep, options.onSkipped).keepFields(searchFields);
    const csv = new CsvPinReader(checker, options.csv, (checked, line) => addPin(checked, `line ${line}`));
    try {
      await readCsvStream(Readable.from(withWholeFirstLine(file.setEncoding('utf8'))), csv);
    } catch (error) {
      if (error instanceof PinDataError) throw new TilePinsError(error.message);
      throw error;
    }
    read = { members: {}, featureCount: csv.rows };
  } else {
    const collection = await readFeatureCollection(file, (feature, index, members) => {
      // The file's pinStyles, when they come before the features (as they usually do), give the
      // pins their category's style in warnings; either way the archive carries them for the page.
      checker ??= new PinChecker(readCollectionMembers(members).pinStyles, ids, keep, options.onSkipped).keepFields(searchFields);
      const checked = checker.check(feature, index);
      if (checked) addPin(checked, `feature ${index}`);
    });
    if (collection.topWas !== undefined) throw new TilePinsError(`pins must be a GeoJSON FeatureCollection (got ${collection.topWas})`);
    try {
      assertFeatureCollection(collection.members);
    } catch (error) {
      throw new TilePinsError((error as Error).message);
    }
    if (!collection.hasFeatureArray) {
      throw new TilePinsError(`pins must be a GeoJSON FeatureCollection whose "features" is an array (got ${collection.featuresWere ?? 'nothing'})`);
    }
    read = collection;
  }
  ids.dropTable();
  titles.trim();
  const members = readCollectionMembers(read.members);
  const warnings = [...members.warnings, ...(checker?.warnings ?? [])].slice(0, keep);
  const warningCount = members.warnings.length + (checker?.warningCount ?? 0);

  // Shared with the grouping's worker threads, not copied.
  const coordinates = new Float64Array(new SharedArrayBuffer(lngLats.length * Float64Array.BYTES_PER_ELEMENT));
  coordinates.set(lngLats.view());
  lngLats.array = new Float64Array(0);
  const lookOfPin = new Uint16Array(new SharedArrayBuffer(lookOf.length * Uint16Array.BYTES_PER_ELEMENT));
  lookOfPin.set(lookOf.view());
  lookOf.array = new Uint16Array(0);
  const count = coordinates.length / 2;
  progress(`${count.toLocaleString('en-US')} ${count === 1 ? 'pin' : 'pins'}; starting the grouping`);

  let west = 180;
  let south = 90;
  let east = -180;
  let north = -90;
  for (let i = 0; i < count; i++) {
    const lng = coordinates[2 * i]!;
    const lat = coordinates[2 * i + 1]!;
    west = Math.min(west, lng);
    east = Math.max(east, lng);
    south = Math.min(south, lat);
    north = Math.max(north, lat);
  }
  // What the page fits its camera to: the smallest box, across the antimeridian when narrower
  // (the header's bounds stay within -180..180, as a map's source takes them).
  const box = boundsOf(
    count,
    (i) => coordinates[2 * i]!,
    (i) => coordinates[2 * i + 1]!,
  );

  // Later zooms are grouped in worker threads while this one's tiles are written; a worker
  // then writes the pin index while the last zooms' tiles are written.
  const buckets = Math.max(1, Math.ceil(count / PIN_ARCHIVE.pinsPerBucket));
  const indexPath = writer.scratchPath('pin-index.bin');
  // The legend's categories, in its order: each bubble counts its pins of each (by place in this list).
  const categories = categoryCounts(members.pinStyles, looks, lookOfPin);
  const categoryOf = categoryNumbers(categories, looks, lookOfPin);
  const groups = new GroupsInWorker({
    coordinates,
    ...(categoryOf ? { categoryOf } : {}),
    lastZoom: PIN_ARCHIVE.maxZoom,
    lowestLastZoom: PIN_ARCHIVE.lowestLastZoom,
    index: { path: indexPath, buckets, partPins: options.indexPartPins ?? INDEX_PINS_PER_PART, ids: ids.columns(), looks: lookOfPin, records: records.spilled() },
  });
  let indexLength: number;
  const searchPath = writer.scratchPath('search-index.bin');
  let searchIndex: ReturnType<SearchIndexWriter['write']>;
  const leavesPath = writer.scratchPath('bubble-leaves.bin');
  const leaves = new BubbleLeavesWriter(leavesPath);
  let leavesInfo: PinLeavesInfo;
  let lastZoom: number;
  try {
    // While the workers group the first zooms (they build the grouping's indexes first), this thread
    // sorts the pins along the tiles and writes the search index, which need no grouping.
    progress('sorting the pins along the tiles');
    const alongTiles = sortAlongTiles(coordinates, ids, titles, lookOfPin);
    progress('writing the search index');
    searchIndex = search.write(searchPath);
    progress("writing the bubbles' pins");
    leaves.writeTable(alongTiles.order, ids, titles, lookOfPin);
    // What only these needed (every distinct word, each pin's words and title: 100 MB and more at
    // 1M pins) goes now, not when the last zoom's tiles are written: the grouping's workers hold
    // their largest ranges meanwhile.
    search = undefined;
    titles = undefined;
    // Up to the first zoom without bubbles (from `lowestLastZoom` up), where every pin stands alone: MapLibre zooms in on it.
    // Above `cutFrom`, tiles that equal their parent's cut to them are left out: each zoom needs the last one's groups.
    let previous: { bubbles: Bubbles; rank: Uint32Array } | undefined;
    for (let zoom = 0; zoom <= groups.lastZoom; zoom++) {
      progress(`zoom ${zoom}: grouping`);
      const { bubbles, rank, leaves: range } = await groups.take(zoom);
      if (range) leaves.addRange(range.zooms, range.order);
      progress(`zoom ${zoom}: ${bubbles.count.toLocaleString('en-US')} ${bubbles.count === 1 ? 'bubble' : 'bubbles'}; writing tiles`);
      writeZoom(writer, zoom, bubbles, alongTiles, rank, categories.length, zoom > PIN_ARCHIVE.cutFrom ? previous : undefined);
      previous = { bubbles, rank };
    }
    lastZoom = groups.lastZoom;
    progress('writing the pin index');
    indexLength = await groups.indexLength();
    leavesInfo = leaves.finish();
  } finally {
    leaves.close();
    await groups.close();
    records.close();
  }

  progress('writing the archive');
  const metadata = archiveMetadata(options.name ?? 'pins', count, members, looks, { buckets, length: indexLength }, categories, { fields: searchFields, ...searchIndex }, leavesInfo, box && [...box[0], ...box[1]], lastZoom);
  const hasPins = count > 0;
  const written = writer.finish(
    output,
    {
      // Uncompressed: a tile is mostly a pin or two, which gzip makes longer, not shorter (and it cost most of the time).
      tileCompression: COMPRESSION.none,
      tileType: TILE_TYPE.mvt,
      minZoom: 0,
      maxZoom: lastZoom,
      bounds: hasPins ? [west, south, east, north] : [-180, -85, 180, 85],
      center: hasPins ? [(west + east) / 2, (south + north) / 2, 0] : [0, 0, 0],
    },
    metadata,
    [indexPath, searchPath, leavesPath],
  );
  return {
    pins: count,
    features: read.featureCount,
    skipped: checker?.skipped ?? [],
    skippedCount: checker?.skippedCount ?? 0,
    warnings,
    warningCount,
    tiles: written.tiles,
    bytes: written.bytes,
    looks: looks.length,
  };
}

/**
 * How many pins each category has (`PinArchiveMetadata.categories`): the file's styled categories
 * first, in its order, then the others, counted by look (the looks are in the order their first
 * pin came, so their categories are in the order they first appear).
 */
function categoryCounts(pinStyles: Record<string, PinOptions>, looks: readonly PinLook[], lookOf: Uint16Array): [string, number][] {
  const perLook = new Float64Array(looks.length);
  for (const look of lookOf) perLook[look]!++;
  const counts = new Map<string, number>(Object.keys(pinStyles).map((category) => [category, 0]));
  looks.forEach((look, i) => {
    if (look.category !== undefined) counts.set(look.category, (counts.get(look.category) ?? 0) + perLook[i]!);
  });
  return [...counts];
}

/**
 * Each pin's category as its place in `categories` (-1: none), in shared memory (the grouping's
 * worker reads it); undefined when no pin has a category.
 */
function categoryNumbers(categories: [string, number][], looks: readonly PinLook[], lookOf: Uint16Array): Int16Array | undefined {
  const place = new Map(categories.map(([category], k) => [category, k]));
  const ofLook = Int16Array.from(looks, (look) => (look.category === undefined ? -1 : place.get(look.category)!));
  if (ofLook.every((k) => k < 0)) return undefined;
  const categoryOf = new Int16Array(new SharedArrayBuffer(lookOf.length * Int16Array.BYTES_PER_ELEMENT));
  for (let i = 0; i < lookOf.length; i++) categoryOf[i] = ofLook[lookOf[i]!]!;
  return categoryOf;
}

/** The archive's JSON metadata: TileJSON-like fields for any reader, and `pinmap` for the page. */
function archiveMetadata(
  name: string,
  count: number,
  members: { attribution?: string; pinStyles: Record<string, PinOptions> },
  looks: PinLook[],
  index: PinIndexInfo,
  categories: [string, number][],
  search: PinSearchInfo,
  leaves: PinLeavesInfo,
  bounds: [number, number, number, number] | undefined,
  lastZoom: number,
): object {
  const pinmap: PinArchiveMetadata = { version: PIN_ARCHIVE.version, count, pinStyles: members.pinStyles, looks, index, categories, search, leaves, ...(bounds ? { bounds } : {}), cutFrom: PIN_ARCHIVE.cutFrom };
  if (members.attribution !== undefined) pinmap.attribution = members.attribution;
  return {
    name,
    format: 'pbf',
    description: `${count.toLocaleString('en-US')} pins, grouped per zoom, made by pinmap-tile-pins`,
    ...(members.attribution === undefined ? {} : { attribution: members.attribution }),
    vector_layers: [
      {
        id: PIN_ARCHIVE.layer,
        minzoom: 0,
        maxzoom: lastZoom,
        fields: {
          id: 'String',
          title: 'String',
          look: 'Number',
          cluster: 'Boolean',
          cluster_id: 'Number',
          point_count: 'Number',
          point_count_abbreviated: 'String',
          expansion_zoom: 'Number',
          first: 'Number',
          ...Object.fromEntries(categories.map((_, k) => [bubbleCategoryKey(k), 'Number'])),
        },
      },
    ],
    pinmap,
  };
}

/**
 * The format of a file by its first characters (JSON starts with `{`, after any byte-order mark
 * and blanks; anything else is taken for CSV), and the stream to read it from, whole.
 */
async function sniffFormat(input: Readable): Promise<{ format: 'geojson' | 'csv'; input: Readable }> {
  const chunks = input[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const first = await chunks.next();
  const head = first.done ? '' : Buffer.from(first.value).toString('utf8', 0, 256);
  const text = head.replace(/^\uFEFF/, '').trimStart();
  const format = text === '' || text.startsWith('{') || text.startsWith('[') ? 'geojson' : 'csv';
  async function* whole() {
    if (first.done) return;
    yield Buffer.from(first.value);
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield Buffer.from(next.value);
  }
  return { format, input: Readable.from(whole(), { objectMode: false }) };
}

export { PinDataError };
