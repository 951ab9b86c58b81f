import type { Pin } from './types.ts';
import { isSvgPathData, type PinOptions } from '../config/pin-options.ts';

/**
 * The pin icon (PRODUCT.md, "Pin icon"): one pure function, `pinDrawing`, turns a pin's style
 * into its SVG and the placement of its glyph or label; the DOM marker (`createPinElement`), the
 * Leaflet icon (map/hybrid/leaflet-pin-icon.ts) and the GL symbol image (icon-image.ts) are all drawn from
 * it, so a pin looks the same in each.
 *
 * Geometry is written in the 32 × 52 box of a pin at scale 1; the tip, the box's bottom centre,
 * is the point that sits on the coordinate. Everything, glyph and popup anchor included, is
 * multiplied by `scale`.
 */

/** Width of a pin at scale 1, in px. */
export const PIN_WIDTH = 32;
/** Height of a pin at scale 1, in px. */
export const PIN_HEIGHT = 52;

/** Centre of the pin's round head in the 32 × 52 box: where the glyph or label is drawn. */
export const PIN_HEAD_CENTRE = [16, 16] as const;

/**
 * Our pin shape: a round head of radius 15 around (16, 16) narrowing into a point at (16, 52),
 * the box's bottom centre. The sides leave the head vertically at its widest (y = 16) and bend
 * in to meet at the tip.
 */
export const DEFAULT_PIN_PATH = 'M16 52C13 44 1 31.5 1 16A15 15 0 0 1 31 16C31 31.5 19 44 16 52Z';

/** Labels are drawn in this bold face (bundled through icon-font.ts), falling back to the system's. */
export const PIN_LABEL_FONT_FAMILY = '"Noto Sans", system-ui, sans-serif';
/** Weight of a label's face. */
export const PIN_LABEL_FONT_WEIGHT = '700';

/** A pin's options with every field filled in: what the renderers draw. */
export interface PinStyle {
  iconClasses: string;
  iconColor: string;
  iconSize: number;
  iconXOffset: number;
  iconYOffset: number;
  markerColor: string;
  markerFillOpacity: number;
  markerStrokeColor: string;
  markerStrokeWidth: number;
  markerPath: string;
  popupAnchor: [number, number];
  scale: number;
  /** Text drawn in the head instead of a glyph; undefined for none. */
  label: string | undefined;
  shadow: boolean;
}

/** Defaults of the pin options (PRODUCT.md, "Pin icon"); an absent stroke colour follows the fill. */
export const PIN_DEFAULTS = {
  iconClasses: '',
  iconColor: '#ffffff',
  iconSize: 16,
  iconXOffset: 0,
  iconYOffset: 0,
  markerColor: '#3FB1CE',
  markerFillOpacity: 1,
  markerStrokeWidth: 1,
  markerPath: DEFAULT_PIN_PATH,
  popupAnchor: [0, -50] as readonly [number, number],
  scale: 1,
  label: undefined,
  shadow: false,
} as const;


/**
 * Fills in every option a pin leaves out. `??` keeps zeros: a fill opacity of 0 stays
 * transparent and a stroke width of 0 stays without outline. A markerPath that is not path data
 * (pin data is checked field by field, but this is the last line) falls back to our shape.
 */
export function resolvePinStyle(options: PinOptions = {}): PinStyle {
  const markerColor = options.markerColor ?? PIN_DEFAULTS.markerColor;
  const markerPath = options.markerPath !== undefined && isSvgPathData(options.markerPath) ? options.markerPath : DEFAULT_PIN_PATH;
  const label = options.label === undefined || options.label === '' ? undefined : String(options.label);
  return {
    iconClasses: (options.iconClasses ?? PIN_DEFAULTS.iconClasses).trim().replace(/\s+/g, ' '),
    iconColor: options.iconColor ?? PIN_DEFAULTS.iconColor,
    iconSize: options.iconSize ?? PIN_DEFAULTS.iconSize,
    iconXOffset: options.iconXOffset ?? PIN_DEFAULTS.iconXOffset,
    iconYOffset: options.iconYOffset ?? PIN_DEFAULTS.iconYOffset,
    markerColor,
    markerFillOpacity: options.markerFillOpacity ?? PIN_DEFAULTS.markerFillOpacity,
    markerStrokeColor: options.markerStrokeColor ?? markerColor,
    markerStrokeWidth: options.markerStrokeWidth ?? PIN_DEFAULTS.markerStrokeWidth,
    markerPath,
    popupAnchor: options.popupAnchor ? [options.popupAnchor[0], options.popupAnchor[1]] : [...PIN_DEFAULTS.popupAnchor],
    scale: options.scale ?? PIN_DEFAULTS.scale,
    label,
    shadow: options.shadow ?? PIN_DEFAULTS.shadow,
  };
}

