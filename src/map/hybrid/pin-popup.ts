import L from 'leaflet';
import { DEFAULTS } from '../../config/constants.ts';
import { nearestCopy } from '../../pins/filter.ts';
import { highlightRing, pinDrawing, type PinStyle } from '../../pins/icon.ts';
import { createPopupContent } from '../../pins/popup-content.ts';
import type { Pin } from '../../pins/types.ts';
import { markOpenPin } from '../dom-pins.ts';
import { watchResize } from '../popup-resize.ts';

/**
 * Leaflet's `maxWidth` for a popup: the content's, without the left and right padding around it
 * (12 and 28 px, `.pinmap-leaflet-popup .leaflet-popup-content-wrapper`) and the pixel Leaflet
 * adds to the width it measured, so the whole popup is at most `popupMaxWidth` wide, as in the vector view.
 */
export const LEAFLET_POPUP_MAX_WIDTH = parseInt(DEFAULTS.popupMaxWidth, 10) - 12 - 28 - 1;

/** What the hybrid view's pin popup needs. */
export interface LeafletPopupOptions {
  /** The popup's close button's name. */
  closeLabel: string;
  /** Told whenever the open popup changes: the pin's id, or null when it closed. */
  onOpenPinChange: (id: string | null) => void;
  /** Makes the content of a pin's popup. */
  popupContent: (pin: Pin) => HTMLElement;
}

/** The hybrid view's pin popup (see `createLeafletPopup`). */
export interface LeafletPinPopup {
  /**
   * Opens the pin's popup, closing any other. `returnFocus` is where focus goes when it closes;
   * opened `byKeyboard`, focus moves onto its close button (else onto its content); `pan` lets
   * Leaflet pan the map to show all of it.
   */
  open(pin: Pin, style: PinStyle, returnFocus: (() => void) | undefined, byKeyboard: boolean, pan: boolean): void;
  /** Closes it, if it is open. */
  close(): void;
  /** The id of the pin whose popup is open, if any. */
  openId(): string | undefined;
  /** Moves the open popup's tip to `lngLat` (its pin glides there), on the world copy in view. */
  moveTo(lngLat: [number, number]): void;
  /** Shows the pin's new text in the open popup (an update changed it); the focus stays in it. */
  refresh(pin: Pin): void;
  /** Closes it and removes its key listener. */
  destroy(): void;
}

/**
 * The pins' one popup in Leaflet: the same content as in the vector view, at most 240 px wide,
 * its tip at the pin's popupAnchor, with a real close button. It closes on that button, Esc and
 * a click on the map; focus moves into it and goes back to the pin when it closes. Leaflet pans
 * the map to keep it in view, again when its content changes size.
 */
export function createLeafletPopup(map: L.Map, options: LeafletPopupOptions): LeafletPinPopup {
  let current: { popup: L.Popup; pinId: string; stopResizeWatch: () => void; ring?: L.Marker } | undefined;
  let returnFocus: (() => void) | undefined;
  const container = map.getContainer();

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !current) return;
    event.stopPropagation();
    close();
  };
  container.addEventListener('keydown', onKeyDown);

  function close() {
    if (current) map.closePopup(current.popup);
  }

  function open(pin: Pin, style: PinStyle, refocus: (() => void) | undefined, byKeyboard: boolean, pan: boolean) {
    close();
    returnFocus = refocus;
    const [ax, ay] = pinDrawing(style).popupAnchor;
    const content = options.popupContent(pin);
    const closeButton = document.createElement('button');
    closeButton.type = 'button';
    closeButton.className = 'pinmap-popup-close';
    closeButton.setAttribute('aria-label', options.closeLabel);
    closeButton.title = options.closeLabel;
    closeButton.textContent = '×';
    closeButton.addEventListener('click', (event) => {
      event.stopPropagation();
      close();
    });
    const popup = L.popup({
      maxWidth: LEAFLET_POPUP_MAX_WIDTH,
      className: 'pinmap-popup pinmap-leaflet-popup',
      closeButton: false,
      autoPan: pan,
      autoPanPadding: [10, 10],
      // Leaflet's popup tip reaches 7 px below its box: the tip's point lands on the anchor.
      offset: [ax, ay + 7],
    })
      .setLatLng([pin.lngLat[1], nearestCopy(pin.lngLat[0], map.getCenter().lng)])
      .setContent(content);
    const entry: { popup: L.Popup; pinId: string; stopResizeWatch: () => void; ring?: L.Marker } = { popup, pinId: pin.id, stopResizeWatch: () => {} };
    // The pin is ringed while its popup is open.
    const { size, offset } = highlightRing(style);
    const ring = L.marker(popup.getLatLng()!, {
      icon: L.divIcon({ className: 'pinmap-pin-highlight', iconSize: [size, size], iconAnchor: [size / 2 - offset[0], size / 2 - offset[1]] }),
      interactive: false,
      keyboard: false,
      zIndexOffset: 1_000_000,
    }).addTo(map);
    ring.getElement()?.setAttribute('data-pin-id', pin.id);
    entry.ring = ring;
    popup.on('remove', () => {
      ring.remove();
      entry.stopResizeWatch();
      if (current !== entry) return;
      current = undefined;
      markOpenPin(container, undefined);
      returnFocus?.();
      options.onOpenPinChange(null);
    });
    current = entry;
    popup.openOn(map);
    // Opened, it pans the map once (`pan`); a popup that follows its moving pin leaves the camera be.
    popup.options.autoPan = false;
    const element = popup.getElement()!;
    element.setAttribute('role', 'dialog');
    element.setAttribute('aria-label', pin.title);
    element.dataset.pinId = pin.id;
    markOpenPin(container, pin.id);
    element.querySelector('.leaflet-popup-content-wrapper')?.prepend(closeButton);
    entry.stopResizeWatch = watchResize(content, () => relayout(popup));
    options.onOpenPinChange(pin.id);
    const body = element.querySelector<HTMLElement>('.leaflet-popup-content');
    body?.setAttribute('tabindex', '-1');
    (byKeyboard ? closeButton : body)?.focus({ preventScroll: true });
  }

  function moveTo(lngLat: [number, number]) {
    const at: L.LatLngTuple = [lngLat[1], nearestCopy(lngLat[0], map.getCenter().lng)];
    current?.popup.setLatLng(at);
    current?.ring?.setLatLng(at);
  }

  function refresh(pin: Pin) {
    const element = current?.popup.getElement();
    const body = element?.querySelector<HTMLElement>('.leaflet-popup-content');
    const old = body?.querySelector('.pinmap-popup-content');
    if (!element || !body || !old) return;
    const hadFocus = body.contains(document.activeElement);
    old.replaceWith(createPopupContent(pin));
    element.setAttribute('aria-label', pin.title);
    if (hadFocus && !body.contains(document.activeElement)) body.focus({ preventScroll: true });
  }

  return {
    open,
    close,
    openId: () => current?.pinId,
    moveTo,
    refresh,
    destroy() {
      container.removeEventListener('keydown', onKeyDown);
      close();
    },
  };
}

/** What Leaflet 1.9's popup does in `update()` without putting its content in again (which would take the focus out of it). */
interface PopupLayout {
  _updateLayout(): void;
  _updatePosition(): void;
  _adjustPan(): void;
}

/**
 * Measures and places an open popup again for its content's new size, panning the map to keep it
 * in view; the content stays where it is, so what has the focus in it keeps it.
 */
function relayout(popup: L.Popup): void {
  if (!popup.isOpen()) return;
  const layout = popup as unknown as PopupLayout;
  layout._updateLayout();
  layout._updatePosition();
  layout._adjustPan();
}
