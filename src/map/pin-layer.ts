import type { PinOptions } from '../config/pin-options.ts';
import { PinsById } from '../pins/data.ts';
import { SharedStyles } from '../pins/icon.ts';
import type { CategoryCount, Pin, PinSet, ShownBubble } from '../pins/types.ts';
import type { AppPinHost } from './app-pins.ts';
import type { BubblePins, OpenPinOptions } from './adapter.ts';

/**
 * How a pin layer draws its pins now: as DOM markers (every pin of the hybrid view; small sets in
 * the vector view), as a WebGL layer of the vector map (large and pre-tiled sets in the vector
 * view), or not at all (no pins yet, or an empty set).
 */
export type PinLayerMode = 'dom' | 'gl' | 'none';

/**
 * The pins of a map, as either engine draws them (the vector view: `vector/pins.ts`; the hybrid
 * view: `hybrid/pins.ts`): one pin set at a time, grouped into bubbles where they crowd, with one
 * popup open at a time. The engines' adapters answer the `MapAdapter`'s pin questions from it
 * (`adapter-wiring.ts`).
 */
export interface PinLayer {
  /** How the current pins are drawn. */
  readonly mode: PinLayerMode;
  /**
   * The pin set's credit while the layer draws its pins as DOM markers, which no map source
   * carries; undefined otherwise (a WebGL layer's source carries the credit like any other
   * source of the style) and while no pins are shown.
   */
  readonly attribution: string | undefined;
  /**
   * Pins are on their way: what grouping a large set needs may be started while they are read
   * (the vector view starts the pin index's worker). Returns what lets it go if they never come
   * (they could not be loaded).
   */
  expectPins(): () => void;
  /**
   * Replaces the pins (closing the popup); resolves once they are on the map: DOM markers at
   * once, a WebGL layer once its first groups and images are in, a pin archive's pins once its
   * first tiles are read.
   */
  setPins(set: PinSet): Promise<void>;
  /**
   * Takes a new set of the same kind by pin id (`diffPins`): removed pins leave, added ones
   * appear, moved ones glide to their new place (config `pinTransition`), and only they are
   * regrouped; the open popup stays (following its pin, closing if its pin left), and so do the
   * focus and every marker of a pin that did not change. A set that cannot be taken so (a pin
   * archive on either side, or one drawn another way: DOM markers and GPU pins across
   * `domPinLimit`) is set afresh as `setPins` does, its popup opened again if its pin is still there.
   */
  updatePins(set: PinSet): Promise<void>;
  /**
   * Opens the pin's popup (closing any other); false for an unknown id. Pre-tiled pins not looked
   * up yet: true, and the popup opens when the archive's pin index answers.
   */
  open(id: string, options?: OpenPinOptions): boolean;
  /** The pins of the set shown, in its order (every category, hidden or not); empty for pre-tiled pins. */
  readonly pins: readonly Pin[];
  /** The set's category styles (`PinSet.pinStyles`). */
  readonly pinStyles: Readonly<Record<string, PinOptions>>;
  /** Pre-tiled pins: the archive's categories and counts (see `MapAdapter.getCategoryCounts`); else undefined. */
  readonly categories: readonly CategoryCount[] | undefined;
  /** Pre-tiled pins: the pins drawn now (see `MapAdapter.getShownPins`); else undefined. */
  shownPins(): Pin[] | undefined;
  /** Pre-tiled pins: the bubbles drawn now, each with how many of its pins show (see `MapAdapter.getShownBubbles`); else undefined. */
  shownBubbles(): ShownBubble[] | undefined;
  /** Hides the pins of these categories and shows every other (see `MapAdapter.setHiddenCategories`). */
  setHidden(categories: readonly string[]): void;
  /**
   * Where the camera goes to show a pin: its point, at the lowest zoom (from now, in MapLibre's
   * terms) where no bubble hides it; undefined for an unknown id.
   */
  viewOf(id: string): Promise<{ center: [number, number]; zoom: number } | undefined>;
  /** Closes the popup, if one is open. */
  close(): void;
  /** The pins the app draws itself (see `MapAdapter.setAppPins`); kept from set to set. */
  setAppPins(ids: readonly string[]): void;
  /** Removes the pins, the popup and every listener the layer added to the map. */
  destroy(): void;
}

