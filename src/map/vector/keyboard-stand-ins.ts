import type { Map as MapLibreMap, MapGeoJSONFeature, Marker } from 'maplibre-gl';
import type { PinStyle } from '../../pins/icon.ts';
import type { Pin } from '../../pins/types.ts';
import { clusterButton, orderForKeyboard, pinButton, setClusterCount } from '../dom-pins.ts';
import { addToPinGroup, orderedMarkers, stackedMarker } from './markers.ts';

/** What the keyboard stand-ins of GPU pins and bubbles need to know of the layers they stand in for. */
export interface StandInOptions {
  /** The symbol layers drawn: the bubbles' (a feature with a `point_count`) and the pins'. */
  layers: { clusters: string; pins: string };
  /** The pin a pin feature stands for; undefined for a feature that is no pin (it gets no stand-in). */
  pinOf: (feature: MapGeoJSONFeature) => Pin | undefined;
  /** How a pin is drawn: its stand-in is the same pin button as a DOM pin. */
  styleOf: (pin: Pin) => PinStyle;
  /** A bubble's accessible name; `{count}` stands for its number of pins. */
  clusterLabel: string;
  /** Enter, Space or a click on a pin's stand-in (`trigger`, which focus goes back to). */
  onPin: (feature: MapGeoJSONFeature, trigger: HTMLElement, byKeyboard: boolean) => void;
  /** Enter, Space or a click on a bubble's stand-in (`trigger`): zoom to where it splits, on the world copy at `nearLng`. */
  zoomInto: (feature: MapGeoJSONFeature, nearLng: number, trigger: HTMLElement) => void;
  /** How many of a bubble's pins show (pre-tiled pins with categories hidden); its `point_count` if not given. */
  bubbleCount?: (properties: Record<string, unknown>) => number;
}

/**
 * Keyboard access to the GPU pins and bubbles, which are drawn in WebGL and so cannot take the
 * focus. Once the keyboard reaches the map (its canvas is focused from the keyboard), each pin
 * and bubble drawn in view gets a stand-in: the same DOM pin or bubble button the DOM markers
 * are (`pinButton`, `clusterButton`), at the same place, shown only while it has the keyboard's
 * focus (`.pinmap-standin`), in the pins' group and in reading order (`orderForKeyboard`), and
 * Enter, Space or a click does what a click on the symbol does: a pin opens its popup (and focus
 * comes back to it when the popup closes), a bubble zooms to where it splits. They follow what
 * the map draws each time it is idle; a stand-in whose symbol is still drawn is kept, focus and
 * all. Returns what removes them.
 */
export function keyboardStandIns(map: MapLibreMap, { layers, pinOf, styleOf, clusterLabel, onPin, zoomInto, bubbleCount }: StandInOptions): () => void {
  const canvas = map.getCanvas();
  let active = false;
  /** Each stand-in shown, by what it stands for, with the feature it was last told of. */
  let shown = new Map<string, { marker: Marker; feature: MapGeoJSONFeature }>();
  const refresh = () => {
    if (!active || !map.getLayer(layers.pins)) return;
    const next = new Map<string, { marker: Marker; feature: MapGeoJSONFeature }>();
    for (const feature of map.queryRenderedFeatures({ layers: [layers.clusters, layers.pins] })) {
      if (feature.geometry.type !== 'Point') continue;
      const lngLat = feature.geometry.coordinates as [number, number];
      const count = typeof feature.properties.point_count === 'number' ? (bubbleCount?.(feature.properties) ?? feature.properties.point_count) : undefined;
      const pin = typeof count === 'number' ? undefined : pinOf(feature);
      if (typeof count !== 'number' && !pin) continue;
      // A bubble is known by its key where it has one (inline pins: the same while its pins are,
      // whatever else was grouped afresh), else by its place, count and id.
      const bubbleKey = feature.properties.bubble_key;
      const key = pin ? `pin ${pin.id}` : typeof bubbleKey === 'number' ? `bubble ${bubbleKey}` : `bubble ${lngLat.join(' ')} ${String(count)} ${String(feature.properties.cluster_id)}`;
      if (next.has(key)) continue;
      let entry = shown.get(key);
      if (!entry) {
        const element = pin
          ? pinButton(pin, styleOf(pin), (trigger, byKeyboard) => onPin(made.feature, trigger, byKeyboard))
          : clusterButton(count as number, clusterLabel, () => zoomInto(made.feature, made.marker.getLngLat().lng, made.marker.getElement()));
        element.classList.add('pinmap-standin');
        const made = { marker: addToPinGroup(stackedMarker(element, lngLat, pin ? 'bottom' : 'center'), map), feature };
        entry = made;
      } else {
        // A pin that moved, or a bubble that took or lost pins (an update), is drawn anew where it
        // is now: its stand-in, focus and all, follows, and a bubble's tells its new count.
        entry.feature = feature;
        entry.marker.setLngLat(lngLat);
        if (!pin) setClusterCount(entry.marker.getElement(), count as number, clusterLabel);
      }
      next.set(key, entry);
    }
    for (const [key, { marker }] of shown) if (!next.has(key)) marker.remove();
    shown = next;
    orderForKeyboard(orderedMarkers(Array.from(next.values(), (entry) => entry.marker)), Math.floor(map.getZoom()));
  };
  const onFocus = () => {
    if (active || !canvas.matches(':focus-visible')) return;
    active = true;
    refresh();
  };
  canvas.addEventListener('focus', onFocus);
  map.on('idle', refresh);
  return () => {
    canvas.removeEventListener('focus', onFocus);
    map.off('idle', refresh);
    for (const { marker } of shown.values()) marker.remove();
    shown = new Map();
  };
}
