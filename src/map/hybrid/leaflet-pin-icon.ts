import { Icon, type BaseIconOptions } from 'leaflet';
import { PIN_ICON_CLASS, createPinElement, pinDrawing, resolvePinStyle, updatePinElement, type PinStyle } from '../../pins/icon.ts';
import type { PinOptions } from '../../config/pin-options.ts';

/** Options of a `PinIcon`: the pin options, plus Leaflet's extra class names for the element. */
export interface PinIconOptions extends PinOptions {
  /** Classes added to each icon element besides `pinmap-pin-icon`. */
  className?: string;
}

/**
 * The pin as a Leaflet icon (hybrid view): `createIcon` returns the same element as the MapLibre
 * marker's, sized to the pin's box and anchored at its tip; popups open at the pin's popupAnchor
 * (Leaflet's is also relative to the icon anchor). The shadow is part of the drawing, so there is
 * no separate shadow element. `setStyle` restyles every element this icon made, in place.
 */
export class PinIcon extends Icon<BaseIconOptions> {
  /** The options as given, so a later `setStyle` merges with them (an absent stroke colour keeps following the fill). */
  private pinOptions: PinOptions;
  /** The style every element of this icon is drawn with. */
  style: PinStyle;
  /** Elements made by `createIcon` and still on a page. */
  private readonly elements = new Set<HTMLElement>();
  private readonly extraClass: string;

  constructor(options: PinIconOptions = {}) {
    const { className, ...pinOptions } = options;
    const style = resolvePinStyle(pinOptions);
    super({ ...leafletOptions(style), className: className ? `${PIN_ICON_CLASS} ${className}` : PIN_ICON_CLASS });
    this.pinOptions = pinOptions;
    this.style = style;
    this.extraClass = className ?? '';
  }

  /** The pin element for a marker; an element this icon made before is restyled and reused. */
  override createIcon(oldIcon?: HTMLElement): HTMLElement {
    if (oldIcon && this.elements.has(oldIcon)) {
      updatePinElement(oldIcon, this.style);
      placeElement(oldIcon, this.style);
      return oldIcon;
    }
    const element = createPinElement(this.style, oldIcon?.ownerDocument ?? document);
    element.className = `leaflet-marker-icon ${PIN_ICON_CLASS}${this.extraClass ? ` ${this.extraClass}` : ''}`;
    placeElement(element, this.style);
    this.elements.add(element);
    return element;
  }

  /** No separate shadow: a pin with `shadow: true` draws it itself. */
  override createShadow(_oldIcon?: HTMLElement): HTMLElement {
    return null as unknown as HTMLElement;
  }

  /**
   * Merges `options` into the pin's options and redraws every element this icon made, keeping
   * the element (and its listeners and classes) and the icon and popup anchors in step.
   */
  setStyle(options: PinOptions): this {
    this.pinOptions = { ...this.pinOptions, ...options };
    this.style = resolvePinStyle(this.pinOptions);
    Object.assign(this.options, leafletOptions(this.style));
    for (const element of this.elements) {
      if (!element.isConnected) {
        this.elements.delete(element);
        continue;
      }
      updatePinElement(element, this.style);
      placeElement(element, this.style);
    }
    return this;
  }
}

/** Leaflet's size and anchors for a style: the box, its tip, the popup anchor from the tip. */
function leafletOptions(style: PinStyle): Pick<BaseIconOptions, 'iconSize' | 'iconAnchor' | 'popupAnchor' | 'tooltipAnchor'> {
  const drawing = pinDrawing(style);
  return {
    iconSize: [drawing.width, drawing.height],
    iconAnchor: drawing.tip,
    popupAnchor: drawing.popupAnchor,
    tooltipAnchor: [drawing.width / 2, -drawing.height / 2],
  };
}

/** What Leaflet's own icon code does to an element, without touching its classes. */
function placeElement(element: HTMLElement, style: PinStyle): void {
  const drawing = pinDrawing(style);
  element.style.marginLeft = `${-drawing.tip[0]}px`;
  element.style.marginTop = `${-drawing.tip[1]}px`;
  element.style.width = `${drawing.width}px`;
  element.style.height = `${drawing.height}px`;
}
