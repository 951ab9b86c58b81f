import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CLUSTER_MAX_ZOOM } from '../config/constants.ts';
import { PIN_ARCHIVE } from '../pins/archive-format.ts';
import { clusterTiers, PinGrouping } from '../pins/grouping/grouping.ts';
import type { ByteStoreColumns } from './byte-store.ts';
import { Growable } from './growable.ts';
import type { SpilledRecords } from './pin-lookup.ts';

/**
 * The pin tiler's grouping, zoom by zoom: the browser's own `PinGrouping`, read a box of the world
 * at a time (`groupsAt`). It runs in two worker threads (`GroupsInWorker`, `zoom-groups-worker.ts`),
 * each grouping every other range of zooms a few zooms ahead of the tiles being written, and then
 * one of them writes the pin index; what they read of the pins is shared with them, not copied.
 */

/** Where a longitude and latitude fall at `zoom`, as geojson-vt projects them (a longitude of 180 is drawn at -180). */
export function tileOf(lng: number, lat: number, zoom: number): [number, number] {
  const size = 2 ** zoom;
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = Math.min(1, Math.max(0, 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI));
  const x = (lng / 360 + 0.5) % 1;
  return [Math.min(size - 1, Math.floor(x * size)), Math.min(size - 1, Math.floor(y * size))];
}

/** The bubbles at a zoom, in columns: position, count, id, and the zoom at which each splits. */
export interface Bubbles {
  count: number;
  lng: Float64Array;
  lat: Float64Array;
  points: Float64Array;
  id: Float64Array;
  expansion: Uint8Array;
  /** Where each bubble's pins start in its range's order of pins (`ZoomGroups.leaves`, `LeafRuns`). */
  first?: Uint32Array;
  /** With categories: each bubble's pins per category, bubble k's from `start[k]` to `start[k + 1]` (see `BubbleCategories`). */
  categories?: { start: Uint32Array; category: Uint16Array; count: Uint32Array };
}

/** The grouping is read a box at a time, each a tile of this zoom (or of the zoom being written, below it). */
const BOX_ZOOM = 7;
const BOX_MASK = (1 << BOX_ZOOM) - 1;

/** Each pin's box at BOX_ZOOM, as `groupsAt` places it: its column, and its row shifted by BOX_ZOOM bits. */
function boxesOf(coordinates: Float64Array): Uint16Array {
  const size = 2 ** BOX_ZOOM;
  const boxOf = new Uint16Array(coordinates.length / 2);
  for (let i = 0; i < boxOf.length; i++) {
    const lng = coordinates[2 * i]!;
    const [, y] = tileOf(lng, coordinates[2 * i + 1]!, BOX_ZOOM);
    boxOf[i] = Math.min(size - 1, Math.floor((lng / 360 + 0.5) * size)) | (y << BOX_ZOOM);
  }
  return boxOf;
}

/**
 * The bubbles at a zoom, in the order the grouping gives them, and the pins alone at it: each
 * pin's place in that order, in `rank` (`NOT_ALONE` for pins in a bubble). The page's GPU pins put their features
 * in this order too (bubbles, then pins), and MapLibre breaks ties in drawing order by it, so
 * each tile keeps it.
 *
 * The grouping is asked box by box (tiles of `BOX_ZOOM`, or of `zoom` when lower), so only one
 * box's features are objects at a time, not every pin's. The index answers a box in the order it
 * answers the world, less what is outside, so the order within each tile is the world's. Boxes
 * overlap a little (the index keeps positions in single precision); each feature is taken in the
 * box whose tile it is in. (A pin at exactly 180° is written to the tiles at -180°, see `tileOf`,
 * but ranked in the easternmost box, where the index finds it.)
 */
