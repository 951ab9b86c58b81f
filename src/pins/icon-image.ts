import { pinDrawing, pinStyleKey, resolveGlyph, type PinStyle } from './icon.ts';

/**
 * The GL symbol image of a pin, for large pin sets: the same SVG as the DOM pin, rasterised at
 * the device pixel ratio, with its glyph or label drawn on top in the same face, size, colour and
 * place. One image per distinct style; a symbol layer places it with `icon-anchor: 'bottom'` and
 * the image's `iconOffset`, so the tip sits on the coordinate.
 */

/** Pixels in the layout MapLibre's `addImage` takes. */
export interface PinImageData {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** A rasterised pin and how to place it. */
export interface PinImage {
  /** The image id: `pinStyleKey(style)`, shared by every pin of this style. */
  id: string;
  /** Device pixels; pass with `{ pixelRatio }` to `addImage`. */
  data: PinImageData;
  pixelRatio: number;
  /**
   * `icon-offset` in px for `icon-anchor: 'bottom'`: the image has room below the tip (outline,
   * shadow), so it is moved down by that much. Horizontally the image is centred on the tip.
   */
  iconOffset: [number, number];
}

/** The little of a MapLibre map that adding pin images needs. */
export interface PinImageTarget {
  hasImage(id: string): boolean;
  addImage(id: string, image: PinImageData, options: { pixelRatio: number }): unknown;
}

/** Loads SVG markup as an image. Data URLs keep the canvas readable (no taint). */
function loadSvg(svg: string, doc: Document): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new (doc.defaultView ?? window).Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('Pinmap: the pin SVG could not be drawn'));
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  });
}

/**
 * Draws a pin into pixels at `pixelRatio`. The canvas is an even number of device pixels wide,
 * centred on the tip, and tall enough for the SVG's margin below it; `iconOffset` says how far
 * below the tip the image's bottom edge is.
 */
export async function rasterisePin(style: PinStyle, pixelRatio: number, doc: Document = document): Promise<PinImage> {
  const { ratio, drawing, width, height, left, top, iconOffset } = imageLayout(style, pixelRatio);
  const m = drawing.margin;

  const canvas = doc.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  // Read back once, at once: a canvas kept in memory draws and reads a small image faster than
  // one on the GPU (which must finish its work first).
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('Pinmap: no 2D canvas to draw pin images');

  const content = drawing.content;
  // The glyph's font is asked for while the SVG decodes.
  const glyphFound = content?.kind === 'glyph' ? resolveGlyph(content.classes, doc) : Promise.resolve(null);
  glyphFound.catch(() => {});
  const svgImage = await loadSvg(drawing.svg, doc);
  context.drawImage(svgImage, left - m * ratio, top - m * ratio, (drawing.width + 2 * m) * ratio, (drawing.height + 2 * m) * ratio);

  let text = '';
  let font = '';
  if (content?.kind === 'glyph') {
    const glyph = await glyphFound;
    if (glyph) {
      text = glyph.text;
      font = `${glyph.fontStyle} ${glyph.fontWeight} ${content.size * ratio}px ${glyph.fontFamily}`;
    }
  } else if (content?.kind === 'label') {
    text = content.text;
    font = `normal ${content.fontWeight} ${content.size * ratio}px ${content.fontFamily}`;
    try {
      await doc.fonts.load(font, text);
    } catch {
      // Drawn in the fallback face.
    }
  }
  if (content && text !== '') {
    context.font = font;
    context.fillStyle = content.color;
    context.textAlign = 'center';
    context.textBaseline = 'alphabetic';
    // The DOM draws the text in a line box one font-size high, centred on (x, y); its baseline
    // then sits (ascent - descent) / 2 below the centre. Do the same here.
    const metrics = context.measureText(text);
    const baseline = (metrics.fontBoundingBoxAscent - metrics.fontBoundingBoxDescent) / 2;
    context.fillText(text, left + content.x * ratio, top + content.y * ratio + baseline);
  }

  const pixels = context.getImageData(0, 0, width, height);
  return {
    id: pinStyleKey(style),
    data: { width: pixels.width, height: pixels.height, data: pixels.data },
    pixelRatio: ratio,
    iconOffset,
  };
}

/** Where a pin's image puts the pin, in device pixels, and its `iconOffset` (see `rasterisePin`). */
function imageLayout(style: PinStyle, pixelRatio: number) {
  const ratio = pixelRatio > 0 && Number.isFinite(pixelRatio) ? pixelRatio : 1;
  const drawing = pinDrawing(style);
  const [tipX, tipY] = drawing.tip;
  const m = drawing.margin;
  const width = 2 * Math.ceil((tipX + m) * ratio);
  const height = Math.ceil((drawing.height + 2 * m) * ratio);
  const top = m * ratio;
  const iconOffset: [number, number] = [0, (height - top - tipY * ratio) / ratio];
  return { ratio, drawing, width, height, left: width / 2 - tipX * ratio, top, iconOffset };
}

/**
 * A pin image's id and `iconOffset`, known before it is drawn: a symbol layer can name the image
 * at once, and the map asks for its pixels when a tile first needs them (`pinImageResolver`).
 */
