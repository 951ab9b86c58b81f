import {
  Marker,
  Popup,
  type ExpressionSpecification,
  type FilterSpecification,
  type GeoJSONSource,
  type Map as MapLibreMap,
  type MapGeoJSONFeature,
  type MapLayerMouseEvent,
  type MapMouseEvent,
  type PointLike,
} from 'maplibre-gl';
import { DEFAULTS } from '../../config/constants.ts';
import { pinDrawing, pinStyleKey, type PinStyle } from '../../pins/icon.ts';
import { bubbleDiameterOf, drawPinImage, ensureBubbleImage, ensurePinImage, pinImagePlacement } from '../../pins/icon-image.ts';
import type { Pin, PinSet, PinArchive, CategoryCount } from '../../pins/types.ts';
import { clusterButton, keepFocusedPinsInView, orderForKeyboard, pinButton, stackByLatitude, tabbableAround, type OrderedMarker } from '../dom-pins.ts';
import { PinClusters, lngLatsOf } from '../../pins/grouping/clusters.ts';
import { PinsById } from '../../pins/data.ts';
import { SharedStyles } from '../../pins/icon.ts';
import { abbreviate, clusterDiameter } from '../../pins/bubble.ts';
import { collisionBoxes, createLabelCollision } from '../label-collision.ts';
import { PinIndex, startIndexWorker, type PinGroups } from '../../pins/grouping/pin-index.ts';
import { reasonOf } from '../../config/errors.ts';
import { pinFromTile, pinLookup, type PinLookup } from '../pin-archive.ts';
import { PIN_ARCHIVE, revealZoomOf } from '../../pins/archive-format.ts';
import { createPopupContent } from '../../pins/popup-content.ts';
import { isShown, visibleMask } from '../../pins/filter.ts';
import type { OpenPinOptions } from '../adapter.ts';
import type { PinOptions } from '../../config/pin-options.ts';
import '../../pins/icon-font.ts';

/**
 * How many of an archive's looks have their pin images drawn as soon as the archive is open
 * (an archive may have up to 1,000 looks; each image takes a few ms of the page to draw).
 */
const EAGER_LOOK_IMAGES = 16;

/** The ids of what this module adds to the style. */
export const PIN_SOURCE = 'pinmap-pins';
export const PIN_LAYERS = { clusters: 'pinmap-clusters', pins: 'pinmap-pins' } as const;

/** A cluster bubble as a marker; activating it calls `onZoom` with where it is shown. */
function clusterMarker(count: number, lngLat: [number, number], label: string, onZoom: (at: [number, number]) => void): Marker {
  const marker: Marker = new Marker({
    element: clusterButton(count, label, () => {
      // The marker is drawn on the world copy nearest the view; zoom there, not across the meridian.
      const at = marker.getLngLat();
      onZoom([at.lng, at.lat]);
    }),
    anchor: 'center',
  }).setLngLat(lngLat);
  stackByLatitude(marker.getElement(), lngLat[1]);
  return marker;
}

export interface PinLayerOptions {
  /** Sets of up to this many pins are DOM markers; larger sets are GPU symbols with clusters. */
  domPinLimit: number;
  /** A cluster bubble's accessible name; `{count}` stands for its number of pins. */
  clusterLabel: string;
  /** Told whenever the open popup changes: the pin's id, or null when it closed. */
  onOpenPinChange: (id: string | null) => void;
  /** Told when the user clicks, taps or presses Enter or Space on a pin (before its popup opens). */
  onPinClick: (id: string) => void;
  /**
   * Resolves once the map's style has loaded (`styleReadiness`, made with the map: the layer
   * itself may be made later, when the first pins come).
   */
  whenStyleLoaded: () => Promise<void>;
}

/** The pins of the vector view: markers or a clustered symbol layer, and their one popup. */
export interface PinLayer {
  /** How the current pins are drawn. */
  readonly mode: 'dom' | 'gl' | 'none';
  /**
   * The pin set's credit while its pins are DOM markers (as a GPU layer, its source carries the
   * credit like any other source of the style).
   */
  readonly markerAttribution: string | undefined;
  /**
   * Pins are on their way: what grouping a large set needs is started while they are read.
   * Returns what lets it go if they never come (they could not be loaded).
   */
  expectPins(): () => void;
  /** Replaces the pins; resolves once they are on the map. */
  setPins(set: PinSet): Promise<void>;
  /** Opens the pin's popup (closing any other); false for an unknown id. */
  open(id: string, options?: OpenPinOptions): boolean;
  /** The pins of the set shown, in its order (every category). */
  readonly pins: readonly Pin[];
  /** The set's category styles. */
  readonly pinStyles: Readonly<Record<string, PinOptions>>;
  /** Pre-tiled pins: the archive's categories and counts (see `MapAdapter.getCategoryCounts`); else undefined. */
  readonly categories: readonly CategoryCount[] | undefined;
  /** Pre-tiled pins: the pins drawn now (see `MapAdapter.getShownPins`); else undefined. */
  shownPins(): Pin[] | undefined;
  /** Hides the pins of these categories (see `MapAdapter.setHiddenCategories`). */
  setHidden(categories: readonly string[]): void;
  /**
   * Where the camera goes to show a pin: its point, at the lowest zoom (from now) where no cluster
   * hides it (for GPU pins the index's worker is asked); undefined for an unknown id.
   */
  viewOf(id: string): Promise<{ center: [number, number]; zoom: number } | undefined>;
  close(): void;
  destroy(): void;
}

