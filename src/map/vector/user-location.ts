import { Marker, type Map as MapLibreMap } from 'maplibre-gl';
import type { UserLocation } from '../adapter.ts';
import { accuracyCircleDiameter, distanceBetween } from '../scale.ts';

/**
 * The user's dot and accuracy circle as two MapLibre markers (elements styled by Pinmap's
 * style sheet). The circle's diameter is 2·accuracy over the metres a pixel covers at the dot,
 * measured over 100 px as the map is drawn, and follows every zoom.
 */
export function createUserLocationMarkers(map: MapLibreMap) {
  let current: UserLocation | undefined;
  let dot: Marker | undefined;
  let circle: Marker | undefined;

  const resizeCircle = () => {
    if (!current || !circle) return;
    const at = map.project(current.lngLat);
    const a = map.unproject(at);
    const b = map.unproject([at.x + 100, at.y]);
    const metresPerPixel = distanceBetween([a.lng, a.lat], [b.lng, b.lat]) / 100;
    if (!(metresPerPixel > 0)) return;
    const diameter = `${accuracyCircleDiameter(current.accuracy, metresPerPixel)}px`;
    const element = circle.getElement();
    element.style.width = diameter;
    element.style.height = diameter;
  };

  const remove = () => {
    dot?.remove();
    circle?.remove();
    dot = circle = undefined;
    map.off('zoom', resizeCircle);
  };

  return {
    set(location: UserLocation | undefined) {
      current = location;
      if (!location) return remove();
      if (!dot || !circle) {
        const circleElement = document.createElement('div');
        circleElement.className = 'pinmap-user-accuracy';
        const dotElement = document.createElement('div');
        dotElement.className = 'pinmap-user-dot';
        circle = new Marker({ element: circleElement, pitchAlignment: 'map' }).setLngLat(location.lngLat).addTo(map);
        dot = new Marker({ element: dotElement }).setLngLat(location.lngLat).addTo(map);
        map.on('zoom', resizeCircle);
      }
      dot.setLngLat(location.lngLat);
      circle.setLngLat(location.lngLat);
      dot.getElement().classList.toggle('pinmap-user-dot-stale', location.stale);
      circle.getElement().classList.toggle('pinmap-user-accuracy-stale', location.stale);
      resizeCircle();
    },
  };
}
