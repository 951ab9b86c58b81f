import type { Map as MapLibreMap } from 'maplibre-gl';

export type { MapLibreMap };
import type { Camera, ViewName } from '../config/address.ts';
import type { MapStatusEvent } from '../machines/map-status.machine.ts';
import type { Pin, PinArchive, PinSet, CategoryCount, ShownBubble } from '../pins/types.ts';
import type { PinOptions } from '../config/pin-options.ts';
import type { Theme } from '../config/schema.ts';
import type { FitPadding } from '../config/constants.ts';
import type { AppPinHost } from './app-pins.ts';

export type { AppPinHost };

/** `[[west, south], [east, north]]` in degrees. */
export type LngLatBounds = [[number, number], [number, number]];

/**
 * A camera animation started by code. Its `tag` comes back on the motion events it causes, so
 * whoever started it (the camera machine) knows when it ended or was cut short.
 */
export interface AnimationOptions {
  /** Names the animation in its `motion.started` / `motion.ended` events. */
  tag: string;
  /** Length in ms; 0 moves at once. For `flyTo`, undefined lets the engine pick a length from the distance. */
  duration?: number;
}

/** What `fitBounds` needs beyond the animation: the zoom it must not exceed, and the room to keep around the box (px; none by default). */
export interface FitOptions extends AnimationOptions {
  maxZoom: number;
  padding?: FitPadding | undefined;
}

/** A user gesture, as the engine recognised it. */
export type Gesture = 'drag' | 'zoom' | 'rotate' | 'pitch';

/**
 * How the camera moves, as controls and machines need to know it:
 * - `motion.started` / `motion.ended`: a camera movement begins or ends, with the `tag` of the
 *   animation that caused it (none for gestures, jumps and the engine's own moves), and whether a
 *   user's input drove it. `completed` says whether a tagged animation ran its full course or was
 *   cut short (stopped, replaced, or taken over by a gesture, whose start follows this end).
 * - `motion.frame`: the map drew a frame of the tagged animation: it is still under way.
 * - `user.gesture`: the user started dragging, zooming, rotating or pitching the map.
 * - `user.moveEnded`: a movement the user drove ended, with this bearing (bearing snap reads it).
 */
export type MapMotionEvent =
  | { type: 'motion.started'; tag: string | undefined; byUser: boolean }
  | { type: 'motion.ended'; tag: string | undefined; byUser: boolean; completed: boolean }
  | { type: 'motion.frame'; tag: string }
  | { type: 'user.gesture'; gesture: Gesture }
  | { type: 'user.moveEnded'; bearing: number };

/** The user's position as the map shows it: a dot and a circle of the accuracy's radius. */
export interface UserLocation {
  lngLat: [number, number];
  /** Radius of the accuracy circle, in metres. */
  accuracy: number;
  /** A position that could not be refreshed (a later error): the dot turns grey. */
  stale: boolean;
}

/**
 * The one small surface that controls, machines and the React layer use to talk to a map.
 * Each engine (vector: MapLibre; hybrid: Leaflet holding MapLibre) implements it in one module,
 * so nothing outside `src/map` imports MapLibre or Leaflet.
 */
