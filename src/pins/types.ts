import type { PinArchiveMetadata } from './archive-format.ts';
import type { PinOptions } from '../config/pin-options.ts';
import type { CsvColumns } from '../config/types.ts';

/**
 * The pin domain's types, in one place: a pin, a pin set and what was skipped from it, a
 * pre-tiled archive as the page uses it, and the legend's lines. Shared by the browser and the
 * pin tiler, and free of any map engine.
 */

/** One pin as the map shows it. */
export interface Pin {
  /** Unique within its set; used by `?pin=<id>` and `data-pin-id`. Numeric ids become strings. */
  id: string;
  title: string;
  /** Plain text, '' when the feature has none. */
  description: string;
  /** An absolute http(s) URL; any other URL is dropped with a warning. */
  url?: string;
  category?: string;
  /**
   * Text of the other properties the config's `searchFields` and `listDetailField` name (numbers
   * as text), for the search box and the pin list; absent when it names none or the pin has none.
   */
  fields?: Record<string, string>;
  /**
   * The config's `popupFields` this pin has (not blank), in the config's order, as
   * `[property, text]`: the popup shows them below its description. Absent when it has none.
   */
  popupFields?: [name: string, text: string][];
  /** [longitude, latitude]; longitude within -180..180 (see `parsePins`). */
  lngLat: [number, number];
  /**
   * The category's style with the pin's own valid options over it (defaults are not filled in).
   * Pins of one category without options of their own share one frozen object.
   */
  options: Readonly<PinOptions>;
}

/** What reading a pin file takes from the config besides the pin styles. */
export interface PinReading {
  /** Properties the search looks in (`Pin.fields`). */
  searchFields?: readonly string[];
  /** Properties the popup shows (`Pin.popupFields`). */
  popupFields?: readonly string[];
  /** A property the pin list shows for pins of a repeated title (kept in `Pin.fields`). */
  listDetailField?: string | undefined;
  /** The columns of a CSV file, where not found by their usual names. */
  csv?: CsvColumns | undefined;
}

/** A feature (or a CSV file's row) that did not become a pin. */
export interface SkippedFeature {
  /** Position in `features`; for a CSV file, the row's line number (the header is line 1). */
  index: number;
  /** The feature's id, when it had a usable one. */
  id?: string;
  /**
   * Names the feature (index and id; a CSV row: line and title) and what is wrong, e.g.
   * `feature 12 ("paris"): latitude 95 is outside -90..90`, `line 7 ("Paris"): has no longitude …`.
   */
  reason: string;
}

/** The result of `parsePins`. */
export interface PinSet {
  pins: Pin[];
  skipped: SkippedFeature[];
  /** Options and values that were dropped for their default; each names the pin (or style) and the field. */
  warnings: string[];
  /** The collection's top-level `attribution`, for the attribution control. */
  attribution?: string;
  /** Category → pin options: the file's `pinStyles` with config's over them, per category and field. */
  pinStyles: Record<string, PinOptions>;
  /** Pre-tiled pins (`pins: "pmtiles://…"`): the archive they are drawn from; `pins` is then empty. */
  archive?: PinArchive;
}

/**
 * A pre-tiled pin archive as the page uses it (README, "Pre-tiled pins"): its header and metadata
 * read once with range requests, its looks resolved against the config's `pinStyles`, and its
 * pins found by id in its pin index (a click on a pin, `?pin=`): two range requests of a few KB.
 */
