import { CLUSTER_MAX_ZOOM } from '../../config/constants.ts';
import type { Pin } from '../types.ts';
import { PinGrouping, membersOf } from './grouping.ts';
import { PinIndex } from './pin-index.ts';

/** Every pin, whatever the view: clusters are made for the whole world at once. */
const WORLD: [number, number, number, number] = [-180, -90, 180, 90];

/**
 * At one whole zoom: a bubble of several pins, or one pin standing alone. A bubble's `key` is the
 * same as long as its pins are (see `GroupIndex` keys, and `PinSlots` for sets updated by id); its
 * `clusterId` is that of this grouping, for its split zoom and its pins.
 */
export type PinGroup =
  | { kind: 'cluster'; key: string; clusterId: number; count: number; lngLat: [number, number] }
  | { kind: 'pin'; key: string; id: string };

/**
 * The grouping of a pin set at each whole zoom (`PinGrouping`, as the GPU pins' index groups
 * them): which bubbles and lone pins show, where a bubble splits, and from which zoom a
 * pin stands alone.
 */
export class PinClusters {
  private readonly index: PinGrouping;

  /** Each pin's index in the list, by id: made when a pin is first looked for (a deep link), not with every set. */
  private indexOf: Map<string, number> | undefined;

  /**
   * `list`: the pins, or a set's slots (`PinSlots.pins`, a free slot undefined); `visible`: 1 for
   * each one grouped (`PinSlots.visible`), every pin when absent.
   */
  constructor(
    private readonly list: readonly (Pin | undefined)[],
    visible?: Uint8Array,
  ) {
    const lngLats = lngLatsOf(list);
    this.index = new PinGrouping(visible ? { lngLats, members: membersOf(visible) } : { lngLats }, { keys: true });
  }

  /** The groups at a zoom (fractional zooms group as the whole zoom below), within `bbox` ([w, s, e, n]; default the world). */
  groupsAt(zoom: number, bbox: [number, number, number, number] = WORLD): PinGroup[] {
    const groups: PinGroup[] = [];
    this.index.visit(bbox, wholeZoom(zoom), {
      pin: (i) => {
        const id = this.list[i]!.id;
        groups.push({ kind: 'pin', key: `pin:${id}`, id });
      },
      bubble: (lng, lat, count, clusterId, _entry, key) => groups.push({ kind: 'cluster', key: `cluster:${key}`, clusterId, count, lngLat: [lng, lat] }),
    });
    return groups;
  }

  /** The zoom at which a bubble splits into smaller groups. */
  expansionZoom(clusterId: number): number {
    return this.index.expansionZoom(clusterId);
  }

  /** A bubble's pins, in the list's order: `limit` of them from `offset` on (see `PinGrouping.leaves`). */
  leaves(clusterId: number, offset?: number, limit?: number): Pin[] {
    return Array.from(this.index.leaves(clusterId, offset, limit).pins, (i) => this.list[i]).filter((pin) => pin !== undefined);
  }

  /** The lowest whole zoom, from `fromZoom` up, at which the pin is not in any bubble (see `PinGrouping.revealZoom`). */
  revealZoom(id: string, fromZoom: number): number {
    if (!this.indexOf) {
      this.indexOf = new Map();
      for (let i = 0; i < this.list.length; i++) {
        const pin = this.list[i];
        if (pin) this.indexOf.set(pin.id, i);
      }
    }
    const i = this.indexOf.get(id);
    return i === undefined ? CLUSTER_MAX_ZOOM + 1 : this.index.revealZoom(i, fromZoom);
  }
}

function wholeZoom(zoom: number): number {
  return Math.max(0, Math.floor(zoom));
}

/** Each pin's longitude and latitude, in the list's order: what the groupings are made from. */
export function lngLatsOf(list: readonly (Pin | undefined)[]): Float64Array {
  const lngLats = new Float64Array(2 * list.length);
  list.forEach((pin, i) => {
    if (!pin) return; // a free slot: never grouped (see `PinSlots.visible`)
    lngLats[2 * i] = pin.lngLat[0];
    lngLats[2 * i + 1] = pin.lngLat[1];
  });
  return lngLats;
}

/**
 * The groups of `PinClusters`, made in the pin index's worker (`PinIndex`) for a large set, whose
 * grouping would otherwise hold the page up while the map loads; so every answer comes later.
 * Pins are grouped from the whole list, `visible` leaving out the hidden ones.
 */
export class IndexedPinClusters {
  private readonly index: PinIndex;

  /** `list` and `visible` as `PinClusters` takes them; `zoom`: the map's, whose range of zooms is grouped first. */
  constructor(
    private list: readonly (Pin | undefined)[],
    zoom: number,
    visible: Uint8Array | undefined,
  ) {
    this.index = new PinIndex(lngLatsOf(list), zoom, undefined, visible);
  }

  /** As `PinClusters.groupsAt`, in the same order. */
  async groupsAt(zoom: number, bbox: [number, number, number, number] = WORLD): Promise<PinGroup[]> {
    // The pins of the moment it is asked: the index answers of the set it had then.
    const list = this.list;
    const { pins, clusters, keys, order } = await this.index.groups(bbox, wholeZoom(zoom));
    const groups: PinGroup[] = [];
    let pin = 0;
    let bubble = 0;
    for (const kind of order) {
      if (kind === 0) {
        const id = list[pins[pin++]!]?.id;
        if (id !== undefined) groups.push({ kind: 'pin', key: `pin:${id}`, id });
      } else {
        const at = 4 * bubble;
        const clusterId = clusters[at + 3]!;
        groups.push({ kind: 'cluster', key: `cluster:${keys[bubble]!}`, clusterId, count: clusters[at + 2]!, lngLat: [clusters[at]!, clusters[at + 1]!] });
        bubble++;
      }
    }
    return groups;
  }

  /** Takes a newer set of the pins (an update by id) and groups it afresh; later answers are of it. */
  reload(list: readonly (Pin | undefined)[], zoom: number, visible: Uint8Array | undefined): void {
    this.list = list;
    this.index.reload(lngLatsOf(list), zoom, visible).catch(() => {}); // a later answer fails the same way and says so
  }

  /** Groups the pins again with only those `visible` marks (none: every pin); later answers have the new groups. */
  filter(visible: Uint8Array | undefined, zoom: number): void {
    this.index.filter(visible, zoom).catch(() => {}); // a later answer fails the same way and says so
  }

  expansionZoom(clusterId: number): Promise<number> {
    return this.index.expansionZoom(clusterId);
  }

  /** As `PinClusters.leaves`. */
  async leaves(clusterId: number, offset?: number, limit?: number): Promise<Pin[]> {
    const list = this.list;
    const { pins } = await this.index.leaves(clusterId, offset, limit);
    return Array.from(pins, (i) => list[i]).filter((pin) => pin !== undefined);
  }

  /** As `PinClusters.revealZoom`. */
  async revealZoom(id: string, fromZoom: number): Promise<number> {
    // Asked rarely (`?pin=`), so the pin is found by a scan.
    const at = this.list.findIndex((pin) => pin?.id === id);
    return at < 0 ? CLUSTER_MAX_ZOOM + 1 : this.index.revealZoom(at, fromZoom);
  }

  destroy(): void {
    this.index.destroy();
  }
}
