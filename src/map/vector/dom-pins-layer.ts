import type { Map as MapLibreMap, Marker } from 'maplibre-gl';
import type { PinsById } from '../../pins/data.ts';
import { PinClusters } from '../../pins/grouping/clusters.ts';
import { PinSlots } from '../../pins/grouping/pin-slots.ts';
import type { Pin } from '../../pins/types.ts';
import { clusterButton, orderForKeyboard, pinButton, setClusterCount, stackByLatitude } from '../dom-pins.ts';
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
export function createDomPins(map: MapLibreMap, { list: initialList, pins: initialPins, hidden, styleOf, clusterLabel, onPinClick, openPopup, listBubble, collision }: DomPinsInput): PinStrategy {
  // The grouping knows each pin by a slot that an update by id leaves as it is (`PinSlots`), so a
  // bubble whose pins stay keeps its key.
  const slots = new PinSlots(initialList);
  let pins = initialPins;
  let hiddenNow = hidden;
  /** Each pin's marker, made once and kept while the pin lives in the set (focus survives zooms and updates). */
  const markers = new Map<string, Marker>();
  let clusters: PinClusters;
  /** The markers shown, by group key, and the whole zoom they are of. */
  let shown = new Map<string, Marker>();
  let shownZoom = Number.NaN;
  /** Each bubble shown: its count and place, and its id in the grouping of the moment (a regrouping keeps the marker of the same key). */
  const bubbles = new WeakMap<Marker, { count: number; lng: number; lat: number; clusterId: number }>();

  function pinMarker(pin: Pin): Marker {
    const existing = markers.get(pin.id);
    if (existing) return existing;
    const id = pin.id;
    const element = pinButton(pin, styleOf(pin), (trigger, byKeyboard) => {
      onPinClick(id);
      // The pin as it is now: an update may have changed its text since the marker was made.
      openPopup(pins.get(id) ?? pin, trigger, byKeyboard);
    });
    const marker = stackedMarker(element, pin.lngLat, 'bottom');
    markers.set(pin.id, marker);
    return marker;
  }

  /**
   * A cluster bubble as a marker; activating it zooms to where it splits, or lists its pins
   * (`leaves`) if that is beyond the map's maximum zoom (`listsPins`). It asks the grouping of
   * the moment, with the bubble's id and count in it (a bubble kept through a regrouping is the
   * bubble of the same key: `render`).
   */
  function clusterMarker(count: number, lngLat: [number, number], clusterId: number): Marker {
    const marker: Marker = stackedMarker(
      clusterButton(count, clusterLabel, () => {
        const now = bubbles.get(marker)!;
        const zoom = clusters.expansionZoom(now.clusterId);
        if (listsPins(zoom, map.getMaxZoom())) return listBubble({ count: now.count, pins: () => Promise.resolve(clusters.leaves(now.clusterId)), trigger: marker.getElement() });
        // The marker is drawn on the world copy nearest the view; zoom there, not across the meridian.
        const at = marker.getLngLat();
        map.easeTo({ center: [at.lng, at.lat], zoom });
      }),
      lngLat,
      'center',
    );
    bubbles.set(marker, { count, lng: lngLat[0], lat: lngLat[1], clusterId });
    return marker;
  }

  /** Groups the set's pins but those of the hidden categories afresh; `render` shows them. */
  function group() {
    clusters = new PinClusters(slots.pins, slots.visible(hiddenNow));
    shownZoom = Number.NaN;
  }

  /** Shows the groups of the whole zoom, keeping every marker shown that is still one of them. */
  const render = () => {
    const zoom = Math.max(0, Math.floor(map.getZoom()));
    if (zoom === shownZoom) return;
    shownZoom = zoom;
    const next = new Map<string, Marker>();
    const groups = clusters.groupsAt(zoom);
    for (const group of groups) {
      if (group.kind === 'cluster') {
        const kept = shown.get(group.key);
        const was = kept && bubbles.get(kept);
        if (!kept || !was) {
          next.set(group.key, clusterMarker(group.count, group.lngLat, group.clusterId));
          continue;
        }
        // The same bubble (its key), grouped again: it tells its place and count in place, focus and all.
        const [lng, lat] = group.lngLat;
        if (was.lng !== lng || was.lat !== lat) {
          kept.setLngLat(group.lngLat);
          stackByLatitude(kept.getElement(), lat);
        }
        setClusterCount(kept.getElement(), group.count, clusterLabel);
        bubbles.set(kept, { count: group.count, lng, lat, clusterId: group.clusterId });
        next.set(group.key, kept);
      } else {
        const pin = pins.get(group.id);
        if (pin) next.set(group.key, pinMarker(pin));
      }
    }
    for (const [key, marker] of shown) if (next.get(key) !== marker) marker.remove();
    for (const [key, marker] of next) if (shown.get(key) !== marker) addToPinGroup(marker, map);
    shown = next;
    orderForKeyboard(orderedMarkers(shown.values()), zoom);
    collision.set(collisionBoxes(groups, pins, styleOf));
  };

  function teardown() {
    for (const marker of shown.values()) marker.remove();
    shown = new Map();
    collision.set([]);
  }

  group();
  render();
  map.on('zoom', render);
  return {
    mode: 'dom',
    placed: Promise.resolve(),
    setHidden(next) {
      hiddenNow = next;
      teardown();
      group();
      render();
    },
    update({ list, pins: byId, diff }) {
      slots.update(list);
      pins = byId;
      // Pins that left, or look otherwise now, lose their marker (a new one is made for the latter).
      for (const id of [...diff.removed, ...diff.redrawn]) {
        markers.get(id)?.remove();
        markers.delete(id);
      }
      group();
      render();
    },
    moveMarker(id, lngLat) {
      const marker = markers.get(id);
      if (!marker) return;
      marker.setLngLat(lngLat);
      stackByLatitude(marker.getElement(), lngLat[1]);
    },
    revealZoom: (id) => clusters.revealZoom(id, map.getZoom()),
    pinElement: (id) => markers.get(id)?.getElement(),
    destroy() {
      map.off('zoom', render);
      teardown();
    },
  };
}