/** The fields of a style in a fixed order, so equal styles give equal keys. */
const STYLE_FIELDS = [
  'iconClasses',
  'iconColor',
  'iconSize',
  'iconXOffset',
  'iconYOffset',
  'markerColor',
  'markerFillOpacity',
  'markerStrokeColor',
  'markerStrokeWidth',
  'markerPath',
  'popupAnchor',
  'scale',
  'label',
  'shadow',
] as const satisfies readonly (keyof PinStyle)[];

/** 32-bit FNV-1a of a string's UTF-16 code units, from the given starting basis. */
function fnv1a(text: string, basis: number): number {
  let hash = basis;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A stable id for one distinct style, e.g. 'pinmap-pin-0f3a…': the GL image id, so pins that
 * look the same share one image. Two 32-bit hashes with different bases make a clash between
 * styles of one map vanishingly unlikely.
 */
export function pinStyleKey(style: PinStyle): string {
  const text = JSON.stringify(STYLE_FIELDS.map((field) => style[field] ?? null));
  const high = fnv1a(text, 0x811c9dc5).toString(16).padStart(8, '0');
  const low = fnv1a(text, 0x01000193 ^ 0x5bd1e995).toString(16).padStart(8, '0');
  return `pinmap-pin-${high}${low}`;
}

/** An icon-font glyph drawn in the head: its classes, colour, size and centre in box px. */
export interface PinGlyphPlacement {
  kind: 'glyph';
  classes: string;
  color: string;
  /** Font size in px, after scale. */
  size: number;
  /** Centre of the glyph in px from the box's top left, after scale. */
  x: number;
  y: number;
}

/** A short text drawn in the head instead of a glyph. */
export interface PinLabelPlacement {
  kind: 'label';
  text: string;
  color: string;
  /** Font size in px, after scale. */
  size: number;
  fontFamily: string;
  fontWeight: string;
  /** Centre of the text in px from the box's top left, after scale. */
  x: number;
  y: number;
}

/** The soft shadow on the ground under the tip, in px from the box's top left, after scale. */
export interface PinShadow {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
  /** Standard deviation of its blur, in px. */
  blur: number;
  opacity: number;
}

/** Everything the renderers need to draw one pin. */
export interface PinDrawing {
  /**
   * The pin as a standalone SVG document: its viewBox is the 32 × 52 box grown by `margin` on
   * every side (room for the outline and the shadow), and its width and height are that size
   * after scale. Placed at (-margin, -margin) px from the box's top left, it lines up with it.
   */
  svg: string;
  /** Size of the pin's box in px, after scale: 32 × scale by 52 × scale. */
  width: number;
  height: number;
  /** How far the SVG reaches beyond the box on each side, in px after scale. */
  margin: number;
  /** The point that sits on the coordinate, in px from the box's top left: its bottom centre. */
  tip: [number, number];
  /** Where a popup attaches, in px from the tip, after scale. */
  popupAnchor: [number, number];
  /** The glyph or label in the head, or null for a plain pin. */
  content: PinGlyphPlacement | PinLabelPlacement | null;
  shadow: PinShadow | null;
  scale: number;
}

/** The shadow at scale 1: an ellipse on the ground centred on the tip, blurred. */
const SHADOW = { rx: 9, ry: 3, blur: 1.5, opacity: 0.35 } as const;

/** How much the shadow reaches below the tip at scale 1, blur included (three deviations). */
const SHADOW_REACH = SHADOW.ry + 3 * SHADOW.blur;

/**
 * A label's size as a share of iconSize by its length, so up to three characters fit in the
 * head's 30 px.
 */
const LABEL_FIT = [1, 1, 0.85, 0.7] as const;

/** Escapes a value for a double-quoted XML attribute. */
export function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** A number as short markup: no trailing zeros, no exponent for the sizes a pin has. */
function num(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/**
 * THE pin function: a style in, the pin's SVG and the placement of its glyph or label out. Pure
 * (no DOM); every option string that reaches the markup is escaped, and a markerPath that is not
 * path data is replaced by our shape.
 */
export function pinDrawing(style: PinStyle): PinDrawing {
  const s = style.scale;
  const stroke = style.markerStrokeWidth;
  const margin = Math.ceil(stroke / 2 + (style.shadow ? SHADOW_REACH : 0));
  const viewW = PIN_WIDTH + 2 * margin;
  const viewH = PIN_HEIGHT + 2 * margin;
  const path = isSvgPathData(style.markerPath) ? style.markerPath : DEFAULT_PIN_PATH;

  const shadow: PinShadow | null = style.shadow
    ? { cx: (PIN_WIDTH / 2) * s, cy: PIN_HEIGHT * s, rx: SHADOW.rx * s, ry: SHADOW.ry * s, blur: SHADOW.blur * s, opacity: SHADOW.opacity }
    : null;

  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(viewW * s)}" height="${num(viewH * s)}" viewBox="${num(-margin)} ${num(-margin)} ${num(viewW)} ${num(viewH)}">`,
  ];
  if (style.shadow) {
    parts.push(
      `<filter id="pinmap-pin-shadow" x="-50%" y="-100%" width="200%" height="300%"><feGaussianBlur stdDeviation="${num(SHADOW.blur)}"/></filter>`,
      `<ellipse class="pinmap-pin-shadow" cx="${num(PIN_WIDTH / 2)}" cy="${num(PIN_HEIGHT)}" rx="${num(SHADOW.rx)}" ry="${num(SHADOW.ry)}" fill="#000000" fill-opacity="${num(SHADOW.opacity)}" filter="url(#pinmap-pin-shadow)"/>`,
    );
  }
  const outline =
    stroke > 0
      ? `stroke="${escapeAttribute(style.markerStrokeColor)}" stroke-width="${num(stroke)}" stroke-linejoin="round"`
      : 'stroke="none"';
  parts.push(
    `<path class="pinmap-pin-body" d="${escapeAttribute(path)}" fill="${escapeAttribute(style.markerColor)}" fill-opacity="${num(style.markerFillOpacity)}" ${outline}/>`,
    '</svg>',
  );

  const x = (PIN_HEAD_CENTRE[0] + style.iconXOffset) * s;
  const y = (PIN_HEAD_CENTRE[1] + style.iconYOffset) * s;
  let content: PinDrawing['content'] = null;
  if (style.label !== undefined) {
    const fit = LABEL_FIT[Math.min(style.label.length, LABEL_FIT.length - 1)] ?? 1;
    content = {
      kind: 'label',
      text: style.label,
      color: style.iconColor,
      size: style.iconSize * fit * s,
      fontFamily: PIN_LABEL_FONT_FAMILY,
      fontWeight: PIN_LABEL_FONT_WEIGHT,
      x,
      y,
    };
  } else if (style.iconClasses !== '' && style.iconSize > 0) {
    content = { kind: 'glyph', classes: style.iconClasses, color: style.iconColor, size: style.iconSize * s, x, y };
  }

  return {
    svg: parts.join(''),
    width: PIN_WIDTH * s,
    height: PIN_HEIGHT * s,
    margin: margin * s,
    tip: [(PIN_WIDTH / 2) * s, PIN_HEIGHT * s],
    popupAnchor: [style.popupAnchor[0] * s, style.popupAnchor[1] * s],
    content,
    shadow,
    scale: s,
  };
}

