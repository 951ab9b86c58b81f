import { Marker, Popup, type Map as MapLibreMap } from 'maplibre-gl';
import { DEFAULTS } from '../../config/constants.ts';
import { highlightRing, pinDrawing, type PinStyle } from '../../pins/icon.ts';
import { createPopupContent } from '../../pins/popup-content.ts';
import type { Pin } from '../../pins/types.ts';
import { markOpenPin } from '../dom-pins.ts';
import { watchResize } from '../popup-resize.ts';

/** The vector view's pin popup (see `createPinPopup`). */
export interface PinPopup {
  /**
   * Opens the pin's popup, closing any other. `returnFocus` is where focus goes when it closes;
   * opened `byKeyboard`, focus moves onto its close button (else onto its content); `pan` pans the
   * map to show all of it.
   */
  open(pin: Pin, style: PinStyle, returnFocus: (() => void) | undefined, byKeyboard: boolean, pan: boolean): void;
  /** Closes it, if it is open. */
  close(): void;
  /** Whether a popup is open. */
  isOpen(): boolean;
  /** Moves the open popup's tip to `lngLat` (its pin glides there). */
  moveTo(lngLat: [number, number]): void;
  /** Shows the pin's new text in the open popup (an update changed it); the focus stays on what it was on, if that is still there. */
  refresh(pin: Pin): void;
  /** Closes it and removes its key listener. */
  destroy(): void;
}

/**
 * The one popup of the pins. It attaches at the pin's popupAnchor above the pin, or beside or
 * below it when MapLibre flips it to stay inside the map; if it still does not fit (a pin at the
 * very edge), the map pans by the overflow. Content that changes size (an app's own, rendered
 * after the popup opened) places it again the same way. It closes on its close button and on Esc
 * anywhere in the map; closing returns focus to the pin it came from, then calls `onClosed`.
 */
export function createPinPopup(map: MapLibreMap, content: (pin: Pin) => HTMLElement, onClosed: () => void): PinPopup {
  let popup: Popup | undefined;
  /** The ring round the open pin, moved with it when it glides. */
  let openRing: Marker | undefined;
  let stopResizeWatch: (() => void) | undefined;
  let returnFocus: (() => void) | undefined;
  const container = map.getContainer();

  function close() {
    popup?.remove();
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !popup) return;
    event.stopPropagation();
    close();
  };
  container.addEventListener('keydown', onKeyDown);

  function open(pin: Pin, style: PinStyle, refocus: (() => void) | undefined, byKeyboard: boolean, pan: boolean) {
    close();
    returnFocus = refocus;
    const drawing = pinDrawing(style);
    const [ax, ay] = drawing.popupAnchor;
    const halfWidth = drawing.width / 2;
    const headY = -drawing.height / 2;
    const body = content(pin);
    const next = new Popup({
      maxWidth: DEFAULTS.popupMaxWidth,
      closeButton: true,
      closeOnClick: false,
      closeOnMove: false,
      focusAfterOpen: false,
      className: 'pinmap-popup',
      // Where the popup's tip sits, from the pin's tip, for each side MapLibre may place it on.
      offset: {
        bottom: [ax, ay],
        'bottom-left': [ax, ay],
        'bottom-right': [ax, ay],
        top: [0, 0],
        'top-left': [0, 0],
        'top-right': [0, 0],
        left: [halfWidth, headY],
        right: [-halfWidth, headY],
        center: [ax, ay],
      },
    })
      .setLngLat(pin.lngLat)
      .setDOMContent(body)
      .addTo(map);
    popup = next;
    const ring = ringMarker(pin, style).addTo(map);
    openRing = ring;
    const element = next.getElement();
    element.setAttribute('role', 'dialog');
    element.setAttribute('aria-label', pin.title);
    element.dataset.pinId = pin.id;
    markOpenPin(container, pin.id);
    next.on('close', () => {
      ring.remove();
      if (popup !== next) return;
      popup = undefined;
      stopResizeWatch?.();
      stopResizeWatch = undefined;
      markOpenPin(container, undefined);
      // Back to where the user was, without scrolling the page.
      returnFocus?.();
      onClosed();
    });
    if (pan) keepInView(map, element);
    // `setLngLat` places the popup again: MapLibre picks its side afresh for its new size.
    stopResizeWatch = watchResize(body, () => {
      next.setLngLat(pin.lngLat);
      keepInView(map, element);
    });
    // Focus moves into the popup, so Tab reaches its link and Esc closes it: onto the close
    // button when opened by keyboard, onto the content (no ring) when opened by pointer.
    const frame = element.querySelector<HTMLElement>('.maplibregl-popup-content');
    frame?.setAttribute('tabindex', '-1');
    const target = byKeyboard ? element.querySelector<HTMLElement>('.maplibregl-popup-close-button') : frame;
    target?.focus({ preventScroll: true });
  }

  return {
    open,
    close,
    isOpen: () => popup !== undefined,
    moveTo(lngLat) {
      popup?.setLngLat(lngLat);
      openRing?.setLngLat(lngLat);
    },
    refresh(pin) {
      if (!popup) return;
      const element = popup.getElement();
      const content = element.querySelector<HTMLElement>('.maplibregl-popup-content');
      const hadFocus = content?.contains(document.activeElement) ?? false;
      // The pin's text is replaced; the close button stays as it is.
      const fresh = createPopupContent(pin);
      const old = content?.querySelector('.pinmap-popup-content');
      if (old) old.replaceWith(fresh);
      element.setAttribute('aria-label', pin.title);
      if (hadFocus && !content?.contains(document.activeElement)) content?.focus({ preventScroll: true });
    },
    destroy() {
      container.removeEventListener('keydown', onKeyDown);
      close();
    },
  };
}

/** The ring round the pin whose popup is open: drawn over the pins, not taking clicks or the focus. */
function ringMarker(pin: Pin, style: PinStyle): Marker {
  const { size, offset } = highlightRing(style);
  const element = document.createElement('div');
  element.className = 'pinmap-pin-highlight';
  element.dataset.pinId = pin.id;
  element.style.width = element.style.height = `${size}px`;
  return new Marker({ element, anchor: 'center', offset }).setLngLat(pin.lngLat);
}

/** Pans the map just enough that the popup is wholly inside it, with a small margin. */
function keepInView(map: MapLibreMap, element: HTMLElement) {
  const margin = 10;
  const box = element.getBoundingClientRect();
  const frame = map.getContainer().getBoundingClientRect();
  const dx = box.left < frame.left + margin ? box.left - frame.left - margin : box.right > frame.right - margin ? box.right - frame.right + margin : 0;
  const dy = box.top < frame.top + margin ? box.top - frame.top - margin : box.bottom > frame.bottom - margin ? box.bottom - frame.bottom + margin : 0;
  if (dx !== 0 || dy !== 0) map.panBy([dx, dy], { duration: 0 });
}
