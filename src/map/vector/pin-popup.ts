import { Popup, type Map as MapLibreMap } from 'maplibre-gl';
import { DEFAULTS } from '../../config/constants.ts';
import { pinDrawing, type PinStyle } from '../../pins/icon.ts';
import { createPopupContent } from '../../pins/popup-content.ts';
import type { Pin } from '../../pins/types.ts';

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
 * very edge), the map pans by the overflow. It closes on its close button and on Esc anywhere in
 * the map; closing returns focus to the pin it came from, then calls `onClosed`.
 */
export function createPinPopup(map: MapLibreMap, onClosed: () => void): PinPopup {
  let popup: Popup | undefined;
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
      .setDOMContent(createPopupContent(pin))
      .addTo(map);
    popup = next;
    const element = next.getElement();
    element.setAttribute('role', 'dialog');
    element.setAttribute('aria-label', pin.title);
    element.dataset.pinId = pin.id;
    next.on('close', () => {
      if (popup !== next) return;
      popup = undefined;
      // Back to where the user was, without scrolling the page.
      returnFocus?.();
      onClosed();
    });
    if (pan) keepInView(map, element);
    // Focus moves into the popup, so Tab reaches its link and Esc closes it: onto the close
    // button when opened by keyboard, onto the content (no ring) when opened by pointer.
    const content = element.querySelector<HTMLElement>('.maplibregl-popup-content');
    content?.setAttribute('tabindex', '-1');
    const target = byKeyboard ? element.querySelector<HTMLElement>('.maplibregl-popup-close-button') : content;
    target?.focus({ preventScroll: true });
  }

  return {
    open,
    close,
    isOpen: () => popup !== undefined,
    moveTo(lngLat) {
      popup?.setLngLat(lngLat);
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

/** Pans the map just enough that the popup is wholly inside it, with a small margin. */
function keepInView(map: MapLibreMap, element: HTMLElement) {
  const margin = 10;
  const box = element.getBoundingClientRect();
  const frame = map.getContainer().getBoundingClientRect();
  const dx = box.left < frame.left + margin ? box.left - frame.left - margin : box.right > frame.right - margin ? box.right - frame.right + margin : 0;
  const dy = box.top < frame.top + margin ? box.top - frame.top - margin : box.bottom > frame.bottom - margin ? box.bottom - frame.bottom + margin : 0;
  if (dx !== 0 || dy !== 0) map.panBy([dx, dy], { duration: 0 });
}
