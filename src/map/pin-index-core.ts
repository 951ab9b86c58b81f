import type Supercluster from 'supercluster';
import { PinGrouping } from './pin-grouping.ts';

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
  /** `pin`: the pin's index in the set; the answer is the first whole zoom from `fromZoom` up where it stands alone. */
  | { id: number; type: 'revealZoom'; pin: number; fromZoom: number }
  | { id: number; type: 'prepare'; zooms: number[] };

export type IndexReply =
  | { id: number; type: 'load' }
  | { id: number; type: 'filter' }
  /** `pins`: indexes of the pins that stand alone; `clusters`: lng, lat, count, cluster id of each bubble, flat. */
  | { id: number; type: 'groups'; pins: Uint32Array; clusters: Float64Array }
  | { id: number; type: 'expansionZoom'; zoom: number }
  | { id: number; type: 'revealZoom'; zoom: number }
  /** `grouped`: how many ranges of zooms are grouped now. */
  | { id: number; type: 'prepare'; grouped: number }
  | { id: number; error: string };

/** The grouping of the pins that `visible` shows (all of them without it); each keeps its index in the set. */
function groupingOf(points: Supercluster.PointFeature<{ i: number }>[], visible: Uint8Array | undefined): PinGrouping<{ i: number }> {
  return new PinGrouping(visible ? points.filter((_, i) => visible[i] === 1) : points);
}

/** Answers the pin index's requests; the reply's buffers can be transferred. */
export function createIndexCore(): (request: IndexRequest) => { reply: IndexReply; transfer: ArrayBuffer[] } {
  let index: PinGrouping<{ i: number }> | undefined;
  let points: Supercluster.PointFeature<{ i: number }>[] = [];

  function answer(request: IndexRequest): { reply: IndexReply; transfer: ArrayBuffer[] } {
    if (request.type === 'load') {
      const { lngLats } = request;
      points = new Array(lngLats.length / 2);
      for (let i = 0; i < points.length; i++) {
        points[i] = { type: 'Feature', geometry: { type: 'Point', coordinates: [lngLats[2 * i]!, lngLats[2 * i + 1]!] }, properties: { i } };
      }
      index = groupingOf(points, request.visible);
      if (request.zoom !== undefined) index.prepare(request.zoom);
      return { reply: { id: request.id, type: 'load' }, transfer: [] };
    }
    if (request.type === 'filter') {
      index = groupingOf(points, request.visible);
      if (request.zoom !== undefined) index.prepare(request.zoom);
      return { reply: { id: request.id, type: 'filter' }, transfer: [] };
    }
    if (!index) throw new Error('the pin index is not loaded');
    if (request.type === 'groups') {
      const pins: number[] = [];
      const clusters: number[] = [];
      for (const feature of index.getClusters(request.bbox, request.zoom)) {
        const properties = feature.properties as Partial<Supercluster.ClusterProperties> & { i?: number };
        if (properties.cluster) {
          const [lng, lat] = feature.geometry.coordinates as [number, number];
          clusters.push(lng, lat, properties.point_count!, properties.cluster_id!);
        } else {
          pins.push(properties.i!);
        }
      }
      const reply = { id: request.id, type: 'groups' as const, pins: Uint32Array.from(pins), clusters: Float64Array.from(clusters) };
      return { reply, transfer: [reply.pins.buffer, reply.clusters.buffer] };
    }
    if (request.type === 'revealZoom') {
      const point = points[request.pin];
      if (!point) throw new Error(`there is no pin number ${request.pin}`);
      const zoom = index.revealZoom(point.geometry.coordinates as [number, number], (properties) => properties.i === request.pin, request.fromZoom);
      return { reply: { id: request.id, type: 'revealZoom', zoom }, transfer: [] };
    }
    if (request.type === 'prepare') {
      for (const zoom of request.zooms) index.prepare(zoom);
      return { reply: { id: request.id, type: 'prepare', grouped: index.grouped }, transfer: [] };
    }
    return { reply: { id: request.id, type: 'expansionZoom', zoom: index.getClusterExpansionZoom(request.clusterId) }, transfer: [] };
  }

  return (request) => {
    try {
      return answer(request);
    } catch (error) {
      return { reply: { id: request.id, error: error instanceof Error ? error.message : String(error) }, transfer: [] };
    }
  };
}
