import { CLUSTER_MAX_ZOOM, DEFAULTS } from './constants.ts';
import { PinGrouping } from './pin-grouping.ts';
import { PinIndex } from './pin-index.ts';
import { createPinElement, pinStyleKey, resolvePinStyle, type PinStyle } from './pin-icon.ts';
import type { Pin } from './pin-data.ts';

/**
 * What the DOM pins of both views share: the pin button, the cluster bubble, and the grouping of
 * nearby pins. Zooms here are MapLibre's (512 px tiles); the hybrid view converts Leaflet's.
 */

/** Every pin, whatever the view: clusters are made for the whole world at once. */
const WORLD: [number, number, number, number] = [-180, -90, 180, 90];

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
 * A pin as a DOM element: the pin icon, a real button named by the pin's title (`.pinmap-pin`,
 * `data-pin-id`). Its click and Enter/Space call `onOpen` (with whether the keyboard did), and
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
  element.setAttribute('tabindex', '0');
  element.setAttribute('aria-label', pin.title);
  element.title = pin.title;
  onClickNotDrag(element, () => onOpen(element, false));
  onActivate(element, () => onOpen(element, true));
  return element;
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

/** The DOM pins' and bubbles' buttons on a map of either view (not the legend's or the list's drawings). */
const MARKER_BUTTONS = '.maplibregl-marker.pinmap-pin, .maplibregl-marker.pinmap-cluster, .leaflet-marker-icon.pinmap-pin, .leaflet-marker-icon .pinmap-cluster';

/** How far inside the map's edges a pin or bubble that the keyboard reaches is brought (CSS px): clear of the corners' controls. */
const FOCUS_MARGIN = 50;

/**
 * Keeps the map whole as the keyboard goes from pin to pin: the browser scrolls an element it
 * focuses into view, and the map's container (whose overflow is hidden) would scroll with it,
 * shifting the map away from where its camera says it is. The container is put back at once, and
 * a pin or bubble that the keyboard focused wholly or partly beyond an edge is brought
 * `FOCUS_MARGIN` inside it by panning the map (`panBy`: the view moves right and down by dx and
 * dy CSS px, at once). Tab from the map itself goes to the first pin or bubble in view. Returns
 * what removes its listeners.
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
  // Tab from the map itself (MapLibre's canvas, Leaflet's container) goes to the first pin or
  // bubble in view, in the Tab order (`orderForKeyboard`), rather than to the first on the map,
  // which may be far north of the view; Shift+Tab from there goes back to those north of it.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
    const from = event.target;
    if (from !== container && !(from instanceof HTMLCanvasElement && from.classList.contains('maplibregl-canvas'))) return;
    const frame = container.getBoundingClientRect();
    for (const element of container.querySelectorAll<HTMLElement>(MARKER_BUTTONS)) {
      const box = element.getBoundingClientRect();
      if (box.left < frame.left || box.right > frame.right || box.top < frame.top || box.bottom > frame.bottom) continue;
      event.preventDefault();
      element.focus({ preventScroll: true });
      return;
    }
  };
  container.addEventListener('focusin', onFocusIn);
  container.addEventListener('scroll', unscroll);
  container.addEventListener('keydown', onKeyDown);
  return () => {
    container.removeEventListener('focusin', onFocusIn);
    container.removeEventListener('scroll', unscroll);
    container.removeEventListener('keydown', onKeyDown);
  };
}

/** Counts as a bubble's name writes them (1,234): one formatter for every bubble, made when first needed. */
let countFormat: Intl.NumberFormat | undefined;

/** A cluster bubble: a button showing how many pins it holds; activating it calls `onZoom`. */
export function clusterButton(count: number, label: string, onZoom: () => void): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = 'pinmap-cluster';
  element.dataset.count = String(count);
  element.textContent = abbreviate(count);
  // A map of many bubbles makes hundreds at once; `toLocaleString` would make a formatter for each.
  countFormat ??= new Intl.NumberFormat('en-US');
  const name = label.replace('{count}', countFormat.format(count));
  element.setAttribute('aria-label', name);
  element.title = name;
  const size = clusterDiameter(count);
  element.style.width = element.style.height = `${size}px`;
  onClickNotDrag(element, onZoom);
  return element;
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

/** The height of a row of the Tab order (`readingOrder`), px at the whole zoom (512 px tiles). */
export const TAB_ROW_PX = 64;

/**
 * The area around the view whose DOM pins and bubbles Tab reaches: the view and this share of it
 * again on every side. The hybrid view makes its markers only there; the vector view makes them
 * for the whole world and takes those beyond it out of the Tab order (`tabbableAround`).
 */
export const MARKER_AREA_PAD = 0.5;

