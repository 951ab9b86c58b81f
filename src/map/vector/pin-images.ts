import type { Map as MapLibreMap } from 'maplibre-gl';
import { reasonOf } from '../../config/errors.ts';
import type { PinStyle } from '../../pins/icon.ts';
import { bubbleDiameterOf, ensureBubbleImage, ensurePinImage, pinImagePlacement } from '../../pins/icon-image.ts';

/** A pin image as the GPU pin layers name it: its id, and the icon offset of its tip. */
export interface LayerImage {
  id: string;
  offset: [number, number];
}

/** The GPU pins' images on one map (see `createPinImages`). */
export interface PinImages {
  /**
   * The images of `styles` for the pin layers, known now (id and offset), and known to the
   * map's missing-image resolver, which draws each that a tile needs and is not on the map yet.
   */
  layerImages(styles: Iterable<PinStyle>, pixelRatio: number): LayerImage[];
}

/**
 * The resolver of the GPU pins' and bubbles' images on `map`. The pin layers name their images
 * before they are drawn (see `layerImages`), so a pin tile is asked for while the images are still
 * being drawn (or, for an archive, before they are); a tile that needs one first waits here for
 * its pixels. A pin image that cannot be drawn is one console error; its pins are left out and
 * every other pin and bubble is drawn.
 */
export function createPinImages(map: MapLibreMap): PinImages {
  /** The images named so far, by id. */
  const imageStyles = new Map<string, { style: PinStyle; pixelRatio: number }>();
  /** Pin images that could not be drawn, each told once. */
  const failedImages = new Set<string>();
  map.setMissingStyleImageResolver(async (id) => {
    // A style loaded afresh (a theme's style MapLibre could not diff) keeps the pin layers but not their images.
    const diameter = bubbleDiameterOf(id);
    if (diameter !== undefined) {
      ensureBubbleImage(map, diameter, map.getPixelRatio());
      return;
    }
    const wanted = imageStyles.get(id);
    if (!wanted) return;
    try {
      await ensurePinImage(map, wanted.style, wanted.pixelRatio);
    } catch (error) {
      if (!failedImages.has(id)) console.error(`Pinmap: the pin image "${id}" could not be drawn: ${reasonOf(error)}`);
      failedImages.add(id);
    }
  });
  return {
    layerImages(styles, pixelRatio) {
      return [...styles].map((style) => {
        const { id, iconOffset } = pinImagePlacement(style, pixelRatio);
        imageStyles.set(id, { style, pixelRatio });
        return { id, offset: iconOffset };
      });
    },
  };
}