function groupsAt(grouping: PinGrouping, zoom: number, boxOf: Uint16Array, firstOf?: Uint32Array): ZoomGroups {
  const rank = new Uint32Array(boxOf.length).fill(NOT_ALONE);
  const lng = new Growable((n) => new Float64Array(n));
  const lat = new Growable((n) => new Float64Array(n));
  const points = new Growable((n) => new Float64Array(n));
  const ids = new Growable((n) => new Float64Array(n));
  const expansion = new Growable((n) => new Uint16Array(n));
  const first = new Growable((n) => new Uint32Array(n));
  const perBubble = grouping.bubbleCategories(zoom);
  const categoryStart = new Growable((n) => new Uint32Array(n));
  const categories = new Growable((n) => new Uint16Array(n));
  const categoryCounts = new Growable((n) => new Uint32Array(n));
  if (perBubble) categoryStart.push(0);
  const boxZoom = Math.min(zoom, BOX_ZOOM);
  const size = 2 ** boxZoom;
  const latOf = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / size))) * 180) / Math.PI;
  const shift = BOX_ZOOM - boxZoom;
  const pad = 1e-3;
  let position = 0;
  for (let box = 0; box < size * size; box++) {
    const bx = box % size;
    const by = Math.floor(box / size);
    const west = (bx / size) * 360 - 180 - pad;
    const east = ((bx + 1) / size) * 360 - 180 + pad;
    const north = by === 0 ? 90 : latOf(by) + pad;
    const south = by === size - 1 ? -90 : latOf(by + 1) - pad;
    // As the index places it: a longitude of 180 is at the east edge here, not the west.
    const owned = (x: number, y: number) => {
      const [, ty] = tileOf(x, y, boxZoom);
      return ty === by && Math.min(size - 1, Math.floor((x / 360 + 0.5) * size)) === bx;
    };
    grouping.visit([Math.max(-180, west), south, Math.min(180, east), north], zoom, {
      pin: (i) => {
        // As `owned`, from the pin's box at BOX_ZOOM (a tile's column and row at a lower zoom are those at BOX_ZOOM, shifted).
        const at = boxOf[i]!;
        if ((at & BOX_MASK) >> shift !== bx || at >> BOX_ZOOM >> shift !== by) return;
        rank[i] = position++;
      },
      bubble: (x, y, count, id, entry) => {
        if (!owned(x, y)) return;
        lng.push(x);
        lat.push(y);
        points.push(count);
        ids.push(id);
        expansion.push(grouping.expansionZoom(id));
        if (firstOf) first.push(firstOf[entry]!);
        if (!perBubble) return;
        for (let j = perBubble.start[entry]!; j < perBubble.start[entry + 1]!; j++) {
          categories.push(perBubble.category[j]!);
          categoryCounts.push(perBubble.count[j]!);
        }
        categoryStart.push(categories.length);
      },
    });
  }
  const bubbles: Bubbles = { count: lng.length, lng: lng.view(), lat: lat.view(), points: points.view(), id: ids.view(), expansion: Uint8Array.from(expansion.view()) };
  if (firstOf) bubbles.first = first.view().slice();
  if (perBubble) bubbles.categories = { start: categoryStart.view().slice(), category: categories.view().slice(), count: categoryCounts.view().slice() };
  return { bubbles, rank };
}

/** A zoom's groups: its bubbles, and each pin's place among the lone pins (`NOT_ALONE` in a bubble). */
export interface ZoomGroups {
  bubbles: Bubbles;
  rank: Uint32Array;
  /** With the first zoom of a range: the range's zooms and its order of pins, in which each bubble of those zooms is a run (`Bubbles.first`). */
  leaves?: { zooms: [number, number]; order: Uint32Array };
}

/** `ZoomGroups.rank` of a pin in a bubble. */
export const NOT_ALONE = 0xffffffff;

/** The groups of every zoom from 0 up, asked for in order; what a zoom range needs goes once it is done. */
export class Grouper {
  private readonly grouping: PinGrouping;
  private readonly boxOf: Uint16Array;
  /** Where each group of each zoom of the range being grouped starts in the range's order of pins. */
  private firstOf: Uint32Array[] = [];

  /** `categoryOf`: each pin's category as a number (-1: none), for bubbles that count their pins per category. */
  constructor(coordinates: Float64Array, categoryOf?: Int16Array) {
    this.grouping = new PinGrouping({ lngLats: coordinates, ...(categoryOf ? { categoryOf } : {}) }, { keepParents: true });
    this.boxOf = boxesOf(coordinates);
  }

  at(zoom: number): ZoomGroups {
    // Above the grouping's last zoom every pin stands alone, in the order of its last index's pins.
    const range = this.grouping.rangeOf(zoom);
    let leaves: ZoomGroups['leaves'];
    if (zoom <= CLUSTER_MAX_ZOOM && range[0] === zoom) {
      const { order, first } = this.grouping.leafRuns(zoom);
      this.firstOf = first;
      leaves = { zooms: range, order };
    }
    const groups: ZoomGroups = groupsAt(this.grouping, zoom, this.boxOf, this.firstOf[zoom]);
    if (leaves) groups.leaves = leaves;
    if (zoom === PIN_ARCHIVE.maxZoom || (zoom < CLUSTER_MAX_ZOOM && range[1] === zoom)) {
      this.grouping.forget(zoom);
      this.firstOf = [];
    }
    return groups;
  }