/**
 * Takes DOM pins and bubbles beyond the area around the view (`MARKER_AREA_PAD`; `view` is
 * [west, south, east, north], west and east as the map gives them) out of the Tab order, and
 * puts those within it back, so that Tab goes from pin to pin near the view, not round the world.
 */
export function tabbableAround(markers: Iterable<OrderedMarker>, view: readonly [number, number, number, number]): void {
  const [west, south, east, north] = view;
  const dx = (east - west) * MARKER_AREA_PAD;
  const dy = (north - south) * MARKER_AREA_PAD;
  const [w, s, e, n] = [west - dx, south - dy, east + dx, north + dy];
  const wholeWidth = e - w >= 360;
  for (const { element, lngLat } of markers) {
    const [lng, lat] = lngLat;
    const inside = lat >= s && lat <= n && (wholeWidth || [lng, lng - 360, lng + 360].some((copy) => copy >= w && copy <= e));
    element.tabIndex = inside ? 0 : -1;
  }
}

/** A DOM pin or bubble to put in the Tab order: its element, and where it stands. */
export interface OrderedMarker {
  element: HTMLElement;
  lngLat: readonly [number, number];
}

/**
 * Where a point comes in the Tab order at a whole `zoom`: rows of `TAB_ROW_PX` on the map (in
 * Web Mercator at that zoom, so panning changes nothing), north to south, and in a row west to
 * east, as a page is read. Returns [row, longitude, -latitude] to compare in turn.
 */
export function readingOrder(lngLat: readonly [number, number], zoom: number): [number, number, number] {
  const lat = Math.max(-85.051129, Math.min(85.051129, lngLat[1]));
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * 512 * 2 ** zoom;
  return [Math.floor(y / TAB_ROW_PX), lngLat[0], -lngLat[1]];
}

/** What `moveBefore` is: a move that keeps focus, where the browser has it (Chrome 133). */
type MovableParent = Node & { moveBefore?: (node: Node, child: Node | null) => void };

/**
 * Puts DOM pins and bubbles (siblings in one parent) in reading order (`readingOrder`) in the
 * document, so Tab goes from one to the next as they are read on the map rather than in the
 * order they were added. Moves only the elements out of place (those added since), and keeps
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

/** Bubble diameter by count, inside its ring: the GPU layer's bubble images have the same steps. */
export function clusterDiameter(count: number): number {
  return 2 * (count < 10 ? 14 : count < 100 ? 17 : count < 1000 ? 21 : 26);
}

/** 1234 → '1.2k', as MapLibre abbreviates cluster counts. */
export function abbreviate(count: number): string {
  if (count < 1000) return String(count);
  if (count < 10000) return `${Math.round(count / 100) / 10}k`;
  return `${Math.round(count / 1000)}k`;
}

/** A pin set's pins by id, made when one is first looked for: a large set that is only drawn never makes it. */
export class PinsById {
  private byId: Map<string, Pin> | undefined;

  constructor(private readonly list: readonly Pin[]) {}

  get size(): number {
    return this.list.length;
  }

  get(id: string): Pin | undefined {
    if (!this.byId) {
      this.byId = new Map();
      for (const pin of this.list) this.byId.set(pin.id, pin);
    }
    return this.byId.get(id);
  }
}

/**
 * Pins' styles, one resolved style object per distinct look, so each is drawn (and rasterised)
 * once. A pin's style is found by its options object: the pins that share one (a category's pins
 * without options of their own, see `parsePins`, or an archive's look) are resolved and keyed
 * once, and a set of 100k such pins holds no entry per pin.
 */
export class SharedStyles {
  private readonly byKey = new Map<string, PinStyle>();
  private readonly byOptions = new WeakMap<Pin['options'], PinStyle>();

  /** The style of a pin of any set: its options are resolved the first time they are seen. */
  of(pin: Pick<Pin, 'options'>): PinStyle {
    let shared = this.byOptions.get(pin.options);
    if (!shared) {
      const style = resolvePinStyle(pin.options);
      const key = pinStyleKey(style);
      shared = this.byKey.get(key) ?? style;
      this.byKey.set(key, shared);
      this.byOptions.set(pin.options, shared);
    }
    return shared;
  }

  /** The distinct styles of `pins`. */
  distinct(pins: Iterable<Pick<Pin, 'options'>>): Set<PinStyle> {
    const styles = new Set<PinStyle>();
    for (const pin of pins) styles.add(this.of(pin));
    return styles;
  }
}

/** At one whole zoom: a bubble of several pins, or one pin standing alone. */
export type PinGroup =
  | { kind: 'cluster'; key: string; clusterId: number; count: number; lngLat: [number, number] }
  | { kind: 'pin'; key: string; id: string };