/** What both engines' pin layers are given. */
export interface PinLayerOptions {
  /** A cluster bubble's accessible name; `{count}` stands for its number of pins. */
  clusterLabel: string;
  /** The pins' group's name (`pin-group.ts`); `{count}` stands for the number of pins in view. */
  pinsLabel: string;
  /** Said once a bubble's zoom from the keyboard has put the focus on what it split into; `{count}` is the bubble's count. */
  zoomedInLabel: string;
  /** Told whenever the open popup changes: the pin's id, or null when it closed. */
  onOpenPinChange: (id: string | null) => void;
  /** Told when the user clicks, taps or presses Enter or Space on a pin (before its popup opens). */
  onPinClick: (id: string) => void;
  /** Told when the user activates a bubble that splits beyond the map's maximum zoom (see `listsPins`). */
  onBubblePins: (bubble: BubblePins) => void;
  /** Makes the content of a pin's popup, each time one opens (`MapAdapter.setPopupContent`). */
  popupContent: (pin: Pin) => HTMLElement;
  /** Told the app's pins' hosts whenever they change (`MapAdapter.onAppPinsChange`). */
  onAppPinsChange: (hosts: ReadonlyMap<string, AppPinHost>) => void;
}

/**
 * Whether a bubble that splits at `expansionZoom` lists its pins when activated rather than zooming
 * there: the map's zoom goes no further than `maxZoom` (both MapLibre's zooms), so that zoom would
 * still show the bubble (Leaflet.markercluster spiderfies such a bubble; a list suits any count).
 */
export function listsPins(expansionZoom: number, maxZoom: number): boolean {
  return expansionZoom > maxZoom;
}

/**
 * The pin set a pin layer shows, as both views' layers keep it: its pins in order and by id, the
 * style of each pin, the set's category styles, an archive's categories, the set's credit, and
 * the categories hidden (kept from set to set).
 */
export class PinSetState {
  /** The set's pins, in its order (empty for pre-tiled pins). */
  list: Pin[] = [];
  /** The same pins by id. */
  byId = new PinsById([]);
  /** How each pin is drawn: one style object for the pins (or an archive's looks) that look alike. */
  styles = new SharedStyles();
  pinStyles: Readonly<Record<string, PinOptions>> = {};
  categories: readonly CategoryCount[] | undefined;
  attribution: string | undefined;
  hidden: ReadonlySet<string> = new Set();

  /** Takes a new set: its pins, styles (resolved afresh) and credit. The hidden categories stay. */
  replace(set: PinSet): void {
    this.list = set.pins;
    this.byId = new PinsById(set.pins);
    this.styles = new SharedStyles();
    this.pinStyles = set.pinStyles;
    this.categories = set.archive?.categories;
    this.attribution = set.attribution;
  }

  /** Takes a newer set of the same pins by id (`PinLayer.updatePins`): the styles resolved so far stay. */
  update(set: PinSet): void {
    this.list = set.pins;
    this.byId = new PinsById(set.pins);
    this.pinStyles = set.pinStyles;
    this.attribution = set.attribution;
  }

  /** Takes the categories to hide; false when they are those hidden already (nothing changes). */
  hide(categories: readonly string[]): boolean {
    const next = new Set(categories);
    if (next.size === this.hidden.size && [...next].every((category) => this.hidden.has(category))) return false;
    this.hidden = next;
    return true;
  }
}

/**
 * Where focus goes when a pin's popup closes: back to what opened it (`trigger`: the pin's button
 * or its keyboard stand-in), else to the caller's `returnFocus` (a popup opened from the pin list
 * or search), else to the pin's own marker, if it has one on the map.
 */
export function focusReturn(trigger: HTMLElement | undefined, returnFocus: (() => void) | undefined, marker: () => HTMLElement | undefined): (() => void) | undefined {
  const element = trigger ?? (returnFocus ? undefined : marker());
  return element ? () => element.focus({ preventScroll: true }) : returnFocus;
}

