import { CLUSTER_MAX_ZOOM, CLUSTER_RADIUS, CLUSTER_TIERS } from '../../config/constants.ts';
import { GROUP_GAP, groupDiscLift, groupDiscRadius } from '../bubble.ts';
import { GroupIndex, pinLevel, type BubbleCategories, type GroupInput, type GroupVisitor, type LeafRuns } from './group-index.ts';

/** Pixels of a tile the radius is measured in, and items in a leaf of the spatial index. */
const EXTENT = 512;
const NODE_SIZE = 64;

/** A range of whole zooms grouped together; `index` once it has been grouped. */
interface Tier {
  minZoom: number;
  maxZoom: number;
  index?: GroupIndex;
}

/** The indexes a mask shows (1 for a pin shown, 0 for one hidden), in order: a `GroupInput`'s `members`. */
export function membersOf(visible: Uint8Array): Uint32Array {
  let shown = 0;
  for (const flag of visible) shown += flag === 1 ? 1 : 0;
  const members = new Uint32Array(shown);
  for (let i = 0, k = 0; i < visible.length; i++) if (visible[i] === 1) members[k++] = i;
  return members;
}

/** The zoom ranges a set of `count` pins is grouped in (see `CLUSTER_TIERS`). */
export function clusterTiers(count: number): (readonly [number, number])[] {
  return count > CLUSTER_TIERS.fromPins ? [...CLUSTER_TIERS.zooms] : [[0, CLUSTER_MAX_ZOOM]];
}

/**
 * The grouping of a pin set at each whole zoom (`GroupIndex`, with the product's radius and
 * maximum zoom, its groups' discs kept apart), made a range of zooms at a time when first asked for; the ranges share the
 * pins' own spatial index. The DOM pins (`PinClusters`), the GPU pins' index
 * (`index-core.ts`) and the pin tiler all group through it, so they show the same bubbles.
 * Pins are known by their index in `input.lngLats`.
 */
export class PinGrouping {
  private readonly tiers: Tier[];
  private pins: ReturnType<typeof pinLevel> | undefined;
  /** How many pins are grouped. */
  readonly count: number;

  /**
   * `keepParents`: group every range keeping where each pin went (`leafRuns`, `leaves`), not only
   * when first asked. `keepApart: false`: leave groups whose discs overlap as they are, as
   * supercluster does (the tests' reference); by default no two groups' discs overlap
   * (`groupDiscRadius`). `keys`: each bubble gets the key `GroupIndex` keeps (see its `keys`).
   */
  constructor(
    private readonly input: GroupInput,
    private readonly options: { keepParents?: boolean; keepApart?: boolean; keys?: boolean } = {},
  ) {
    this.count = input.members ? input.members.length : input.lngLats.length / 2;
    this.tiers = clusterTiers(this.count).map(([minZoom, maxZoom]) => ({ minZoom, maxZoom }));
  }

  /** Bubbles and lone pins at a zoom (fractional zooms group as the whole zoom below) within `bbox` ([w, s, e, n]), in the index's order. */
  visit(bbox: readonly [number, number, number, number], zoom: number, visitor: GroupVisitor): void {
    this.indexAt(zoom).visit(bbox, Math.floor(zoom), visitor);
  }

  /** The zoom at which a bubble splits: within its range of zooms; at the first zoom of the next range, where the pins are grouped afresh. */
  expansionZoom(bubbleId: number): number {
    return this.indexAt(this.zoomOf(bubbleId)).expansionZoom(bubbleId);
  }

  /**
   * A bubble's pins (their indexes in `input.lngLats`), in that order: `limit` of them from
   * `offset` on, and how many it has in all. The first time a range of zooms is asked, it is
   * grouped again keeping where each pin went (which `GroupIndex.leaves` needs and the bubbles
   * alone do not): the same groups, with 4 bytes more per pin and zoom.
   */
  leaves(bubbleId: number, offset = 0, limit = Infinity): { pins: Uint32Array<ArrayBuffer>; total: number } {
    const tier = this.tierAt(this.zoomOf(bubbleId));
    if (!tier.index?.keepsParents) tier.index = this.groupIndex(tier, true);
    const all = tier.index.leaves(bubbleId);
    const from = Math.max(0, Math.floor(offset));
    return { pins: all.slice(from, Math.min(all.length, from + Math.max(0, limit))), total: all.length };
  }

