import KDBush from 'kdbush';

/**
 * The pins' bubbles for a range of zooms, kept in typed arrays: the groups supercluster makes
 * (the same rule, radius and order, so the same bubbles, counts, ids and positions; the tests
 * compare the two on several pin sets), without an object or a growing JavaScript array per pin.
 * supercluster keeps each pin as six numbers pushed onto a plain array at every zoom; for 100k
 * pins that array's growth and its garbage collection were most of the first grouping's time in
 * the page, and for 10M pins in the tiler most of its memory.
 *
 * The rule, zoom by zoom from the highest down: each pin or bubble of the zoom above, in turn,
 * takes every one not yet taken within `radius` pixels (at this zoom, of `extent`-pixel tiles);
 * if it took any, they become one bubble at their centre weighted by their counts, else each
 * stays as it was. Positions are kept in Web Mercator units (0..1), and the spatial index
 * (kdbush, as supercluster uses it) in single precision.
 *
 * With `apart` (the product's grouping; without it the groups are supercluster's), the groups of
 * each zoom are then kept apart: any two whose drawn discs (`apart.radius` of their counts, in
 * pixels at that zoom) come nearer than their radii and `apart.gap` merge into one bubble at
 * their weighted centre, and again, until no two do. A bubble so made splits at the zoom above,
 * as any other, and its pins are still the union of groups of the zoom above.
 */

/** `Infinity` in the zoom marks: not looked at yet at any zoom. */
const NOT_SEEN = 255;

export interface GroupIndexOptions {
  /** Pixels, at the zoom being grouped, within which pins join a bubble. */
  radius: number;
  /** Pixels of a tile the radius is measured in. */
  extent: number;
  minZoom: number;
  maxZoom: number;
  /** Items in a leaf of the spatial index. */
  nodeSize: number;
  /**
   * Keep which group of each zoom each pin or group of the zoom above went into (4 bytes each), so
   * that a bubble's pins can be listed (`leaves`); kept anyway with `GroupInput.categoryOf`.
   */
  keepParents?: boolean;
  /**
   * Keep groups' discs apart (see above): a group's radius in pixels by its count, how far above
   * its point its disc is centred (a pin's head), and the pixels kept between two.
   */
  apart?: { radius: (count: number) => number; lift: (count: number) => number; gap: number };
  /**
   * Keep each group's key (4 bytes per group and zoom): the lowest index in the input among its
   * pins. It depends on nothing but which pins the group holds, so a bubble whose pins did not
   * change keeps its key when the set is grouped again after other pins changed (`visit`).
   */
  keys?: boolean;
}

/**
 * The pins or bubbles at one zoom, in columns. The pins themselves (above the highest grouped
 * zoom) keep less: their positions are single precision already, their id is their number and
 * their count 1.
 */
interface Level {
  readonly count: number;
  /** Position, Web Mercator units. */
  readonly x: Float64Array | Float32Array;
  readonly y: Float64Array | Float32Array;
  /** A pin's number (its place in the grouped set), or a bubble's id; none: the entry's own place. */
  readonly id?: Uint32Array | Float64Array;
  /** Pins in it; none: 1 each. */
  readonly points?: Uint32Array;
  /** With `keys`: the lowest index in the input among its pins; none: the pins' own level. */
  readonly low?: Uint32Array;
  /** The last zoom it was looked at while grouping the zoom below (`NOT_SEEN` before). */
  readonly seen: Uint8Array;
  readonly tree: KDBush;
}

/** The pins to group: longitude and latitude pairs, of every pin or of those `members` names. */
export interface GroupInput {
  lngLats: Float64Array;
  /** The pins grouped, by index in `lngLats` (in this order); every pin when absent. */
  members?: Uint32Array;
  /**
   * Each pin's category as a number (by index in `lngLats`; -1: none), when each bubble's pins are
   * to be counted per category (`bubbleCategories`; the pin tiler's): the index then keeps which
   * group of each zoom each pin or group of the zoom above went into, 4 bytes each.
   */
  categoryOf?: Int16Array;
}