/**
 * Draws a pin set on a MapLibre map. Up to `domPinLimit` pins, each is a MapLibre `Marker` whose
 * element is the pin icon: a real button with the pin's title as its name. Above that, the
 * pins become one GeoJSON source with MapLibre's clustering and a symbol layer whose images are
 * the same pin icons rasterised at the device pixel ratio. Either way one popup is open at a
 * time.
 */
export function createVectorPins(map: MapLibreMap, options: PinLayerOptions): PinLayer {
  let mode: PinLayer['mode'] = 'none';
  let attribution: string | undefined;
  const { whenStyleLoaded } = options;
  let pins = new PinsById([]);
  let pinList: Pin[] = [];
  let pinStyles: Readonly<Record<string, PinOptions>> = {};
  let categories: readonly CategoryCount[] | undefined;
  let hidden: ReadonlySet<string> = new Set();
  let openId: string | undefined;
  /** Shows the set again with the current `hidden` categories left out. */
  let applyHidden: (() => void) | undefined;
  /** The pin with an id: one of `pins`, or for pre-tiled pins one the archive or the loaded tiles know. */
  let findPin: (id: string) => Pin | undefined = (id) => pins.get(id);
  /** Pre-tiled pins: their pin index, where a pin not found yet is looked up by id. */
  let archivePins: PinLookup | undefined;
  /** Pre-tiled pins: the pins the map draws now, from its loaded tiles. */
  let shownTiledPins: (() => Pin[]) | undefined;
  let styles = new SharedStyles();
  let markers = new Map<string, Marker>();
  let domTeardown: (() => void) | undefined;
  let glTeardown: (() => void) | undefined;
  /** The lowest zoom (from the current one up) at which a pin stands alone, not in a cluster. */
  let revealZoom: (id: string) => number | Promise<number> = () => map.getZoom();
  let generation = 0;
  const popup = createPinPopup(map, () => {
    openId = undefined;
    options.onOpenPinChange(null);
  });
  // DOM pins and bubbles keep the basemap's labels from under them (see label-collision.ts).
  const collision = createLabelCollision(map);

  /**
   * The GPU pins' images by id. Their layers name them before they are drawn (see
   * `layerImages`), so a pin tile is asked for while the images are still being drawn (or, for an
   * archive, before they are); a tile that needs one first waits here for its pixels.
   */
  const imageStyles = new Map<string, { style: PinStyle; pixelRatio: number }>();
  /** Pin images that could not be drawn, each told once. */
  const failedImages = new Set<string>();
  map.setMissingStyleImageResolver(async (id) => {
    // A style loaded afresh (a theme's style MapLibre could not diff) keeps the pin layers but not their images.
    const diameter = bubbleDiameterOf(id);
    if (diameter !== undefined) {
      ensureBubbleImage(map, diameter, map.getPixelRatio());
      return;
    }
    const wanted = imageStyles.get(id);
    if (!wanted) return;
    try {
      await ensurePinImage(map, wanted.style, wanted.pixelRatio);
    } catch (error) {
      // The pins of this look are left out; every other pin and bubble is drawn.
      if (!failedImages.has(id)) console.error(`Pinmap: the pin image "${id}" could not be drawn: ${reasonOf(error)}`);
      failedImages.add(id);
    }
  });
  /**
   * The images of `styles` for the pin layers, known now (id and offset), and known to the
   * missing-image resolver above, which draws each that a tile needs and is not on the map yet.
   */
  function layerImages(styles: Iterable<PinStyle>, pixelRatio: number) {
    return [...styles].map((style) => {
      const { id, iconOffset } = pinImagePlacement(style, pixelRatio);
      imageStyles.set(id, { style, pixelRatio });
      return { id, offset: iconOffset };
    });
  }

  const container = map.getContainer();
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && popup.isOpen()) {
      event.stopPropagation();
      popup.close();
    }
  };
  container.addEventListener('keydown', onKeyDown);
  // A DOM pin or bubble reached by Tab beyond the view's edge is panned into it.
  const releaseFocus = keepFocusedPinsInView(container, (dx, dy) => map.panBy([dx, dy], { duration: 0 }));

  // A click on the map closes the popup, unless it is a click on a pin (which opens its own).
  const onMapClick = (event: MapMouseEvent) => {
    const target = event.originalEvent.target;
    if (target instanceof Element && target.closest('.pinmap-pin, .pinmap-popup')) return;
    if (mode === 'gl' && map.getLayer(PIN_LAYERS.pins)) {
      const hit = map.queryRenderedFeatures(event.point as PointLike, { layers: [PIN_LAYERS.pins, PIN_LAYERS.clusters] });
      if (hit.length > 0) return;
    }
    popup.close();
  };
  map.on('click', onMapClick);

  function clear() {
    popup.close();
    domTeardown?.();
    domTeardown = undefined;
    markers = new Map();
    revealZoom = () => map.getZoom();
    applyHidden = undefined;
    findPin = (id) => pins.get(id);
    archivePins = undefined;
    shownTiledPins = undefined;
    glTeardown?.();
    glTeardown = undefined;
    mode = 'none';
  }

  function openPin(pin: Pin, trigger: HTMLElement | undefined, byKeyboard = false, pan = true, returnFocus?: () => void) {
    const style = styles.of(pin);
    const element = trigger ?? (returnFocus ? undefined : markers.get(pin.id)?.getElement());
    popup.open(pin, style, element ? () => element.focus({ preventScroll: true }) : returnFocus, byKeyboard, pan);
    openId = pin.id;
    options.onOpenPinChange(pin.id);
  }

  /** The pin's marker element, made once and kept while the pin set lives (focus survives zooms). */
  function pinMarker(pin: Pin): Marker {
    const existing = markers.get(pin.id);
    if (existing) return existing;
    const element = pinButton(pin, styles.of(pin), (trigger, byKeyboard) => {
      options.onPinClick(pin.id);
      openPin(pin, trigger, byKeyboard);
    });
    const marker = new Marker({ element, anchor: 'bottom' }).setLngLat(pin.lngLat);
    stackByLatitude(element, pin.lngLat[1]);
    markers.set(pin.id, marker);
    return marker;
  }

  /**
   * DOM pins, clustered: at each whole zoom the set is grouped, and each group of nearby pins is
   * one bubble button with its count. Only whole-zoom changes regroup, so panning touches no DOM.
   */
  function addMarkers(all: Pin[]) {
    const list = hidden.size === 0 ? all : all.filter((pin) => isShown(pin, hidden));
    const clusters = new PinClusters(list);
    let shownZoom = Number.NaN;
    let shown = new Map<string, Marker>();
    const render = () => {
      const zoom = Math.max(0, Math.floor(map.getZoom()));
      if (zoom === shownZoom) return;
      shownZoom = zoom;
      const next = new Map<string, Marker>();
      const groups = clusters.groupsAt(zoom);
      for (const group of groups) {
        if (group.kind === 'cluster') {
          const marker =
            shown.get(group.key) ??
            clusterMarker(group.count, group.lngLat, options.clusterLabel, (at) => {
              map.easeTo({ center: at, zoom: clusters.expansionZoom(group.clusterId) });
            });
          next.set(group.key, marker);
        } else {
          const pin = pins.get(group.id);
          if (pin) next.set(group.key, pinMarker(pin));
        }
      }
      for (const [key, marker] of shown) if (!next.has(key)) marker.remove();
      for (const [key, marker] of next) if (!shown.has(key)) marker.addTo(map);
      shown = next;
      const ordered = orderedMarkers(shown.values());
      orderForKeyboard(ordered, zoom);
      tabbable(ordered);
      collision.set(collisionBoxes(groups, pins, (pin) => styles.of(pin)));
    };
    // Tab goes from pin to pin around the view, as in the hybrid view (which makes markers only there).
    const tabbable = (ordered: OrderedMarker[]) => {
      const bounds = map.getBounds();
      tabbableAround(ordered, [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()]);
    };
    render();
    map.on('zoom', render);
    const onMoveEnd = () => tabbable(orderedMarkers(shown.values()));
    map.on('moveend', onMoveEnd);
    domTeardown = () => {
      map.off('zoom', render);
      map.off('moveend', onMoveEnd);
      for (const marker of shown.values()) marker.remove();
      collision.set([]);
    };
    revealZoom = (id) => clusters.revealZoom(id, map.getZoom());
    applyHidden = () => {
      domTeardown?.();
      addMarkers(all);
    };
  }

  /** A pin index worker started ahead (`expectPins`), while it has not failed to start. */
  let spareWorker: Worker | undefined;
  function takeSpareWorker(): Worker | undefined {
    const worker = spareWorker;
    spareWorker = undefined;
    return worker;
  }

  /**
   * GPU pins: the set is grouped in a worker (`PinIndex`), started at once, while the style,
   * the tiles and the pin images load; the map's source then holds only the bubbles and lone
   * pins of the area around the view, and follows the camera.
   */
  async function addSymbolLayer(list: Pin[], attribution: string | undefined, isCurrent: () => boolean) {
    const index = new PinIndex(lngLatsOf(list), map.getZoom(), takeSpareWorker(), visibleMask(list, hidden));
    glTeardown = () => index.destroy();
    // Hidden categories: the index groups the pins again without them; the source follows once it has.
    const following: { refresh?: () => void } = {};
    applyHidden = () => {
      index.filter(visibleMask(list, hidden), map.getZoom()).then(
        () => following.refresh?.(),
        () => {},
      );
    };
    revealZoom = (id) => {
      // The index knows pins by their place in the set; asked rarely (`?pin=`), so found by a scan.
      const at = list.findIndex((pin) => pin.id === id);
      // An index destroyed meanwhile (the pins were set again) leaves the camera's zoom.
      return at < 0 ? map.getZoom() : index.revealZoom(at, map.getZoom()).catch(() => map.getZoom());
    };
    const pixelRatio = map.getPixelRatio();
    // Styles are shared objects (see SharedStyles), so each maps straight to its image id.
    const imageIds = new Map<PinStyle, string>();
    for (const style of styles.distinct(list)) imageIds.set(style, pinStyleKey(style));
    // Drawn while the style loads, all at once; added to the map once it has.
    for (const style of imageIds.keys()) drawPinImage(map, style, pixelRatio).catch(() => {}); // heard below
    await whenStyleLoaded();
    if (!isCurrent()) return;
    addPinSource(map, attribution);
    glTeardown = () => {
      index.destroy();
      removePinLayers(map);
    };
    const images = layerImages(imageIds.keys(), pixelRatio);
    // Each image is added as its drawing (started above) ends; this rejects if one cannot be drawn.
    const drawn = Promise.all([...imageIds.keys()].map((style) => ensurePinImage(map, style, pixelRatio)));
    drawn.catch(() => {}); // heard below
    const imageOf = (pin: Pin) => imageIds.get(styles.of(pin))!;
    const groups = followView(map, index, (groups) => groupFeatures(groups, list, imageOf));
    following.refresh = groups.refresh;
    const removeLayers = addPinLayers(map, {
      images,
      image: ['get', 'image'],
      font: clusterFont(map),
      expansionZoom: (clusterId) => index.expansionZoom(clusterId),
      onPin: (feature, trigger, byKeyboard) => {
        const pin = pins.get(feature.properties.id as string);
        if (!pin) return;
        options.onPinClick(pin.id);
        openPin(pin, trigger, byKeyboard);
      },
      pinOf: (feature) => pins.get(feature.properties.id as string),
      styleOf: (pin) => styles.of(pin),
      clusterLabel: options.clusterLabel,
    });
    // A style loaded afresh (a theme's style MapLibre could not diff) keeps Pinmap's layers
    // (carryPinmapParts) but not their images: the pins' are added again here, the bubbles' by
    // the missing-image resolver when they are next drawn.
    const restoreImages = () => {
      for (const style of imageIds.keys()) ensurePinImage(map, style, pixelRatio).catch(() => {});
    };
    map.on('style.load', restoreImages);
    glTeardown = () => {
      map.off('style.load', restoreImages);
      groups.stop();
      index.destroy();
      removeLayers();
    };
    try {
      await groups.first;
    } catch (error) {
      if (isCurrent()) console.error(`Pinmap: the pins could not be grouped: ${reasonOf(error)}`);
    }
    await drawn;
  }

  /**
   * Pre-tiled pins (`pins: "pmtiles://…"`): the archive's tiles are the source of the same layers
   * and pin images as the GPU pins above; the bubbles, their counts and where they split are in
   * the tiles, so nothing is grouped here. Each look of the archive is one pin style (one image).
   */
  async function addTiledLayer(archive: PinArchive, isCurrent: () => boolean) {
    const pixelRatio = map.getPixelRatio();
    // Looks that draw alike share one style object (SharedStyles), so one image.
    const lookStyles = archive.looks.map((options) => styles.of({ options }));
    const lookImages = lookStyles.map(pinStyleKey);
    const distinctStyles = new Set(lookStyles);
    /** The pins found in the archive's index so far (by a click, `?pin=` or the ref), for `open`. */
    const found = pinLookup(archive);
    const lookUp = found.lookUp;
    revealZoom = async (id) => {
      const entry = await lookUp(id);
      return entry ? revealZoomOf(entry.aloneMask, map.getZoom()) : map.getZoom();
    };
    findPin = (id) => found.known(id)?.pin;
    archivePins = found;
    shownTiledPins = () => tiledPinsDrawn(map, archive);
    // The images of the first looks are drawn at once, while the style and the tiles load (as
    // the inline pins' are), so a tile that shows pins does not wait for the icon font and the
    // drawing. Any other look's image is drawn when a tile first shows a pin of it.
    for (const style of [...distinctStyles].slice(0, EAGER_LOOK_IMAGES)) drawPinImage(map, style, pixelRatio).catch(() => {}); // told when a tile needs it
    await whenStyleLoaded();
    if (!isCurrent() || lookStyles.length === 0) return;
    map.addSource(PIN_SOURCE, archive.source);
    glTeardown = () => removePinLayers(map);
    // The missing-image resolver adds each look's image when a tile first shows a pin of it.
    const images = layerImages(distinctStyles, pixelRatio);
    glTeardown = addPinLayers(map, {
      images,
      image: ['match', ['get', 'look'], ...lookImages.flatMap((key, look) => [look, key]), ''] as unknown as ExpressionSpecification,
      font: clusterFont(map),
      sourceLayer: PIN_ARCHIVE.layer,
      expansionZoom: (_, properties) => {
        const zoom = properties.expansion_zoom;
        return typeof zoom === 'number' ? Promise.resolve(zoom) : Promise.reject(new Error('the bubble has no expansion_zoom'));
      },
      onPin: (feature, trigger, byKeyboard) => {
        const id = feature.properties.id as unknown;
        if (typeof id !== 'string' && typeof id !== 'number') {
          console.warn(`Pinmap: a pin in ${archive.url} has no "id" property; it cannot be opened`);
          return;
        }
        options.onPinClick(String(id));
        found.open(String(id), (pin) => openPin(pin, trigger, byKeyboard), isCurrent);
      },
      pinOf: (feature) => {
        if (feature.geometry.type !== 'Point') return undefined;
        const pin = pinFromTile(feature.properties, feature.geometry.coordinates as [number, number], archive);
        return typeof pin === 'string' ? undefined : pin;
      },
      styleOf: (pin) => styles.of(pin),
      clusterLabel: options.clusterLabel,
    });
    // Hidden categories: their pins leave the layer (the tiles' bubbles keep their counts).
    applyHidden = () => {
      if (map.getLayer(PIN_LAYERS.pins)) map.setFilter(PIN_LAYERS.pins, tiledPinFilter(hidden, archive));
    };
    applyHidden();
  }

  return {
    get mode() {
      return mode;
    },
    get markerAttribution() {
      return mode === 'dom' ? attribution : undefined;
    },
    expectPins() {
      const letGo = () => takeSpareWorker()?.terminate();
      if (spareWorker) return letGo;
      try {
        const worker = startIndexWorker();
        // It could not start: the index starts one of its own (and groups on the page if that fails too).
        worker.onerror = (event) => {
          event.preventDefault();
          worker.terminate();
          if (spareWorker === worker) spareWorker = undefined;
        };
        spareWorker = worker;
      } catch {
        // As above.
      }
      return letGo;
    },
    async setPins(set) {
      const current = ++generation;
      clear();
      // Only a GPU layer of this set uses the worker started ahead.
      if (set.pins.length <= options.domPinLimit) takeSpareWorker()?.terminate();
      pins = new PinsById(set.pins);
      pinList = set.pins;
      pinStyles = set.pinStyles;
      categories = set.archive?.categories;
      attribution = set.attribution;
      styles = new SharedStyles();
      if (set.archive) {
        takeSpareWorker()?.terminate();
        mode = 'gl';
        await addTiledLayer(set.archive, () => current === generation);
        return;
      }
      if (set.pins.length === 0) return;
      if (set.pins.length <= options.domPinLimit) {
        mode = 'dom';
        addMarkers(set.pins);
        return;
      }
      mode = 'gl';
      await addSymbolLayer(set.pins, set.attribution, () => current === generation);
    },
    open(id, openOptions) {
      const show = (pin: Pin) => openPin(pin, undefined, openOptions?.byKeyboard ?? false, openOptions?.pan ?? true, openOptions?.returnFocus);
      const pin = findPin(id);
      if (pin) {
        show(pin);
        return true;
      }
      if (!archivePins) return false;
      // Pre-tiled pins: not looked up yet; the popup opens when the pin index answers.
      const current = generation;
      archivePins.open(id, show, () => current === generation);
      return true;
    },
    get pins() {
      return pinList;
    },
    get pinStyles() {
      return pinStyles;
    },
    get categories() {
      return categories;
    },
    shownPins: () => shownTiledPins?.(),
    setHidden(categories) {
      const next = new Set(categories);
      if (next.size === hidden.size && [...next].every((c) => hidden.has(c))) return;
      hidden = next;
      const open = openId === undefined ? undefined : findPin(openId);
      if (open && !isShown(open, hidden)) popup.close();
      applyHidden?.();
    },
    async viewOf(id) {
      const pin = findPin(id) ?? (await archivePins?.lookUp(id))?.pin;
      if (!pin) return undefined;
      const zoom = await revealZoom(id);
      return { center: pin.lngLat, zoom: Math.max(map.getZoom(), zoom) };
    },
    close() {
      popup.close();
    },
    destroy() {
      generation++;
      clear();
      takeSpareWorker()?.terminate();
      collision.destroy();
      map.off('click', onMapClick);
      container.removeEventListener('keydown', onKeyDown);
      releaseFocus();
    },
  };
}