export interface MapAdapter {
  readonly view: ViewName;
  /** Whether the map can rotate and pitch (the hybrid view cannot: its bearing stays 0). */
  readonly canRotate: boolean;
  /** The camera now, in MapLibre's terms (512 px tiles), whatever the engine. */
  getCamera(): Camera;
  /** The zoom range the map allows. */
  getZoomRange(): { min: number; max: number };
  /** Moves the camera at once, without animation. */
  jumpTo(camera: Partial<Camera>): void;
  /** Eases the camera to `camera` over `options.duration` ms. */
  easeTo(camera: Partial<Camera>, options: AnimationOptions): void;
  /** Flies the camera (zooming out and in on the way) to `camera`: the move to a pin. */
  flyTo(camera: Partial<Camera>, options: AnimationOptions): void;
  /**
   * Fits `bounds` in the view, keeping the bearing, zooming no further than `options.maxZoom`, with
   * `options.padding` around it. East may pass 180 (a box across the antimeridian: 170 to 190).
   */
  fitBounds(bounds: LngLatBounds, options: FitOptions): void;
  /** Stops whatever animation runs, where it is (it then reports `motion.ended`). */
  stopAnimation(): void;
  /**
   * The map's box lost `pixels` at its top (a strip above it came; negative: the strip went, and
   * the box grew by as much): fits the map to its box at once and pans by half of it, so what is
   * drawn (pins, streets, popups) stays where it was on the screen. Only the camera's centre
   * moves (to the middle of the drawn map).
   */
  resizeFromTop(pixels: number): void;
  /** Called on every camera change (user gestures and code alike). Returns an unsubscribe. */
  onCameraChange(listener: (camera: Camera) => void): () => void;
  /**
   * Shows the pins once `pins` resolves (replacing any shown); until then the map does not
   * report itself idle. A rejected promise leaves the map without pins. The returned promise
   * settles once the pins are on the map (or known not to come).
   */
  setPins(pins: Promise<PinSet>): Promise<void>;
  /**
   * Shows a newer set of the pins shown, by pin id, once `pins` resolves (README, "Pins that
   * move"): only added, removed and changed pins are drawn and grouped again, moved ones glide,
   * and the camera, the open popup (following its pin), the focus and the WebGL context stay. A
   * set that cannot be taken so (pre-tiled pins) is shown as `setPins` shows it.
   */
  updatePins(pins: Promise<PinSet>): Promise<void>;
  /**
   * Opens a pin's popup (closing any other); false for an unknown id. The map pans to show the
   * whole popup unless `pan` is false (a popup carried over from the other view keeps the camera).
   * Pre-tiled pins not looked up yet: true, and the popup opens when the archive's pin index
   * answers (a console warning if it has no such pin).
   */
  openPin(id: string, options?: OpenPinOptions): boolean;
  /** Where the camera goes to show a pin (its point, at a zoom where it stands alone); undefined for an unknown id. */
  pinView(id: string): Promise<{ center: [number, number]; zoom: number } | undefined>;
  /** Closes the open popup, if any. */
  closePin(): void;
  /**
   * What popups opened from now on hold: what `content` makes for their pin, inside the popup's
   * own frame (close button, size cap, focus and Escape stay the popup's); the default content
   * (title, description, popup fields, link) when undefined.
   */
  setPopupContent(content: PopupContent | undefined): void;
  /**
   * The pins the app draws itself (`<Pinmap highlightedPins renderPin/>`; see `app-pins.ts`), at
   * most `APP_PIN_LIMIT`: each, where it is shown on its own, has a host element in place of its
   * icon (`onAppPinsChange`). An empty list: none. Kept for the next pin set.
   */
  setAppPins(ids: readonly string[]): void;
  /** Called with the app's pins' hosts, by pin id, whenever they change (pins shown alone or not any more, new ids). Returns an unsubscribe. */
  onAppPinsChange(listener: (hosts: ReadonlyMap<string, AppPinHost>) => void): () => void;
  /** Called with the pin's id when a popup opens and null when it closes. Returns an unsubscribe. */
  onOpenPinChange(listener: (id: string | null) => void): () => void;
  /** Called with the pin's id when the user clicks, taps or presses Enter or Space on a pin. Returns an unsubscribe. */
  onPinClick(listener: (id: string) => void): () => void;
  /** Called on camera movements and user gestures (see `MapMotionEvent`). Returns an unsubscribe. */
  onMotion(listener: (event: MapMotionEvent) => void): () => void;
  /**
   * Metres between two points `pixels` apart, centred horizontally at the vertical middle of the
   * map (what the scale shows); undefined while the map has no size.
   */
  measure(pixels: number): number | undefined;
  /** Shows the user's position (dot and accuracy circle), or removes it with `undefined`. */
  setUserLocation(location: UserLocation | undefined): void;
  /**
   * The attributions of every source that a visible layer uses at the current zoom, as their
   * sources give them (HTML text, unsanitised: render it with care), in style order.
   */
  getAttributions(): string[];
  /** Called when the attributions may have changed (style, sources, zoom). Returns an unsubscribe. */
  onAttributionsChange(listener: () => void): () => void;
  /**
   * The MapLibre map that draws the vector map: the whole map in the vector view, the Leaflet
   * map's vector layer in the hybrid view. Undefined where WebGL could not start.
   */
  getMap(): MapLibreMap | undefined;
  /** The pins of the set on the map (every category, hidden or not), in the set's order; empty before a set is placed. */
  getPins(): readonly Pin[];
  /** The set's category styles (`PinSet.pinStyles`: the file's with config's over them), for the legend. */
  getPinStyles(): Readonly<Record<string, PinOptions>>;
  /**
   * The set's categories and how many pins each has, when `getPins` does not hold them all:
   * pre-tiled pins, from the archive's metadata (a count undefined for an archive made before
   * archives kept counts). Undefined for inline pins (the legend counts `getPins`).
   */
  getCategoryCounts(): readonly CategoryCount[] | undefined;
  /**
   * Pre-tiled pins: the pins the map draws now as pins (not those in bubbles; hidden categories
   * left out), from the archive's tiles read for the view, for the pin list. Undefined for inline
   * pins (`getPins` holds them all).
   */
  getShownPins(): readonly Pin[] | undefined;
  /**
   * Pre-tiled pins: the bubbles the map draws now (in and around the view), each with the number of
   * its pins that show, for the pin list. Undefined for inline pins (`getPins` holds them all).
   */
  getShownBubbles(): readonly ShownBubble[] | undefined;
  /**
   * Pre-tiled pins: the archive they are drawn from (its search index, its pin index, its
   * metadata); undefined for inline pins.
   */
  getArchive(): PinArchive | undefined;
  /** Called when `getShownPins` may have changed (the tiles of a new view are drawn). Returns an unsubscribe. */
  onShownPinsChange(listener: () => void): () => void;
  /** Called once a new pin set is on the map. Returns an unsubscribe. */
  onPinsChange(listener: () => void): () => void;
  /**
   * Called when the user activates (click, Enter, Space) a bubble that the map cannot zoom into
   * (it splits beyond the map's maximum zoom): its pins are for a list. Returns an unsubscribe.
   */
  onBubblePins(listener: (bubble: BubblePins) => void): () => void;
  /**
   * A test of whether a point is in the view as it is now: within the map's visible area (its
   * rotated and pitched footprint in the vector view), on any copy of the world that shows.
   */
  viewContains(): (lngLat: [number, number]) => boolean;
  /**
   * Hides the pins of these categories (and shows every other): GPU pins are grouped again
   * without them, so bubbles count only what shows; DOM pins and Leaflet markers likewise. Kept
   * for the next pin set. A popup of a pin that is hidden closes.
   */
  setHiddenCategories(categories: readonly string[]): void;
  /**
   * Shows the basemap's look for `theme` (the embedded basemap's dark style, or the config's
   * `darkStyle`) in place: the map is not made again, and the camera, pins, open popup and the
   * user's position stay. A site's own style without a `darkStyle` stays as it is.
   */
  setTheme(theme: Theme): void;
  /** Loads the style again after a failure. */
  retry(): void;
  /** Frees the map, its WebGL context, its workers' listeners and its DOM. */
  destroy(): void;
}