/**
 * Each bubble's pins per category at one zoom, by the bubble's place among that zoom's groups
 * (`GroupVisitor.bubble`'s `entry`): its categories and counts are `category` and `count` from
 * `start[entry]` to `start[entry + 1]`, in category order; a lone pin's range is empty.
 */
export interface BubbleCategories {
  start: Uint32Array;
  category: Uint16Array;
  count: Uint32Array;
}

/**
 * The pins of a range of zooms in one order in which every group is a run (`GroupIndex.leafRuns`):
 * `order`, the pins (by index in the input); `first[zoom][entry]`, where the run of the group at
 * that place among the zoom's groups (`GroupVisitor.bubble`'s `entry`) starts; its length is the
 * group's count.
 */
export interface LeafRuns {
  order: Uint32Array;
  first: Uint32Array[];
}

/** What `visit` reports of each pin and bubble in a box, in the spatial index's order. */
export interface GroupVisitor {
  /** A pin standing alone, by its index in the input. */
  pin(index: number): void;
  /**
   * A bubble: its centre, its count, its id, its place among the zoom's groups (see
   * `BubbleCategories`), and with `keys` its key (the lowest input index among its pins; else -1).
   */
  bubble(lng: number, lat: number, points: number, id: number, entry: number, key: number): void;
}

const lngX = (lng: number): number => lng / 360 + 0.5;

function latY(lat: number): number {
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  return y < 0 ? 0 : y > 1 ? 1 : y;
}

const xLng = (x: number): number => (x - 0.5) * 360;

function yLat(y: number): number {
  const y2 = ((180 - y * 360) * Math.PI) / 180;
  return (360 * Math.atan(Math.exp(y2))) / Math.PI - 90;
}

function indexed(level: Omit<Level, 'tree'>, nodeSize: number): Level {
  const tree = new KDBush(level.count, nodeSize, Float32Array);
  for (let k = 0; k < level.count; k++) tree.add(level.x[k]!, level.y[k]!);
  tree.finish();
  return { ...level, tree };
}

/**
 * The pins themselves (the level above the highest grouped zoom): one per grouped pin, in the
 * input's order. Ranges of zooms grouped from the same pins share it.
 */
export function pinLevel({ lngLats, members }: GroupInput, nodeSize: number): Level {
  const count = members ? members.length : lngLats.length / 2;
  const x = new Float32Array(count);
  const y = new Float32Array(count);
  for (let k = 0; k < count; k++) {
    const i = members ? members[k]! : k;
    x[k] = lngX(lngLats[2 * i]!);
    y[k] = latY(lngLats[2 * i + 1]!);
  }
  return indexed({ count, x, y, seen: new Uint8Array(count).fill(NOT_SEEN) }, nodeSize);
}

/** The first `n` of `array`: a view when that is most of it, else a copy (so the rest is freed). */
function first<T extends Float64Array | Uint32Array>(array: T, n: number): T {
  return (n > array.length / 2 ? array.subarray(0, n) : array.slice(0, n)) as T;
}

/** A step of single precision between 0.5 and 1 (Web Mercator units), as the spatial trees and the pins keep positions. */
const SINGLE_STEP = 2 ** -24;

export class GroupIndex {
  /** By zoom, from `minZoom` to `maxZoom + 1` (the pins). */
  private readonly levels: Level[] = [];
  /** With `categoryOf`: by zoom, from `minZoom + 1` to `maxZoom + 1`, the group at the zoom below each entry went into. */
  private readonly parents: Uint32Array[] = [];
  /** Pins grouped: bubble ids are made from it, as supercluster makes them. */
  private readonly total: number;
  /** Whether it keeps where each entry went (`parents`), which `leaves` needs. */
  readonly keepsParents: boolean;

