import type { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { geoJSONToTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { tileIdToZxy, zxyToTileId } from 'pmtiles';
import type Supercluster from 'supercluster';
import { CLUSTER_MAX_ZOOM } from '../map/constants.ts';
import {
  PIN_ARCHIVE,
  type ClusterTileProperties,
  type PinArchiveMetadata,
  type PinIndexEntry,
  type PinLook,
  type PinTileProperties,
} from '../map/pin-archive-format.ts';
import { PinChecker, PinDataError, assertFeatureCollection, readCollectionMembers, type SkippedFeature } from '../map/pin-data.ts';
import { PinGrouping } from '../map/pin-grouping.ts';
import { abbreviate } from '../map/pin-markers.ts';
import type { PinOptions } from '../map/pin-options.ts';
import { COMPRESSION, PmtilesWriter, TILE_TYPE } from './pmtiles-writer.ts';
import { readFeatureCollection } from './read-geojson.ts';

/**
 * The pin tiler (`pinmap-tile-pins`, README "Pre-tiled pins"): a GeoJSON FeatureCollection of any
 * size in, one PMTiles archive of the pins' vector tiles out (`PIN_ARCHIVE`).
 *
 * 1. The file is read a feature at a time (`readFeatureCollection`); each feature is checked by
 *    the browser's own `PinChecker`; a good pin leaves its coordinates in a typed array and its
 *    popup fields as one JSON record in a byte store, not an object.
 * 2. The pins are grouped by the browser's own `PinGrouping`, one range of zooms at a time (as the
 *    page does), so bubbles, counts and splits are those of the inline pins.
 * 3. Each zoom's bubbles and lone pins are cut into tiles by geojson-vt with MapLibre's extent, so
 *    positions round exactly as a GeoJSON source's do, encoded by vt-pbf, gzipped, and written
 *    in tile id order by `PmtilesWriter`.
 */

/** Tile ids of this zoom start here: the Hilbert curve of each zoom follows the previous zooms'. */
const firstTileId = (zoom: number): number => zxyToTileId(zoom, 0, 0);
/** The zoom pins are sorted at, along its Hilbert curve: the tiles of every lower zoom are runs of it. */
const SORT_ZOOM = PIN_ARCHIVE.maxZoom;

export interface TilePinsOptions {
  /** Archive name in its metadata. */
  name?: string;
  /** How many reasons for skipped features and warnings to keep in the result (all are counted). */
  keep?: number;
  /** Told of every skipped feature. */
  onSkipped?: (skipped: SkippedFeature) => void;
  /** Told what is being done, for a progress line. */
  onProgress?: (message: string) => void;
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

/** A growable typed array. */
class Growable<T extends Float64Array | Uint32Array> {
  array: T;
  length = 0;
  constructor(private readonly make: (size: number) => T) {
    this.array = make(1024);
  }
  push(value: number): void {
    if (this.length === this.array.length) {
      const next = this.make(this.array.length * 2);
      next.set(this.array);
      this.array = next;
    }
    this.array[this.length++] = value;
  }
  view(): T {
    return this.array.subarray(0, this.length) as T;
  }
}

/** Strings kept as UTF-8 bytes in large buffers (off the JavaScript heap), read back by number. */
class RecordStore {
  private static readonly CHUNK = 32 * 1024 * 1024;
  private readonly chunks: Buffer[] = [];
  private used = RecordStore.CHUNK;
  private readonly chunkOf = new Growable((n) => new Uint32Array(n));
  private readonly startOf = new Growable((n) => new Uint32Array(n));
  private readonly lengthOf = new Growable((n) => new Uint32Array(n));

  add(text: string): void {
    const bytes = Buffer.byteLength(text);
    if (this.used + bytes > (this.chunks.at(-1)?.length ?? 0)) {
      this.chunks.push(Buffer.allocUnsafe(Math.max(RecordStore.CHUNK, bytes)));
      this.used = 0;
    }
    const chunk = this.chunks.length - 1;
    this.chunks[chunk]!.write(text, this.used, 'utf8');
    this.chunkOf.push(chunk);
    this.startOf.push(this.used);
    this.lengthOf.push(bytes);
    this.used += bytes;
  }

  get(i: number): string {
    const start = this.startOf.array[i]!;
    return this.chunks[this.chunkOf.array[i]!]!.toString('utf8', start, start + this.lengthOf.array[i]!);
  }
}

/** A pin's record: its popup fields and look, as `JSON.stringify` writes this tuple. */
type PinRecord = [id: string, title: string, description: string, url: string | null, category: string | null, look: number];

/** Where a longitude and latitude fall at `zoom`, as geojson-vt projects them (a longitude of 180 is drawn at -180). */
function tileOf(lng: number, lat: number, zoom: number): [number, number] {
  const size = 2 ** zoom;
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = Math.min(1, Math.max(0, 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI));
  const x = (lng / 360 + 0.5) % 1;
  return [Math.min(size - 1, Math.floor(x * size)), Math.min(size - 1, Math.floor(y * size))];
}

/** The longitude a tile places a point at: 180 and -180 are one meridian, drawn at -180 (see `tileOf`). */
const tileLng = (lng: number): number => (lng === 180 ? -180 : lng);

/** Reads, checks, groups and tiles the pins of `input` into the archive at `output`. */
export async function tilePins(input: Readable, output: string, options: TilePinsOptions = {}): Promise<TilePinsResult> {
  const progress = options.onProgress ?? (() => {});
  const keep = options.keep ?? 20;
  const lngLats = new Growable((n) => new Float64Array(n));
  const records = new RecordStore();
  const lookIds = new Map<string, number>();
  const looks: PinLook[] = [];
  let checker: PinChecker | undefined;
  /** Every id seen, for duplicates: needed only while reading. */
  const ids = new Map<string, number>();

  progress('reading and checking the pins');
  const read = await readFeatureCollection(input, (feature, index, members) => {
    // The file's pinStyles, when they come before the features (as they usually do), give the
    // pins their category's style in warnings; either way the archive carries them for the page.
    checker ??= new PinChecker(readCollectionMembers(members).pinStyles, ids, keep, options.onSkipped);
    const checked = checker.check(feature, index);
    if (!checked) return;
    const { pin, own } = checked;
    const lookKey = JSON.stringify([pin.category ?? null, own ?? null]);
    let look = lookIds.get(lookKey);
    if (look === undefined) {
      look = looks.length;
      if (look >= PIN_ARCHIVE.maxLooks) {
        throw new TilePinsError(
          `feature ${index}: more than ${PIN_ARCHIVE.maxLooks} distinct pin looks (category and own pin options); give pins of one look a category and its style in pinStyles`,
        );
      }
      lookIds.set(lookKey, look);
      looks.push({ ...(pin.category === undefined ? {} : { category: pin.category }), ...(own === undefined ? {} : { pin: own }) });
    }
    lngLats.push(pin.lngLat[0]);
    lngLats.push(pin.lngLat[1]);
    const record: PinRecord = [pin.id, pin.title, pin.description, pin.url ?? null, pin.category ?? null, look];
    records.add(JSON.stringify(record));
  });

  ids.clear();
  try {
    assertFeatureCollection(read.members);
  } catch (error) {
    throw new TilePinsError((error as Error).message);
  }
  if (!read.hasFeatureArray) {
    throw new TilePinsError(`pins must be a GeoJSON FeatureCollection whose "features" is an array (got ${read.featuresWere ?? 'nothing'})`);
  }
  const members = readCollectionMembers(read.members);
  const warnings = [...members.warnings, ...(checker?.warnings ?? [])].slice(0, keep);
  const warningCount = members.warnings.length + (checker?.warningCount ?? 0);

  const coordinates = lngLats.view();
  const count = coordinates.length / 2;
  progress(`${count.toLocaleString('en-US')} ${count === 1 ? 'pin' : 'pins'}; sorting them along the tiles`);

  // Each pin's place along the Hilbert curve of the highest zoom; sorted once, read in that order at every zoom.
  const sortBase = firstTileId(SORT_ZOOM);
  const place = new Uint32Array(count);
  const keyed = new BigUint64Array(count);
  for (let i = 0; i < count; i++) {
    const [x, y] = tileOf(coordinates[2 * i]!, coordinates[2 * i + 1]!, SORT_ZOOM);
    place[i] = zxyToTileId(SORT_ZOOM, x, y) - sortBase;
    keyed[i] = (BigInt(place[i]!) << 32n) | BigInt(i);
  }
  keyed.sort();
  const order = new Uint32Array(count);
  for (let k = 0; k < count; k++) order[k] = Number(keyed[k]! & 0xffffffffn);

  // The pins as supercluster reads them, made when asked for: no object per pin is kept.
  const pointAt = (i: number): Supercluster.PointFeature<{ i: number }> => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [coordinates[2 * i]!, coordinates[2 * i + 1]!] },
    properties: { i },
  });
  const points = new Proxy([] as Supercluster.PointFeature<{ i: number }>[], {
    get(target, property, receiver) {
      if (property === 'length') return count;
      if (typeof property === 'string' && /^\d+$/.test(property)) return pointAt(Number(property));
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  const grouping = new PinGrouping(points);
  /** Bit z: the pin stands alone at zoom z. */
  const alone = new Uint16Array(count);
  /** Each lone pin's place among the groups of the zoom being written. */
  const rank = new Uint32Array(count);

  const writer = new PmtilesWriter();
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

  try {
    for (let zoom = 0; zoom <= PIN_ARCHIVE.maxZoom; zoom++) {
      progress(`zoom ${zoom}: grouping`);
      // Above the grouping's last zoom every pin stands alone, in the order of its last index's pins.
      const clusters = groupsAt(grouping, zoom, alone, rank);
      if (zoom === PIN_ARCHIVE.maxZoom || (zoom < CLUSTER_MAX_ZOOM && grouping.rangeOf(zoom)[1] === zoom)) grouping.forget(zoom);
      progress(`zoom ${zoom}: ${clusters.length.toLocaleString('en-US')} ${clusters.length === 1 ? 'bubble' : 'bubbles'}; writing tiles`);
      writeZoom(writer, zoom, clusters, { coordinates, records, order, place, alone, rank });
    }
    progress('writing the archive');
    const metadata = archiveMetadata(options.name ?? 'pins', count, members, looks, count <= PIN_ARCHIVE.indexInMetadataMax ? pinIndex(count, coordinates, records, alone) : undefined);
    const hasPins = count > 0;
    const written = writer.finish(
      output,
      {
        tileCompression: COMPRESSION.gzip,
        tileType: TILE_TYPE.mvt,
        minZoom: 0,
        maxZoom: PIN_ARCHIVE.maxZoom,
        bounds: hasPins ? [west, south, east, north] : [-180, -85, 180, 85],
        center: hasPins ? [(west + east) / 2, (south + north) / 2, 0] : [0, 0, 0],
      },
      metadata,
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
  } catch (error) {
    if (!writer.finishedOrFailed) writer.abandon();
    throw error;
  }
}

/** A bubble at one zoom. */
interface Bubble {
  lng: number;
  lat: number;
  properties: ClusterTileProperties;
}

/**
 * The bubbles at a zoom, in the order the grouping gives them, and the pins alone at it: marked
 * in `alone`, with their place in that order in `rank`. The page's GPU pins put their features
 * in this order too (bubbles, then pins), and MapLibre breaks ties in drawing order by it, so
 * each tile keeps it.
 */
function groupsAt(grouping: PinGrouping<{ i: number }>, zoom: number, alone: Uint16Array, rank: Uint32Array): Bubble[] {
  const bubbles: Bubble[] = [];
  const bit = 1 << zoom;
  let position = 0;
  for (const feature of grouping.getClusters([-180, -90, 180, 90], zoom)) {
    {
      const properties = feature.properties as Partial<Supercluster.ClusterProperties> & { i?: number };
      if (!properties.cluster) {
        alone[properties.i!]! |= bit;
        rank[properties.i!] = position++;
        continue;
      }
      const id = properties.cluster_id!;
      const [lng, lat] = feature.geometry.coordinates as [number, number];
      bubbles.push({
        lng,
        lat,
        properties: {
          cluster: true,
          cluster_id: id,
          point_count: properties.point_count!,
          point_count_abbreviated: abbreviate(properties.point_count!),
          expansion_zoom: grouping.getClusterExpansionZoom(id),
        },
      });
    }
  }
  return bubbles;
}

/** What `writeZoom` reads of the pins. */
interface PinColumns {
  coordinates: Float64Array;
  records: RecordStore;
  order: Uint32Array;
  place: Uint32Array;
  alone: Uint16Array;
  rank: Uint32Array;
}

/** Cuts one zoom's bubbles and lone pins into tiles and adds them to the archive in tile id order. */
function writeZoom(writer: PmtilesWriter, zoom: number, bubbles: Bubble[], pins: PinColumns): void {
  const base = firstTileId(zoom);
  const shift = 4 ** (SORT_ZOOM - zoom);
  const everyPin = zoom > CLUSTER_MAX_ZOOM;
  const bit = 1 << zoom;
  const bubbleTiles = bubbles.map((bubble) => {
    const [x, y] = tileOf(bubble.lng, bubble.lat, zoom);
    return zxyToTileId(zoom, x, y) - base;
  });
  const bubbleOrder = bubbles.map((_, k) => k).sort((a, b) => bubbleTiles[a]! - bubbleTiles[b]! || a - b);

  let p = 0; // next pin in `order`
  let b = 0; // next bubble in `bubbleOrder`
  const nextPin = () => {
    while (p < pins.order.length && !everyPin && !(pins.alone[pins.order[p]!]! & bit)) p++;
    return p < pins.order.length ? Math.floor(pins.place[pins.order[p]!]! / shift) : Infinity;
  };
  for (;;) {
    const pinTile = nextPin();
    const bubbleTile = b < bubbleOrder.length ? bubbleTiles[bubbleOrder[b]!]! : Infinity;
    const tile = Math.min(pinTile, bubbleTile);
    if (tile === Infinity) break;
    const features: GeoJSON.Feature<GeoJSON.Point>[] = [];
    while (b < bubbleOrder.length && bubbleTiles[bubbleOrder[b]!] === tile) {
      const bubble = bubbles[bubbleOrder[b++]!]!;
      features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [tileLng(bubble.lng), bubble.lat] }, properties: bubble.properties });
    }
    const here: number[] = [];
    while (nextPin() === tile) here.push(pins.order[p++]!);
    here.sort((a, c) => pins.rank[a]! - pins.rank[c]!);
    for (const i of here) {
      const [id, title, description, url, category, look] = JSON.parse(pins.records.get(i)) as PinRecord;
      const properties: PinTileProperties = { id, title, look };
      if (description !== '') properties.description = description;
      if (url !== null) properties.url = url;
      if (category !== null) properties.category = category;
      features.push({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [tileLng(pins.coordinates[2 * i]!), pins.coordinates[2 * i + 1]!] },
        properties: properties as unknown as GeoJSON.GeoJsonProperties,
      });
    }
    const [, x, y] = tileIdToZxy(base + tile);
    const cut = geoJSONToTile({ type: 'FeatureCollection', features }, zoom, x, y, { extent: PIN_ARCHIVE.extent, maxZoom: PIN_ARCHIVE.maxZoom });
    const pbf = fromGeojsonVt({ [PIN_ARCHIVE.layer]: cut }, { version: 2, extent: PIN_ARCHIVE.extent });
    writer.addTile(base + tile, gzipSync(pbf));
  }
}