/** The font the style already uses for labels, so cluster counts need no font of their own. */
function clusterFont(map: MapLibreMap): string[] {
  const fonts: string[][] = [];
  for (const layer of map.getStyle().layers) {
    if (layer.type !== 'symbol') continue;
    const font = layer.layout?.['text-font'];
    if (Array.isArray(font) && font.every((f) => typeof f === 'string')) fonts.push(font as string[]);
  }
  return fonts.find((f) => f.some((name) => /bold/i.test(name))) ?? fonts[0] ?? ['Noto Sans Bold'];
}

/** The GPU pins' GeoJSON source: the bubbles and lone pins around the view (see `followView`). */
function addPinSource(map: MapLibreMap, attribution: string | undefined): void {
  map.addSource(PIN_SOURCE, {
    type: 'geojson',
    data: { type: 'FeatureCollection', features: [] },
    ...(attribution ? { attribution } : {}),
  });
}

/** The index's groups as the source's features: bubbles with their counts, and pins with their id and image. */
function groupFeatures(groups: PinGroups, list: Pin[], imageOf: (pin: Pin) => string): GeoJSON.FeatureCollection<GeoJSON.Point> {
  const features: GeoJSON.Feature<GeoJSON.Point>[] = [];
  const { clusters } = groups;
  for (let k = 0; k < clusters.length; k += 4) {
    const count = clusters[k + 2]!;
    features.push({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [clusters[k]!, clusters[k + 1]!] },
      properties: { cluster: true, cluster_id: clusters[k + 3]!, point_count: count, point_count_abbreviated: abbreviate(count) },
    });
  }
  for (const i of groups.pins) {
    const pin = list[i]!;
    features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: pin.lngLat }, properties: { id: pin.id, image: imageOf(pin) } });
  }
  return { type: 'FeatureCollection', features };
}