  constructor(
    private readonly input: GroupInput,
    private readonly options: GroupIndexOptions,
    pins: Level = pinLevel(input, options.nodeSize),
  ) {
    this.total = pins.count;
    this.keepsParents = options.keepParents === true || input.categoryOf !== undefined;
    pins.seen.fill(NOT_SEEN);
    this.levels[options.maxZoom + 1] = pins;
    let level = pins;
    const within = new Uint32Array(Math.max(1, pins.count));
    for (let zoom = options.maxZoom; zoom >= options.minZoom; zoom--) {
      level = this.levels[zoom] = this.group(level, zoom, within);
    }
  }

  /** The pins and bubbles at `zoom` in the box [west, south, east, north] (degrees; it may cross 180°). */
  visit(bbox: readonly [number, number, number, number], zoom: number, visitor: GroupVisitor): void {
    let west = ((((bbox[0] + 180) % 360) + 360) % 360) - 180;
    const south = Math.max(-90, Math.min(90, bbox[1]));
    let east = bbox[2] === 180 ? 180 : ((((bbox[2] + 180) % 360) + 360) % 360) - 180;
    const north = Math.max(-90, Math.min(90, bbox[3]));
    if (bbox[2] - bbox[0] >= 360) {
      west = -180;
      east = 180;
    } else if (west > east) {
      this.visit([west, south, 180, north], zoom, visitor);
      this.visit([-180, south, east, north], zoom, visitor);
      return;
    }
    const level = this.levels[this.limitZoom(zoom)]!;
    const members = this.input.members;
    for (const k of level.tree.range(lngX(west), latY(north), lngX(east), latY(south))) {
      const points = level.points ? level.points[k]! : 1;
      const id = level.id ? level.id[k]! : k;
      if (points > 1) visitor.bubble(xLng(level.x[k]!), yLat(level.y[k]!), points, id, k, level.low ? level.low[k]! : -1);
      else visitor.pin(members ? members[id]! : id);
    }
  }

  /**
   * The zoom at which a bubble splits. A bubble is made at the zoom below the one where its
   * pins or bubbles are (its id says which), from at least two of them, so it splits there.
   */
  expansionZoom(bubbleId: number): number {
    return this.madeAt(bubbleId).zoom;
  }

  /**
   * A bubble's pins (their indexes in the input), in the input's order: from the bubble, where it
   * was made, down through each zoom's groups to the pins, each zoom's members told by where they
   * went (`parents`: the index must keep them, `keepParents`).
   */
  leaves(bubbleId: number): Uint32Array<ArrayBuffer> {
    if (!this.keepsParents) throw new Error('the grouping does not keep where its pins went');
    const { zoom: below, origin } = this.madeAt(bubbleId);
    let marked = new Uint8Array(this.levels[below - 1]!.count);
    marked[this.parents[below]![origin]!] = 1;
    for (let zoom = below; zoom <= this.options.maxZoom + 1; zoom++) {
      const parent = this.parents[zoom]!;
      const next = new Uint8Array(this.levels[zoom]!.count);
      for (let k = 0; k < next.length; k++) next[k] = marked[parent[k]!]!;
      marked = next;
    }
    const members = this.input.members;
    const pins: number[] = [];
    for (let k = 0; k < marked.length; k++) if (marked[k]) pins.push(members ? members[k]! : k);
    return Uint32Array.from(pins).sort();
  }

  /**
   * One order of the pins in which every group of every zoom of the range is a run (`LeafRuns`):
   * each zoom's groups laid out from the coarsest zoom down, each group's members in their order
   * at the zoom above, by a counting pass per zoom through where each went (`parents`: the index
   * must keep them, `keepParents`). The run of a bubble holds exactly its `leaves`.
   */
  leafRuns(): LeafRuns {
    if (!this.keepsParents) throw new Error('the grouping does not keep where its pins went');
    const { minZoom, maxZoom } = this.options;
    const pointsOf = (level: Level, k: number) => (level.points ? level.points[k]! : 1);
    const top = this.levels[minZoom]!;
    const first: Uint32Array[] = [];
    let starts = (first[minZoom] = new Uint32Array(top.count));
    for (let k = 1; k < top.count; k++) starts[k] = starts[k - 1]! + pointsOf(top, k - 1);
    for (let zoom = minZoom + 1; zoom <= maxZoom + 1; zoom++) {
      const level = this.levels[zoom]!;
      const parent = this.parents[zoom]!;
      const next = starts.slice();
      const here = new Uint32Array(level.count);
      for (let k = 0; k < level.count; k++) {
        const p = parent[k]!;
        here[k] = next[p]!;
        next[p]! += pointsOf(level, k);
      }
      starts = here;
      if (zoom <= maxZoom) first[zoom] = here;
    }
    const members = this.input.members;
    const order = new Uint32Array(this.total);
    for (let k = 0; k < this.total; k++) order[starts[k]!] = members ? members[k]! : k;
    return { order, first };
  }

