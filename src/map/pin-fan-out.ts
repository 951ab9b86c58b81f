import { fanPositions, pinsAtSpot, type PlacedPin } from '../pins/grouping/same-place.ts';
import type { PinStyle } from '../pins/icon.ts';
import type { Pin } from '../pins/types.ts';
import { pinButton } from './dom-pins.ts';

/**
 * Same-place pins fanned out, in both views: pins so close that one hides the others (identical
 * coordinates, a block of flats) open, on a click or Enter on the one on top (the stack), as a
 * fan: a leg from the spot to each pin, on a circle or a spiral (`pins/grouping/same-place.ts`).
 * The fanned pins are ordinary pin buttons (`.pinmap-pin`, named by their title, `data-pin-id`);
 * a click or Enter on one folds the fan and opens that pin's popup, whose closing brings focus
 * back to the stack. Tab and the arrows go round the fanned pins (a small group of their own in
 * the pins' group). Esc folds the fan and gives focus back to the stack; a click elsewhere on
 * the map, a zoom or new pins fold it too. Each view puts the fan on its map at the spot
 * (`vector/pin-fan-out.ts`, `hybrid/pin-fan-out.ts`) and says which pins are drawn near it.
 */

/** A pin drawn near a spot: the pin, and where its tip is (CSS px in the map's container). */
export type NearPin = PlacedPin & { pin: Pin };

/** What a view gives the fan: where its pins are drawn, and how to put an element on its map. */
export interface FanHost {
  /** The map's container (the fan's clicks elsewhere are heard there). */
  container: HTMLElement;
  /** The pins drawn now within `radius` CSS px of the point (DOM markers, GPU symbols), and where their tips are. */
  pinsNear(point: readonly [number, number], radius: number): NearPin[];
  /** Where a point is drawn now, on the copy of the world nearest the view (CSS px in the container). */
  project(lngLat: readonly [number, number]): [number, number];
  /** Puts `element` on the map with its corner at `lngLat`, above every pin; returns what takes it off. */
  place(element: HTMLElement, lngLat: readonly [number, number]): () => void;
  /** Calls `fold` when the map starts to zoom; returns what stops that. */
  onZoomStart(fold: () => void): () => void;
}

/** What the fan does with a pin: how it is drawn, and how its popup opens. */
export interface FanOptions {
  styleOf: (pin: Pin) => PinStyle;
  /** A fanned pin was picked: open its popup, focus going back to `stack` (if any) when it closes. */
  onPick: (pin: Pin, stack: HTMLElement | undefined, byKeyboard: boolean) => void;
}

/** The namespace of the legs' SVG. */
const LEGS_NS = 'http://www.w3.org/2000/svg';

/** The fan of same-place pins of one map; one fan open at a time. */
export class PinFan {
  private foldOpen: ((returnFocus: boolean) => void) | undefined;

  constructor(
    private readonly host: FanHost,
    private readonly options: FanOptions,
  ) {}

  /** Whether a fan is open. */
  get isOpen(): boolean {
    return this.foldOpen !== undefined;
  }

  /**
   * Fans out the spot of `pin` if other pins are drawn there (true); false for a pin alone at its
   * spot (its popup opens as usual). `stack`: the element clicked (the pin's button or its
   * keyboard stand-in), which focus goes back to; from the keyboard, focus goes to the first fanned pin.
   */
  open(pin: Pin, stack: HTMLElement | undefined, byKeyboard: boolean): boolean {
    this.fold(false);
    const at = this.host.project(pin.lngLat);
    const near = this.host.pinsNear(at, SPOT_SEARCH_PX).filter((placed) => placed.id !== pin.id);
    const spot = pinsAtSpot([{ id: pin.id, point: at, pin }, ...near], pin.id).map((placed) => placed.pin);
    if (spot.length < 2) return false;
    this.show(spot, pin.lngLat, stack, byKeyboard);
    return true;
  }

  /** Folds the open fan, if any; `returnFocus`: focus goes back to its stack (Esc). */
  fold(returnFocus = false): void {
    this.foldOpen?.(returnFocus);
  }