/**
 * Keeps the pins' source on the groups of the area around the view: the visible area and half
 * of it again on every side, at the view's whole zoom (as MapLibre's tiles change zoom). It is
 * asked again when the view leaves that area or its whole zoom changes, one question at a
 * time. `first` settles once the source has the first answer.
 */
function followView(
  map: MapLibreMap,
  index: PinIndex,
  toFeatures: (groups: PinGroups) => GeoJSON.FeatureCollection<GeoJSON.Point>,
): { first: Promise<void>; refresh(): void; stop(): void } {
  let shown: { zoom: number; bbox: [number, number, number, number] } | undefined;
  let asking = false;
  let stopped = false;

  const wholeZoom = () => Math.max(0, Math.floor(map.getZoom()));
  const needed = () => {
    const bounds = map.getBounds();
    return { zoom: wholeZoom(), visible: [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()] as [number, number, number, number] };
  };
  const isShown = ({ zoom, visible: [w, s, e, n] }: ReturnType<typeof needed>) =>
    shown !== undefined && shown.zoom === zoom && w >= shown.bbox[0] && s >= shown.bbox[1] && e <= shown.bbox[2] && n <= shown.bbox[3];

  let ready = false;
  let showFirst!: () => void;
  let failFirst!: (error: unknown) => void;
  const first = new Promise<void>((resolve, reject) => {
    showFirst = resolve;
    failFirst = reject;
  });

  /** Counts `refresh` calls: an answer asked for before the last one is shown, but not kept as current. */
  let version = 0;

  async function update(): Promise<void> {
    if (!ready || asking || stopped) return;
    const want = needed();
    if (isShown(want)) return;
    const asked = version;
    asking = true;
    const [w, s, e, n] = want.visible;
    const dx = (e - w) / 2;
    const dy = (n - s) / 2;
    // Longitudes go on past ±180 (the index wraps them); a box a world wide or more is the world.
    const bbox: [number, number, number, number] =
      e - w + 2 * dx >= 360 ? [-180, Math.max(-90, s - dy), 180, Math.min(90, n + dy)] : [w - dx, Math.max(-90, s - dy), e + dx, Math.min(90, n + dy)];
    try {
      const groups = await index.groups(bbox, want.zoom);
      if (stopped) return;
      map.getSource<GeoJSONSource>(PIN_SOURCE)?.setData(toFeatures(groups));
      shown = asked !== version ? undefined : { zoom: want.zoom, bbox: bbox[2] - bbox[0] >= 360 ? [-Infinity, bbox[1], Infinity, bbox[3]] : bbox };
      showFirst();
    } finally {
      asking = false;
    }
    // The view may have gone on while the index answered.
    await update();
  }

  const onMove = () => {
    update().catch((error: unknown) => {
      failFirst(error);
      if (!stopped) console.error(`Pinmap: the pins could not be grouped: ${reasonOf(error)}`);
    });
  };
  // Once the map has drawn a zoom's groups, the zooms around it are grouped ahead of a zoom in or out.
  let prepared: number | undefined;
  const onIdle = () => {
    if (stopped || shown === undefined || shown.zoom === prepared) return;
    prepared = shown.zoom;
    index.prepare([prepared - 1, prepared + 1, prepared + 2]).catch(() => {});
  };
  map.on('move', onMove);
  map.on('moveend', onMove);
  map.on('idle', onIdle);
  index.ready.then(() => {
    ready = true;
    onMove();
  }, failFirst);
  return {
    // Settles once the source has its first groups (or they cannot be had).
    first,
    // The index's groups changed (a filter): ask again for the view as it is.
    refresh() {
      version++;
      shown = undefined;
      onMove();
    },
    stop() {
      stopped = true;
      map.off('move', onMove);
      map.off('moveend', onMove);
      map.off('idle', onIdle);
    },
  };
}