  /** Groups, now, the range of zooms `zoom` is in, before its zooms are asked for. */
  prepare(zoom: number): void {
    this.grouping.prepare(zoom);
  }
}

/**
 * The zooms each grouping worker groups, from 0 to `lastZoom`: the ranges of zooms (grouped
 * independently, see `clusterTiers`) in turn, so that each worker builds its next range while the
 * other's zooms are written; the zooms above the last range with it (they read its pins).
 */
export function zoomsOfWorkers(count: number, lastZoom: number, workers: number): number[][] {
  const ranges = clusterTiers(count);
  const zooms: number[][] = Array.from({ length: Math.min(workers, ranges.length) }, () => []);
  ranges.forEach(([first, last], range) => {
    for (let zoom = first; zoom <= (range === ranges.length - 1 ? lastZoom : last); zoom++) zooms[range % zooms.length]!.push(zoom);
  });
  return zooms;
}

/** The worker's module beside this one: TypeScript run through tsx from the sources, JavaScript in the built command. */
const WORKER = import.meta.url.endsWith('.ts') ? './zoom-groups-worker.ts' : './zoom-groups-worker.js';

/**
 * Starts the worker module at `url`. From the sources (the tests, `npm run tile-pins`) the module
 * is TypeScript: the thread first loads tsx's loader, and then the module through it.
 */
function startWorker(url: URL, workerData: unknown): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { workerData });
  // tsx's ES module API, found through its package's exports.
  const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(packageJson, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const tsx = new URL(exports['./esm/api']!.import.default, pathToFileURL(packageJson)).href;
  const code = `import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(url.href)}))`;
  return new Worker(code, { eval: true, workerData });
}

/**
 * How many of its zooms each grouping worker is asked for ahead of the tiles being written: enough
 * that a worker has grouped a zoom before it is needed (it builds its next range of zooms as soon
 * as it has grouped its last one, while the other worker's zooms are written), few enough that the
 * waiting results (a number per pin each) stay small.
 */
const AHEAD = 2;

/** Worker threads that group: two, as the tiler's main thread writes the tiles beside them. */
const GROUPING_WORKERS = 2;

/** What the workers are given: the pins' coordinates, the last zoom, and what the pin index is written of once every zoom is grouped. */
export interface GroupingWork {
  coordinates: Float64Array;
  /** Each pin's category as a number (-1: none), when there are categories: bubbles count their pins per category. */
  categoryOf?: Int16Array;
  /** The last zoom there can be; the grouping ends sooner, at the first zoom from `lowestLastZoom` up without bubbles (see `GroupsInWorker.lastZoom`). */
  lastZoom: number;
  lowestLastZoom: number;
  index: {
    path: string;
    buckets: number;
    partPins: number;
    ids: ByteStoreColumns;
    looks: Uint16Array;
    records: SpilledRecords;
  };
}

/** What one worker is given: the work, and the zooms it groups (in order; see `zoomsOfWorkers`). */
export interface WorkerData extends GroupingWork {
  zooms: number[];
  /** The first zoom of the finest range: the worker builds its ranges ahead of being asked only below it. */
  finestFrom: number;
  /** The last zoom as known so far (shared, one number): a worker neither groups nor builds past it. */
  lastZoomNow: Int32Array;
}

/** A message from a worker: a zoom's groups, or the pin index's length once written. */
export type GroupingMessage = { zoom: number; groups: ZoomGroups } | { indexLength: number };

/** A message to a worker: a zoom to group, or the zooms each pin stands alone at (bit z: zoom z), to write the pin index with. */
export type GroupingRequest = number | { alone: Uint32Array };

/** Where a promise waits for the worker. */
interface Waiting<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

/**
 * `Grouper`s in worker threads (`GROUPING_WORKERS`, each its ranges of zooms, `zoomsOfWorkers`),
 * working up to `AHEAD` zooms ahead: `take(zoom)` (zooms in order from 0) gives that zoom's groups
 * and asks for another, so later zooms are grouped while this one's tiles are written; a worker
 * builds its next range as soon as it has grouped its last one. The zooms each pin stands alone
 * at are gathered here as the groups arrive; once every zoom has, the worker of the last zoom
 * writes the pin index (`writePinIndex`) while the last zooms' tiles are written, and
 * `indexLength` waits for it.
 * `close` ends the workers. An error in a worker rejects what waits for it.
 */
