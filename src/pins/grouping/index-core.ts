import { PinGrouping, membersOf } from './grouping.ts';

/**
 * The grouping of a large pin set (`PinGrouping`, as `PinClusters` groups the DOM pins), kept
 * where the pins' coordinates went: in the pin index's worker, or on the page when no worker
 * can start. Pins are known by their index in the set; only coordinates come here. Each range
 * of zooms is grouped when first asked for, or when `prepare` says a view will soon need it.
 */

export type IndexRequest =
  /** `zoom`: where the map is, so the zooms around it are grouped at once. */
  | { id: number; type: 'load'; lngLats: Float64Array; zoom?: number; visible?: Uint8Array }
  /**
   * `visible`: 1 for each pin (by its index in the set) that shows, 0 for a hidden one (the legend's
   * filter); none shows every pin. The pins are grouped afresh, so bubbles count only what shows.
   */
  | { id: number; type: 'filter'; visible?: Uint8Array; zoom?: number }
  | { id: number; type: 'groups'; bbox: [number, number, number, number]; zoom: number }
  | { id: number; type: 'expansionZoom'; clusterId: number }
  /** A bubble's pins, in the set's order: `limit` of them (none: all) from `offset` on. */
  | { id: number; type: 'leaves'; clusterId: number; offset?: number; limit?: number }
  /** `pin`: the pin's index in the set; the answer is the first whole zoom from `fromZoom` up where it stands alone. */
  | { id: number; type: 'revealZoom'; pin: number; fromZoom: number }
  | { id: number; type: 'prepare'; zooms: number[] };

export type IndexReply =
  | { id: number; type: 'load' }
  | { id: number; type: 'filter' }
  /**
   * `pins`: indexes of the pins that stand alone; `clusters`: lng, lat, count, cluster id of each
   * bubble, flat; `order`: which came when as the index visited them (0 a pin, 1 a bubble), so the
   * two lists can be laid back into one in that order. `keys`: each bubble's key, in the order of
   * `clusters`: the lowest index among its pins, the same as long as its pins are (see `GroupIndex`).
   */
  | { id: number; type: 'groups'; pins: Uint32Array; clusters: Float64Array; keys: Uint32Array; order: Uint8Array }
  | { id: number; type: 'expansionZoom'; zoom: number }
  /** `pins`: the indexes of the bubble's pins asked for; `total`: how many pins it has in all. */
  | { id: number; type: 'leaves'; pins: Uint32Array; total: number }
  | { id: number; type: 'revealZoom'; zoom: number }
  /** `grouped`: how many ranges of zooms are grouped now. */
  | { id: number; type: 'prepare'; grouped: number }
  | { id: number; error: string };

/** The grouping of the pins that `visible` shows (all of them without it); each keeps its index in the set. */
function groupingOf(lngLats: Float64Array, visible: Uint8Array | undefined): PinGrouping {
  return new PinGrouping(visible ? { lngLats, members: membersOf(visible) } : { lngLats }, { keys: true });
}

/** Answers the pin index's requests; the reply's buffers can be transferred. */
export function createIndexCore(): (request: IndexRequest) => { reply: IndexReply; transfer: ArrayBuffer[] } {
  let index: PinGrouping | undefined;
  let lngLats: Float64Array = new Float64Array(0);

  function answer(request: IndexRequest): { reply: IndexReply; transfer: ArrayBuffer[] } {
    if (request.type === 'load') {
      lngLats = request.lngLats;
      index = groupingOf(lngLats, request.visible);
      if (request.zoom !== undefined) index.prepare(request.zoom);
      return { reply: { id: request.id, type: 'load' }, transfer: [] };
    }
    if (request.type === 'filter') {
      index = groupingOf(lngLats, request.visible);
      if (request.zoom !== undefined) index.prepare(request.zoom);
      return { reply: { id: request.id, type: 'filter' }, transfer: [] };
    }
    if (!index) throw new Error('the pin index is not loaded');
    if (request.type === 'groups') {
      const pins: number[] = [];
      const clusters: number[] = [];
      const keys: number[] = [];
      const order: number[] = [];
      index.visit(request.bbox, request.zoom, {
        pin: (i) => {
          order.push(0);
          pins.push(i);
        },
        bubble: (lng, lat, count, id, _entry, key) => {
          order.push(1);
          clusters.push(lng, lat, count, id);
          keys.push(key);
        },
      });
      const reply = { id: request.id, type: 'groups' as const, pins: Uint32Array.from(pins), clusters: Float64Array.from(clusters), keys: Uint32Array.from(keys), order: Uint8Array.from(order) };
      return { reply, transfer: [reply.pins.buffer, reply.clusters.buffer, reply.keys.buffer, reply.order.buffer] };
    }
    if (request.type === 'revealZoom') {
      if (!Number.isInteger(request.pin) || request.pin < 0 || request.pin >= lngLats.length / 2) throw new Error(`there is no pin number ${request.pin}`);
      const zoom = index.revealZoom(request.pin, request.fromZoom);
      return { reply: { id: request.id, type: 'revealZoom', zoom }, transfer: [] };
    }
    if (request.type === 'leaves') {
      const { pins, total } = index.leaves(request.clusterId, request.offset, request.limit);
      return { reply: { id: request.id, type: 'leaves', pins, total }, transfer: [pins.buffer] };
    }
    if (request.type === 'prepare') {
      for (const zoom of request.zooms) index.prepare(zoom);
      return { reply: { id: request.id, type: 'prepare', grouped: index.grouped }, transfer: [] };
    }
    return { reply: { id: request.id, type: 'expansionZoom', zoom: index.expansionZoom(request.clusterId) }, transfer: [] };
  }

  return (request) => {
    try {
      return answer(request);
    } catch (error) {
      return { reply: { id: request.id, error: error instanceof Error ? error.message : String(error) }, transfer: [] };
    }
  };
}