export function pinImagePlacement(style: PinStyle, pixelRatio: number): Pick<PinImage, 'id' | 'iconOffset'> {
  return { id: pinStyleKey(style), iconOffset: imageLayout(style, pixelRatio).iconOffset };
}

/** Images being drawn, per map and id, so a style asked for twice is drawn once. */
const pending = new WeakMap<PinImageTarget, Map<string, Promise<PinImage>>>();

/**
 * Draws the image of `style` for `target` (a MapLibre map), once per map, style and pixel ratio:
 * it can start before the map's style has loaded, so the pixels are ready when it has.
 */
export function drawPinImage(target: PinImageTarget, style: PinStyle, pixelRatio: number, doc: Document = document): Promise<PinImage> {
  const key = `${pinStyleKey(style)}@${pixelRatio}`;
  let drawing = pending.get(target);
  if (!drawing) {
    drawing = new Map();
    pending.set(target, drawing);
  }
  let image = drawing.get(key);
  if (!image) {
    image = rasterisePin(style, pixelRatio, doc);
    drawing.set(key, image);
    image.catch(() => drawing.delete(key));
  }
  return image;
}

/**
 * Makes sure `target` (a MapLibre map) has the image of `style` and returns it: drawn and added
 * on first use, then shared by every pin of that style. Returns the id and the icon offset to
 * put in the symbol layer.
 */
export async function ensurePinImage(
  target: PinImageTarget,
  style: PinStyle,
  pixelRatio: number,
  doc: Document = document,
): Promise<Pick<PinImage, 'id' | 'iconOffset' | 'pixelRatio'>> {
  const id = pinStyleKey(style);
  const drawn = await drawPinImage(target, style, pixelRatio, doc);
  if (!target.hasImage(id)) target.addImage(id, drawn.data, { pixelRatio: drawn.pixelRatio });
  return { id: drawn.id, iconOffset: drawn.iconOffset, pixelRatio: drawn.pixelRatio };
}

/** The GPU bubbles' look, as the DOM bubble's (`.pinmap-cluster` in pinmap.css): white ring, count in white. */
const BUBBLE = { fill: [63, 177, 206], fillOpacity: 0.9, ring: [255, 255, 255], ringWidth: 2 } as const;
const BUBBLE_PREFIX = 'pinmap-bubble-';

/**
 * The id of the image of a bubble of `diameter` CSS px (inside its ring). The bubbles are icons
 * of the pins' symbol layers, not a circle layer: one shader program fewer to build before the
 * first pins are drawn (in software WebGL each costs the main thread tens to hundreds of ms).
 */
export const bubbleImageId = (diameter: number): string => `${BUBBLE_PREFIX}${diameter}`;

/** The diameter a bubble image's id names, or undefined when the id is not a bubble's. */
export function bubbleDiameterOf(id: string): number | undefined {
  if (!id.startsWith(BUBBLE_PREFIX)) return undefined;
  const diameter = Number(id.slice(BUBBLE_PREFIX.length));
  return Number.isInteger(diameter) && diameter > 0 && diameter <= 256 ? diameter : undefined;
}

/**
 * Draws a bubble: a disc of `diameter` CSS px filled at 90% opacity, in a white ring 2 px wide
 * outside it, at `pixelRatio`, its edges smoothed by each pixel's coverage. The image is the
 * ring's outer size, so as an icon it also keeps the basemap's labels from under the whole
 * bubble. Computed here rather than on a canvas: a page's first 2D canvas costs tens of ms to
 * start, which a map whose pins are all in bubbles need not pay.
 */
export function rasteriseBubble(diameter: number, pixelRatio: number): { data: PinImageData; pixelRatio: number } {
  const ratio = pixelRatio > 0 && Number.isFinite(pixelRatio) ? pixelRatio : 1;
  const size = Math.round((diameter + 2 * BUBBLE.ringWidth) * ratio);
  const inner = (diameter / 2) * ratio;
  const outer = (diameter / 2 + BUBBLE.ringWidth) * ratio;
  const centre = size / 2;
  const data = new Uint8ClampedArray(size * size * 4);
  const coverage = (radius: number, distance: number) => Math.min(1, Math.max(0, radius - distance + 0.5));
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const distance = Math.hypot(x + 0.5 - centre, y + 0.5 - centre);
      const inside = coverage(inner, distance);
      const disc = inside * BUBBLE.fillOpacity;
      const ring = coverage(outer, distance) - inside;
      const alpha = disc + ring;
      if (alpha <= 0) continue;
      const at = (y * size + x) * 4;
      // Straight (not premultiplied) colour, as a canvas's pixels are.
      for (let channel = 0; channel < 3; channel++) data[at + channel] = (BUBBLE.fill[channel]! * disc + BUBBLE.ring[channel]! * ring) / alpha;
      data[at + 3] = alpha * 255;
    }
  }
  return { data: { width: size, height: size, data }, pixelRatio: ratio };
}

/** Adds (once) the image of a bubble of `diameter` CSS px to `target` and returns its id. */
export function ensureBubbleImage(target: PinImageTarget, diameter: number, pixelRatio: number): string {
  const id = bubbleImageId(diameter);
  if (!target.hasImage(id)) {
    const drawn = rasteriseBubble(diameter, pixelRatio);
    target.addImage(id, drawn.data, { pixelRatio: drawn.pixelRatio });
  }
  return id;
}