/** A glyph as the page's icon font draws it: the character(s) and the face they are drawn in. */
export interface Glyph {
  text: string;
  fontFamily: string;
  fontWeight: string;
  fontStyle: string;
}

/** The warning for a class string that shows no glyph. */
export const glyphMissingMessage = (classes: string) =>
  `Pinmap: the icon class "${classes}" shows no glyph; the pin is drawn without one.`;

/** Class strings already warned about: one warning each, however many pins use them. */
const warnedClasses = new Set<string>();

/** Glyphs found so far, per document and class string. A miss is not kept: the sheet may come later. */
const glyphCache = new WeakMap<Document, Map<string, Promise<Glyph | null>>>();

/**
 * Reads the text of a computed `content` value: the concatenated CSS strings before any '/'
 * (the alternative text), or '' for none, normal or anything that is not a string.
 */
export function contentText(content: string): string {
  let text = '';
  let i = 0;
  while (i < content.length) {
    const ch = content[i];
    if (ch === '/') break;
    if (ch !== '"' && ch !== "'") {
      if (!/\s/.test(ch ?? '')) return text;
      i++;
      continue;
    }
    const quote = ch;
    i++;
    while (i < content.length && content[i] !== quote) {
      if (content[i] === '\\') {
        const hex = /^[0-9a-fA-F]{1,6}\s?/.exec(content.slice(i + 1));
        if (hex) {
          text += String.fromCodePoint(parseInt(hex[0], 16));
          i += 1 + hex[0].length;
        } else {
          text += content[i + 1] ?? '';
          i += 2;
        }
        continue;
      }
      text += content[i];
      i++;
    }
    i++;
  }
  return text;
}

