import { Marker, type Map as MapLibreMap, type MapGeoJSONFeature } from 'maplibre-gl';
import { nearestCopy } from '../../pins/filter.ts';
import type { Pin, PinArchive } from '../../pins/types.ts';
import { pinFromTile } from '../pin-archive.ts';
import { PinFan, domPinsNear, type FanOptions, type NearPin } from '../pin-fan-out.ts';
import { addToPinGroup } from './markers.ts';
import { PIN_LAYERS } from './pin-symbol-layers.ts';

/** What the vector view's fan needs beyond the shared fan's options. */
export interface VectorFanOptions extends FanOptions {
  /** The pin of a DOM pin's button, by its id. */
  pinOf: (id: string) => Pin | undefined;
  /** The pin archive shown, if any: its pin symbols are pins as their tiles give them. */
  archive: () => PinArchive | undefined;
}

/**
 * The fan of same-place pins (`pin-fan-out.ts`) on a MapLibre map: the pins near a spot are the
 * DOM pins there and the GPU pin symbols drawn there (inline or pre-tiled, which their keyboard
 * stand-ins stand for), and the fan is a marker at the spot.
 */
export function createVectorFan(map: MapLibreMap, options: VectorFanOptions): PinFan {
  const container = map.getContainer();
  const project = (lngLat: readonly [number, number]): [number, number] => {
    const point = map.project([nearestCopy(lngLat[0], map.getCenter().lng), lngLat[1]]);
    return [point.x, point.y];
  };
  /** The pin a GPU pin symbol stands for: one of the inline set, or a pre-tiled pin as its tile gives it. */
  const pinOfSymbol = (feature: MapGeoJSONFeature): Pin | undefined => {
    const known = options.pinOf(String(feature.properties.id));
    const archive = options.archive();
    if (known || !archive) return known;
    const pin = pinFromTile(feature.properties, feature.geometry.type === 'Point' ? (feature.geometry.coordinates as [number, number]) : [0, 0], archive);
    return typeof pin === 'string' ? undefined : pin;
  };
  /** Pins of the GPU layer near a point, where their symbols are (a tile's place of a pin is as precise as its tile). */
  const symbolsNear = ([x, y]: readonly [number, number], radius: number): NearPin[] => {
    if (!map.getLayer(PIN_LAYERS.pins)) return [];
    const near: NearPin[] = [];
    for (const feature of map.queryRenderedFeatures([[x - radius, y - radius], [x + radius, y + radius]], { layers: [PIN_LAYERS.pins] })) {
      if (feature.geometry.type !== 'Point') continue;
      const pin = pinOfSymbol(feature);
      if (pin) near.push({ id: pin.id, point: project(feature.geometry.coordinates as [number, number]), pin });
    }
    return near;
  };
  return new PinFan(
    {
      container,
      project,
      pinsNear: (point, radius) => [...domPinsNear(container, point, radius, options.pinOf, project), ...symbolsNear(point, radius)],
      place(element, lngLat) {
        // Straight into the pins' group: moved there later, its focused pin would lose the focus.
        const marker = addToPinGroup(new Marker({ element, anchor: 'center' }).setLngLat([nearestCopy(lngLat[0], map.getCenter().lng), lngLat[1]]), map);
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
