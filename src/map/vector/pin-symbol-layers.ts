import type { ExpressionSpecification, Map as MapLibreMap, MapGeoJSONFeature, MapLayerMouseEvent, PointLike } from 'maplibre-gl';
import { clusterDiameter } from '../../pins/bubble.ts';
import { nearestCopy } from '../../pins/filter.ts';
import type { PinStyle } from '../../pins/icon.ts';
import { ensureBubbleImage } from '../../pins/icon-image.ts';
import type { Pin } from '../../pins/types.ts';
import { keyboardStandIns } from './keyboard-stand-ins.ts';
import type { LayerImage } from './pin-images.ts';
import type { BubblePins } from '../adapter.ts';
import { listsPins } from '../pin-layer.ts';

/**
 * The GPU pins' layers, which the inline GL pins (`gl-pins-layer.ts`) and the pre-tiled pins
 * (`pretiled-pins-layer.ts`) both draw: cluster bubbles with their counts, and the pins as
 * symbols, on one source of the style.
 */

/** The ids of what the GPU pins add to the style. */
export const PIN_SOURCE = 'pinmap-pins';
export const PIN_LAYERS = { clusters: 'pinmap-clusters', pins: 'pinmap-pins' } as const;

/** The counts at which a bubble grows (see `clusterDiameter`). */
const CLUSTER_STEPS = [1, 10, 100, 1000];

/** What the GPU pin layers draw, from the inline pins' GeoJSON source or an archive's tiles. */
export interface PinSymbolDrawing {
  /** The pin images and their icon offsets. */
  images: LayerImage[];
  /** A pin feature's image id. */
  image: ExpressionSpecification;
  /** The cluster counts' font. */
  font: string[];
  /** The layer of the source's vector tiles (pre-tiled pins); none for the GeoJSON source. */
  sourceLayer?: string;
  /** The zoom at which a bubble splits. */
  expansionZoom: (clusterId: number, properties: Record<string, unknown>) => Promise<number>;
  /**
   * A bubble's pins, for one that splits beyond the map's maximum zoom (`listsPins`), which then
   * lists them (`listBubble`); none: such a bubble zooms as far as the map goes.
   */
  leaves?: (clusterId: number, properties: Record<string, unknown>, lngLat: [number, number]) => Promise<Pin[]>;
  listBubble: (bubble: BubblePins) => void;
  /** A click on a pin, or Enter or Space on its keyboard stand-in (`trigger`, which focus goes back to). */
  onPin: (feature: MapGeoJSONFeature, trigger?: HTMLElement, byKeyboard?: boolean) => void;
  /** The pin a pin feature stands for, and how it is drawn (for its keyboard stand-in). */
  pinOf: (feature: MapGeoJSONFeature) => Pin | undefined;
  styleOf: (pin: Pin) => PinStyle;
  /** A bubble's accessible name; `{count}` stands for its number of pins. */
  clusterLabel: string;
  /** How many of a bubble's pins show (its keyboard stand-in's count); its `point_count` if not given. */
  bubbleCount?: (properties: Record<string, unknown>) => number;
}

/**
 * The GPU pin layers on the pins' source (`PIN_SOURCE`: the inline pins' GeoJSON source, or an
 * archive's vector source), with keyboard stand-ins for their symbols (`keyboardStandIns`). A
 * click on a bubble zooms to where it splits; a click on a pin calls `onPin`. Returns what
 * removes them, and the source, again.
 */
/** Each map's count of the pins its symbol layers draw in view (`drawnPinCount`), while they are on it. */
const drawnCounters = new WeakMap<MapLibreMap, () => number>();

/**
 * How many pins the GPU pins' layers draw in view: lone pins one each, bubbles their count (less
 * hidden categories', `bubbleCount`); undefined when the map has no such layers (DOM pins). The
 * pins' group is named with it before the keyboard's stand-ins are made.
 */