/**
 * The pre-tiled pins the map draws now (placed by MapLibre, hidden categories left out by the
 * layer's filter), each once (a pin may show on two copies of the world), as their tiles give them.
 */
function tiledPinsDrawn(map: MapLibreMap, archive: PinArchive): Pin[] {
  if (!map.getLayer(PIN_LAYERS.pins)) return [];
  const drawn = new Map<string, Pin>();
  for (const feature of map.queryRenderedFeatures({ layers: [PIN_LAYERS.pins] })) {
    if (feature.geometry.type !== 'Point') continue;
    const [lng, lat] = feature.geometry.coordinates as [number, number];
    const pin = pinFromTile(feature.properties, [lng, lat], archive);
    if (typeof pin !== 'string' && !drawn.has(pin.id)) drawn.set(pin.id, pin);
  }
  return [...drawn.values()];
}

/** Removes the GPU pins' layers and source, if the map still has them. */
function removePinLayers(map: MapLibreMap): void {
  if (!map.style) return; // the map is being removed
  for (const layer of Object.values(PIN_LAYERS)) if (map.getLayer(layer)) map.removeLayer(layer);
  if (map.getSource(PIN_SOURCE)) map.removeSource(PIN_SOURCE);
}

/**
 * The pre-tiled pins layer's filter: pins (not bubbles), less those of a hidden category (as
 * `isShown`). A tile's pin carries its look, and the archive's looks their category.
 */
