import { DEFAULTS } from '../config/constants.ts';
import { abbreviate, clusterDiameter } from '../pins/bubble.ts';
import { createPinElement, type PinStyle } from '../pins/icon.ts';
import type { Pin } from '../pins/types.ts';
import { ROW_PX, rowOf } from './pin-focus.ts';

/**
 * What the DOM pins of both views share: the pin button, the cluster bubble, their stacking and
 * their order for the keyboard. Zooms here are MapLibre's (512 px tiles); the hybrid view
 * converts Leaflet's. The grouping they show is `pins/grouping/clusters.ts`.
 */

/** Calls `action` on Enter or Space, as a native button would. */
export function onActivate(element: HTMLElement, action: () => void): void {
  element.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    event.stopPropagation();
    action();
  });
}

/**
 * A pin as a DOM element: the pin icon, a real button named by the pin's title and category
 * (`.pinmap-pin`, `data-pin-id`), out of the Tab order until the pins' group (`pin-group.ts`)
 * makes it the one Tab reaches. Its click and Enter/Space call `onOpen` (with whether the keyboard did), and
 * the click goes no further: the map behind must not take it for a click on the map.
 */
export function pinButton(pin: Pin, style: PinStyle, onOpen: (element: HTMLElement, byKeyboard: boolean) => void): HTMLElement {
  return makePinButton(createPinElement(style), pin, onOpen);
}

/** Makes a pin icon element (as drawn by `createPinElement`) the pin's button: see `pinButton`. */
export function makePinButton(element: HTMLElement, pin: Pin, onOpen: (element: HTMLElement, byKeyboard: boolean) => void): HTMLElement {
  element.classList.add('pinmap-pin');
  element.dataset.pinId = pin.id;
  element.setAttribute('role', 'button');
  element.setAttribute('tabindex', '-1');
  element.setAttribute('aria-label', pin.category ? `${pin.title}, ${pin.category}` : pin.title);
  element.title = pin.title;
  onClickNotDrag(element, () => onOpen(element, false));
  onActivate(element, () => onOpen(element, true));
  return element;
}

/**
 * The marker element of a GPU pin the app draws itself (`app-pins.ts`): over the pin's symbol
 * (drawn at no opacity), holding the app's element. A click opens the pin as a click on the
 * symbol does, and goes no further. It is not a button: the keyboard reaches the pin, by its
 * name, through the symbol's keyboard stand-in, as before.
 */
export function appPinMarker(pin: Pin, onOpen: () => void): HTMLElement {
  const element = document.createElement('div');
  element.className = 'pinmap-app-marker';
  element.dataset.pinId = pin.id;
  element.setAttribute('aria-hidden', 'true');
  onClickNotDrag(element, onOpen);
  return element;
}

/**
 * Marks the pin whose popup is open (`data-open` on its `.pinmap-pin` elements in `container`:
 * its marker, its keyboard stand-in) and unmarks any other; `undefined` unmarks every pin. A GPU
 * symbol has no element to mark.
 */
export function markOpenPin(container: HTMLElement, id: string | undefined): void {
  for (const element of container.querySelectorAll<HTMLElement>('.pinmap-pin[data-open]')) {
    if (element.dataset.pinId !== id) delete element.dataset.open;
  }
  if (id === undefined) return;
  for (const element of container.querySelectorAll<HTMLElement>('.pinmap-pin')) {
    if (element.dataset.pinId === id) element.dataset.open = '';
  }
}

/**
 * Calls `action` on a click that is not the end of a drag: a drag that starts on a pin or a
 * bubble pans the map (the element moves with it, so the browser still fires a click on it),
 * and must not open or zoom anything. Either way the click stops here.
 */
function onClickNotDrag(element: HTMLElement, action: () => void): void {
  let downAt: [number, number] | undefined;
  element.addEventListener('pointerdown', (event) => {
    downAt = [event.clientX, event.clientY];
  });
  element.addEventListener('click', (event) => {
    event.stopPropagation();
    const from = downAt;
    downAt = undefined;
    if (from && event.detail > 0 && Math.hypot(event.clientX - from[0], event.clientY - from[1]) > DEFAULTS.clickTolerance) return;
    action();
  });
}

/** How far inside the map's edges a pin or bubble that the keyboard reaches is brought (CSS px): clear of the corners' controls. */
const FOCUS_MARGIN = 50;

/**
 * Keeps the map whole as the keyboard goes from pin to pin: the browser scrolls an element it
 * focuses into view, and the map's container (whose overflow is hidden) would scroll with it,
 * shifting the map away from where its camera says it is. The container is put back at once, and
 * a pin or bubble that the keyboard focused wholly or partly beyond an edge is brought
 * `FOCUS_MARGIN` inside it by panning the map (`panBy`: the view moves right and down by dx and
 * dy CSS px, at once). Returns what removes its listeners.
 */
