import { Marker, type PositionAnchor } from 'maplibre-gl';
import { stackByLatitude, type OrderedMarker } from '../dom-pins.ts';

/**
 * A MapLibre marker of a DOM pin or bubble (`pinButton`, `clusterButton`) at `lngLat`, stacked
 * by latitude as both views stack them (`stackByLatitude`); not on a map yet.
 */
export function stackedMarker(element: HTMLElement, lngLat: [number, number], anchor: PositionAnchor): Marker {
  stackByLatitude(element, lngLat[1]);
  return new Marker({ element, anchor }).setLngLat(lngLat);
}

/** MapLibre markers as `orderForKeyboard` and `tabbableAround` take them: each element and where it stands now. */
export function orderedMarkers(markers: Iterable<Marker>): OrderedMarker[] {
  return Array.from(markers, (marker) => ({ element: marker.getElement(), lngLat: marker.getLngLat().toArray() }));
}