function tiledPinFilter(hidden: ReadonlySet<string>, archive: PinArchive): FilterSpecification {
  const pins: FilterSpecification = ['!', ['has', 'point_count']];
  const hiddenLooks = archive.metadata.looks.flatMap((look, index) => (look.category !== undefined && hidden.has(look.category) ? [index] : []));
  if (hiddenLooks.length === 0) return pins;
  return ['all', pins, ['!', ['in', ['get', 'look'], ['literal', hiddenLooks]]]];
}

/** What the GPU pin layers draw, from the inline pins' GeoJSON source or an archive's tiles. */
interface PinLayerDrawing {
  /** The pin images and their icon offsets. */
  images: { id: string; offset: [number, number] }[];
  /** A pin feature's image id. */
  image: ExpressionSpecification;
  /** The cluster counts' font. */
  font: string[];
  /** The layer of the source's vector tiles (pre-tiled pins); none for the GeoJSON source. */
  sourceLayer?: string;
  /** The zoom at which a bubble splits. */
  expansionZoom: (clusterId: number, properties: Record<string, unknown>) => Promise<number>;
  /** A click on a pin, or Enter or Space on its keyboard stand-in (`trigger`, which focus goes back to). */
  onPin: (feature: MapGeoJSONFeature, trigger?: HTMLElement, byKeyboard?: boolean) => void;
  /** The pin a pin feature stands for, and how it is drawn (for its keyboard stand-in). */
  pinOf: (feature: MapGeoJSONFeature) => Pin | undefined;
  styleOf: (pin: Pin) => PinStyle;
  /** A bubble's accessible name; `{count}` stands for its number of pins. */
  clusterLabel: string;
}

