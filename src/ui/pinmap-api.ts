/** The public face of `<Pinmap/>`: its props, its events and what its `ref` holds. */
import type { CSSProperties, ReactNode, Ref, RefObject } from 'react';
import type { MapStatus } from '../machines/map-status.machine.ts';
import type { LngLatBounds, MapLibreMap } from '../map/adapter.ts';
import type { PinmapConfigInput } from '../config/schema.ts';
import type { PinChangesInput } from '../config/pin-changes.ts';
import type { ViewState } from './view-state.ts';

/** Told the map's status (`loading`, `idle`, `error`) each time it changes; with the error's text when it fails. */
export type StatusListener = (status: MapStatus, error?: string) => void;

/**
 * What a `ref` on `<Pinmap/>` holds once the map exists (null before, and while a view switch
 * makes the next map): the camera, the popups and the MapLibre map itself.
 */
export interface PinmapRef {
  /** The camera now. */
  getViewState(): Required<ViewState>;
  /** Moves the camera at once to `viewState` (what it leaves out stays). */
  jumpTo(viewState: Partial<ViewState>): void;
  /**
   * Flies the camera to `viewState`, zooming out and in on the way. `duration` in ms; by default
   * MapLibre picks it from the distance, and it is 0 when the user prefers reduced motion.
   */
  flyTo(viewState: Partial<ViewState>, options?: { duration?: number }): void;
  /**
   * Fits `[[west, south], [east, north]]` (degrees) in the view, keeping the bearing. `maxZoom`
   * (default the map's `maxZoom`) caps the zoom; `duration` in ms as for `flyTo`.
   */
  fitBounds(bounds: LngLatBounds, options?: { maxZoom?: number; duration?: number }): void;
  /**
   * Opens the popup of the pin with this id (closing any other); false for an unknown id. With
   * pre-tiled pins, true while the pin is looked up in the archive (the popup opens when found).
   */
  openPin(id: string): boolean;
  /** Closes the open popup, if any. */
  closePin(): void;
  /**
   * Changes some of the map's pins by id, for an app that knows what changed (README, "Pins
   * that move"): `add` and `update` are GeoJSON Point features (checked as a pin file's are; a
   * bad one is skipped with its reason in the console), `remove` the ids of pins to take away.
   * Only these pins are drawn and grouped again; moved ones glide to their new place, and the
   * camera, the open popup, the focus and the WebGL context stay. An `add` of an id the map has,
   * or an `update` or `remove` of one it has not, is left out with a console warning. Throws a
   * `PinChangesError` naming the part for an argument of the wrong shape; the promise settles
   * once the pins are on the map. Calls apply one after the other.
   */
  updatePins(changes: PinChangesInput): Promise<void>;
  /**
   * The MapLibre map: the whole map in the vector view, the Leaflet map's vector layer in the
   * hybrid view; undefined where WebGL could not start. For what Pinmap does not wrap; a style
   * or camera changed behind Pinmap's back is not Pinmap's to keep.
   */
  getMap(): MapLibreMap | undefined;
}

/** What a pin event names: the pin's id. */
export interface PinEvent {
  /** The pin's id (its feature id or `properties.id`). */
  id: string;
}

/** A pin as `renderPopup` and the embed's `renderPopup` are given it. */
export interface PinmapPin {
  /** The pin's id (its feature id or `properties.id`). */
  id: string;
  title: string;
  /** '' when the pin has none. */
  description: string;
  /** An absolute http(s) URL, when the pin has one. */
  url?: string;
  category?: string;
  /** `[longitude, latitude]` in degrees. */
  coordinates: [number, number];
  /**
   * The pin's other properties that the config names in `popupFields`, `searchFields` or
   * `listDetailField`, as text (numbers too); only those are kept, so that a large set costs no
   * more than it shows.
   */
  properties: Record<string, string>;
}

/** The config keys that `<Pinmap/>` also takes as props of their own (a prop wins over the config's key). */
export type PinmapDataProps = Pick<PinmapConfigInput, 'pins' | 'pinStyles' | 'controls' | 'theme'>;