/**
 * Finds the glyph an icon-font class string draws: a hidden probe with those classes goes into
 * the document, its `::before` content and face are read, and the face is loaded. A class string
 * whose `::before` shows nothing resolves to null and logs one warning per distinct string;
 * an empty class string resolves to null quietly.
 */
export function resolveGlyph(iconClasses: string, doc: Document = document): Promise<Glyph | null> {
  const classes = iconClasses.trim().replace(/\s+/g, ' ');
  if (classes === '') return Promise.resolve(null);
  let cache = glyphCache.get(doc);
  if (!cache) {
    cache = new Map();
    glyphCache.set(doc, cache);
  }
  const known = cache.get(classes);
  if (known) return known;
  const found = probeGlyph(classes, doc).then((glyph) => {
    if (glyph) return glyph;
    cache.delete(classes);
    if (!warnedClasses.has(classes)) {
      warnedClasses.add(classes);
      console.warn(glyphMissingMessage(classes));
    }
    return null;
  });
  cache.set(classes, found);
  return found;
}

async function probeGlyph(classes: string, doc: Document): Promise<Glyph | null> {
  const probe = doc.createElement('i');
  probe.className = classes;
  probe.setAttribute('aria-hidden', 'true');
  probe.style.cssText = 'position:absolute;left:-10000px;top:0;visibility:hidden;font-size:16px';
  (doc.body ?? doc.documentElement).appendChild(probe);
  try {
    const view = doc.defaultView ?? window;
    const before = view.getComputedStyle(probe, '::before');
    const text = contentText(before.content);
    if (text.trim() === '') return null;
    const glyph: Glyph = {
      text,
      fontFamily: before.fontFamily,
      fontWeight: before.fontWeight,
      fontStyle: before.fontStyle,
    };
    try {
      await doc.fonts.load(`${glyph.fontStyle} ${glyph.fontWeight} 16px ${glyph.fontFamily}`, text);
    } catch {
      // A face that cannot be parsed or fetched is drawn with whatever the browser falls back to.
    }
    return glyph;
  } finally {
    probe.remove();
  }
}

/** The class of the element `createPinElement` returns. */
export const PIN_ICON_CLASS = 'pinmap-pin-icon';

/**
 * Builds a pin's DOM from its drawing: a root sized to the box (32 × 52 px at scale 1) holding
 * the SVG and, above it, the glyph (`<i>` with the icon classes) or the label (text, never
 * markup). The root sets no position of its own, so a marker library may position it; anchor it
 * at its bottom centre. A glyph class that shows nothing is dropped once fonts are known, with
 * one warning, leaving the plain pin.
 */
