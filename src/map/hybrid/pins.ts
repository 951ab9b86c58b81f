import L from 'leaflet';
import type { RequestTransformFunction } from 'maplibre-gl';
import { PinIcon } from './leaflet-pin-icon.ts';
import type { Pin, PinArchive, PinSet, ShownBubble } from '../../pins/types.ts';
import type { PinStyle } from '../../pins/icon.ts';
import { clusterButton, keepFocusedPinsInView, makePinButton, MARKER_AREA_PAD, orderForKeyboard, setClusterCount, type OrderedMarker } from '../dom-pins.ts';
import { IndexedPinClusters, PinClusters, type PinGroup } from '../../pins/grouping/clusters.ts';
import { PinSlots } from '../../pins/grouping/pin-slots.ts';
import { clusterDiameter } from '../../pins/bubble.ts';
import { pinLookup, type PinLookup } from '../pin-archive.ts';
import { hiddenCategoryIndices, revealZoomOf, shownBubbleCount } from '../../pins/archive-format.ts';
import { PinArchiveTiles, type Bbox } from '../pin-archive-tiles.ts';
import { isShown, nearestCopy } from '../../pins/filter.ts';
import { reasonOf } from '../../config/errors.ts';
import { collisionBoxes, type CollisionBox } from '../label-collision.ts';
import { createPinGroup } from '../pin-group.ts';
import { AppPinHosts } from '../app-pins.ts';
import { PinGlides } from '../pin-glide.ts';
import { followUpdate, redrawKeepingPopup, takeUpdate } from '../pin-update.ts';
import { PinSetState, focusReturn, listsPins, type PinLayer, type PinLayerMode, type PinLayerOptions } from '../pin-layer.ts';
import { createHybridFan } from './pin-fan-out.ts';
import { createLeafletPopup } from './pin-popup.ts';
import { toLeafletZoom, toMapLibreZoom } from './zoom.ts';
import '../../pins/icon-font.ts';

/** What the hybrid view's pin layer is given beyond what both views' are. */
export interface HybridPinOptions extends PinLayerOptions {
  /**
   * Inline sets of more pins than this are grouped in the pin index's worker, as the vector view's
   * GPU pins are (its `domPinLimit`); smaller ones on the page, at once.
   */
  groupInWorkerAbove: number;
  /** How long, in ms, a pin moved by an update glides to its new place (config `pinTransition`). */
  pinTransition: number;
  /** The popup's close button's name. */
  closeLabel: string;
  /** Told the boxes of the pins and bubbles shown whenever they change (labels keep out from under them). */
  onShown?: (boxes: CollisionBox[]) => void;
  /** Told when the groups of a view are asked for and when they show (a pin archive's tiles, the pin index's worker): the map is not idle meanwhile. */
  onLoading?: (loading: boolean) => void;
  /** The request transform of the map's requests (the token rule), for a pin archive's tiles. */
  transformRequest?: RequestTransformFunction;
  /** Told when pre-tiled pins of a new view are on the map (`PinLayer.shownPins` changed). */
  onTiledPinsShown?: () => void;
  /** Told when a pin archive's tiles cannot be read because the archive is at fault (see `PinArchiveTiles`): its URL and why, once per reason. */
  onArchiveUnreadable?: (url: string, reason: string) => void;
}

/** A bubble or a lone pin as the markers show it, from inline pins' grouping or an archive's tiles. */
type ShownGroup =
  | {
      kind: 'cluster';
      key: string;
      count: number;
      lngLat: [number, number];
      expansionZoom: () => number | Promise<number>;
      /** Its pins, for a bubble that splits beyond the map's maximum zoom (`listsPins`); none: it zooms as far as the map goes. */
      leaves?: () => Promise<Pin[]>;
    }
  | { kind: 'pin'; key: string; pin: Pin };
type ShownCluster = Extract<ShownGroup, { kind: 'cluster' }>;

