import { CLUSTER_MAX_ZOOM } from '../config/constants.ts';
import type { PinOptions } from '../config/pin-options.ts';

/**
 * The pre-tiled pin archive (README, "Pre-tiled pins"): what `pinmap-tile-pins` writes and the
 * vector view reads. One PMTiles v3 archive of gzipped vector tiles with one layer, `pins`: at
 * each zoom up to `CLUSTER_MAX_ZOOM` the bubbles and lone pins of the same grouping as inline
 * pins (`PinGrouping`), and at the zoom above it every pin. The archive's JSON metadata carries
 * `pinmap` (`PinArchiveMetadata`): what the page needs besides the tiles.
 *
 * The tiles are lean: a bubble carries what it draws and where it splits, a pin its id, title
 * and look (`PinTileProperties`). Each pin's place and popup fields are in the pin index
 * (`PinIndexInfo`), a section after the tile data that the page reads with range requests, a
 * few KB per pin looked up (a click, `?pin=`), whatever the archive's size. The search index
 * (`PinSearchInfo`) follows it, and then the bubbles' pins (`PinLeavesInfo`): which pins each
 * bubble holds, so a bubble the map cannot zoom into lists them.
 *
 * From version 5 a tile above zoom `cutFrom` is written only where it differs from its parent's
 * tile cut to it (`archive-cut.ts`): where every pin stands alone from one zoom to the next, the
 * deeper tiles are left out and the page cuts them from the nearest tile the archive has.
 */
export const PIN_ARCHIVE = {
  /** The vector tile layer of the pins and bubbles. */
  layer: 'pins',
  /**
   * The version of this format (2: lean tiles and the pin index; 3: and the search index, and each
   * bubble's pins per category; 4: and the bubbles' pins, `PinLeavesInfo`; 5: tiles above `cutFrom`
   * left out where the page cuts them from their parent's, `PinArchiveMetadata.cutFrom`). The page
   * reads `oldestVersion` and up and refuses the others.
   */
  version: 5,
  /** The oldest version the page still reads: without search, and with bubbles that keep their counts when categories are hidden. */
  oldestVersion: 2,
  /** Tile extent: MapLibre's own (GeoJSON sources are tiled at it), so positions round alike. */
  extent: 8192,
  /**
   * The last zoom an archive can have: above the grouping's last, where every pin stands alone.
   * An archive ends sooner, at the first zoom from `lowestLastZoom` up at which no pin is in a
   * bubble (pins spread over a country stand alone from about zoom 16), and MapLibre zooms in
   * on its last tiles. The page reads an archive's last zoom from its header: archives made when
   * the grouping stopped at zoom 14 end at 15, and their pins stand alone from there.
   */
  maxZoom: CLUSTER_MAX_ZOOM + 1,
  /**
   * An archive ends no lower than this, though its pins stand alone sooner: a tile's grid (the
   * extent, 1/8192 of a tile) is about 7.5 cm at zoom 16 at the equator, and drawn at the map's
   * deepest zoom (22) a pin is within 2 px of its place; a few pins far apart, standing alone
   * from zoom 3, would otherwise be drawn there from zoom 3's grid, up to 300 m off.
   */
  lowestLastZoom: 16,
  /**
   * Above this zoom a tile is left out of the archive where it equals its parent's tile cut to it
   * (no bubble in it, and each of its pins alone at both zooms or at neither); the page cuts it
   * from the nearest tile above it that the archive has, down to this zoom. Over pins spread out,
   * most pins stand alone from about here, and would otherwise be written once per zoom. Tiles
   * from here to `lowestLastZoom` have a finer grid (`tileExtent`), so a pin cut to the deepest
   * zoom is where a tile of its own would put it.
   */
  cutFrom: 10,
  /** About this many pins share one bucket of the pin index (one range request of a few KB). */
  pinsPerBucket: 64,
  /** At most this many distinct pin looks (one GL image each). */
  maxLooks: 1000,
  /**
   * The most characters of a title the tiles carry (the pin's name for the keyboard, screen
   * readers and the pin list): a tile holds a pin at every zoom it stands alone at, so a long
   * title would be stored a dozen times. The whole title is in the pin index, once (the popup).
   */
  tileTitleLength: 200,
  /** Pins in one block of the bubbles' pin table (`PinLeavesInfo`): a gzipped block of a few KB. */
  pinsPerLeafBlock: 64,
} as const;