/**
 * The GPU pin layers on the pins' source (`addPinSource`, or an archive's vector source): cluster bubbles with counts, and the
 * pins as symbols. A click on a bubble zooms to where it splits; a click on a pin calls `onPin`.
 * Returns what removes them, and the source, again.
 */
function addPinLayers(map: MapLibreMap, { images, image, font, sourceLayer, expansionZoom, onPin, pinOf, styleOf, clusterLabel }: PinLayerDrawing): () => void {
  const fromSource = sourceLayer === undefined ? { source: PIN_SOURCE } : { source: PIN_SOURCE, 'source-layer': sourceLayer };
  const pixelRatio = map.getPixelRatio();
  const bubble = (count: number) => ensureBubbleImage(map, clusterDiameter(count), pixelRatio);
  map.addLayer({
    id: PIN_LAYERS.clusters,
    type: 'symbol',
    ...fromSource,
    filter: ['has', 'point_count'],
    layout: {
      // The bubble, by count (`clusterDiameter`'s steps), with the count on it.
      'icon-image': ['step', ['get', 'point_count'], ...CLUSTER_STEPS.flatMap((count, i) => (i === 0 ? [bubble(count)] : [count, bubble(count)]))] as never,
      'text-field': ['get', 'point_count_abbreviated'],
      'text-font': font,
      'text-size': 12,
      'text-allow-overlap': true,
      'text-ignore-placement': true,
      // Bubbles never hide each other; the basemap's labels keep out from under them.
      'icon-allow-overlap': true,
      'icon-ignore-placement': false,
    },
    paint: { 'text-color': '#ffffff' },
  });
  map.addLayer({
    id: PIN_LAYERS.pins,
    type: 'symbol',
    ...fromSource,
    filter: ['!', ['has', 'point_count']],
    layout: {
      'icon-image': image,
      'icon-anchor': 'bottom',
      // Each image's own offset (an image with room for a shadow has its tip above its bottom).
      'icon-offset': ['match', image, ...images.flatMap((i) => [i.id, ['literal', i.offset]]), ['literal', [0, 0]]] as never,
      // Pins never hide each other, but labels placed after them (every basemap label: the
      // pins' layers are the top of the style) keep out from under them.
      'icon-allow-overlap': true,
      'icon-ignore-placement': false,
    },
  });

  /** Zooms to where a bubble splits, on the copy of the world at `nearLng` (where it was clicked). */
  const zoomInto = (feature: MapGeoJSONFeature, nearLng: number) => {
    const clusterId = feature.properties.cluster_id as number | undefined;
    if (clusterId === undefined || feature.geometry.type !== 'Point') return;
    const [lng, lat] = feature.geometry.coordinates as [number, number];
    // The bubble may be on another copy of the world than its coordinates say: ease to the
    // copy that was clicked, never across the 180° meridian to the other side of the globe.
    const center: [number, number] = [lng + 360 * Math.round((nearLng - lng) / 360), lat];
    expansionZoom(clusterId, feature.properties).then(
      (zoom) => map.easeTo({ center, zoom }),
      () => {},
    );
  };
  const onClusterClick = (event: MapLayerMouseEvent) => {
    const feature = event.features?.[0];
    if (feature) zoomInto(feature, event.lngLat.lng);
  };
  const onPinClick = (event: MapLayerMouseEvent) => {
    const feature = event.features?.[0];
    if (feature) onPin(feature);
  };
  const releaseKeyboard = keyboardStandIns(map, { pinOf, styleOf, clusterLabel, onPin, zoomInto });
  const pointer = () => (map.getCanvas().style.cursor = 'pointer');
  const noPointer = () => (map.getCanvas().style.cursor = '');
  map.on('click', PIN_LAYERS.clusters, onClusterClick);
  map.on('click', PIN_LAYERS.pins, onPinClick);
  for (const layer of [PIN_LAYERS.clusters, PIN_LAYERS.pins]) {
    map.on('mouseenter', layer, pointer);
    map.on('mouseleave', layer, noPointer);
  }
  return () => {
    releaseKeyboard();
    map.off('click', PIN_LAYERS.clusters, onClusterClick);
    map.off('click', PIN_LAYERS.pins, onPinClick);
    for (const layer of [PIN_LAYERS.clusters, PIN_LAYERS.pins]) {
      map.off('mouseenter', layer, pointer);
      map.off('mouseleave', layer, noPointer);
    }
    removePinLayers(map);
  };
}