  /** Where a bubble was made: `zoom`, the zoom above the one it was made at (where it splits), and `origin`, the place there of the one that took the others. */
  private madeAt(bubbleId: number): { zoom: number; origin: number } {
    const made = bubbleId - this.total;
    const zoom = made % 32;
    const level = this.levels[zoom];
    const origin = Math.floor(made / 32);
    if (!Number.isInteger(made) || made < 0 || zoom <= this.options.minZoom || !level || origin >= level.count) {
      throw new Error(`there is no bubble with the id ${bubbleId}`);
    }
    return { zoom, origin };
  }

  /** Each bubble's pins per category at `zoom` (see `BubbleCategories`); undefined unless the input has `categoryOf`. */
  bubbleCategories(zoom: number): BubbleCategories | undefined {
    const categoryOf = this.input.categoryOf;
    if (!categoryOf) return undefined;
    const levelZoom = this.limitZoom(zoom);
    const level = this.levels[levelZoom]!;
    const members = this.input.members;
    // Where each pin went at that zoom: through each zoom's groups from the pins down.
    const at = new Uint32Array(this.total);
    for (let m = 0; m < at.length; m++) at[m] = m;
    for (let z = this.options.maxZoom + 1; z > levelZoom; z--) {
      const parent = this.parents[z]!;
      for (let m = 0; m < at.length; m++) at[m] = parent[at[m]!]!;
    }
    // The pins of each group, grouped by a counting sort; then each bubble's categories counted.
    const firstPin = new Uint32Array(level.count + 1);
    for (let m = 0; m < at.length; m++) firstPin[at[m]! + 1]!++;
    for (let k = 0; k < level.count; k++) firstPin[k + 1]! += firstPin[k]!;
    const next = firstPin.slice(0, level.count);
    const pinsOf = new Uint32Array(at.length);
    for (let m = 0; m < at.length; m++) pinsOf[next[at[m]!]!++] = m;
    let categories = 0;
    for (const c of categoryOf) if (c >= categories) categories = c + 1;
    const perCategory = new Uint32Array(categories);
    const start = new Uint32Array(level.count + 1);
    const category: number[] = [];
    const count: number[] = [];
    for (let k = 0; k < level.count; k++) {
      start[k] = category.length;
      if ((level.points ? level.points[k]! : 1) < 2) continue;
      for (let p = firstPin[k]!; p < firstPin[k + 1]!; p++) {
        const c = categoryOf[members ? members[pinsOf[p]!]! : pinsOf[p]!]!;
        if (c >= 0) perCategory[c]!++;
      }
      perCategory.forEach((n, c) => {
        if (n === 0) return;
        category.push(c);
        count.push(n);
        perCategory[c] = 0;
      });
    }
    start[level.count] = category.length;
    return { start, category: Uint16Array.from(category), count: Uint32Array.from(count) };
  }

  private limitZoom(zoom: number): number {
    return Math.max(this.options.minZoom, Math.min(Math.floor(+zoom), this.options.maxZoom + 1));
  }

