import { zxyToTileId } from 'pmtiles';
import { CLUSTER_MAX_ZOOM } from '../config/constants.ts';
import { PIN_ARCHIVE, bubbleCategoryKey, tileExtent } from '../pins/archive-format.ts';
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

/** Steps across the world of the finest grid a pin is drawn at: one of a zoom-16 tile's (`tileExtent`). */
const GRID = 2 ** PIN_ARCHIVE.lowestLastZoom * PIN_ARCHIVE.extent;

/**
 * A place across or down the world (0 to 1) moved to the nearest step of `GRID`: pins are placed
 * and put in tiles there, so that a tile the page cuts from a tile above it (`archive-cut.ts`)
 * holds the pins a tile of its own would, at the same places.
 */
const onGrid = (world: number): number => Math.round(world * GRID) / GRID;

/** The column (or row) of the tile at `SORT_ZOOM` that holds a place across (or down) the world. */
const sortTile = (world: number): number => Math.min(2 ** SORT_ZOOM - 1, Math.floor(world * 2 ** SORT_ZOOM));

/** The tile of `zoom` the tiler puts a pin at `lng`, `lat` in (by its place on `GRID`). */
export function pinTileOf(lng: number, lat: number, zoom: number): [number, number] {
  const shift = SORT_ZOOM - zoom;
  return [sortTile(onGrid(tileLng(lng) / 360 + 0.5)) >>> shift, sortTile(onGrid(mercatorY(lat))) >>> shift];
}

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
    const lng = coordinates[2 * i]!;
    const lat = coordinates[2 * i + 1]!;
    keyed[i] = (BigInt(zxyToTileId(SORT_ZOOM, sortTile(onGrid(tileLng(lng) / 360 + 0.5)), sortTile(onGrid(mercatorY(lat)))) - sortBase) << pinBits) | BigInt(i);
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
    const worldX = onGrid(tileLng(coordinates[2 * i]!) / 360 + 0.5);
    const worldY = onGrid(mercatorY(coordinates[2 * i + 1]!));
    pins.order[k] = i;
    pins.curve[k] = Number(keyed[k]! >> pinBits);
    pins.tileX[k] = sortTile(worldX);
    pins.tileY[k] = sortTile(worldY);
    pins.worldX[k] = worldX;
    pins.worldY[k] = worldY;
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
 * tile's pins. `previous`, the zoom above's groups (given above `PIN_ARCHIVE.cutFrom`): a tile that
 * equals its parent's tile cut to it is left out (the page cuts it from the nearest tile above it):
 * no bubble in it or in the part of its parent's tile it covers, and each of its pins alone at both
 * zooms or at neither. One that differs is written even when nothing in it is drawn (an empty
 * tile: its pins joined bubbles elsewhere, and a cut would show them).
 */