export function drawnPinCount(map: MapLibreMap): number | undefined {
  return drawnCounters.get(map)?.();
}

export function addPinLayers(map: MapLibreMap, { images, image, font, sourceLayer, expansionZoom, leaves, listBubble, onPin, pinOf, styleOf, clusterLabel, bubbleCount }: PinSymbolDrawing): () => void {
  const fromSource = sourceLayer === undefined ? { source: PIN_SOURCE } : { source: PIN_SOURCE, 'source-layer': sourceLayer };
  map.addLayer({
    id: PIN_LAYERS.clusters,
    type: 'symbol',
    ...fromSource,
    filter: ['has', 'point_count'],
    layout: {
      ...bubbleLayout(map, ['get', 'point_count'], ['get', 'point_count_abbreviated']),
      'text-font': font,
      'text-size': 12,
      'text-allow-overlap': true,
      'text-ignore-placement': true,
      // Bubbles never hide each other; the basemap's labels keep out from under them.
      'icon-allow-overlap': true,
      'icon-ignore-placement': false,
    },
    paint: { 'text-color': '#ffffff' },
  });
  map.addLayer({
    id: PIN_LAYERS.pins,
    type: 'symbol',
    ...fromSource,
    filter: ['!', ['has', 'point_count']],
    layout: {
      'icon-image': image,
      'icon-anchor': 'bottom',
      // Each image's own offset (an image with room for a shadow has its tip above its bottom).
      'icon-offset': ['match', image, ...images.flatMap((i) => [i.id, ['literal', i.offset]]), ['literal', [0, 0]]] as never,
      // Pins never hide each other, but labels placed after them (every basemap label: the
      // pins' layers are the top of the style) keep out from under them.
      'icon-allow-overlap': true,
      'icon-ignore-placement': false,
    },
  });

  /**
   * Zooms to where a bubble splits, on the copy of the world at `nearLng` (where it was clicked);
   * or lists its pins if that is beyond the map's maximum zoom. `trigger`: its keyboard stand-in.
   */
  const zoomInto = (feature: MapGeoJSONFeature, nearLng: number, trigger?: HTMLElement) => {
    const clusterId = feature.properties.cluster_id as number | undefined;
    if (clusterId === undefined || feature.geometry.type !== 'Point') return;
    const [lng, lat] = feature.geometry.coordinates as [number, number];
    // The bubble may be on another copy of the world than its coordinates say: ease to the
    // copy that was clicked, never across the 180° meridian to the other side of the globe.
    const center: [number, number] = [nearestCopy(lng, nearLng), lat];
    const { properties } = feature;
    expansionZoom(clusterId, properties).then(
      (zoom) => {
        if (!leaves || !listsPins(zoom, map.getMaxZoom())) return map.easeTo({ center, zoom });
        const count = bubbleCount?.(properties) ?? (properties.point_count as number);
        listBubble({ count, pins: () => leaves(clusterId, properties, [lng, lat]), trigger });
      },
      () => {},
    );
  };
  const onClusterClick = (event: MapLayerMouseEvent) => {
    const feature = event.features?.[0];
    if (feature) zoomInto(feature, event.lngLat.lng);
  };
  const onPinClick = (event: MapLayerMouseEvent) => {
    const feature = event.features?.[0];
    if (feature) onPin(feature);
  };
  const releaseKeyboard = keyboardStandIns(map, { layers: PIN_LAYERS, pinOf, styleOf, clusterLabel, onPin, zoomInto, ...(bubbleCount ? { bubbleCount } : {}) });
  drawnCounters.set(map, () => {
    if (!map.getLayer(PIN_LAYERS.pins)) return 0;
    // A tile also holds the features near its edges: each bubble and pin is counted once. As the
    // pins' group counts its items: those whose point (a pin's tip, a bubble's middle) is in view,
    // not those only partly drawn at its edges.
    const seen = new Set<string>();
    const { clientWidth: width, clientHeight: height } = map.getContainer();
    const centre = map.getCenter().lng;
    let count = 0;
    for (const feature of map.queryRenderedFeatures({ layers: [PIN_LAYERS.clusters, PIN_LAYERS.pins] })) {
      if (feature.geometry.type !== 'Point') continue;
      const [lng, lat] = feature.geometry.coordinates as [number, number];
      const at = map.project([lng + 360 * Math.round((centre - lng) / 360), lat]);
      if (at.x < 0 || at.x > width || at.y < 0 || at.y > height) continue;
      const { properties } = feature;
      const bubble = typeof properties.point_count === 'number';
      const key = bubble ? `bubble ${String(properties.cluster_id)}` : `pin ${String(properties.id ?? feature.id)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      count += bubble ? (bubbleCount?.(properties) ?? (properties.point_count as number)) : 1;
    }
    return count;
  });
  const pointer = () => (map.getCanvas().style.cursor = 'pointer');
  const noPointer = () => (map.getCanvas().style.cursor = '');
  map.on('click', PIN_LAYERS.clusters, onClusterClick);
  map.on('click', PIN_LAYERS.pins, onPinClick);
  for (const layer of [PIN_LAYERS.clusters, PIN_LAYERS.pins]) {
    map.on('mouseenter', layer, pointer);
    map.on('mouseleave', layer, noPointer);
  }
  return () => {
    releaseKeyboard();
    drawnCounters.delete(map);
    map.off('click', PIN_LAYERS.clusters, onClusterClick);
    map.off('click', PIN_LAYERS.pins, onPinClick);
    for (const layer of [PIN_LAYERS.clusters, PIN_LAYERS.pins]) {
      map.off('mouseenter', layer, pointer);
      map.off('mouseleave', layer, noPointer);
    }
    removePinLayers(map);
  };
}

/**
 * The bubbles' layout: their image by `count` (`clusterDiameter`'s steps) and the count on it
 * (`label`), both expressions of a bubble feature.
 */
export function bubbleLayout(map: MapLibreMap, count: ExpressionSpecification, label: ExpressionSpecification): { 'icon-image': ExpressionSpecification; 'text-field': ExpressionSpecification } {
  const pixelRatio = map.getPixelRatio();
  const bubble = (n: number) => ensureBubbleImage(map, clusterDiameter(n), pixelRatio);
  return {
    'icon-image': ['step', count, ...CLUSTER_STEPS.flatMap((n, i) => (i === 0 ? [bubble(n)] : [n, bubble(n)]))] as unknown as ExpressionSpecification,
    'text-field': label,
  };
}

/** Removes the GPU pins' layers and source, if the map still has them. */
export function removePinLayers(map: MapLibreMap): void {
  if (!map.style) return; // the map is being removed
  for (const layer of Object.values(PIN_LAYERS)) if (map.getLayer(layer)) map.removeLayer(layer);
  if (map.getSource(PIN_SOURCE)) map.removeSource(PIN_SOURCE);
}

/** Whether a GPU pin or bubble is drawn at `point` (a click there is theirs, not the map's). */
export function pinSymbolAt(map: MapLibreMap, point: PointLike): boolean {
  if (!map.getLayer(PIN_LAYERS.pins)) return false;
  return map.queryRenderedFeatures(point, { layers: [PIN_LAYERS.pins, PIN_LAYERS.clusters] }).length > 0;
}

/** The font the style already uses for labels, so cluster counts need no font of their own. */
export function clusterFont(map: MapLibreMap): string[] {
  const fonts: string[][] = [];
  for (const layer of map.getStyle().layers) {
    if (layer.type !== 'symbol') continue;
    const font = layer.layout?.['text-font'];
    if (Array.isArray(font) && font.every((f) => typeof f === 'string')) fonts.push(font as string[]);
  }
  return fonts.find((f) => f.some((name) => /bold/i.test(name))) ?? fonts[0] ?? ['Noto Sans Bold'];
}
