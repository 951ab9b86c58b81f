import { Marker, type Map as MapLibreMap, type PositionAnchor } from 'maplibre-gl';
import { stackByLatitude, type OrderedMarker } from '../dom-pins.ts';

/**
 * A MapLibre marker of a DOM pin or bubble (`pinButton`, `clusterButton`) at `lngLat`, stacked
 * by latitude as both views stack them (`stackByLatitude`); not on a map yet.
 */
export function stackedMarker(element: HTMLElement, lngLat: [number, number], anchor: PositionAnchor): Marker {
  stackByLatitude(element, lngLat[1]);
  return new Marker({ element, anchor }).setLngLat(lngLat);
}

/** MapLibre markers as `orderForKeyboard` takes them: each element and where it stands now. */
export function orderedMarkers(markers: Iterable<Marker>): OrderedMarker[] {
  return Array.from(markers, (marker) => ({ element: marker.getElement(), lngLat: marker.getLngLat().toArray() }));
}

/** The pins' group of a MapLibre map: the element of its canvas container that holds the pins' markers (see `pin-group.ts`). */
const PIN_GROUP_CLASS = 'pinmap-pin-group';

/**
 * The element the pins' and bubbles' markers of a MapLibre map go into (`addToPinGroup`), made
 * on first use after the canvas (so the Tab order is the map, then its pins).
 */
export function pinGroupElement(map: MapLibreMap): HTMLElement {
  const parent = map.getCanvasContainer();
  const existing = parent.querySelector<HTMLElement>(`:scope > .${PIN_GROUP_CLASS}`);
  if (existing) return existing;
  const element = document.createElement('div');
  element.className = PIN_GROUP_CLASS;
  parent.append(element);
  return element;
}

/** Adds a DOM pin's or bubble's marker to the map, in the pins' group (`pinGroupElement`). */
export function addToPinGroup(marker: Marker, map: MapLibreMap): Marker {
  marker.addTo(map);
  pinGroupElement(map).append(marker.getElement());
  return marker;
}

/**
 * Moves any pin or bubble marker added to the map's canvas container some other way (a plain
 * `Marker.addTo`) into the pins' group, so every pin button on the map is one of its items.
 * Returns what stops it.
 */
export function gatherPinMarkers(map: MapLibreMap): () => void {
  const parent = map.getCanvasContainer();
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        // Only one still where MapLibre put it (`addToPinGroup` has moved its own already: moved
        // again, a marker focused meanwhile would lose the focus).
        if (node instanceof HTMLElement && node.parentNode === parent && node.classList.contains('maplibregl-marker') && (node.matches(PIN_BUTTONS) || node.querySelector(PIN_BUTTONS))) pinGroupElement(map).append(node);
      }
    }
  });
  observer.observe(parent, { childList: true });
  return () => observer.disconnect();
}

/** The pin and bubble buttons. */
const PIN_BUTTONS = '.pinmap-pin, .pinmap-cluster';
