import type { Pin } from '../pins/types.ts';
import type { PinmapPin } from './pinmap-api.ts';

/** A pin as `renderPopup` is given it: its own fields, and the properties the config had it keep, as text. */
export function pinmapPinOf(pin: Pin): PinmapPin {
  const properties: Record<string, string> = { ...pin.fields };
  for (const [name, text] of pin.popupFields ?? []) properties[name] = text;
  return {
    id: pin.id,
    title: pin.title,
    description: pin.description,
    ...(pin.url === undefined ? {} : { url: pin.url }),
    ...(pin.category === undefined ? {} : { category: pin.category }),
    coordinates: [pin.lngLat[0], pin.lngLat[1]],
    properties,
  };
}