export function createPinElement(style: PinStyle, doc: Document = document): HTMLElement {
  const root = doc.createElement('div');
  root.classList.add(PIN_ICON_CLASS);
  updatePinElement(root, style);
  return root;
}

/** Restyles an element made by `createPinElement` in place: same element, new drawing. */
export function updatePinElement(root: HTMLElement, style: PinStyle): void {
  const doc = root.ownerDocument;
  const drawing = pinDrawing(style);
  root.style.width = `${drawing.width}px`;
  root.style.height = `${drawing.height}px`;
  root.dataset.pinStyle = pinStyleKey(style);

  const frame = doc.createElement('div');
  frame.style.cssText = `position:relative;isolation:isolate;width:${drawing.width}px;height:${drawing.height}px;pointer-events:none`;

  const parsed = new DOMParser().parseFromString(drawing.svg, 'image/svg+xml').documentElement;
  const svg = doc.importNode(parsed, true) as unknown as SVGSVGElement;
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  // Stacking is set here, not left to page CSS: Leaflet's sheet lifts every svg of its map pane
  // (z-index 200), which would hide the glyph under the pin.
  svg.style.cssText = `position:absolute;left:${-drawing.margin}px;top:${-drawing.margin}px;z-index:0;display:block;overflow:visible;max-width:none;max-height:none`;
  frame.appendChild(svg);

  const content = drawing.content;
  if (content) {
    const shown = doc.createElement(content.kind === 'glyph' ? 'i' : 'span');
    shown.setAttribute('aria-hidden', 'true');
    shown.style.cssText = [
      'position:absolute',
      'z-index:1',
      `left:${content.x}px`,
      `top:${content.y}px`,
      'transform:translate(-50%,-50%)',
      'margin:0',
      'padding:0',
      `font-size:${content.size}px`,
      'line-height:1',
      'text-align:center',
      'white-space:nowrap',
    ].join(';');
    shown.style.color = content.color;
    if (content.kind === 'glyph') {
      shown.className = content.classes;
      void resolveGlyph(content.classes, doc).then((glyph) => {
        if (!glyph) shown.remove();
      });
    } else {
      shown.className = 'pinmap-pin-label';
      shown.style.fontFamily = content.fontFamily;
      shown.style.fontWeight = content.fontWeight;
      shown.textContent = content.text;
    }
    frame.appendChild(shown);
  }
  root.replaceChildren(frame);
}

/**
 * Pins' styles, one resolved style object per distinct look, so each is drawn (and rasterised)
 * once. A pin's style is found by its options object: the pins that share one (a category's pins
 * without options of their own, see `parsePins`, or an archive's look) are resolved and keyed
 * once, and a set of 100k such pins holds no entry per pin.
 */
export class SharedStyles {
  private readonly byKey = new Map<string, PinStyle>();
  private readonly byOptions = new WeakMap<Pin['options'], PinStyle>();

  /** The style of a pin of any set: its options are resolved the first time they are seen. */
  of(pin: Pick<Pin, 'options'>): PinStyle {
    let shared = this.byOptions.get(pin.options);
    if (!shared) {
      const style = resolvePinStyle(pin.options);
      const key = pinStyleKey(style);
      shared = this.byKey.get(key) ?? style;
      this.byKey.set(key, shared);
      this.byOptions.set(pin.options, shared);
    }
    return shared;
  }

  /** The distinct styles of `pins`. */
  distinct(pins: Iterable<Pick<Pin, 'options'>>): Set<PinStyle> {
    const styles = new Set<PinStyle>();
    for (const pin of pins) styles.add(this.of(pin));
    return styles;
  }
}

/**
 * The ring that marks the pin whose popup is open (both views): its diameter and its centre from
 * the pin's tip, CSS px (y up is negative), round the pin's head.
 */
export function highlightRing(style: PinStyle): { size: number; offset: [number, number] } {
  const { width, height } = pinDrawing(style);
  return { size: Math.round(width + 14), offset: [0, -(height - width / 2)] };
}