/** The props of `<Pinmap/>`: its config, the camera (uncontrolled or controlled), events as props and the ref. */
export interface PinmapProps extends PinmapDataProps {
  /**
   * The map's config (see the README's option table); validated here, with its errors shown in
   * place of the map. Changing `pins`, `pinStyles`, `searchFields`, `hiddenCategories`,
   * `controls`, `units`, `bearingSnap`, `trackUserLocation`, `fitToUserLocation` or `hash`
   * updates the map in place; `center`,
   * `zoom`, `bearing`, `pitch` and `openPin` are read when the map is made; any other change
   * makes a new map.
   */
  config?: PinmapConfigInput;
  /**
   * Uncontrolled camera: where the map starts (wins over the config's `center`, `zoom`, `bearing`,
   * `pitch`). Later changes are ignored: move the map through the ref, or control it with `viewState`.
   */
  initialViewState?: Partial<ViewState>;
  /**
   * Controlled camera: the map shows this view state, and tells every change with `onMove`. Keep it
   * in your state from `onMove`; a gesture that your state does not follow springs back when it ends.
   */
  viewState?: ViewState;
  /** Every camera change (gestures, controls, code), with the camera it reached. */
  onMove?: (event: { viewState: Required<ViewState> }) => void;
  /** The map's first idle: style, tiles and pins drawn. Told again for the next map after a view switch. */
  onLoad?: (event: { target: PinmapRef }) => void;
  /** The map failed (config errors, the style, WebGL), with the message it shows. */
  onError?: (event: { error: Error }) => void;
  /** The user clicked, tapped or pressed Enter or Space on a pin (its popup opens next). */
  onPinClick?: (event: PinEvent) => void;
  /** A pin's popup opened (by the user, the address' `?pin=` or the ref). */
  onPopupOpen?: (event: PinEvent) => void;
  /** A pin's popup closed. */
  onPopupClose?: (event: PinEvent) => void;
  /** Told every time the map's status changes; with the error's text when it fails. */
  onStatusChange?: StatusListener;
  /**
   * The content of a pin's popup, in place of the default (title, description, popup fields,
   * link): rendered through a portal into the popup, so it has your app's context, state and
   * handlers. The popup keeps its frame, close button, size cap, scrolling and keyboard
   * behaviour, and places itself again when the content changes size.
   */
  renderPopup?: (pin: PinmapPin) => ReactNode;
  /**
   * Controlled selection: the pin whose popup is open (null: none). A change flies to the pin and
   * opens its popup (null closes it). Leave it undefined for an uncontrolled map.
   */
  selectedPinId?: string | null;
  /**
   * The selection changed on the map (a pin clicked, the list, the search, Escape, the close
   * button): the pin's id, or null when its popup closed. Keep it in your state for `selectedPinId`.
   */
  onSelect?: (id: string | null) => void;
  /**
   * The ids of a few pins that `renderPin` draws (the selected one, one hovered in your list, a
   * price tag): at most 100, the first 100 taken (and a console warning) if more are given; ids of
   * no pin are passed over. A change redraws only those pins, on the same map.
   */
  highlightedPins?: readonly string[];
  /**
   * What a pin named in `highlightedPins` looks like: your element, rendered through a portal at
   * the pin's place in place of its pin icon, its bottom centre where the pin's tip is. The pin
   * keeps its click (its popup, `onPinClick`, `onSelect`), its place in the keyboard's walk and
   * its name there, and its room among the basemap's labels; every other pin is drawn as before.
   * It is drawn so only while the pin is shown on its own: a pin inside a bubble is part of the
   * bubble until the map shows it alone (so is a pin of a same-place fan, and, in the vector view,
   * a pre-tiled pin).
   */
  renderPin?: (pin: PinmapPin) => ReactNode;
  /** Classes added to the map's root element (beside `pinmap`). */
  className?: string;
  /** Inline style of the map's root element, such as its size (`{ width: '100%', height: 480 }`); rendered on a server too. */
  style?: CSSProperties;
  /** The imperative handle (see `PinmapRef`). */
  ref?: Ref<PinmapRef>;
}

export type PinmapEvents = Pick<PinmapProps, 'onMove' | 'onLoad' | 'onError' | 'onPinClick' | 'onPopupOpen' | 'onPopupClose' | 'onStatusChange' | 'onSelect'>;

/** The events of one `<Pinmap/>`, always the latest props (listeners registered once never go stale). */
export type EventsRef = RefObject<PinmapEvents>;