/**
 * Pins in Leaflet: each a Leaflet marker whose icon is the `PinIcon` (one shared icon per pin
 * style), its element the same pin button as in the vector view. Pins group into bubbles at each
 * whole zoom exactly as in the vector view; only the groups in and around the view become
 * markers, so a large set costs no more than what is seen. One popup at a time, with the same
 * content, at the pin's popupAnchor.
 *
 * Pre-tiled pins (`pins: "pmtiles://…"`) are the same markers and bubbles: their groups come from
 * the archive's tiles of the view's whole zoom (`PinArchiveTiles`), read after each move, instead
 * of from a grouping on the page. So they are buttons too (Tab, Enter), and show without WebGL.
 */
export function createHybridPins(map: L.Map, options: HybridPinOptions): PinLayer {
  /** The set, and every pin's style: the inline set's and the archive's looks alike. */
  const state = new PinSetState();
  let icons = new Map<PinStyle, PinIcon>();
  let clusters: PinClusters | IndexedPinClusters | undefined;
  /** The slots the grouping knows the inline pins by, kept through updates by id (`PinSlots`): a bubble whose pins stay keeps its key. */
  const slots = new PinSlots([]);
  /** Each bubble marker's group of the moment: a regrouping keeps the marker of the same key and tells it its group (`show`). */
  const bubbleGroups = new WeakMap<L.Marker, ShownCluster>();
  /** Pre-tiled pins: the archive, and its tiles as the page reads them. */
  let archive: PinArchive | undefined;
  let tiles: PinArchiveTiles | undefined;
  /** Pre-tiled pins and bubbles on the map now, and the pins looked up in the archive's pin index (by id). */
  let tiledPins = new Map<string, Pin>();
  let tiledBubbles: ShownBubble[] = [];
  let found: PinLookup | undefined;
  /** Counts the reads of groups (the archive's tiles, or the pin index's worker): only the latest one's are shown. */
  let groupsRequest = 0;
  /** The pins were grouped afresh (categories hidden or shown): the next groups replace every marker shown. */
  let regrouped = false;
  let loading = false;
  const markers = new Map<string, L.Marker>();
  let shown = new Map<string, L.Marker>();
  const glides = new PinGlides(options.pinTransition);
  const layer = L.layerGroup().addTo(map);
  const popup = createLeafletPopup(map, options);
  // The pins and bubbles (Leaflet's marker pane holds them) are one Tab stop.
  const pinGroup = createPinGroup(map.getContainer(), map.getPane('markerPane')!, {
    label: options.pinsLabel,
    zoomedInLabel: options.zoomedInLabel,
    mapElement: () => map.getContainer(),
    // Leaflet's world pixels (256 px tiles at its zoom, one more than MapLibre's) are MapLibre's.
    topInWorld: () => map.project(map.containerPointToLatLng([0, 0])).y,
  });
  // Same-place pins fan out instead of opening the popup of the one on top (see pin-fan-out.ts).
  const fan = createHybridFan(map, {
    styleOf: (pin) => styleOf(pin),
    pinOf: (id) => findPin(id),
    onPick(pin, stack, byKeyboard) {
      options.onPinClick(pin.id);
      openFound(pin.id, (full) => openPin(full, stack, byKeyboard));
    },
  });

  // The pins the app draws itself: their buttons in the marker pane take its elements.
  const appPins = new AppPinHosts(map.getPane('markerPane')!, (id) => findPin(id), options.onAppPinsChange);

  /** Every pin is a DOM marker, inline or pre-tiled. */
  const mode = (): PinLayerMode => (state.byId.size > 0 || archive ? 'dom' : 'none');

  const setLoading = (next: boolean) => {
    if (next === loading) return;
    loading = next;
    options.onLoading?.(next);
  };

  /** A pin's style: the inline set's, or its archive look's. */
  function styleOf(pin: Pin): PinStyle {
    return state.styles.of(pin);
  }

  /** The pin with this id: of the inline set, or a pre-tiled one found in the pin index or on the map. */
  function findPin(id: string): Pin | undefined {
    return state.byId.get(id) ?? found?.known(id)?.pin ?? tiledPins.get(id);
  }

  /**
   * Opens a pin's popup; a pre-tiled pin's once the archive's pin index has given its popup
   * fields (its tile has only what its button needs).
   */
  function openFound(id: string, open: (pin: Pin) => void): boolean {
    const known = state.byId.get(id) ?? found?.known(id)?.pin;
    if (known) {
      open(known);
      return true;
    }
    const lookup = found;
    if (!lookup) return false;
    lookup.open(id, open, () => found === lookup);
    return true;
  }

  function openPin(pin: Pin, trigger: HTMLElement | undefined, byKeyboard: boolean, pan = true, returnFocus?: () => void) {
    popup.open(pin, styleOf(pin), focusReturn(trigger, returnFocus, () => markers.get(pin.id)?.getElement()), byKeyboard, pan);
  }

  /** Groups the pins that show (every category but the hidden ones): a large set in the pin index's worker. */
  function group(listChanged = false) {
    const { list: pinList, hidden } = state;
    slots.update(pinList);
    const visible = slots.visible(hidden);
    if (pinList.length > options.groupInWorkerAbove) {
      const zoom = toMapLibreZoom(map.getZoom());
      if (clusters instanceof IndexedPinClusters) {
        if (listChanged) clusters.reload(slots.pins, zoom, visible);
        else clusters.filter(visible, zoom);
      } else clusters = new IndexedPinClusters(slots.pins, zoom, visible);
      return;
    }
    if (clusters instanceof IndexedPinClusters) clusters.destroy();
    clusters = visible?.every((flag) => flag === 0) || slots.size === 0 ? undefined : new PinClusters(slots.pins, visible);
  }

  function pinMarker(pin: Pin): L.Marker {
    const existing = markers.get(pin.id);
    if (existing) return existing;
    const style = styleOf(pin);
    let icon = icons.get(style);
    if (!icon) {
      icon = new PinIcon(style);
      icons.set(style, icon);
    }
    // Not Leaflet's own pan on focus (an eased pan, which would undo `keepFocusedPinsInView`'s).
    const marker = L.marker(pin.lngLat.slice().reverse() as [number, number], { icon, keyboard: false, interactive: false, autoPanOnFocus: false });
    // Leaflet makes a new element each time the marker is added: make it the pin button.
    marker.on('add', () =>
      makePinButton(marker.getElement()!, pin, (trigger, byKeyboard) => {
        options.onPinClick(pin.id);
        // The pin as it is now: an update may have changed its text since the marker was made.
        const now = state.byId.get(pin.id) ?? pin;
        if (!fan.open(now, trigger, byKeyboard)) openFound(pin.id, (full) => openPin(full, trigger, byKeyboard));
      }),
    );
    markers.set(pin.id, marker);
    return marker;
  }

  /**
   * A bubble's marker: activating it zooms to where it splits, or lists its pins if the map cannot
   * zoom that far (`listsPins`), as its group of the moment says (`bubbleGroups`).
   */
  function clusterMarker(group: ShownCluster): L.Marker {
    const size = clusterDiameter(group.count);
    const zoomInto = ({ count, leaves }: ShownCluster, zoom: number) => {
      if (leaves && listsPins(zoom, toMapLibreZoom(map.getMaxZoom()))) {
        fan.fold();
        pinGroup.listed();
        options.onBubblePins({ count, pins: leaves, trigger: marker.getElement()?.querySelector<HTMLElement>('.pinmap-cluster') ?? undefined });
      } else map.setView(marker.getLatLng(), toLeafletZoom(zoom));
    };
    const marker = L.marker([group.lngLat[1], group.lngLat[0]], {
      icon: L.divIcon({
        className: 'pinmap-cluster-marker',
        iconSize: [size, size],
        html: clusterButton(group.count, options.clusterLabel, () => {
          const now = bubbleGroups.get(marker)!;
          const zoom = now.expansionZoom();
          if (typeof zoom === 'number') zoomInto(now, zoom);
          // The pin index answers later; a set replaced meanwhile has no such bubble any more.
          else zoom.then((answer) => zoomInto(now, answer), () => {});
        }),
      }),
      keyboard: false,
      interactive: false,
      autoPanOnFocus: false,
    });
    bubbleGroups.set(marker, group);
    return marker;
  }

  /** A bubble kept through a regrouping (the same key) takes its group of now: its count is told in place, on the same button. */
  function retellBubble(marker: L.Marker, group: ShownCluster) {
    const was = bubbleGroups.get(marker);
    bubbleGroups.set(marker, group);
    if (!was || was.count === group.count) return;
    const size = clusterDiameter(group.count);
    const icon = marker.options.icon as L.DivIcon;
    // Its icon holds the button itself (made again from it if the marker is added again).
    icon.options.iconSize = [size, size];
    icon.options.iconAnchor = [size / 2, size / 2];
    const element = marker.getElement();
    if (element) {
      element.style.width = element.style.height = `${size}px`;
      element.style.marginLeft = element.style.marginTop = `${-size / 2}px`;
    }
    setClusterCount(icon.options.html as HTMLElement, group.count, options.clusterLabel);
  }

  /** The view and half of it again on every side (`MARKER_AREA_PAD`); west and east unwrapped (they may pass ±180). */
  function viewBox(): Bbox {
    const bounds = map.getBounds().pad(MARKER_AREA_PAD);
    return [bounds.getWest(), Math.max(-90, bounds.getSouth()), bounds.getEast(), Math.min(90, bounds.getNorth())];
  }

  /**
   * Markers for the groups at the current whole zoom, in and around the view, on the world copy
   * in view; resolves once they show when they come later (an archive's tiles, the pin index's worker).
   */
  function render(): Promise<void> | undefined {
    if (tiles) return renderTiled(tiles);
    if (!clusters) {
      // Every pin's category is hidden: no groups to show.
      if (regrouped) {
        clearRegrouped();
        options.onShown?.([]);
      }
      return;
    }
    const grouping = clusters;
    const zoom = toMapLibreZoom(map.getZoom());
    const [west, south, east, north] = viewBox();
    const bbox: [number, number, number, number] = east - west >= 360 ? [-180, south, 180, north] : [wrap(west), south, wrap(east), north];
    if (grouping instanceof PinClusters) return void showGroups(grouping, grouping.groupsAt(zoom, bbox));
    const asked = ++groupsRequest;
    setLoading(true);
    return grouping.groupsAt(zoom, bbox).then(
      (groups) => {
        if (asked !== groupsRequest || grouping !== clusters) return;
        showGroups(grouping, groups);
        setLoading(false);
      },
      (error: unknown) => {
        if (asked !== groupsRequest || grouping !== clusters) return;
        console.error(`Pinmap: the pins could not be grouped: ${reasonOf(error)}`);
        setLoading(false);
      },
    );
  }

  /** Shows inline pins' groups, and keeps the basemap's labels from under them. */
  function showGroups(grouping: PinClusters | IndexedPinClusters, groups: PinGroup[]) {
    if (regrouped) clearRegrouped();
    const list: ShownGroup[] = [];
    for (const group of groups) {
      // A bubble kept through an update (the same key) is told this group, of this grouping.
      if (group.kind === 'cluster') {
        list.push({ ...group, expansionZoom: () => grouping.expansionZoom(group.clusterId), leaves: async () => grouping.leaves(group.clusterId) });
      }
      else {
        const pin = state.byId.get(group.id);
        if (pin) list.push({ kind: 'pin', key: group.key, pin });
      }
    }
    show(list);
    options.onShown?.(collisionBoxes(groups, state.byId, styleOf));
  }

  /** After a new grouping every group is new (a bubble's id may now stand for other pins): the old markers go. */
  function clearRegrouped() {
    regrouped = false;
    layer.clearLayers();
    shown = new Map();
  }

  /** Pre-tiled pins: the groups of the view's tiles, once read (a later move's read replaces this one's). */
  async function renderTiled(source: PinArchiveTiles) {
    const asked = ++groupsRequest;
    setLoading(true);
    const found = await source.groupsAt(toMapLibreZoom(map.getZoom()), viewBox());
    if (asked !== groupsRequest || source !== tiles) return;
    const list: ShownGroup[] = [];
    const onMap = new Map<string, Pin>();
    const bubbles: ShownBubble[] = [];
    // Hidden categories leave each bubble (an archive of version 2: its bubbles keep their counts).
    const hiddenIndices = archive?.bubbleCategories ? hiddenCategoryIndices(archive.metadata, state.hidden) : [];
    for (const group of found) {
      if (group.kind === 'pin') {
        if (!isShown(group.pin, state.hidden)) continue;
        onMap.set(group.pin.id, group.pin);
        list.push(group);
        continue;
      }
      const count = hiddenIndices.length === 0 ? group.count : shownBubbleCount(group.properties, hiddenIndices);
      if (count === 0) continue;
      // A bubble of another count is another marker.
      const key = count === group.count ? group.key : `${group.key} ${count}`;
      const leaves = archive?.bubblePins?.bind(archive, group.properties, group.lngLat, state.hidden);
      list.push({ kind: 'cluster', key, count, lngLat: group.lngLat, expansionZoom: () => group.expansionZoom, ...(leaves ? { leaves } : {}) });
      bubbles.push({ key, count, lngLat: group.lngLat, expansionZoom: group.expansionZoom });
    }
    tiledPins = onMap;
    tiledBubbles = bubbles;
    show(list);
    options.onTiledPinsShown?.();
    // Markers of pins gone from the map are made afresh if they come back (Leaflet remakes the element anyway).
    for (const id of markers.keys()) if (!onMap.has(id)) markers.delete(id);
    options.onShown?.(collisionBoxes(list.map(asPinGroup), onMap, styleOf));
    setLoading(false);
  }

  /** Shows these groups' markers (keeping those already shown), on the world copy in view. */
  function show(groups: ShownGroup[]) {
    const centerLng = map.getCenter().lng;
    const next = new Map<string, L.Marker>();
    for (const group of groups) {
      if (group.kind === 'cluster') {
        const kept = shown.get(group.key);
        if (kept) retellBubble(kept, group);
        const marker = kept ?? clusterMarker(group);
        marker.setLatLng([group.lngLat[1], nearestCopy(group.lngLat[0], centerLng)]);
        next.set(group.key, marker);
      } else {
        const { pin } = group;
        const marker = pinMarker(pin);
        // A gliding pin is where its glide has it.
        const at = glides.placeOf(pin.id) ?? pin.lngLat;
        marker.setLatLng([at[1], nearestCopy(at[0], centerLng)]);
        next.set(group.key, marker);
      }
    }
    for (const [key, marker] of shown) if (!next.has(key)) layer.removeLayer(marker);
    for (const [key, marker] of next) if (!shown.has(key)) layer.addLayer(marker);
    shown = next;
    const ordered: OrderedMarker[] = [];
    for (const marker of next.values()) {
      const element = marker.getElement();
      const at = marker.getLatLng();
      if (element) ordered.push({ element, lngLat: [at.lng, at.lat] });
    }
    orderForKeyboard(ordered, Math.floor(toMapLibreZoom(map.getZoom())));
    // The markers for where the camera rests are placed.
    pinGroup.rested();
  }

  map.on('zoomend moveend', render);
  // A pin or bubble reached by Tab beyond the view's edge is panned into it.
  const releaseFocus = keepFocusedPinsInView(map.getContainer(), (dx, dy) => map.panBy([dx, dy], { animate: false }));

  function clear() {
    glides.stopAll();
    fan.fold();
    popup.close();
    layer.clearLayers();
    markers.clear();
    shown = new Map();
    if (clusters instanceof IndexedPinClusters) clusters.destroy();
    clusters = undefined;
    archive = undefined;
    tiles = undefined;
    tiledPins = new Map();
    tiledBubbles = [];
    found = undefined;
    groupsRequest++;
    regrouped = false;
    setLoading(false);
    options.onShown?.([]);
  }

  async function setPins(set: PinSet) {
    clear();
    state.replace(set);
    icons = new Map();
    if (set.archive) {
      archive = set.archive;
      found = pinLookup(set.archive);
      tiles = new PinArchiveTiles(set.archive, options.transformRequest, options.onArchiveUnreadable);
      await renderTiled(tiles);
      return;
    }
    if (set.pins.length === 0) return;
    group();
    await render();
  }

  return {
    get mode() {
      return mode();
    },
    get attribution() {
      return mode() === 'dom' ? state.attribution : undefined;
    },
    // The pin index's worker starts when a large set is grouped (`IndexedPinClusters`), not ahead.
    expectPins: () => () => {},
    setPins,
    async updatePins(set) {
      if (set.archive || archive || state.list.length === 0 || set.pins.length === 0) {
        // Drawn another way: afresh, with the popup of a pin still there open again where it is.
        await redrawKeepingPopup(state, popup.openId(), () => setPins(set), (id) => state.byId.get(id), (pin) => openPin(pin, undefined, false, false));
        return;
      }
      const update = takeUpdate(state, set, glides, () => fan.fold());
      if (!update) return;
      // Pins that left, or look otherwise now, lose their marker (a new one is made for the latter).
      for (const id of [...update.diff.removed, ...update.diff.redrawn]) {
        const marker = markers.get(id);
        if (marker) layer.removeLayer(marker);
        markers.delete(id);
        shown.delete(`pin:${id}`);
      }
      followUpdate(state, update, glides, popup, () => popup.openId(), (id, at) => markers.get(id)?.setLatLng([at[1], nearestCopy(at[0], map.getCenter().lng)]));
      group(true);
      await render();
      // A named pin's text may have changed: the app draws it anew.
      appPins.schedule();
    },
    open(id, openOptions) {
      // Pre-tiled pins: the popup opens when the pin index answers.
      return openFound(id, (pin) => openPin(pin, undefined, openOptions?.byKeyboard ?? false, openOptions?.pan ?? true, openOptions?.returnFocus));
    },
    get pins() {
      return state.list;
    },
    get pinStyles() {
      return state.pinStyles;
    },
    get categories() {
      return state.categories;
    },
    shownPins: () => (archive ? [...tiledPins.values()] : undefined),
    shownBubbles: () => (archive ? tiledBubbles : undefined),
    setHidden(categories) {
      if (!state.hide(categories)) return;
      const openId = popup.openId();
      const open = openId === undefined ? undefined : findPin(openId);
      if (open && !isShown(open, state.hidden)) popup.close();
      // Pre-tiled pins: the pins of hidden categories leave the map, and each bubble (`renderTiled`).
      if (tiles) return void render();
      if (state.list.length === 0) return;
      group();
      // The markers shown stay until the new groups come (at once, or from the pin index's worker).
      regrouped = true;
      render();
    },
    async viewOf(id) {
      const zoom = toMapLibreZoom(map.getZoom());
      if (archive) {
        // The archive's pin index knows the pin and the zooms where it stands alone.
        const entry = await found?.lookUp(id);
        return entry && { center: entry.pin.lngLat, zoom: Math.max(zoom, revealZoomOf(entry.aloneMask, zoom, archive.source.maxzoom)) };
      }
      const pin = state.byId.get(id);
      if (!pin || !clusters) return undefined;
      // An index destroyed meanwhile (the pins were set again) leaves the zoom as it is.
      const reveal = await Promise.resolve(clusters.revealZoom(id, zoom)).catch(() => zoom);
      return { center: pin.lngLat, zoom: Math.max(zoom, reveal) };
    },
    close: () => popup.close(),
    setAppPins: (ids) => appPins.setIds(ids),
    destroy() {
      appPins.destroy();
      map.off('zoomend moveend', render);
      releaseFocus();
      clear();
      pinGroup.destroy();
      popup.destroy();
      layer.remove();
    },
  };
}

/** A pre-tiled group shown as the label collision takes it (see `collisionBoxes`). */
function asPinGroup(group: ShownGroup): PinGroup {
  return group.kind === 'cluster' ? { kind: 'cluster', key: group.key, clusterId: 0, count: group.count, lngLat: group.lngLat } : { kind: 'pin', key: group.key, id: group.pin.id };
}

/** A longitude in -180..180. */
function wrap(lng: number): number {
  return ((((lng + 180) % 360) + 360) % 360) - 180;
}
