import L from 'leaflet';
import { nearestCopy } from '../../pins/filter.ts';
import type { Pin } from '../../pins/types.ts';
import { PinFan, domPinsNear, type FanOptions } from '../pin-fan-out.ts';

/** What the hybrid view's fan needs beyond the shared fan's options. */
export interface HybridFanOptions extends FanOptions {
  /** The pin of a marker's button, by its id (inline, or pre-tiled as its tile gives it). */
  pinOf: (id: string) => Pin | undefined;
}

/**
 * The fan of same-place pins (`pin-fan-out.ts`) on a Leaflet map: every pin is a DOM marker, so
 * the pins near a spot are the markers there, and the fan is a marker at the spot.
 */
export function createHybridFan(map: L.Map, options: HybridFanOptions): PinFan {
  const container = map.getContainer();
  const project = (lngLat: readonly [number, number]): [number, number] => {
    const point = map.latLngToContainerPoint([lngLat[1], nearestCopy(lngLat[0], map.getCenter().lng)]);
    return [point.x, point.y];
  };
  return new PinFan(
    {
      container,
      project,
      pinsNear: (point, radius) => domPinsNear(container, point, radius, options.pinOf, project),
      place(element, lngLat) {
        const icon = L.divIcon({ className: 'pinmap-fan-marker', iconSize: [0, 0], html: element });
        const marker = L.marker([lngLat[1], nearestCopy(lngLat[0], map.getCenter().lng)], { icon, keyboard: false, interactive: false }).addTo(map);
        return () => marker.remove();
      },
      onZoomStart(fold) {
        map.on('zoomstart', fold);
        return () => map.off('zoomstart', fold);
      },
    },
    options,
  );
}
