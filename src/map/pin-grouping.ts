import Supercluster from 'supercluster';
import { CLUSTER_MAX_ZOOM, CLUSTER_RADIUS, CLUSTER_TIERS } from './constants.ts';

/** A range of whole zooms grouped together; `index` once it has been grouped. */
interface Tier<P extends Supercluster.AnyProps> {
  minZoom: number;
  maxZoom: number;
  index?: Supercluster<P>;
}

/** The zoom ranges a set of `count` pins is grouped in (see `CLUSTER_TIERS`). */
export function clusterTiers(count: number): (readonly [number, number])[] {
  return count > CLUSTER_TIERS.fromPins ? [...CLUSTER_TIERS.zooms] : [[0, CLUSTER_MAX_ZOOM]];
}

/**
 * The grouping of a pin set at each whole zoom (supercluster, with the product's radius and
 * maximum zoom), made a range of zooms at a time when first asked for. The DOM pins
 * (`PinClusters`) and the GPU pins' index (`pin-index-core.ts`) both group through it, so they
 * show the same bubbles.
 */
export class PinGrouping<P extends Supercluster.AnyProps> {
  private readonly tiers: Tier<P>[];

  constructor(private readonly points: Supercluster.PointFeature<P>[]) {
    this.tiers = clusterTiers(points.length).map(([minZoom, maxZoom]) => ({ minZoom, maxZoom }));
  }

  /** Bubbles and lone pins at a zoom (fractional zooms group as the whole zoom below) within `bbox` ([w, s, e, n]). */
  getClusters(bbox: [number, number, number, number], zoom: number): (Supercluster.ClusterFeature<Supercluster.AnyProps> | Supercluster.PointFeature<P>)[] {
    return this.indexAt(zoom).getClusters(bbox, Math.floor(zoom));
  }

  /** The zoom at which a bubble splits: within its range of zooms; at the first zoom of the next range, where the pins are grouped afresh. */
  getClusterExpansionZoom(clusterId: number): number {
    return this.indexAt(this.zoomOf(clusterId)).getClusterExpansionZoom(clusterId);
  }

  /**
   * The lowest whole zoom, from `fromZoom` up, at which the pin at `lngLat` that `isPin` picks
   * stands alone, not in a bubble; `CLUSTER_MAX_ZOOM + 1` if it never does below that (a pin
   * sharing its spot with another). A pin that stands alone is at its own coordinate, so only
   * that spot is looked at: a little box around it, as the index keeps positions in single precision.
   */
  revealZoom([lng, lat]: [number, number], isPin: (properties: P) => boolean, fromZoom: number): number {
    const spot: [number, number, number, number] = [lng - 1e-4, lat - 1e-4, lng + 1e-4, lat + 1e-4];
    for (let zoom = Math.max(0, Math.floor(fromZoom)); zoom <= CLUSTER_MAX_ZOOM; zoom++) {
      const here = this.getClusters(spot, zoom);
      if (here.some((feature) => !(feature.properties as { cluster?: boolean }).cluster && isPin(feature.properties as P))) return zoom;
    }
    return CLUSTER_MAX_ZOOM + 1;
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

  /** The zoom a bubble shows at: supercluster keeps it in the bubble's id (its position, shifted by 5 bits, plus the zoom + 1, plus the number of points). */
  private zoomOf(clusterId: number): number {
    const zoom = ((clusterId - this.points.length) % 32) - 1;
    if (!Number.isInteger(zoom) || zoom < 0 || zoom > CLUSTER_MAX_ZOOM) throw new Error(`there is no bubble with the id ${clusterId}`);
    return zoom;
  }

  private tierAt(zoom: number): Tier<P> {
    const whole = Math.max(0, Math.min(Math.floor(zoom), CLUSTER_MAX_ZOOM));
    return this.tiers.find((t) => whole >= t.minZoom && whole <= t.maxZoom)!;
  }

  private indexAt(zoom: number): Supercluster<P> {
    const tier = this.tierAt(zoom);
    tier.index ??= new Supercluster<P>({ radius: CLUSTER_RADIUS, minZoom: tier.minZoom, maxZoom: tier.maxZoom }).load(this.points);
    return tier.index;
  }
}