/**
 * The grouping of a pin set at each whole zoom (`PinGrouping`, as the GPU pins' index groups
 * them): which bubbles and lone pins show, where a bubble splits, and from which zoom a
 * pin stands alone.
 */
export class PinClusters {
  private readonly index: PinGrouping;

  /** Each pin's index in the list, by id: made when a pin is first looked for (a deep link), not with every set. */
  private indexOf: Map<string, number> | undefined;

  constructor(private readonly list: Pin[]) {
    this.index = new PinGrouping({ lngLats: lngLatsOf(list) });
  }

  /** The groups at a zoom (fractional zooms group as the whole zoom below), within `bbox` ([w, s, e, n]; default the world). */
  groupsAt(zoom: number, bbox: [number, number, number, number] = WORLD): PinGroup[] {
    const groups: PinGroup[] = [];
    this.index.visit(bbox, wholeZoom(zoom), {
      pin: (i) => {
        const id = this.list[i]!.id;
        groups.push({ kind: 'pin', key: `pin:${id}`, id });
      },
      bubble: (lng, lat, count, clusterId) => groups.push({ kind: 'cluster', key: `cluster:${clusterId}`, clusterId, count, lngLat: [lng, lat] }),
    });
    return groups;
  }

  /** The zoom at which a bubble splits into smaller groups. */
  expansionZoom(clusterId: number): number {
    return this.index.expansionZoom(clusterId);
  }

  /** The lowest whole zoom, from `fromZoom` up, at which the pin is not in any bubble (see `PinGrouping.revealZoom`). */
  revealZoom(id: string, fromZoom: number): number {
    if (!this.indexOf) {
      this.indexOf = new Map();
      for (let i = 0; i < this.list.length; i++) this.indexOf.set(this.list[i]!.id, i);
    }
    const i = this.indexOf.get(id);
    return i === undefined ? CLUSTER_MAX_ZOOM + 1 : this.index.revealZoom(i, fromZoom);
  }
}

function wholeZoom(zoom: number): number {
  return Math.max(0, Math.floor(zoom));
}

/** Each pin's longitude and latitude, in the list's order: what the groupings are made from. */
export function lngLatsOf(list: readonly Pin[]): Float64Array {
  const lngLats = new Float64Array(2 * list.length);
  list.forEach((pin, i) => {
    lngLats[2 * i] = pin.lngLat[0];
    lngLats[2 * i + 1] = pin.lngLat[1];
  });
  return lngLats;
}

/**
 * The groups of `PinClusters`, made in the pin index's worker (`PinIndex`) for a large set, whose
 * grouping would otherwise hold the page up while the map loads; so every answer comes later.
 * Pins are grouped from the whole list, `visible` leaving out the hidden ones.
 */
export class IndexedPinClusters {
  private readonly index: PinIndex;

  /** `zoom`: the map's, whose range of zooms is grouped first. */
  constructor(
    private readonly list: readonly Pin[],
    zoom: number,
    visible: Uint8Array | undefined,
  ) {
    this.index = new PinIndex(lngLatsOf(list), zoom, undefined, visible);
  }

  /** As `PinClusters.groupsAt`, in the same order. */
  async groupsAt(zoom: number, bbox: [number, number, number, number] = WORLD): Promise<PinGroup[]> {
    const { pins, clusters, order } = await this.index.groups(bbox, wholeZoom(zoom));
    const groups: PinGroup[] = [];
    let pin = 0;
    let bubble = 0;
    for (const kind of order) {
      if (kind === 0) {
        const id = this.list[pins[pin++]!]!.id;
        groups.push({ kind: 'pin', key: `pin:${id}`, id });
      } else {
        const at = 4 * bubble++;
        const clusterId = clusters[at + 3]!;
        groups.push({ kind: 'cluster', key: `cluster:${clusterId}`, clusterId, count: clusters[at + 2]!, lngLat: [clusters[at]!, clusters[at + 1]!] });
      }
    }
    return groups;
  }

  /** Groups the pins again with only those `visible` marks (none: every pin); later answers have the new groups. */
  filter(visible: Uint8Array | undefined, zoom: number): void {
    this.index.filter(visible, zoom).catch(() => {}); // a later answer fails the same way and says so
  }

  expansionZoom(clusterId: number): Promise<number> {
    return this.index.expansionZoom(clusterId);
  }

  /** As `PinClusters.revealZoom`. */
  async revealZoom(id: string, fromZoom: number): Promise<number> {
    // Asked rarely (`?pin=`), so the pin is found by a scan.
    const at = this.list.findIndex((pin) => pin.id === id);
    return at < 0 ? CLUSTER_MAX_ZOOM + 1 : this.index.revealZoom(at, fromZoom);
  }

  destroy(): void {
    this.index.destroy();
  }
}
