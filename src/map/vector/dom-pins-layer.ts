import type { Map as MapLibreMap, Marker } from 'maplibre-gl';
import type { PinsById } from '../../pins/data.ts';
import { isShown } from '../../pins/filter.ts';
import { PinClusters } from '../../pins/grouping/clusters.ts';
import type { Pin } from '../../pins/types.ts';
import { clusterButton, orderForKeyboard, pinButton } from '../dom-pins.ts';
import { collisionBoxes, type LabelCollision } from '../label-collision.ts';
import { listsPins } from '../pin-layer.ts';
import { addToPinGroup, orderedMarkers, stackedMarker } from './markers.ts';
import type { PinStrategy, PinStrategyInput } from './pin-strategy.ts';

/** What DOM markers draw: a small inline set. */
export interface DomPinsInput extends PinStrategyInput {
  /** The set's pins, in its order, and by id. */
  list: Pin[];
  pins: PinsById;
  /** The basemap's labels keep out from under the pins and bubbles shown (see label-collision.ts). */
  collision: LabelCollision;
}

/**
 * DOM pins, clustered: each pin is a MapLibre `Marker` whose element is the pin icon, a real
 * button with the pin's title as its name. At each whole zoom the set is grouped, and each group
 * of nearby pins is one bubble button with its count; only whole-zoom changes regroup, so panning
 * touches no DOM. They are in reading order in the pins' group (`addToPinGroup`).
 */
export function createDomPins(map: MapLibreMap, { list: all, pins, hidden, styleOf, clusterLabel, onPinClick, openPopup, listBubble, collision }: DomPinsInput): PinStrategy {
  /** Each pin's marker, made once and kept while the pin set lives (focus survives zooms). */
  const markers = new Map<string, Marker>();
  let clusters: PinClusters;
  let teardown = () => {};

  function pinMarker(pin: Pin): Marker {
    const existing = markers.get(pin.id);
    if (existing) return existing;
    const element = pinButton(pin, styleOf(pin), (trigger, byKeyboard) => {
      onPinClick(pin.id);
      openPopup(pin, trigger, byKeyboard);
    });
    const marker = stackedMarker(element, pin.lngLat, 'bottom');
    markers.set(pin.id, marker);
    return marker;
  }

  /**
   * A cluster bubble as a marker; activating it zooms to where it splits, or lists its pins
   * (`leaves`) if that is beyond the map's maximum zoom (`listsPins`).
   */
  function clusterMarker(count: number, lngLat: [number, number], expansionZoom: () => number, leaves: () => Pin[]): Marker {
    const marker: Marker = stackedMarker(
      clusterButton(count, clusterLabel, () => {
        const zoom = expansionZoom();
        if (listsPins(zoom, map.getMaxZoom())) return listBubble({ count, pins: () => Promise.resolve(leaves()), trigger: marker.getElement() });
        // The marker is drawn on the world copy nearest the view; zoom there, not across the meridian.
        const at = marker.getLngLat();
        map.easeTo({ center: [at.lng, at.lat], zoom });
      }),
      lngLat,
      'center',
    );
    return marker;
  }

  /** Shows the set's pins but those of `hiddenNow`'s categories, grouped afresh. */
  function show(hiddenNow: ReadonlySet<string>) {
    const list = hiddenNow.size === 0 ? all : all.filter((pin) => isShown(pin, hiddenNow));
    const grouping = new PinClusters(list);
    clusters = grouping;
    let shownZoom = Number.NaN;
    let shown = new Map<string, Marker>();
    const render = () => {
      const zoom = Math.max(0, Math.floor(map.getZoom()));
      if (zoom === shownZoom) return;
      shownZoom = zoom;
      const next = new Map<string, Marker>();
      const groups = grouping.groupsAt(zoom);
      for (const group of groups) {
        if (group.kind === 'cluster') {
          next.set(group.key, shown.get(group.key) ?? clusterMarker(
              group.count,
              group.lngLat,
              () => grouping.expansionZoom(group.clusterId),
              () => grouping.leaves(group.clusterId),
            ));
        } else {
          const pin = pins.get(group.id);
          if (pin) next.set(group.key, pinMarker(pin));
        }
      }
      for (const [key, marker] of shown) if (!next.has(key)) marker.remove();
      for (const [key, marker] of next) if (!shown.has(key)) addToPinGroup(marker, map);
      shown = next;
      orderForKeyboard(orderedMarkers(shown.values()), zoom);
      collision.set(collisionBoxes(groups, pins, styleOf));
    };
    render();
    map.on('zoom', render);
    teardown = () => {
      map.off('zoom', render);
      for (const marker of shown.values()) marker.remove();
      collision.set([]);
    };
  }

  show(hidden);
  return {
    mode: 'dom',
    placed: Promise.resolve(),
    setHidden(next) {
      teardown();
      show(next);
    },
    revealZoom: (id) => clusters.revealZoom(id, map.getZoom()),
    pinElement: (id) => markers.get(id)?.getElement(),
    destroy: () => teardown(),
  };
}