  /**
   * The order of the pins of the range of zooms `zoom` is in, in which each of its bubbles is a
   * run (see `LeafRuns`); grouped again keeping where each pin went if it was not.
   */
  leafRuns(zoom: number): LeafRuns {
    const tier = this.tierAt(zoom);
    if (!tier.index?.keepsParents) tier.index = this.groupIndex(tier, true);
    return tier.index.leafRuns();
  }

  /**
   * The lowest whole zoom, from `fromZoom` up, at which the pin (its index) stands alone, not in
   * a bubble; `CLUSTER_MAX_ZOOM + 1` if it never does below that (a pin sharing its spot with
   * another). A pin that stands alone is at its own coordinate, so only that spot is looked at:
   * a little box around it, as the index keeps positions in single precision.
   */
  revealZoom(pin: number, fromZoom: number): number {
    const lng = this.input.lngLats[2 * pin]!;
    const lat = this.input.lngLats[2 * pin + 1]!;
    const spot = [lng - 1e-4, lat - 1e-4, lng + 1e-4, lat + 1e-4] as const;
    for (let zoom = Math.max(0, Math.floor(fromZoom)); zoom <= CLUSTER_MAX_ZOOM; zoom++) {
      let alone = false;
      this.visit(spot, zoom, { pin: (index) => (alone ||= index === pin), bubble: () => {} });
      if (alone) return zoom;
    }
    return CLUSTER_MAX_ZOOM + 1;
  }

  /** Each bubble's pins per category at a zoom (see `BubbleCategories`); undefined unless the input has `categoryOf`. */
  bubbleCategories(zoom: number): BubbleCategories | undefined {
    return this.indexAt(zoom).bubbleCategories(Math.floor(zoom));
  }

  /** Groups, now, the range of zooms `zoom` is in (what a view at that zoom will ask for). */
  prepare(zoom: number): void {
    this.indexAt(zoom);
  }

  /**
   * Lets go of the grouping of the range of zooms `zoom` is in (it is made again if asked for):
   * the pin tiler goes through the ranges one after another and keeps one at a time.
   */
  forget(zoom: number): void {
    delete this.tierAt(zoom).index;
  }

  /** The first and last zoom of the range `zoom` is in. */
  rangeOf(zoom: number): [number, number] {
    const tier = this.tierAt(zoom);
    return [tier.minZoom, tier.maxZoom];
  }

  /** How many ranges of zooms have been grouped so far. */
  get grouped(): number {
    return this.tiers.filter((tier) => tier.index).length;
  }

  /** The zoom a bubble shows at: its id keeps it (its position, shifted by 5 bits, plus the zoom + 1, plus the number of pins). */
  private zoomOf(bubbleId: number): number {
    const zoom = ((bubbleId - this.count) % 32) - 1;
    if (!Number.isInteger(zoom) || zoom < 0 || zoom > CLUSTER_MAX_ZOOM) throw new Error(`there is no bubble with the id ${bubbleId}`);
    return zoom;
  }

  private tierAt(zoom: number): Tier {
    const whole = Math.max(0, Math.min(Math.floor(zoom), CLUSTER_MAX_ZOOM));
    return this.tiers.find((t) => whole >= t.minZoom && whole <= t.maxZoom)!;
  }

  private indexAt(zoom: number): GroupIndex {
    const tier = this.tierAt(zoom);
    tier.index ??= this.groupIndex(tier, this.options.keepParents === true);
    return tier.index;
  }

  /** Groups a range of zooms; `keepParents`: so that its bubbles' pins can be listed. */
  private groupIndex(tier: Tier, keepParents: boolean): GroupIndex {
    this.pins ??= pinLevel(this.input, NODE_SIZE);
    const apart = this.options.keepApart === false ? {} : { apart: { radius: groupDiscRadius, lift: groupDiscLift, gap: GROUP_GAP } };
    const keys = this.options.keys === true ? { keys: true } : {};
    return new GroupIndex(this.input, { radius: CLUSTER_RADIUS, extent: EXTENT, minZoom: tier.minZoom, maxZoom: tier.maxZoom, nodeSize: NODE_SIZE, keepParents, ...apart, ...keys }, this.pins);
  }
}
