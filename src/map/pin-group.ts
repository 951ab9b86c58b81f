import { CLUSTER_RADIUS } from '../config/constants.ts';
import { moveOfKey, nearestTo, nextFocus, readingOrderOf, splitInto, type FocusPoint } from './pin-focus.ts';

/**
 * The pins and bubbles of a map as one Tab stop, in either view: a composite widget with a
 * roving tabindex (the ARIA Authoring Practices' pattern). Its items are whatever pin and bubble
 * buttons (`.pinmap-pin`, `.pinmap-cluster`) are in the group's element, whoever put them there:
 * the DOM pins, the GPU pins' keyboard stand-ins, a pin archive's markers, pins fanned out.
 * - One item in view has tabindex 0 (the last focused, else the first in reading order); every
 *   other has -1, so Tab enters the pins once and leaves them for what follows.
 * - The arrows go to the nearest item in view in their direction, Home and End to the first and
 *   the last in view, Page Up and Page Down by a row (`pin-focus.ts`).
 * - The focus is never lost: a focused item that goes (regrouped, filtered out, new pins) or
 *   leaves the view hands the focus to the nearest item in view, or with none to the map; a
 *   bubble activated from the keyboard puts it, once the camera rests, on the first item of what
 *   it split into, announced politely ("Zoomed in: 12 pins").
 * - The group is named with the number of pins in view ("Pins, 12 in view"), from the start:
 *   for the GPU pins, what their layers draw (`countInView`), before any stand-in is made.
 */

/** What the pins' group is given. */
export interface PinGroupOptions {
  /** The group's name; `{count}` stands for the number of pins in view. */
  label: string;
  /** Said politely once a bubble's zoom has put the focus on what it split into; `{count}` is the bubble's count. */
  zoomedInLabel: string;
  /** The map's own focusable element (MapLibre's canvas, Leaflet's container): the focus goes there when no pin is in view. */
  mapElement: () => HTMLElement;
  /**
   * Where the map's top edge is in the world: its y in Web Mercator pixels at the camera's scale
   * (512 px tiles at MapLibre's zoom). The rows of the reading order are the world's, so that a
   * pan (to bring a pin at the edge into view) does not change which pin comes first.
   */
  topInWorld: () => number;
  /**
   * How many pins the map draws in view, when its pins are not all buttons in the group (the GPU
   * pins: their keyboard stand-ins come only once the keyboard reaches the map); undefined: count
   * the buttons.
   */
  countInView?: () => number | undefined;
}

/** The pins' group of one map (see `createPinGroup`). */
export interface PinGroup {
  /** The camera rests and the pins for where it rests are placed: the focus is checked (see above). */
  rested(): void;
  /** The bubble activated lists its pins instead of zooming (it splits beyond the map's maximum zoom): no focus follows a zoom. */
  listed(): void;
  /** Removes its listeners, its live region and the group's role and name. */
  destroy(): void;
}

/**
 * The pin and bubble buttons of the group. A fan of same-place pins (`pin-fan-out.ts`) is a
 * small group of its own inside it: its pins keep their own Tab stops and arrows.
 */
const ITEMS = '.pinmap-pin:not(.pinmap-fan-pin), .pinmap-cluster';

/** How far from where a bubble stands once zoomed into (CSS px) the items it split into are looked for. */
const SPLIT_RADIUS = 4 * CLUSTER_RADIUS;

/** Counts as the group's name and the announcement write them (1,234). */
const countFormat = new Intl.NumberFormat('en-US');

/**
 * Makes `group` (inside the map's `container`) the pins' group: see the module's comment.
 * The engine calls `rested` once the camera rests with its pins placed.
 */