export function keepFocusedPinsInView(container: HTMLElement, panBy: (dx: number, dy: number) => void): () => void {
  const unscroll = () => {
    if (container.scrollLeft !== 0) container.scrollLeft = 0;
    if (container.scrollTop !== 0) container.scrollTop = 0;
  };
  const overflow = (low: number, high: number, from: number, to: number) =>
    low < from + FOCUS_MARGIN ? low - from - FOCUS_MARGIN : high > to - FOCUS_MARGIN ? high - to + FOCUS_MARGIN : 0;
  const onFocusIn = (event: FocusEvent) => {
    unscroll();
    const target = event.target;
    // Only the keyboard's focus (a click focuses what is under the mouse, in view already).
    if (!(target instanceof HTMLElement) || !target.matches('.pinmap-pin:focus-visible, .pinmap-cluster:focus-visible')) return;
    const box = target.getBoundingClientRect();
    const frame = container.getBoundingClientRect();
    if (box.left >= frame.left && box.right <= frame.right && box.top >= frame.top && box.bottom <= frame.bottom) return;
    const dx = overflow(box.left, box.right, frame.left, frame.right);
    const dy = overflow(box.top, box.bottom, frame.top, frame.bottom);
    if (dx !== 0 || dy !== 0) panBy(dx, dy);
  };
  container.addEventListener('focusin', onFocusIn);
  container.addEventListener('scroll', unscroll);
  return () => {
    container.removeEventListener('focusin', onFocusIn);
    container.removeEventListener('scroll', unscroll);
  };
}

/** Counts as a bubble's name writes them (1,234): one formatter for every bubble, made when first needed. */
let countFormat: Intl.NumberFormat | undefined;

/** A cluster bubble: a button showing how many pins it holds (out of the Tab order, as a pin's); activating it calls `onZoom`. */
export function clusterButton(count: number, label: string, onZoom: () => void): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = 'pinmap-cluster';
  element.tabIndex = -1;
  setClusterCount(element, count, label);
  onClickNotDrag(element, onZoom);
  return element;
}

/** Shows `count` on a bubble button (`clusterButton`): its text, name and size; a bubble whose count changed is told in place. */
export function setClusterCount(element: HTMLElement, count: number, label: string): void {
  if (element.dataset.count === String(count)) return;
  element.dataset.count = String(count);
  element.textContent = abbreviate(count);
  // A map of many bubbles makes hundreds at once; `toLocaleString` would make a formatter for each.
  countFormat ??= new Intl.NumberFormat('en-US');
  const name = label.replace('{count}', countFormat.format(count));
  element.setAttribute('aria-label', name);
  element.title = name;
  const size = clusterDiameter(count);
  element.style.width = element.style.height = `${size}px`;
}

/**
 * Stacks a DOM pin or bubble at `lat`: the further south (the lower on the map), the nearer the
 * front, as Leaflet stacks its markers (by their point's height on the screen). Both views then
 * overlap their pins and bubbles alike, and a pin's tip is not hidden under the head of the pin
 * just north of it. The popup stands above them all (`.pinmap-popup` in pinmap.css).
 */
export function stackByLatitude(element: HTMLElement, lat: number): void {
  element.style.zIndex = String(Math.round((90 - lat) * 1000));
}

/** The height of a row of the reading order (`readingOrder`), px at the whole zoom (512 px tiles). */
export const TAB_ROW_PX = ROW_PX;

/**
 * The area around the view where the hybrid view makes its markers: the view and this share of
 * it again on every side.
 */
export const MARKER_AREA_PAD = 0.5;

/** A DOM pin or bubble to put in reading order: its element, and where it stands. */
export interface OrderedMarker {
  element: HTMLElement;
  lngLat: readonly [number, number];
}

/**
 * Where a point comes in reading order at a whole `zoom`: rows of `TAB_ROW_PX` on the map (in
 * Web Mercator at that zoom, so panning changes nothing), north to south, and in a row west to
 * east, as a page is read. Returns [row, longitude, -latitude] to compare in turn.
 */
export function readingOrder(lngLat: readonly [number, number], zoom: number): [number, number, number] {
  const lat = Math.max(-85.051129, Math.min(85.051129, lngLat[1]));
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * 512 * 2 ** zoom;
  return [rowOf({ x: 0, y }), lngLat[0], -lngLat[1]];
}

/** What `moveBefore` is: a move that keeps focus, where the browser has it (Chrome 133). */
type MovableParent = Node & { moveBefore?: (node: Node, child: Node | null) => void };

/**
 * Puts DOM pins and bubbles (siblings in one parent) in reading order (`readingOrder`) in the
 * document, so a screen reader's cursor goes from one to the next as they are read on the map
 * (as Home and End do) rather than in the order they were added. Moves only the elements out of place (those added since), and keeps
 * the focus of a focused one that has to move.
 */
export function orderForKeyboard(markers: readonly OrderedMarker[], zoom: number): void {
  if (markers.length < 2) return;
  const keyed = markers.map((marker) => ({ element: marker.element, key: readingOrder(marker.lngLat, zoom) }));
  keyed.sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2]);
  // From the end: each element must stand just before the one after it in the order.
  for (let i = keyed.length - 2; i >= 0; i--) {
    const element = keyed[i]!.element;
    const next = keyed[i + 1]!.element;
    const parent = next.parentNode as MovableParent | null;
    if (!parent || element.nextSibling === next) continue;
    const focused = element.contains(document.activeElement) ? (document.activeElement as HTMLElement) : undefined;
    if (focused && parent.moveBefore) {
      try {
        parent.moveBefore(element, next);
        continue;
      } catch {
        // The browser would not move it so: it is moved the old way below, and focused again.
      }
    }
    parent.insertBefore(element, next);
    if (focused && document.activeElement !== focused) focused.focus({ preventScroll: true });
  }
}
