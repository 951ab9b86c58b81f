import type { GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import type { Pin } from '../pins/types.ts';
import { pinDrawing, type PinStyle } from '../pins/icon.ts';
import { clusterDiameter } from '../pins/bubble.ts';
import type { PinClusters } from '../pins/grouping/clusters.ts';

/**
 * Pins win over the basemap's labels. MapLibre places symbols layer by layer from the top of the
 * style down, each into one collision index: a label (`text-allow-overlap: false`, as basemap
 * labels are) is left out where a symbol placed before it already stands. Pinmap's layers are the
 * top of the style, so they are placed first:
 *
 * - GPU pins and bubbles take part in collision (`icon-ignore-placement: false`, still
 *   `icon-allow-overlap: true`, so they never hide each other): both are icons, a bubble's image
 *   the size of its ring (`rasteriseBubble`);
 * - DOM pins and bubbles (markers, which MapLibre's placement does not know) and the hybrid
 *   view's Leaflet pins get an invisible symbol layer (this module's `createLabelCollision`): an
 *   empty icon of the pin's or bubble's size at each one's place.
 *
 * A label under a pin is hidden, and comes back as soon as no pin stands there (the pins changed,
 * a bubble split); labels elsewhere keep their places.
 */

/** The source and layer of the DOM pins' collision boxes. */
export const COLLISION_SOURCE = 'pinmap-label-collision';
export const COLLISION_LAYER = 'pinmap-label-collision';

/** Where a pin or bubble stands on the map, as a box of its size around its anchor. */
export interface CollisionBox {
  lngLat: [number, number];
  /** Size in CSS px. */
  width: number;
  height: number;
  /** `bottom`: a pin, its tip on the point; `center`: a bubble, centred on it. */
  anchor: 'bottom' | 'center';
}

/**
 * Adds (once) an empty image of `width` × `height` CSS px, and returns its id: an icon that draws
 * nothing and takes that much room in MapLibre's collision index.
 */
function collisionImage(map: MapLibreMap, width: number, height: number): string {
  const w = Math.max(1, Math.round(width));
  const h = Math.max(1, Math.round(height));
  const id = `pinmap-collision-${w}x${h}`;
  if (!map.hasImage(id)) map.addImage(id, { width: w, height: h, data: new Uint8Array(w * h * 4) });
  return id;
}

/** The label collision of a map's DOM pins and bubbles (see `createLabelCollision`). */
export type LabelCollision = ReturnType<typeof createLabelCollision>;

/**
 * The invisible symbol layer of DOM pins and bubbles: `set` gives the boxes now shown; the layer
 * is kept on top of the style (also after a new style: a theme change carries it over, and a
 * style loaded afresh gets it again). Call it right after making the map.
 */
export function createLabelCollision(map: MapLibreMap) {
  let boxes: CollisionBox[] = [];
  let stopped = false;

  const features = (): GeoJSON.FeatureCollection<GeoJSON.Point> => ({
    type: 'FeatureCollection',
    features: boxes.map((box) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: box.lngLat },
      properties: { image: collisionImage(map, box.width, box.height), anchor: box.anchor },
    })),
  });

  /** Puts the boxes on the map, if its style can take them now (else on its next load). */
  const apply = () => {
    if (stopped) return;
    try {
      const source = map.getSource<GeoJSONSource>(COLLISION_SOURCE);
      if (source) {
        source.setData(features());
      } else {
        map.addSource(COLLISION_SOURCE, { type: 'geojson', data: features() });
      }
      if (!map.getLayer(COLLISION_LAYER)) {
        map.addLayer({
          id: COLLISION_LAYER,
          type: 'symbol',
          source: COLLISION_SOURCE,
          layout: {
            'icon-image': ['get', 'image'],
            'icon-anchor': ['get', 'anchor'] as never,
            'icon-allow-overlap': true,
            'icon-ignore-placement': false,
          },
          paint: { 'icon-opacity': 0 },
        });
      }
    } catch {
      // The style has not loaded yet: `style.load` brings the boxes.
    }
  };
  map.on('style.load', apply);

  return {
    /** The DOM pins and bubbles now on the map. */
    set(next: CollisionBox[]) {
      boxes = next;
      apply();
    },
    destroy() {
      stopped = true;
      map.off('style.load', apply);
      if (!map.style) return; // the map is being removed
      try {
        if (map.getLayer(COLLISION_LAYER)) map.removeLayer(COLLISION_LAYER);
        if (map.getSource(COLLISION_SOURCE)) map.removeSource(COLLISION_SOURCE);
      } catch {
        // The style is gone or not loaded: nothing of ours is on it.
      }
    },
  };
}

/**
 * The collision boxes of the DOM pins and bubbles of one zoom's groups: each pin's box (its
 * style's size, tip on the point), each bubble's circle with its 2 px ring.
 */
export function collisionBoxes(groups: ReturnType<PinClusters['groupsAt']>, pins: { get(id: string): Pin | undefined }, styleOf: (pin: Pin) => PinStyle): CollisionBox[] {
  const sizes = new Map<PinStyle, [number, number]>();
  const boxes: CollisionBox[] = [];
  for (const group of groups) {
    if (group.kind === 'cluster') {
      const size = clusterDiameter(group.count) + 4;
      boxes.push({ lngLat: group.lngLat, width: size, height: size, anchor: 'center' });
      continue;
    }
    const pin = pins.get(group.id);
    if (!pin) continue;
    const style = styleOf(pin);
    let size = sizes.get(style);
    if (!size) {
      const drawing = pinDrawing(style);
      size = [drawing.width, drawing.height];
      sizes.set(style, size);
    }
    boxes.push({ lngLat: pin.lngLat, width: size[0], height: size[1], anchor: 'bottom' });
  }
  return boxes;
}