/**
 * Keyboard access to the GPU pins and bubbles, which are drawn in WebGL and so cannot take the
 * focus. Once the keyboard reaches the map (its canvas is focused from the keyboard), each pin
 * and bubble drawn in view gets a stand-in: the same DOM pin or bubble button the DOM markers
 * are (`pinButton`, `clusterButton`), at the same place, shown only while it has the keyboard's
 * focus (`.pinmap-standin`). Tab goes through them in reading order (`orderForKeyboard`), and
 * Enter, Space or a click does what a click on the symbol does: a pin opens its popup (and focus
 * comes back to it when the popup closes), a bubble zooms to where it splits. They follow what
 * the map draws each time it is idle; a stand-in whose symbol is still drawn is kept, focus and
 * all. Returns what removes them.
 */
function keyboardStandIns(
  map: MapLibreMap,
  {
    pinOf,
    styleOf,
    clusterLabel,
    onPin,
    zoomInto,
  }: Pick<PinLayerDrawing, 'pinOf' | 'styleOf' | 'clusterLabel' | 'onPin'> & { zoomInto: (feature: MapGeoJSONFeature, nearLng: number) => void },
): () => void {
  const canvas = map.getCanvas();
  let active = false;
  let shown = new Map<string, Marker>();
  const refresh = () => {
    if (!active || !map.getLayer(PIN_LAYERS.pins)) return;
    const next = new Map<string, Marker>();
    for (const feature of map.queryRenderedFeatures({ layers: [PIN_LAYERS.clusters, PIN_LAYERS.pins] })) {
      if (feature.geometry.type !== 'Point') continue;
      const lngLat = feature.geometry.coordinates as [number, number];
      const count = feature.properties.point_count;
      const pin = typeof count === 'number' ? undefined : pinOf(feature);
      if (typeof count !== 'number' && !pin) continue;
      // A bubble is known by its place, count and id (grouped afresh, the same id may be another bubble).
      const key = pin ? `pin ${pin.id}` : `bubble ${lngLat.join(' ')} ${String(count)} ${String(feature.properties.cluster_id)}`;
      if (next.has(key)) continue;
      let marker = shown.get(key);
      if (!marker) {
        const element = pin
          ? pinButton(pin, styleOf(pin), (trigger, byKeyboard) => onPin(feature, trigger, byKeyboard))
          : clusterButton(count as number, clusterLabel, () => zoomInto(feature, made.getLngLat().lng));
        element.classList.add('pinmap-standin');
        stackByLatitude(element, lngLat[1]);
        const made: Marker = new Marker({ element, anchor: pin ? 'bottom' : 'center' }).setLngLat(lngLat).addTo(map);
        marker = made;
      }
      next.set(key, marker);
    }
    for (const [key, marker] of shown) if (!next.has(key)) marker.remove();
    shown = next;
    orderForKeyboard(orderedMarkers(next.values()), Math.floor(map.getZoom()));
  };
  const onFocus = () => {
    if (active || !canvas.matches(':focus-visible')) return;
    active = true;
    refresh();
  };
  canvas.addEventListener('focus', onFocus);
  map.on('idle', refresh);
  return () => {
    canvas.removeEventListener('focus', onFocus);
    map.off('idle', refresh);
    for (const marker of shown.values()) marker.remove();
    shown = new Map();
  };
}

/** MapLibre markers as `orderForKeyboard` and `tabbableAround` take them: each element and where it stands now. */
function orderedMarkers(markers: Iterable<Marker>): OrderedMarker[] {
  return Array.from(markers, (marker) => ({ element: marker.getElement(), lngLat: marker.getLngLat().toArray() }));
}

/** The counts at which a bubble grows (see `clusterDiameter`). */
const CLUSTER_STEPS = [1, 10, 100, 1000];

/**
 * The one popup of the pins. It attaches at the pin's popupAnchor above the pin, or beside or
 * below it when MapLibre flips it to stay inside the map; if it still does not fit (a pin at the
 * very edge), the map pans by the overflow. Closing returns focus to the pin it came from.
 */
function createPinPopup(map: MapLibreMap, onClosed: () => void) {
  let popup: Popup | undefined;
  let returnFocus: (() => void) | undefined;

  function close() {
    popup?.remove();
  }

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

  return { open, close, isOpen: () => popup !== undefined };
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