  private show(spot: Pin[], lngLat: readonly [number, number], stack: HTMLElement | undefined, byKeyboard: boolean): void {
    const element = document.createElement('div');
    element.className = 'pinmap-fan';
    element.setAttribute('role', 'group');
    element.setAttribute('aria-label', spot.map((pin) => pin.title).join(', '));
    const legs = document.createElementNS(LEGS_NS, 'svg');
    legs.classList.add('pinmap-fan-legs');
    legs.setAttribute('aria-hidden', 'true');
    element.append(legs);
    const positions = fanPositions(spot.length);
    const reach = Math.max(...positions.map(([dx, dy]) => Math.max(Math.abs(dx), Math.abs(dy)))) + 4;
    legs.setAttribute('viewBox', `${-reach} ${-reach} ${2 * reach} ${2 * reach}`);
    legs.style.cssText = `left:${-reach}px;top:${-reach}px;width:${2 * reach}px;height:${2 * reach}px`;
    const centre = document.createElementNS(LEGS_NS, 'circle');
    centre.setAttribute('r', '3');
    legs.append(centre);
    const buttons = spot.map((pin, i) => {
      const [dx, dy] = positions[i]!;
      const leg = document.createElementNS(LEGS_NS, 'line');
      leg.setAttribute('x1', '0');
      leg.setAttribute('y1', '0');
      leg.setAttribute('x2', String(dx));
      leg.setAttribute('y2', String(dy));
      legs.append(leg);
      const button = pinButton(pin, this.options.styleOf(pin), (_, pickedByKeyboard) => {
        this.fold(false);
        this.options.onPick(pin, stack, pickedByKeyboard);
      });
      button.classList.add('pinmap-fan-pin');
      // Each a Tab stop of its own while the fan is open (the pins' group leaves its pins alone).
      button.tabIndex = 0;
      button.style.left = `${dx}px`;
      button.style.top = `${dy}px`;
      element.append(button);
      return button;
    });
    const unplace = this.host.place(element, lngLat);
    const openedAt = performance.now();
    // A click on the map elsewhere folds the fan (not the click that opened it, which may reach
    // the container after the pin's layer heard it).
    const onClick = (event: MouseEvent) => {
      if (event.timeStamp <= openedAt || element.contains(event.target as Node)) return;
      this.fold(false);
    };
    // Esc folds the fan; the arrows, Home and End go round its pins (not the map's pan, nor the other pins').
    const onKeyDown = (event: KeyboardEvent) => {
      const at = buttons.indexOf(event.target as HTMLButtonElement);
      const step = FAN_KEYS[event.key];
      if (event.key !== 'Escape' && (step === undefined || at < 0)) return;
      event.preventDefault();
      event.stopPropagation();
      if (step === undefined) this.fold(true);
      else buttons[step === 'first' ? 0 : step === 'last' ? buttons.length - 1 : (at + step + buttons.length) % buttons.length]?.focus({ preventScroll: true });
    };
    element.addEventListener('keydown', onKeyDown);
    this.host.container.addEventListener('click', onClick);
    this.host.container.classList.add('pinmap-fanned');
    // The stack's own DOM pins make way for the fan (GPU pins stay drawn under it).
    const stacked = spot.flatMap((pin) => [...this.host.container.querySelectorAll<HTMLElement>(`.pinmap-pin[data-pin-id="${CSS.escape(pin.id)}"]:not(.pinmap-fan-pin)`)]);
    for (const element of stacked) element.classList.add('pinmap-fanned-away');
    const stopZoom = this.host.onZoomStart(() => this.fold(false));
    this.foldOpen = (returnFocus) => {
      this.foldOpen = undefined;
      const hadFocus = element.contains(document.activeElement);
      stopZoom();
      this.host.container.removeEventListener('click', onClick);
      this.host.container.classList.remove('pinmap-fanned');
      for (const element of stacked) element.classList.remove('pinmap-fanned-away');
      unplace();
      if ((returnFocus || hadFocus) && stack?.isConnected) stack.focus({ preventScroll: true });
    };
    if (byKeyboard) buttons[0]?.focus({ preventScroll: true });
  }
}

/** The keys that move the focus round a fan's pins: one on (1), one back (-1), to the first or the last. */
const FAN_KEYS: Record<string, 1 | -1 | 'first' | 'last' | undefined> = {
  ArrowRight: 1,
  ArrowDown: 1,
  ArrowLeft: -1,
  ArrowUp: -1,
  Home: 'first',
  End: 'last',
};

/** How far around a pin's tip other pins are looked for (CSS px): a spot's width, and some room. */
const SPOT_SEARCH_PX = 40;

/**
 * The DOM pins drawn in a map's container within `radius` px of `point` (not the fan's own, nor
 * keyboard stand-ins, which stand for symbols the view looks up itself): by their pins' places.
 */
export function domPinsNear(
  container: HTMLElement,
  point: readonly [number, number],
  radius: number,
  pinOf: (id: string) => Pin | undefined,
  project: (lngLat: readonly [number, number]) => [number, number],
): NearPin[] {
  const near: NearPin[] = [];
  for (const element of container.querySelectorAll<HTMLElement>('.pinmap-pin[data-pin-id]:not(.pinmap-fan-pin):not(.pinmap-standin)')) {
    const pin = pinOf(element.dataset.pinId!);
    if (!pin) continue;
    const at = project(pin.lngLat);
    if (Math.hypot(at[0] - point[0], at[1] - point[1]) <= radius) near.push({ id: pin.id, point: at, pin });
  }
  return near;
}
