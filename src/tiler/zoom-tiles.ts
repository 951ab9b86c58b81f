import { zxyToTileId } from 'pmtiles';
import { CLUSTER_MAX_ZOOM } from '../config/constants.ts';
import { PIN_ARCHIVE, bubbleCategoryKey } from '../pins/archive-format.ts';
import { abbreviate } from '../pins/bubble.ts';
import { ByteStore } from './byte-store.ts';
import type { IdStore } from './id-store.ts';
import type { PmtilesWriter } from './pmtiles-writer.ts';
import { PointTileWriter, mercatorY, stringValueLength, tileCoordinate, tilePoint, writeStringValue } from './point-tile.ts';
import { NOT_ALONE, tileOf, type Bubbles } from './zoom-groups.ts';

/**
 * The pin tiler's tiles, a zoom at a time (`writeZoom`): each zoom's bubbles and lone pins cut
 * into tiles and added to the archive in tile id order. The pins are sorted once along the tiles
 * (`PinsAlongTiles`), with what every tile of theirs needs laid out in that order, so that each
 * zoom reads them from start to end.
 */

/** Tile ids of this zoom start here: the Hilbert curve of each zoom follows the previous zooms'. */
export const firstTileId = (zoom: number): number => zxyToTileId(zoom, 0, 0);
/** The zoom pins are sorted at, along its Hilbert curve: the tiles of every lower zoom are runs of it. */
const SORT_ZOOM = PIN_ARCHIVE.maxZoom;
/**
 * Bits of a pin's number in its sort key, below its place along the curve (2 × `SORT_ZOOM` bits):
 * the two fill the 64 bits of the key.
 */
const PIN_BITS = 64 - 2 * SORT_ZOOM;

/** The longitude a tile places a point at: 180 and -180 are one meridian, drawn at -180 (see `tileOf`). */
export const tileLng = (lng: number): number => (lng === 180 ? -180 : lng);

/** The pins in the order of the tiles of the highest zoom (along its Hilbert curve), and what their tiles need of each. */
export interface PinsAlongTiles {
  /** The pin at each place. */
  order: Uint32Array;
  /** Each place's tile at the highest zoom, as its place along that zoom's curve (up to 2 × `SORT_ZOOM` bits, so not a 32-bit integer). */
  curve: Float64Array;
  /** Each place's tile column and row at the highest zoom (at zoom z: shifted right by the difference). */
  tileX: Uint32Array;
  tileY: Uint32Array;
  /** Each place's pin across and down the world, 0 to 1 (as `tilePoint` projects it). */
  worldX: Float64Array;
  worldY: Float64Array;
  look: Uint16Array;
  /** Each place's pin's id and title, as the value messages of its features (`writeStringValue`). */
  values: ByteStore;
}

/**
 * Sorts the pins along the tiles (one native sort of 64-bit keys, which go when it returns) and
 * lays out what their tiles need in that order: projected positions, looks, and ids and titles
 * as value messages, written once here and copied into each of the pin's tiles.
 */
export function sortAlongTiles(coordinates: Float64Array, ids: IdStore, titles: ByteStore, looks: Uint16Array): PinsAlongTiles {
  const count = coordinates.length / 2;
  if (count > 2 ** PIN_BITS) throw new Error(`the tiler tiles at most ${2 ** PIN_BITS} pins at once, not ${count}`);
  const sortBase = firstTileId(SORT_ZOOM);
  const keyed = new BigUint64Array(count);
  const pinBits = BigInt(PIN_BITS);
  const pinMask = (1n << pinBits) - 1n;
  for (let i = 0; i < count; i++) {
    const [x, y] = tileOf(coordinates[2 * i]!, coordinates[2 * i + 1]!, SORT_ZOOM);
    keyed[i] = (BigInt(zxyToTileId(SORT_ZOOM, x, y) - sortBase) << pinBits) | BigInt(i);
  }
  keyed.sort();
  const pins: PinsAlongTiles = {
    order: new Uint32Array(count),
    curve: new Float64Array(count),
    tileX: new Uint32Array(count),
    tileY: new Uint32Array(count),
    worldX: new Float64Array(count),
    worldY: new Float64Array(count),
    look: new Uint16Array(count),
    values: new ByteStore(),
  };
  let scratch = new Uint8Array(256);
  for (let k = 0; k < count; k++) {
    const i = Number(keyed[k]! & pinMask);
    const lng = coordinates[2 * i]!;
    const lat = coordinates[2 * i + 1]!;
    const [x, y] = tileOf(lng, lat, SORT_ZOOM);
    pins.order[k] = i;
    pins.curve[k] = Number(keyed[k]! >> pinBits);
    pins.tileX[k] = x;
    pins.tileY[k] = y;
    pins.worldX[k] = tileLng(lng) / 360 + 0.5;
    pins.worldY[k] = mercatorY(lat);
    pins.look[k] = looks[i]!;
    const id = ids.bytes(i);
    const title = titles.bytes(i);
    const length = stringValueLength(id.length) + stringValueLength(title.length);
    if (length > scratch.length) scratch = new Uint8Array(2 * length);
    const end = writeStringValue(scratch, writeStringValue(scratch, 0, id, 0, id.length), title, 0, title.length);
    pins.values.addBytes(scratch.subarray(0, end));
  }
  pins.values.trim();
  return pins;
}