export function writeZoom(writer: PmtilesWriter, zoom: number, bubbles: Bubbles, pins: PinsAlongTiles, rank: Uint32Array, categories: number, previous?: { bubbles: Bubbles; rank: Uint32Array }): void {
  const base = firstTileId(zoom);
  const curveScale = 4 ** (SORT_ZOOM - zoom);
  const tileShift = SORT_ZOOM - zoom;
  const scale = 2 ** zoom;
  const extent = tileExtent(zoom, PIN_ARCHIVE.cutFrom);
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
  const previousRank = previous?.rank;
  const underBubbles = previous ? tilesUnder(previous.bubbles, zoom) : { tiles: [], x: [], y: [] };
  const tile = new PointTileWriter(PIN_ARCHIVE.layer, keysWith(categories), extent);
  const perCategory = bubbles.categories;
  const { order, curve, tileX, tileY, worldX, worldY, look, values } = pins;
  const count = order.length;
  /** The places of a tile's lone pins. */
  const here: number[] = [];
  const byRank = (a: number, c: number) => rank[order[a]!]! - rank[order[c]!]!;
  const alone = (i: number) => everyPin || rank[i] !== NOT_ALONE;

  let p = 0; // next place
  let b = 0; // next bubble in `bubbleOrder`
  let u = 0; // next tile in `underBubbles`
  const nextPin = () => {
    // Where tiles may be left out, every pin counts (one that joined a bubble makes its tile differ).
    if (!everyPin && !previousRank) while (p < count && rank[order[p]!] === NOT_ALONE) p++;
    return p < count ? Math.floor(curve[p]! / curveScale) : Infinity;
  };
  for (;;) {
    const pinTile = nextPin();
    const bubbleTile = b < bubbleOrder.length ? bubbleTiles[bubbleOrder[b]!]! : Infinity;
    const underTile = u < underBubbles.tiles.length ? underBubbles.tiles[u]! : Infinity;
    const t = Math.min(pinTile, bubbleTile, underTile);
    if (t === Infinity) break;
    const x = t === pinTile ? tileX[p]! >>> tileShift : t === bubbleTile ? bubbleX[bubbleOrder[b]!]! : underBubbles.x[u]!;
    const y = t === pinTile ? tileY[p]! >>> tileShift : t === bubbleTile ? bubbleY[bubbleOrder[b]!]! : underBubbles.y[u]!;
    const firstBubble = b;
    while (b < bubbleOrder.length && bubbleTiles[bubbleOrder[b]!] === t) b++;
    let asParent = previousRank !== undefined && b === firstBubble && t !== underTile;
    if (t === underTile) u++;
    here.length = 0;
    while (nextPin() === t) {
      const i = order[p]!;
      const lone = alone(i);
      if (asParent && lone !== (previousRank![i] !== NOT_ALONE)) asParent = false;
      if (lone) here.push(p);
      p++;
    }
    if (asParent) continue;
    for (let j = firstBubble; j < b; j++) {
      const k = bubbleOrder[j]!;
      const [px, py] = tilePoint(tileLng(bubbles.lng[k]!), bubbles.lat[k]!, zoom, x, y, extent);
      const points = bubbles.points[k]!;
      tile.point(px, py);
      tile.property(KEY.cluster, true);
      tile.property(KEY.cluster_id, bubbles.id[k]!);
      tile.property(KEY.point_count, points);
      tile.property(KEY.point_count_abbreviated, abbreviate(points));
      tile.property(KEY.expansion_zoom, bubbles.expansion[k]!);
      if (bubbles.first) tile.property(KEY.first, bubbles.first[k]!);
      if (perCategory) for (let c = perCategory.start[k]!; c < perCategory.start[k + 1]!; c++) tile.property(KEYS.length + perCategory.category[c]!, perCategory.count[c]!);
    }
    if (here.length > 1) here.sort(byRank);
    for (const k of here) {
      tile.point(tileCoordinate(worldX[k]!, scale, x, extent), tileCoordinate(worldY[k]!, scale, y, extent));
      values.addTo(tile, KEY.id, 2, k);
      tile.property(KEY.look, look[k]!);
    }
    writer.addTile(base + t, tile.finish());
  }
}

/**
 * The tiles of `zoom` that bubbles of the zoom above (`bubbles`) lie in as the page cuts a tile
 * (`cutPinTile`: by where the parent's tile places each, on its grid), once each and in tile id
 * order: such a tile is never left out, or a cut would show the bubble there.
 */
function tilesUnder(bubbles: Bubbles, zoom: number): { tiles: number[]; x: number[]; y: number[] } {
  const base = firstTileId(zoom);
  const extent = tileExtent(zoom - 1, PIN_ARCHIVE.cutFrom);
  const found = new Map<number, [number, number]>();
  for (let k = 0; k < bubbles.count; k++) {
    const [px, py] = tileOf(bubbles.lng[k]!, bubbles.lat[k]!, zoom - 1);
    const [cx, cy] = tilePoint(tileLng(bubbles.lng[k]!), bubbles.lat[k]!, zoom - 1, px, py, extent);
    const x = 2 * px + Math.min(1, Math.floor((2 * cx) / extent));
    const y = 2 * py + Math.min(1, Math.floor((2 * cy) / extent));
    found.set(zxyToTileId(zoom, x, y) - base, [x, y]);
  }
  const tiles = [...found.keys()].sort((a, c) => a - c);
  return { tiles, x: tiles.map((t) => found.get(t)![0]), y: tiles.map((t) => found.get(t)![1]) };
}