export function createPinGroup(container: HTMLElement, group: HTMLElement, options: PinGroupOptions): PinGroup {
  group.setAttribute('role', 'group');
  group.tabIndex = -1;
  const live = document.createElement('div');
  live.className = 'pinmap-visually-hidden';
  live.setAttribute('aria-live', 'polite');
  container.append(live);

  /** The item that had the focus last, and where it stood then (the nearest to it takes the focus if it goes). */
  let focused: { element: HTMLElement; at: FocusPoint } | undefined;
  /** A bubble activated from the keyboard: its count, waiting for the camera to rest. */
  let splitting: { bubble: HTMLElement; count: number } | undefined;
  let label = '';

  const frameOf = () => container.getBoundingClientRect();
  /** Where an item stands on the map (a pin's tip, a bubble's middle): x on the page, y in the world (`topInWorld`), CSS px. */
  const pointOf = (element: HTMLElement, frame = frameOf(), top = options.topInWorld()): FocusPoint => {
    const box = element.getBoundingClientRect();
    const y = element.classList.contains('pinmap-pin') ? box.bottom : box.top + box.height / 2;
    return { x: box.left + box.width / 2, y: y - frame.top + top };
  };
  const items = () => Array.from(group.querySelectorAll<HTMLElement>(ITEMS));
  /** The items whose middle is in the map's frame, with where they stand (`pointOf`). */
  const inView = (all = items()) => {
    const frame = frameOf();
    const top = options.topInWorld();
    const shown: { element: HTMLElement; at: FocusPoint }[] = [];
    for (const element of all) {
      const at = pointOf(element, frame, top);
      if (at.x >= frame.left && at.x <= frame.right && at.y >= top && at.y <= top + frame.height && element.getClientRects().length > 0) shown.push({ element, at });
    }
    return shown;
  };
  const hasFocus = () => document.activeElement === null || document.activeElement === document.body || group.contains(document.activeElement);

  function focus(element: HTMLElement) {
    setCurrent(element);
    element.focus({ preventScroll: true });
  }

  /** The focus goes to the item nearest `at` in view, or to the map with none. */
  function rehome(at: FocusPoint, shown = inView()) {
    const nearest = nearestTo(
      shown.map((item) => item.at),
      at,
    );
    if (nearest === undefined) {
      focused = undefined;
      options.mapElement().focus({ preventScroll: true });
    } else focus(shown[nearest]!.element);
  }

  /** Gives `element` tabindex 0 (the one item Tab reaches) and every other item -1. */
  function setCurrent(element: HTMLElement | undefined) {
    for (const item of items()) {
      const tabIndex = item === element ? 0 : -1;
      if (item.tabIndex !== tabIndex) item.tabIndex = tabIndex;
    }
  }

  /** Picks the item Tab enters at, and names the group with the pins in view. */
  function sync(shown = inView()) {
    const last = focused?.element;
    const keep = last && shown.some((item) => item.element === last) ? last : undefined;
    const first = readingOrderOf(shown.map((item) => item.at))[0];
    setCurrent(keep ?? (first === undefined ? undefined : shown[first]!.element));
    let pins = options.countInView?.();
    if (pins === undefined) {
      pins = 0;
      for (const { element } of shown) pins += element.classList.contains('pinmap-cluster') ? Number(element.dataset.count) || 1 : 1;
    }
    const next = options.label.replace('{count}', countFormat.format(pins));
    if (next !== label) group.setAttribute('aria-label', (label = next));
  }

  /** The items changed: a focused one that went hands the focus on (to the group while a bubble's zoom is on). */
  const observer = new MutationObserver(() => {
    if (focused && !focused.element.isConnected && hasFocus()) {
      if (splitting) group.focus({ preventScroll: true });
      else rehome(focused.at);
    }
    sync();
  });
  observer.observe(group, { childList: true, subtree: true });

  const onFocusIn = (event: FocusEvent) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || !target.matches(ITEMS)) return;
    focused = { element: target, at: pointOf(target) };
    if (target.tabIndex !== 0) setCurrent(target);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || !target.matches(ITEMS) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'Enter' || event.key === ' ') {
      // The bubble's own listener zooms; the focus follows once the camera rests.
      if (target.classList.contains('pinmap-cluster')) splitting = { bubble: target, count: Number(target.dataset.count) || 0 };
      return;
    }
    const move = moveOfKey(event.key);
    if (!move) return;
    // The pins' keys, not the map's (its arrows pan).
    event.preventDefault();
    event.stopPropagation();
    const shown = inView();
    const from = shown.findIndex((item) => item.element === target);
    const points = shown.map((item) => item.at);
    const to = from < 0 ? readingOrderOf(points)[0] : nextFocus(points, from, move);
    if (to !== undefined) focus(shown[to]!.element);
  };

  group.addEventListener('focusin', onFocusIn);
  group.addEventListener('keydown', onKeyDown);
  sync();

  return {
    rested() {
      const shown = inView();
      const split = splitting;
      splitting = undefined;
      if (split && hasFocus()) {
        const frame = frameOf();
        const candidates = shown.filter((item) => item.element !== split.bubble);
        const into = splitInto(
          candidates.map((item) => item.at),
          { x: frame.left + frame.width / 2, y: options.topInWorld() + frame.height / 2 },
          SPLIT_RADIUS,
        );
        if (into.length === 0) options.mapElement().focus({ preventScroll: true });
        else {
          focus(candidates[into[0]!]!.element);
          live.textContent = options.zoomedInLabel.replace('{count}', countFormat.format(split.count));
        }
      } else if (focused && document.activeElement === focused.element && !shown.some((item) => item.element === focused!.element)) {
        // The focused pin left the view (a pan, a zoom): the nearest in view to where it is takes the focus.
        rehome(pointOf(focused.element), shown);
      }
      sync(shown);
    },
    listed() {
      splitting = undefined;
    },
    destroy() {
      observer.disconnect();
      group.removeEventListener('focusin', onFocusIn);
      group.removeEventListener('keydown', onKeyDown);
      group.removeAttribute('role');
      group.removeAttribute('aria-label');
      group.removeAttribute('tabindex');
      live.remove();
    },
  };
}