/** A bubble that splits beyond the map's maximum zoom, activated: what lists its pins (`MapAdapter.onBubblePins`). */
export interface BubblePins {
  /** How many pins it holds (those that show). */
  count: number;
  /**
   * Its pins, in the set's order; rejects if they cannot be had (the pins were set again). A
   * pre-tiled bubble gives the first `BUBBLE_PINS_LISTED` only (`PinArchive.bubblePins`).
   */
  pins(): Promise<Pin[]>;
  /** The bubble's button (a GPU bubble's keyboard stand-in), where focus goes back to when the list closes; none for a GPU bubble clicked. */
  trigger: HTMLElement | undefined;
}

/**
 * Makes the content of a pin's popup: an element the popup holds as it is (a React app renders
 * into it through a portal). A popup re-anchors when its content changes size.
 */
export type PopupContent = (pin: Pin) => HTMLElement;

/** How `openPin` opens a popup. */
export interface OpenPinOptions {
  /** Pan the map to show the whole popup (default true); a popup carried over from the other view keeps the camera. */
  pan?: boolean;
  /** Opened from the keyboard: focus goes to the popup's close button (else to its content). */
  byKeyboard?: boolean;
  /** Where focus goes when the popup closes, for a popup opened from outside the map (the pin list, search). */
  returnFocus?: () => void;
}

/** What an engine reports while it lives: the map status machine's events. */
export type EngineEvents = {
  onStatus: (event: MapStatusEvent) => void;
  /**
   * Something the user should know that does not stop the map, such as the hybrid view going on
   * without its vector layer when WebGL cannot start.
   */
  onNotice?: (message: string) => void;
};
