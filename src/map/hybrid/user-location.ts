import L from 'leaflet';
import type { UserLocation } from '../adapter.ts';

/**
 * The user's position as Leaflet layers: the dot (a marker with Pinmap's dot element) and the
 * accuracy circle (a circle of the accuracy's radius in metres, which Leaflet scales with zoom),
 * the circle drawn in `pane`.
 */
export function createUserLocationLayers(map: L.Map, pane: string) {
  let dot: L.Marker | undefined;
  let circle: L.Circle | undefined;
  const renderer = L.svg({ pane });
  return {
    set(location: UserLocation | undefined) {
      if (!location) {
        dot?.remove();
        circle?.remove();
        dot = circle = undefined;
        return;
      }
      const at = L.latLng(location.lngLat[1], location.lngLat[0]);
      const colour = location.stale ? '#787878' : '#1a7fd1';
      if (!dot || !circle) {
        circle = L.circle(at, { radius: location.accuracy, renderer, interactive: false, className: 'pinmap-user-accuracy', weight: 2, opacity: 0.5, fillOpacity: 0.15 });
        dot = L.marker(at, { icon: L.divIcon({ className: 'pinmap-user-dot', iconSize: [15, 15] }), interactive: false, keyboard: false });
        circle.addTo(map);
        dot.addTo(map);
      }
      circle.setLatLng(at).setRadius(location.accuracy).setStyle({ color: colour, fillColor: colour });
      dot.setLatLng(at);
      dot.getElement()?.classList.toggle('pinmap-user-dot-stale', location.stale);
      circle.getElement()?.classList.toggle('pinmap-user-accuracy-stale', location.stale);
    },
  };
}