export class GroupsInWorker {
  private readonly workers: Worker[] = [];
  /** The worker that groups each zoom, by its place in `workers`. */
  private readonly workerOf: number[] = [];
  /** Each worker's zooms, in order; how many of them it has been asked for, and how many taken. */
  private readonly zoomsOf: number[][];
  private readonly asked: number[];
  private readonly taken: number[];
  /** The last zoom as known so far, here and for the workers (`lastZoom`). */
  private last: number;
  private readonly lowestLast: number;
  private readonly lastShared = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  /** Which zooms have come, by zoom. */
  private readonly arrivedZoom: boolean[] = [];
  private readonly ended = new Set<Worker>();
  private indexAsked = false;
  private readonly waiting = new Map<number | 'index', Waiting<ZoomGroups> | Waiting<number>>();
  private readonly ready = new Map<number | 'index', ZoomGroups | number>();
  /** Bit z: the pin stands alone at zoom z (of the zooms arrived so far). */
  private readonly alone: Uint32Array;
  /** The first zoom of the finest range, and how many zooms below it have arrived. */
  private readonly finestFrom: number;
  private arrivedBelowFinest = 0;
  private failed: Error | undefined;

  constructor(work: GroupingWork) {
    for (const shared of [work.coordinates, ...(work.categoryOf ? [work.categoryOf] : []), work.index.looks, work.index.records.lengths, work.index.ids.chunkOf, work.index.ids.startOf, work.index.ids.lengthOf, ...work.index.ids.chunks]) {
      if (!(shared.buffer instanceof SharedArrayBuffer)) throw new Error('what the grouping worker reads must be in shared memory');
    }
    this.last = work.lastZoom;
    this.lowestLast = work.lowestLastZoom;
    this.lastShared[0] = this.last;
    const count = work.coordinates.length / 2;
    this.alone = new Uint32Array(count);
    const fail = (error: Error) => {
      this.failed ??= error;
      for (const { reject } of this.waiting.values()) reject(this.failed);
      this.waiting.clear();
    };
    this.zoomsOf = zoomsOfWorkers(count, work.lastZoom, GROUPING_WORKERS);
    this.finestFrom = this.zoomsOf.length > 1 ? clusterTiers(count).at(-1)![0] : 0;
    this.asked = this.zoomsOf.map(() => 0);
    this.taken = this.zoomsOf.map(() => 0);
    this.zoomsOf.forEach((zooms, w) => {
      for (const zoom of zooms) this.workerOf[zoom] = w;
      const worker = startWorker(new URL(WORKER, import.meta.url), { ...work, zooms, finestFrom: this.finestFrom, lastZoomNow: this.lastShared } satisfies WorkerData);
      worker.on('message', (message: GroupingMessage) => ('zoom' in message ? this.arrived(message.zoom, message.groups) : this.settle('index', message.indexLength)));
      worker.on('error', (error) => fail(new Error(`the grouping stopped: ${error.message}`, { cause: error })));
      worker.on('exit', (code) => fail(new Error(`the grouping's worker ended (exit code ${code})`)));
      this.workers.push(worker);
    });
    this.askAhead();
  }

  /**
   * The archive's last zoom as known so far: `lastZoom` of the work, until a zoom from
   * `lowestLastZoom` up comes without a bubble. That zoom is the last: its tiles hold every pin,
   * alone, and so would every zoom above it (two lone pins are further apart than the grouping's
   * radius, and twice as far at the next zoom), so none above it is asked for, a worker grouping
   * one already drops it, and the pin index is written with the zooms up to it. Once `take` has
   * given a zoom without bubbles, this is that zoom.
   */
  get lastZoom(): number {
    return this.last;
  }

  take(zoom: number): Promise<ZoomGroups> {
    this.taken[this.workerOf[zoom]!]!++;
    this.askAhead();
    return this.wait<ZoomGroups>(zoom);
  }

  /** The pin index's length in bytes, once a worker has written it. */
  indexLength(): Promise<number> {
    return this.wait<number>('index');
  }