  /** The pins and bubbles at `zoom` from those of the zoom above (`above`), in the rule's order. */
  private group(above: Level, zoom: number, within: Uint32Array): Level {
    const r = this.options.radius / (this.options.extent * 2 ** zoom);
    const { x, y, id, points, seen, tree } = above;
    const members = this.input.members;
    // The lowest input index among each one's pins: a pin's own (above the highest grouped zoom), else kept.
    const lowAbove = above.low ?? ((k: number) => (members ? members[k]! : k));
    const lowOf = typeof lowAbove === 'function' ? lowAbove : (k: number) => lowAbove[k]!;
    const nlow = this.options.keys ? new Uint32Array(above.count) : undefined;
    // At most as many as above. Ids fit 32 bits while a bubble's (its place × 32 + zoom + pins) does.
    const nx = new Float64Array(above.count);
    const ny = new Float64Array(above.count);
    const nid = this.total < 2 ** 26 ? new Uint32Array(above.count) : new Float64Array(above.count);
    const npoints = new Uint32Array(above.count);
    // The place above of the one that took the others (or of the one kept): a bubble's id is made from it.
    const norigin = new Uint32Array(above.count);
    // Which group each of those above goes into, when bubbles count their pins per category.
    const parent = this.keepsParents ? (this.parents[zoom + 1] = new Uint32Array(above.count)) : undefined;
    let n = 0;
    const keep = (k: number) => {
      if (parent) parent[k] = n;
      norigin[n] = k;
      nx[n] = x[k]!;
      ny[n] = y[k]!;
      nid[n] = id ? id[k]! : k;
      npoints[n] = points ? points[k]! : 1;
      if (nlow) nlow[n] = lowOf(k);
      n++;
    };
    for (let i = 0; i < above.count; i++) {
      if (seen[i]! <= zoom) continue;
      seen[i] = zoom;
      const near = tree.withinInto(x[i]!, y[i]!, r, within);
      const own = points ? points[i]! : 1;
      let total = own;
      for (let j = 0; j < near; j++) {
        const k = within[j]!;
        if (seen[k]! > zoom) total += points ? points[k]! : 1;
      }
      if (total > own) {
        let wx = x[i]! * own;
        let wy = y[i]! * own;
        let low = nlow ? lowOf(i) : 0;
        if (parent) parent[i] = n;
        for (let j = 0; j < near; j++) {
          const k = within[j]!;
          if (seen[k]! <= zoom) continue;
          seen[k] = zoom;
          if (parent) parent[k] = n;
          const count = points ? points[k]! : 1;
          wx += x[k]! * count;
          wy += y[k]! * count;
          if (nlow) low = Math.min(low, lowOf(k));
        }
        if (nlow) nlow[n] = low;
        nx[n] = wx / total;
        ny[n] = wy / total;
        // Where and at which zoom it was made, after the pins' numbers (as supercluster's ids).
        nid[n] = (i << 5) + (zoom + 1) + this.total;
        norigin[n] = i;
        npoints[n] = total;
        n++;
      } else {
        keep(i);
        if (total > 1) {
          for (let j = 0; j < near; j++) {
            const k = within[j]!;
            if (seen[k]! <= zoom) continue;
            seen[k] = zoom;
            keep(k);
          }
        }
      }
    }
    if (this.options.apart) n = this.keepApart(zoom, n, { x: nx, y: ny, id: nid, points: npoints, origin: norigin, low: nlow }, above.count, parent);
    const level = { count: n, x: first(nx, n), y: first(ny, n), id: first(nid, n), points: first(npoints, n), seen: new Uint8Array(n).fill(NOT_SEEN) };
    return indexed(nlow ? { ...level, low: first(nlow, n) } : level, this.options.nodeSize);
  }

