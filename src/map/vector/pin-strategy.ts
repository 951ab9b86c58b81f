import type { PointLike } from 'maplibre-gl';
import type { PinStyle } from '../../pins/icon.ts';
import type { Pin, ShownBubble } from '../../pins/types.ts';
import type { BubblePins } from '../adapter.ts';
import type { PinLookup } from '../pin-archive.ts';
import type { PinsById } from '../../pins/data.ts';
import type { PinDiff } from '../../pins/diff.ts';

/**
 * One way the vector view's pin layer (`pins.ts`) draws a pin set, chosen for each set there:
 * DOM markers (`dom-pins-layer.ts`), an inline GL layer (`gl-pins-layer.ts`) or a pre-tiled layer
 * (`pretiled-pins-layer.ts`). The pin layer keeps what every mode shares (the set, the hidden
 * categories, the popup, the map click and the pin images) and asks its strategy the rest.
 */
export interface PinStrategy {
  /** How the pins are drawn: DOM markers, or symbols of the map's WebGL layers. */
  readonly mode: 'dom' | 'gl';
  /**
   * Settles once the pins are on the map (DOM markers at once; GPU pins once their first groups
   * and images are, or as far as the map goes with them). Rejects if a pin image cannot be drawn.
   */
  readonly placed: Promise<void>;
  /** Hides the pins of these categories and shows every other (the set was drawn with those given at the start). */
  setHidden(hidden: ReadonlySet<string>): void;
  /** The lowest zoom (from the current one up) at which a pin stands alone, not in a bubble. */
  revealZoom(id: string): number | Promise<number>;
  /** The element of the pin's own marker, which focus goes back to when its popup closes (DOM markers). */
  pinElement?(id: string): HTMLElement | undefined;
  /** Whether a pin or bubble of this strategy's symbols is drawn at `point` (a click there is not a click on the map). */
  hasPinAt?(point: PointLike): boolean;
  /** Pre-tiled pins: the archive's pin index, where a pin not found yet is looked up by id. */
  readonly lookup?: PinLookup;
  /** Pre-tiled pins: the pins the map draws now, from its loaded tiles. */
  shownPins?(): Pin[];
  /** Pre-tiled pins: the bubbles the map draws now, each with how many of its pins show. */
  shownBubbles?(): ShownBubble[];
  /**
   * Takes a newer set of the same pins by id (inline pins; see `PinLayer.updatePins`): removed
   * pins leave, added ones appear, and the set is grouped again, keeping every marker or bubble
   * that did not change. Moved pins stay where they were drawn until `moveMarker` moves them.
   */
  update?(next: PinUpdate): void | Promise<void>;
  /**
   * The pins the app draws itself (`app-pins.ts`), for a strategy whose pins are not DOM markers
   * (the inline GPU pins): it hides their symbols and gives each pin shown alone an app marker
   * (`.pinmap-app-marker`) in the pins' group. DOM pins need nothing: their buttons are dressed.
   */
  setAppPins?(ids: ReadonlySet<string>): void;
  /** Draws the pin at `lngLat` (a step of its glide to a new place). */
  moveMarker?(id: string, lngLat: [number, number]): void;
  /** Removes what it added to the map. */
  destroy(): void;
}

/** A newer set of the same pins (`PinStrategy.update`): its pins in order and by id, and what changed. */
export interface PinUpdate {
  list: Pin[];
  pins: PinsById;
  diff: PinDiff;
}

/** What every strategy is given by the pin layer. */
export interface PinStrategyInput {
  /** The categories hidden when the set is drawn. */
  hidden: ReadonlySet<string>;
  /** How a pin is drawn (its set's style, shared between pins that look alike: see `SharedStyles`). */
  styleOf: (pin: Pin) => PinStyle;
  /** A cluster bubble's accessible name; `{count}` stands for its number of pins. */
  clusterLabel: string;
  /** Told when the user clicks, taps or presses Enter or Space on a pin (before its popup opens). */
  onPinClick: (id: string) => void;
  /** Opens a pin's popup; focus goes back to `trigger` (the pin's button or stand-in) when it closes. */
  openPopup: (pin: Pin, trigger: HTMLElement | undefined, byKeyboard: boolean) => void;
  /** A bubble that splits beyond the map's maximum zoom was activated (see `listsPins`): its pins are for a list. */
  listBubble: (bubble: BubblePins) => void;
}