/** Every pin's place and popup fields, for `?pin=` (small sets only: see `PIN_ARCHIVE.indexInMetadataMax`). */
function pinIndex(count: number, coordinates: Float64Array, records: RecordStore, alone: Uint16Array): PinIndexEntry[] {
  const index: PinIndexEntry[] = [];
  for (let i = 0; i < count; i++) {
    const [id, title, description, url, category, look] = JSON.parse(records.get(i)) as PinRecord;
    index.push([id, coordinates[2 * i]!, coordinates[2 * i + 1]!, alone[i]!, title, description, url, category, look]);
  }
  return index;
}

/** The archive's JSON metadata: TileJSON-like fields for any reader, and `pinmap` for the page. */
function archiveMetadata(
  name: string,
  count: number,
  members: { attribution?: string; pinStyles: Record<string, PinOptions> },
  looks: PinLook[],
  index: PinIndexEntry[] | undefined,
): object {
  const pinmap: PinArchiveMetadata = { version: PIN_ARCHIVE.version, count, pinStyles: members.pinStyles, looks };
  if (members.attribution !== undefined) pinmap.attribution = members.attribution;
  if (index) pinmap.index = index;
  return {
    name,
    format: 'pbf',
    description: `${count.toLocaleString('en-US')} pins, grouped per zoom, made by pinmap-tile-pins`,
    ...(members.attribution === undefined ? {} : { attribution: members.attribution }),
    vector_layers: [
      {
        id: PIN_ARCHIVE.layer,
        minzoom: 0,
        maxzoom: PIN_ARCHIVE.maxZoom,
        fields: {
          id: 'String',
          title: 'String',
          description: 'String',
          url: 'String',
          category: 'String',
          look: 'Number',
          cluster: 'Boolean',
          cluster_id: 'Number',
          point_count: 'Number',
          point_count_abbreviated: 'String',
          expansion_zoom: 'Number',
        },
      },
    ],
    pinmap,
  };
}

export { PinDataError };