/** The `pins` layer's property names; `PointTileWriter` refers to them by their place here. */
const KEYS = ['id', 'title', 'look', 'cluster', 'cluster_id', 'point_count', 'point_count_abbreviated', 'expansion_zoom', 'first'] as const;
const KEY = Object.fromEntries(KEYS.map((key, i) => [key, i])) as Record<(typeof KEYS)[number], number>;

/** Each category's property of a bubble (`bubbleCategoryKey`), after `KEYS`, for `categories` categories. */
const keysWith = (categories: number): string[] => [...KEYS, ...Array.from({ length: categories }, (_, k) => bubbleCategoryKey(k))];

/**
 * Cuts one zoom's bubbles and lone pins into tiles and adds them to the archive in tile id order;
 * each bubble with its pins per category (of `categories`), where the grouping counted them.
 * `rank`: each pin's place among the zoom's lone pins (`NOT_ALONE` in a bubble), the order of a
 * tile's pins.
 */
export function writeZoom(writer: PmtilesWriter, zoom: number, bubbles: Bubbles, pins: PinsAlongTiles, rank: Uint32Array, categories: number): void {
  const base = firstTileId(zoom);
  const curveScale = 4 ** (SORT_ZOOM - zoom);
  const tileShift = SORT_ZOOM - zoom;
  const scale = 2 ** zoom;
  const extent = PIN_ARCHIVE.extent;
  const everyPin = zoom > CLUSTER_MAX_ZOOM;
  const bubbleTiles = new Float64Array(bubbles.count);
  const bubbleX = new Uint32Array(bubbles.count);
  const bubbleY = new Uint32Array(bubbles.count);
  for (let k = 0; k < bubbles.count; k++) {
    const [x, y] = tileOf(bubbles.lng[k]!, bubbles.lat[k]!, zoom);
    bubbleTiles[k] = zxyToTileId(zoom, x, y) - base;
    bubbleX[k] = x;
    bubbleY[k] = y;
  }
  const bubbleOrder = Uint32Array.from({ length: bubbles.count }, (_, k) => k).sort((a, b) => bubbleTiles[a]! - bubbleTiles[b]! || a - b);
  const tile = new PointTileWriter(PIN_ARCHIVE.layer, keysWith(categories), extent);
  const perCategory = bubbles.categories;
  const { order, curve, tileX, tileY, worldX, worldY, look, values } = pins;
  const count = order.length;
  /** The places of a tile's pins. */
  const here: number[] = [];
  const byRank = (a: number, c: number) => rank[order[a]!]! - rank[order[c]!]!;

  let p = 0; // next place
  let b = 0; // next bubble in `bubbleOrder`
  const nextPin = () => {
    if (!everyPin) while (p < count && rank[order[p]!] === NOT_ALONE) p++;
    return p < count ? Math.floor(curve[p]! / curveScale) : Infinity;
  };
  for (;;) {
    const pinTile = nextPin();
    const bubbleTile = b < bubbleOrder.length ? bubbleTiles[bubbleOrder[b]!]! : Infinity;
    const t = Math.min(pinTile, bubbleTile);
    if (t === Infinity) break;
    const x = t === pinTile ? tileX[p]! >>> tileShift : bubbleX[bubbleOrder[b]!]!;
    const y = t === pinTile ? tileY[p]! >>> tileShift : bubbleY[bubbleOrder[b]!]!;
    while (b < bubbleOrder.length && bubbleTiles[bubbleOrder[b]!] === t) {
      const k = bubbleOrder[b++]!;
      const [px, py] = tilePoint(tileLng(bubbles.lng[k]!), bubbles.lat[k]!, zoom, x, y, extent);
      const points = bubbles.points[k]!;
      tile.point(px, py);
      tile.property(KEY.cluster, true);
      tile.property(KEY.cluster_id, bubbles.id[k]!);
      tile.property(KEY.point_count, points);
      tile.property(KEY.point_count_abbreviated, abbreviate(points));
      tile.property(KEY.expansion_zoom, bubbles.expansion[k]!);
      if (bubbles.first) tile.property(KEY.first, bubbles.first[k]!);
      if (perCategory) for (let j = perCategory.start[k]!; j < perCategory.start[k + 1]!; j++) tile.property(KEYS.length + perCategory.category[j]!, perCategory.count[j]!);
    }
    here.length = 0;
    while (nextPin() === t) here.push(p++);
    if (here.length > 1) here.sort(byRank);
    for (const k of here) {
      tile.point(tileCoordinate(worldX[k]!, scale, x, extent), tileCoordinate(worldY[k]!, scale, y, extent));
      values.addTo(tile, KEY.id, 2, k);
      tile.property(KEY.look, look[k]!);
    }
    writer.addTile(base + t, tile.finish());
  }
}