  /**
   * Merges the groups of `zoom` (the first `n` of `groups`) whose discs overlap (see `apart`),
   * until none do; the groups left are moved to the front, in their order, and `parent` (of the
   * `aboveCount` groups above) follows them. Returns how many are left.
   *
   * Two lone pins never overlap (the radius is at least two pins' discs, and a pin left alone had
   * no other within it), so only bubbles are looked around: each, and again each time it grows,
   * for every group whose disc reaches its own. The spatial index holds where the groups were
   * first; a group that grows moves, so the reach is widened by the most any has moved.
   */
  private keepApart(
    zoom: number,
    n: number,
    groups: { x: Float64Array; y: Float64Array; id: Uint32Array | Float64Array; points: Uint32Array; origin: Uint32Array; low: Uint32Array | undefined },
    aboveCount: number,
    parent: Uint32Array | undefined,
  ): number {
    const { radius, lift, gap } = this.options.apart!;
    const { x, y, id, points, origin, low } = groups;
    const scale = this.options.extent * 2 ** zoom;
    const widest = radius(Math.max(2, this.total));
    const highest = Math.max(lift(1), lift(Math.max(2, this.total)));
    const tree = new KDBush(Math.max(1, n), this.options.nodeSize, Float32Array);
    for (let k = 0; k < n; k++) tree.add(x[k]!, y[k]!);
    if (n === 0) tree.add(0, 0);
    tree.finish();
    const x0 = x.slice(0, n);
    const y0 = y.slice(0, n);
    /** The group each merged one went into (its own place while it stands). */
    const into = new Uint32Array(n);
    for (let k = 0; k < n; k++) into[k] = k;
    let drift = 0;
    let merged = false;
    // Lone pins are drawn at their own places, which the single-precision positions they were
    // grouped at miss by up to a few pixels at the deepest zooms: their discs are kept apart there.
    const { lngLats, members } = this.input;
    const drawnX = (k: number) => (points[k] === 1 ? lngX(lngLats[2 * (members ? members[id[k]!]! : id[k]!)]!) : x[k]!);
    const drawnY = (k: number) => (points[k] === 1 ? latY(lngLats[2 * (members ? members[id[k]!]! : id[k]!) + 1]!) : y[k]!);
    const queue: number[] = [];
    for (let k = 0; k < n; k++) if (points[k]! > 1) queue.push(k);
    while (queue.length > 0) {
      const b = queue.pop()!;
      if (into[b] !== b) continue;
      let grew = false;
      // Widened by a step of single precision, where the tree keeps the groups.
      const reach = (radius(points[b]!) + widest + 2 * highest + gap) / scale + drift + SINGLE_STEP;
      for (const k of tree.within(x[b]!, y[b]!, reach)) {
        if (k === b || into[k] !== k) continue;
        const dx = (drawnX(k) - x[b]!) * scale;
        const dy = (drawnY(k) - y[b]!) * scale - lift(points[k]!) + lift(points[b]!);
        const clear = radius(points[b]!) + radius(points[k]!) + gap;
        if (dx * dx + dy * dy >= clear * clear) continue;
        const total = points[b]! + points[k]!;
        x[b] = (x[b]! * points[b]! + x[k]! * points[k]!) / total;
        y[b] = (y[b]! * points[b]! + y[k]! * points[k]!) / total;
        points[b] = total;
        if (low) low[b] = Math.min(low[b]!, low[k]!);
        into[k] = b;
        grew = true;
      }
      if (!grew) continue;
      merged = true;
      // A bubble made at this zoom, known by the one of the zoom above that it started from.
      id[b] = (origin[b]! << 5) + (zoom + 1) + this.total;
      drift = Math.max(drift, Math.hypot(x[b]! - x0[b]!, y[b]! - y0[b]!));
      queue.push(b);
    }
    if (!merged) return n;
    // Where each group goes: the one it merged into (after all its merges), at its place among those left.
    const place = new Uint32Array(n);
    let left = 0;
    for (let k = 0; k < n; k++) {
      if (into[k] !== k) continue;
      place[k] = left;
      x[left] = x[k]!;
      y[left] = y[k]!;
      id[left] = id[k]!;
      points[left] = points[k]!;
      origin[left] = origin[k]!;
      if (low) low[left] = low[k]!;
      left++;
    }
    const standing = (k: number): number => {
      while (into[k] !== k) k = into[k]!;
      return k;
    };
    if (parent) for (let k = 0; k < aboveCount; k++) parent[k] = place[standing(parent[k]!)]!;
    return left;
  }
}