/**
 * The extent (grid) of an archive's tiles at `zoom`: `PIN_ARCHIVE.extent`, and finer from
 * `cutFrom` (the archive's; none before version 5) to `lowestLastZoom`, one grid step of a
 * zoom-16 tile at each, so a tile cut to any deeper zoom keeps its pins' places.
 */
export function tileExtent(zoom: number, cutFrom: number | undefined): number {
  return cutFrom !== undefined && zoom >= cutFrom && zoom < PIN_ARCHIVE.lowestLastZoom ? PIN_ARCHIVE.extent * 2 ** (PIN_ARCHIVE.lowestLastZoom - zoom) : PIN_ARCHIVE.extent;
}

/** A title as the tiles carry it: whole up to `tileTitleLength` characters, else cut with an ellipsis. */
export function tileTitle(title: string): string {
  if (title.length <= PIN_ARCHIVE.tileTitleLength) return title;
  const cut = title.slice(0, PIN_ARCHIVE.tileTitleLength - 1);
  // Not half of a character written as a surrogate pair.
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/** One look of pins: a category and the options pins of it have of their own. */
export interface PinLook {
  category?: string;
  pin?: PinOptions;
}

/**
 * Where one pin is and what its popup shows: id, longitude, latitude, the zooms at which it
 * stands alone (bit z for zoom z, up to the archive's last zoom), title, description, url (or null),
 * category (or null), look.
 */
export type PinIndexEntry = [string, number, number, number, string, string, string | null, string | null, number];

/**
 * Where the pin index is: right after the tile data (the header's tile data offset + length),
 * `length` bytes. It starts with `buckets + 1` offsets (little-endian float64, from the index's
 * start); bucket b spans offsets b to b + 1 and is a gzipped JSON array of the `PinIndexEntry`s
 * of the pins whose `pinBucket(id, buckets)` is b.
 */
export interface PinIndexInfo {
  buckets: number;
  length: number;
}

/** The bucket of the pin index a pin's id is in: FNV-1a of its UTF-16 code units, modulo `buckets`. */
export function pinBucket(id: string, buckets: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % buckets;
}

/** The `pinmap` member of the archive's metadata. */
export interface PinArchiveMetadata {
  version: number;
  /** How many pins the archive holds. */
  count: number;
  /** The source file's `attribution`. */
  attribution?: string;
  /** The source file's `pinStyles`, checked. */
  pinStyles: Record<string, PinOptions>;
  /** The distinct looks; each pin feature's `look` is an index into it. */
  looks: PinLook[];
  /** Where the pin index is (every pin's place and popup fields, by id). */
  index: PinIndexInfo;
  /**
   * How many pins each category has, as `[category, count]` in the legend's order: the categories
   * of the file's `pinStyles` in the file's order (those without pins too, with 0), then the other
   * categories in the order they first appear among the pins (`pinStyles` above is an object, its
   * keys sorted in the archive). Pins without a category are in none. Optional: archives made
   * before it lack it, and the legend then lists their categories without counts.
   */
  categories?: [category: string, count: number][];
  /**
   * The smallest box around the pins, `[west, south, east, north]`, east past 180 where the box
   * crosses the antimeridian (`boundsOf`): where the page opens its camera. Optional: archives
   * made before it lack it, and the header's bounds stand in.
   */
  bounds?: [west: number, south: number, east: number, north: number];
  /** Where the search index is and what it searched (version 3; see `PinSearchInfo`). */
  search?: PinSearchInfo;
  /** Where the bubbles' pins are (version 4; see `PinLeavesInfo`); without it a bubble at the map's maximum zoom zooms in as far as the map goes. */
  leaves?: PinLeavesInfo;
  /**
   * Version 5: above this zoom the archive lacks the tiles that equal their parent's cut to them;
   * the page cuts such a tile from the nearest tile above it the archive has (`archive-cut.ts`),
   * at this zoom or deeper. Tiles from this zoom have the grid of `tileExtent`.
   */
  cutFrom?: number;
}

/**
 * Which pins each bubble holds: right after the search index, `length` bytes. The grouping groups
 * each range of zooms (`ranges`, as `clusterTiers`) on its own, and within a range each zoom's
 * bubbles are unions of the next zoom's groups, so one order of the pins per range makes every
 * bubble of its zooms a run: a bubble feature's `first` (`ClusterTileProperties`) is where its run
 * starts, and its `point_count` how long it is.
 *
 * The section starts with the pin table: `blocks + 1` offsets (little-endian float64, from the
 * section's start), `blocks` = ceil(count / `PIN_ARCHIVE.pinsPerLeafBlock`); block b is a gzipped
 * JSON array of `LeafEntry`s, of the pins numbered b × pinsPerLeafBlock on. Pins are numbered
 * along the tiles (so a bubble's pins are mostly in a few neighbouring blocks). At `orders` come
 * the orders, one per range in `ranges`' order: `count` pin numbers each, little-endian uint32.
 */
export interface PinLeavesInfo {
  ranges: [first: number, last: number][];
  orders: number;
  length: number;
}

/** The zoom a bubble of an archive of `count` pins was made at (its id keeps it, as `PinGrouping`'s ids do): one of its range's zooms. */
export const bubbleZoom = (clusterId: number, count: number): number => ((clusterId - count) % 32) - 1;

/** A pin of the bubbles' pin table: id, title (as the tiles carry it, `tileTitle`), look. */
export type LeafEntry = [id: string, title: string, look: number];

/**
 * Where the search index is (see `src/pins/archive-search.ts`): right after the pin index, `length`
 * bytes; its directory at `directory` = [offset from the index's start, length]. `fields`: the
 * pin properties searched besides the title (the tiler's `--search-fields`, as config's
 * `searchFields`), in the order a posting's field bits name them.
 */
export interface PinSearchInfo {
  fields: string[];
  length: number;
  directory: [offset: number, length: number];
}

/**
 * The property of a bubble feature (version 3) that counts its pins of category `index` (an index
 * into the metadata's `categories`): present only for the categories it has pins of. Pins without
 * a category are in none, so `point_count` minus the counts of hidden categories is what shows.
 */
export const bubbleCategoryKey = (index: number): string => `c${index}`;

/** The places in the metadata's `categories` of the categories in `hidden` (whose pins a bubble then leaves out). */
export function hiddenCategoryIndices(metadata: Pick<PinArchiveMetadata, 'categories'>, hidden: ReadonlySet<string>): number[] {
  return (metadata.categories ?? []).flatMap(([category], index) => (hidden.has(category) ? [index] : []));
}

/**
 * How many of a bubble's pins show while the categories at `hiddenIndices` are hidden: its
 * `point_count` less its pins of those (`bubbleCategoryKey`); 0 when none is left.
 */
export function shownBubbleCount(properties: Readonly<Record<string, unknown>>, hiddenIndices: readonly number[]): number {
  let count = Number(properties.point_count);
  for (const index of hiddenIndices) {
    const hidden = properties[bubbleCategoryKey(index)];
    if (typeof hidden === 'number') count -= hidden;
  }
  return Math.max(0, count);
}

/** Properties of a bubble feature in the `pins` layer (as the inline GPU pins' bubbles, plus where it splits). */
export interface ClusterTileProperties {
  cluster: true;
  cluster_id: number;
  point_count: number;
  point_count_abbreviated: string;
  /** The zoom at which it splits (as `PinGrouping.getClusterExpansionZoom`). */
  expansion_zoom: number;
  /** Where its pins start in its range's order (version 4; see `PinLeavesInfo`). */
  first?: number;
}

/**
 * Properties of a pin feature in the `pins` layer: what draws it (`look`; its category is the
 * look's, in the metadata's `looks`) and names it (`title`: the keyboard's and screen readers'
 * name for it); the rest of its popup (description, url, category) is in the pin index, by id.
 */
export interface PinTileProperties {
  id: string;
  title: string;
  look: number;
}

/**
 * The lowest whole zoom from `fromZoom` up at which a pin with these alone-zoom bits stands alone,
 * in an archive whose tiles end at `maxZoom` (its header's; every pin stands alone there).
 */
export function revealZoomOf(aloneMask: number, fromZoom: number, maxZoom: number = PIN_ARCHIVE.maxZoom): number {
  for (let zoom = Math.max(0, Math.floor(fromZoom)); zoom < maxZoom; zoom++) if (aloneMask & (1 << zoom)) return zoom;
  return Math.max(Math.floor(fromZoom), maxZoom);
}