  /**
   * Asks each worker for its next zooms, up to `AHEAD` not yet taken. The finest range's grouping
   * holds about as much as the pins, and so does the one before it: its zooms are asked for once
   * every zoom below it has come, so that the two are not held at once.
   */
  private askAhead(): void {
    const finestReady = this.arrivedBelowFinest === this.finestFrom;
    this.workers.forEach((worker, w) => {
      const zooms = this.zoomsOf[w]!;
      while (this.asked[w]! < zooms.length && zooms[this.asked[w]!]! <= this.last && this.asked[w]! - this.taken[w]! < AHEAD && (finestReady || zooms[this.asked[w]!]! < this.finestFrom)) {
        worker.postMessage(zooms[this.asked[w]!++]! satisfies GroupingRequest);
      }
    });
  }

  /**
   * A zoom's groups: its lone pins noted (a zoom past the last is dropped; the first without
   * bubbles from `lowestLastZoom` up is the last, see `lastZoom`). A worker that has given all its
   * zooms up to the last ends (what it held goes back to the system), unless it is the one with the
   * last zoom, which is asked for the pin index once every zoom up to the last has come.
   */
  private arrived(zoom: number, groups: ZoomGroups): void {
    if (zoom > this.last) return;
    if (groups.bubbles.count === 0 && zoom >= this.lowestLast && zoom < this.last) this.endAt(zoom);
    const bit = 1 << zoom;
    const { alone } = this;
    for (let i = 0; i < alone.length; i++) if (groups.rank[i] !== NOT_ALONE) alone[i]! |= bit;
    this.arrivedZoom[zoom] = true;
    if (zoom < this.finestFrom && ++this.arrivedBelowFinest === this.finestFrom) this.askAhead();
    this.endIdleWorkers();
    this.settle(zoom, groups);
  }

  /** `zoom` is the last: what is known of the zooms above it is forgotten, and the workers told. */
  private endAt(zoom: number): void {
    this.last = zoom;
    Atomics.store(this.lastShared, 0, zoom);
    const below = 2 ** (zoom + 1) - 1;
    const { alone } = this;
    for (let i = 0; i < alone.length; i++) alone[i]! &= below;
    for (const key of this.ready.keys()) if (typeof key === 'number' && key > zoom) this.ready.delete(key);
  }

  /** Ends the workers that have given every zoom of theirs up to the last, but the last's, and asks that one for the pin index once every zoom has come. */
  private endIdleWorkers(): void {
    const writer = this.workerOf[this.last]!;
    this.workers.forEach((worker, w) => {
      if (w === writer || this.ended.has(worker)) return;
      if (this.zoomsOf[w]!.every((zoom) => zoom > this.last || this.arrivedZoom[zoom])) void this.end(worker);
    });
    if (this.indexAsked) return;
    for (let zoom = 0; zoom <= this.last; zoom++) if (!this.arrivedZoom[zoom]) return;
    this.indexAsked = true;
    const { alone } = this;
    this.workers[writer]!.postMessage({ alone } satisfies GroupingRequest, [alone.buffer as ArrayBuffer]);
  }

  private settle(key: number | 'index', value: ZoomGroups | number): void {
    const waiting = this.waiting.get(key);
    this.waiting.delete(key);
    if (waiting) (waiting.resolve as (value: ZoomGroups | number) => void)(value);
    else this.ready.set(key, value);
  }

  private wait<T extends ZoomGroups | number>(key: number | 'index'): Promise<T> {
    if (this.ready.has(key)) {
      const ready = this.ready.get(key) as T;
      this.ready.delete(key);
      return Promise.resolve(ready);
    }
    if (this.failed) return Promise.reject(this.failed);
    return new Promise<T>((resolve, reject) => this.waiting.set(key, { resolve, reject } as unknown as Waiting<ZoomGroups>));
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => this.end(worker)));
  }

  private end(worker: Worker): Promise<number> {
    this.ended.add(worker);
    worker.removeAllListeners('exit');
    return worker.terminate();
  }
}

/** The column arrays of `groups`, to hand over to another thread. */
export function transferablesOf(groups: ZoomGroups): ArrayBuffer[] {
  const { bubbles, rank } = groups;
  const categories = bubbles.categories ? [bubbles.categories.start, bubbles.categories.category, bubbles.categories.count] : [];
  const leaves = [...(bubbles.first ? [bubbles.first] : []), ...(groups.leaves ? [groups.leaves.order] : [])];
  return [bubbles.lng, bubbles.lat, bubbles.points, bubbles.id, bubbles.expansion, rank, ...categories, ...leaves].map((column) => column.buffer as ArrayBuffer);
}
