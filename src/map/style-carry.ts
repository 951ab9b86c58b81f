import type { StyleSpecification } from 'maplibre-gl';

/** Whether a style layer or source is one Pinmap added (pins, bubbles, label collision), not the basemap's. */
export const isPinmapPart = (id: string) => id.startsWith('pinmap-');

/**
 * The next style with what Pinmap added to the map carried over from the previous one (its
 * sources and layers, kept on top), so a new basemap look keeps the pins.
 */
export function carryPinmapParts(previous: StyleSpecification | undefined, next: StyleSpecification): StyleSpecification {
  if (!previous) return next;
  const sources = { ...next.sources };
  for (const [id, source] of Object.entries(previous.sources)) if (isPinmapPart(id) && !(id in sources)) sources[id] = source;
  const taken = new Set(next.layers.map((layer) => layer.id));
  const layers = [...next.layers, ...previous.layers.filter((layer) => isPinmapPart(layer.id) && !taken.has(layer.id))];
  return { ...next, sources, layers };
}