export interface PinArchive {
  /** The MapLibre source URL: `pmtiles://` and the archive's absolute URL. */
  url: string;
  /**
   * The map's vector source of the pins' tiles, from the header read here: its tile URLs, zooms
   * and bounds, so the map asks for tiles at once (no TileJSON to fetch and wait for first).
   */
  source: ArchiveTileSource;
  metadata: PinArchiveMetadata;
  /** Each look's pin options: the file's category style with config's over it, then the pins' own. */
  looks: Readonly<PinOptions>[];
  /** The category styles: the file's `pinStyles` (in the metadata) with config's over them, per category and field. */
  pinStyles: Record<string, PinOptions>;
  /**
   * Its categories and how many pins each has (the legend's counts), in the order they first
   * appear; an archive made before archives kept counts gives its looks' categories, counts unknown.
   */
  categories: CategoryCount[];
  /** The pin with this id and the zooms it stands alone at, from the pin index; undefined when the archive has no such pin. Rejects when the index cannot be read. */
  find(id: string): Promise<{ pin: Pin; aloneMask: number } | undefined>;
  /** Its search index (format version 3); undefined for an archive made before archives kept one. */
  search?: ArchivePinSearch;
  /** Whether its bubbles count their pins per category (format version 3), so hidden categories leave them. */
  bubbleCategories: boolean;
  /**
   * The pins of one of its bubbles (format version 4): the bubble feature's properties and place;
   * the first `BUBBLE_PINS_LISTED` of its pins, less those of `hidden` categories, each with its
   * id, title and look, placed at the bubble (its own place and popup text are in the pin index,
   * `find`). Undefined for an archive made before archives kept them.
   */
  bubblePins?(properties: Readonly<Record<string, unknown>>, lngLat: [number, number], hidden: ReadonlySet<string>): Promise<Pin[]>;
  /**
   * Calls `listener` with the notice the page shows each time a section after the tiles (the pin
   * index, the search index, the bubbles' pins) turns out damaged or over its limit when `find`,
   * `search` or `bubblePins` reads it: it names the archive and the section. Returns the unsubscribe.
   */
  onDamage(listener: (notice: string) => void): () => void;
  /**
   * Starts reading tiles `[z, x, y]` now (those of the first view, while the map's style loads):
   * the map's own requests for them, as they come, take what was read.
   */
  readAhead(tiles: readonly (readonly [number, number, number])[]): void;
}

/** What a search result shows of a pin: its id, title, category and (the first line of) its description. */
export type PinSummary = Pick<Pin, 'id' | 'title' | 'description' | 'category'>;

/** A pin that a search matches, with where. */
export interface SearchHit {
  /** The pin, or (pre-tiled pins) what the archive's search index keeps of it: the description's first line. */
  pin: PinSummary;
  /** 'title' or the name of the field that matched (`description`, `category`, or one of `searchFields`). */
  field: string;
}

/** What a search of a pre-tiled archive found: the best hits, how many pins match, and whether that count is exact. */
export interface ArchiveSearchResult {
  hits: SearchHit[];
  total: number;
  /** False when a common word of the query was looked up in its best pins only: `total` is then at least that many. */
  exact: boolean;
}

/** The search of a pre-tiled archive, read with range requests (see `src/pins/archive-search.ts`). */
export interface ArchivePinSearch {
  /** The pin properties searched besides the title. */
  readonly fields: readonly string[];
  /** Reads what every search needs first (the index's directory), ahead of the first keystroke. */
  prepare(): void;
  /** Up to `limit` pins matching every word of `query`, best first, leaving out the `hidden` categories. Rejects when the index cannot be read. */
  search(query: string, limit: number, hidden: ReadonlySet<string>): Promise<ArchiveSearchResult>;
}

/**
 * The vector source of an archive's tiles, in the shape a MapLibre style takes
 * (`VectorSourceSpecification`): `pmtiles://` tile URLs, zooms and bounds.
 */
export interface ArchiveTileSource {
  type: 'vector';
  tiles: string[];
  minzoom: number;
  maxzoom: number;
  bounds: [number, number, number, number];
  attribution?: string;
}

/**
 * A bubble of pre-tiled pins as the map draws it now: how many of its pins show (hidden
 * categories left out), where it is, and the zoom at which it splits.
 */
export interface ShownBubble {
  /** Tells it from the others drawn (its id in the archive). */
  key: string;
  count: number;
  lngLat: [number, number];
  expansionZoom: number;
}

/** One line of the legend: a category, its look and how many pins of the set it has. */
export interface LegendEntry {
  category: string;
  /** The category's pin options (empty: the default pin). */
  options: Readonly<PinOptions>;
  /** Undefined when not known: a pre-tiled archive made before archives kept their counts. */
  count: number | undefined;
}

/** A category of a pin set counted elsewhere (a pre-tiled archive's metadata), in the legend's order. */
export interface CategoryCount {
  category: string;
  /** Undefined when the archive does not say (made before archives kept their counts). */
  count: number | undefined;
}
