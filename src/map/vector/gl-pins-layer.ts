import type { ExpressionSpecification, GeoJSONSource, Map as MapLibreMap, Marker } from 'maplibre-gl';
import { reasonOf } from '../../config/errors.ts';
import { abbreviate } from '../../pins/bubble.ts';
import type { PinsById } from '../../pins/data.ts';
import { PinIndex, startIndexWorker, type PinGroups } from '../../pins/grouping/pin-index.ts';
import { PinSlots } from '../../pins/grouping/pin-slots.ts';
import { pinStyleKey, type PinStyle } from '../../pins/icon.ts';
import { drawPinImage, ensurePinImage } from '../../pins/icon-image.ts';
import type { Pin } from '../../pins/types.ts';
import { appPinMarker } from '../dom-pins.ts';
import { addToPinGroup, pinGroupElement, stackedMarker } from './markers.ts';
import type { PinImages } from './pin-images.ts';
import type { PinStrategy, PinStrategyInput } from './pin-strategy.ts';
import { PIN_LAYERS, PIN_SOURCE, addPinLayers, clusterFont, pinSymbolAt, removePinLayers } from './pin-symbol-layers.ts';

/** What the inline GL layer draws: a large inline set. */
export interface GlPinsInput extends PinStrategyInput {
  /** The set's pins, in its order, and by id. */
  list: Pin[];
  pins: PinsById;
  /** Every distinct style of the set's pins (one image each). */
  styles: Iterable<PinStyle>;
  /** The set's credit, which its source carries. */
  attribution: string | undefined;
  /** The pin index worker started ahead (`SpareIndexWorker`), if any: the index groups in it. */
  worker: Worker | undefined;
  images: PinImages;
  /** Resolves once the map's style has loaded. */
  whenStyleLoaded: () => Promise<void>;
  /** False once the pin layer has moved on to another set. */
  isCurrent: () => boolean;
  /** Where a pin is drawn while it glides to a new place (`PinGlides.placeOf`); undefined: at its own place. */
  placeOf: (id: string) => [number, number] | undefined;
}

/**
 * GPU pins: the set is grouped in a worker (`PinIndex`), started at once, while the style, the
 * tiles and the pin images load; the map's GeoJSON source then holds only the bubbles and lone
 * pins of the area around the view, and follows the camera (`followView`). The pins are symbols
 * whose images are the pin icons rasterised at the device pixel ratio (`addPinLayers`).
 */
export function createGlPins(map: MapLibreMap, input: GlPinsInput): PinStrategy {
  const { hidden, styleOf, onPinClick, openPopup, whenStyleLoaded, isCurrent } = input;
  let { pins } = input;
  let hiddenNow = hidden;
  // The index knows each pin by its slot, which an update by id leaves as it is (`PinSlots`).
  const slots = new PinSlots(input.list);
  const index = new PinIndex(slots.lngLats(), map.getZoom(), input.worker, slots.visible(hidden));
  let teardown = () => index.destroy();
  /** The source's groups once it follows the view; asked again when categories are hidden or shown, drawn again as pins glide. */
  const following: { refresh?: () => void; redraw?: () => void } = {};
  const pixelRatio = map.getPixelRatio();
  // Styles are shared objects (see SharedStyles), so each maps straight to its image id.
  const imageIds = new Map<PinStyle, string>();
  for (const style of input.styles) imageIds.set(style, pinStyleKey(style));
  let redrawFrame = 0;
  /** The pins the app draws itself, the lone pins the source shows, and the app markers over those named. */
  let appIds: ReadonlySet<string> = new Set();
  let lone: Pin[] = [];
  const appMarkers = new Map<string, Marker>();

  /** Hides the named pins' symbols: drawn at no opacity, they keep their room among the labels and their keyboard stand-ins. */
  function hideAppSymbols() {
    if (!map.getLayer(PIN_LAYERS.pins)) return;
    const hidden: ExpressionSpecification | number = appIds.size === 0 ? 1 : ['case', ['in', ['get', 'id'], ['literal', [...appIds]]], 0, 1];
    map.setPaintProperty(PIN_LAYERS.pins, 'icon-opacity', hidden);
  }

  /** Puts an app marker over each named pin the source shows alone (where it glides, if it does), and takes the others away. */
  function placeAppMarkers() {
    const next = new Map<string, Marker>();
    if (appIds.size > 0) {
      for (const pin of lone) {
        if (!appIds.has(pin.id) || next.has(pin.id)) continue;
        const at = input.placeOf(pin.id) ?? pin.lngLat;
        let marker = appMarkers.get(pin.id);
        if (marker) marker.setLngLat(at);
        else {
          const id = pin.id;
          const element = appPinMarker(pin, () => {
            const now = pins.get(id);
            if (!now) return;
            onPinClick(id);
            openPopup(now, undefined, false);
          });
          marker = addToPinGroup(stackedMarker(element, at, 'bottom'), map);
        }
        next.set(pin.id, marker);
      }
    }
    for (const [id, marker] of appMarkers) if (next.get(id) !== marker) marker.remove();
    appMarkers.clear();
    for (const [id, marker] of next) appMarkers.set(id, marker);
    showAppPinFocus();
  }

  /**
   * A named pin reached from the keyboard: its stand-in (`keyboardStandIns`) draws no icon over the
   * app's element (`data-app-drawn`), and the app's element takes the focus ring instead
   * (`data-focused` on its marker; pinmap.css), as a named DOM pin's does.
   */
  function showAppPinFocus() {
    const focused = document.activeElement;
    const standIn = focused instanceof HTMLElement && focused.classList.contains('pinmap-standin') ? focused : undefined;
    const id = standIn?.dataset.pinId;
    standIn?.toggleAttribute('data-app-drawn', id !== undefined && appMarkers.has(id));
    for (const [markerId, marker] of appMarkers) marker.getElement().toggleAttribute('data-focused', markerId === id && standIn!.matches(':focus-visible'));
  }
  const pinGroup = pinGroupElement(map);
  pinGroup.addEventListener('focusin', showAppPinFocus);
  pinGroup.addEventListener('focusout', showAppPinFocus);

  async function place() {
    // Drawn while the style loads, all at once; added to the map once it has.
    for (const style of imageIds.keys()) drawPinImage(map, style, pixelRatio).catch(() => {}); // heard below
    await whenStyleLoaded();
    if (!isCurrent()) return;
    addPinSource(map, input.attribution);
    teardown = () => {
      index.destroy();
      removePinLayers(map);
    };
    const images = input.images.layerImages(imageIds.keys(), pixelRatio);
    // Each image is added as its drawing (started above) ends; this rejects if one cannot be drawn.
    const drawn = Promise.all([...imageIds.keys()].map((style) => ensurePinImage(map, style, pixelRatio)));
    drawn.catch(() => {}); // heard below
    const imageOf = (pin: Pin) => imageIds.get(styleOf(pin))!;
    const groups = followView(
      map,
      index,
      () => slots.pins,
      (groups, asked) => {
        lone = Array.from(groups.pins, (i) => asked[i]).filter((pin) => pin !== undefined);
        placeAppMarkers();
        return groupFeatures(groups, asked, imageOf, input.placeOf);
      },
      input.placeOf,
    );
    following.refresh = groups.refresh;
    following.redraw = groups.redraw;
    const removeLayers = addPinLayers(map, {
      images,
      image: ['get', 'image'],
      font: clusterFont(map),
      expansionZoom: (clusterId) => index.expansionZoom(clusterId),
      leaves: async (clusterId) => {
        const asked = slots.pins;
        return Array.from((await index.leaves(clusterId)).pins, (i) => asked[i]).filter((pin) => pin !== undefined);
      },
      listBubble: input.listBubble,
      onPin: (feature, trigger, byKeyboard) => {
        const pin = pins.get(feature.properties.id as string);
        if (!pin) return;
        onPinClick(pin.id);
        openPopup(pin, trigger, byKeyboard ?? false);
      },
      pinOf: (feature) => pins.get(feature.properties.id as string),
      styleOf,
      clusterLabel: input.clusterLabel,
    });
    hideAppSymbols();
    // A style loaded afresh (a theme's style MapLibre could not diff) keeps Pinmap's layers
    // (carryPinmapParts) but not their images: the pins' are added again here, the bubbles' by
    // the missing-image resolver when they are next drawn.
    const restoreImages = () => {
      for (const style of imageIds.keys()) ensurePinImage(map, style, pixelRatio).catch(() => {});
    };
    map.on('style.load', restoreImages);
    teardown = () => {
      cancelAnimationFrame(redrawFrame);
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

  return {
    mode: 'gl',
    placed: place(),
    // Hidden categories: the index groups the pins again without them; the source follows once it has.
    setHidden(next) {
      hiddenNow = next;
      index.filter(slots.visible(next), map.getZoom()).then(
        () => following.refresh?.(),
        () => {},
      );
    },
    revealZoom(id) {
      const at = slots.slot(id);
      // An index destroyed meanwhile (the pins were set again) leaves the camera's zoom.
      return at < 0 ? map.getZoom() : index.revealZoom(at, map.getZoom()).catch(() => map.getZoom());
    },
    hasPinAt: (point) => pinSymbolAt(map, point),
    async update({ list: next, pins: byId, diff }) {
      // The index is given the new pins at once: every question from now on is of the new slots.
      slots.update(next);
      pins = byId;
      const reloaded = index.reload(slots.lngLats(), map.getZoom(), slots.visible(hiddenNow));
      // A look no pin had before gets its image.
      const drawing: Promise<unknown>[] = [];
      for (const pin of [...diff.added, ...diff.changed]) {
        const style = styleOf(pin);
        if (imageIds.has(style)) continue;
        imageIds.set(style, pinStyleKey(style));
        drawing.push(ensurePinImage(map, style, pixelRatio).catch(() => {}));
      }
      await Promise.all([reloaded.catch(() => {}), ...drawing]);
      following.refresh?.();
    },
    moveMarker() {
      // Every gliding pin is drawn at its place of the frame, once a frame (the app's markers too).
      if (redrawFrame !== 0) return;
      redrawFrame = requestAnimationFrame(() => {
        redrawFrame = 0;
        following.redraw?.();
        placeAppMarkers();
      });
    },
    setAppPins(ids) {
      appIds = ids;
      hideAppSymbols();
      placeAppMarkers();
    },
    destroy: () => {
      appIds = new Set();
      placeAppMarkers();
      pinGroup.removeEventListener('focusin', showAppPinFocus);
      pinGroup.removeEventListener('focusout', showAppPinFocus);
      teardown();
    },
  };
}

/**
 * A pin index worker started ahead (`PinLayer.expectPins`), while a large set is read, for the
 * GPU layer that will group it; kept while it has not failed to start.
 */
export class SpareIndexWorker {
  private worker: Worker | undefined;

  /** Starts a worker, unless one waits already. Returns what lets the waiting one go. */
  start(): () => void {
    const letGo = () => this.drop();
    if (this.worker) return letGo;
    try {
      const worker = startIndexWorker();
      // It could not start: the index starts one of its own (and groups on the page if that fails too).
      worker.onerror = (event) => {
        event.preventDefault();
        worker.terminate();
        if (this.worker === worker) this.worker = undefined;
      };
      this.worker = worker;
    } catch {
      // As above.
    }
    return letGo;
  }

  /** The waiting worker, for an index to group in; none waits any more. */
  take(): Worker | undefined {
    const worker = this.worker;
    this.worker = undefined;
    return worker;
  }

  /** Ends the waiting worker, if any (its set is drawn otherwise, or never came). */
  drop(): void {
    this.take()?.terminate();
  }
}

/** The GPU pins' GeoJSON source: the bubbles and lone pins around the view (see `followView`). */
function addPinSource(map: MapLibreMap, attribution: string | undefined): void {
  map.addSource(PIN_SOURCE, {
    type: 'geojson',
    data: { type: 'FeatureCollection', features: [] },
    ...(attribution ? { attribution } : {}),
  });
}

/**
 * A source feature's id: each bubble and pin of the groups shown has one, so that a glide frame
 * can move only its pins (`updateData`) and a regrouping send only what changed. Whole numbers,
 * as the source's tiles keep them: a pin's from its slot (`PinSlots`), a bubble's from its key (the
 * lowest slot among its pins: the same while its pins are), apart.
 */
export const featureIdOf = {
  pin: (slot: number) => 2 * slot,
  bubble: (key: number) => 2 * key + 1,
};

/**
 * The lone pins of the groups shown whose place of now (`placeOf`, or their own) is not where
 * `drawnAt` (by feature id) has them drawn, each with its new point; `drawnAt` is brought up to date.
 */
export function pinsToMove(
  groups: Pick<PinGroups, 'pins'>,
  list: readonly (Pin | undefined)[],
  placeOf: (id: string) => readonly [number, number] | undefined,
  drawnAt: Map<number, readonly [number, number]>,
): { id: number; newGeometry: GeoJSON.Point }[] {
  const moves: { id: number; newGeometry: GeoJSON.Point }[] = [];
  for (const i of groups.pins) {
    const pin = list[i];
    if (!pin) continue;
    const at = placeOf(pin.id) ?? pin.lngLat;
    const id = featureIdOf.pin(i);
    const drawn = drawnAt.get(id);
    if (drawn && drawn[0] === at[0] && drawn[1] === at[1]) continue;
    drawnAt.set(id, at);
    moves.push({ id, newGeometry: { type: 'Point', coordinates: [at[0], at[1]] } });
  }
  return moves;
}

/** A change of one feature of the GPU pins' source (MapLibre's `GeoJSONFeatureDiff`). */
type FeatureChange = { id: number; newGeometry?: GeoJSON.Point; removeProperties?: string[]; addOrUpdateProperties?: { key: string; value: unknown }[] };

/**
 * What to send a GeoJSON source that holds `before` (by feature id) so that it holds `after`:
 * the ids gone, the features new, and the features whose point or properties changed; undefined
 * when more changed than stayed (the whole set is then cheaper to send).
 */
export function sourceDiff(
  before: ReadonlyMap<number, GeoJSON.Feature<GeoJSON.Point>>,
  after: readonly GeoJSON.Feature<GeoJSON.Point>[],
): { remove: number[]; add: GeoJSON.Feature<GeoJSON.Point>[]; update: FeatureChange[] } | undefined {
  const remove: number[] = [];
  const add: GeoJSON.Feature<GeoJSON.Point>[] = [];
  const update: FeatureChange[] = [];
  const kept = new Set<number>();
  for (const feature of after) {
    const id = feature.id as number;
    kept.add(id);
    const was = before.get(id);
    if (!was) {
      add.push(feature);
      continue;
    }
    const [lng, lat] = feature.geometry.coordinates;
    const moved = was.geometry.coordinates[0] !== lng || was.geometry.coordinates[1] !== lat;
    const properties = feature.properties ?? {};
    const old = was.properties ?? {};
    // Each property told, not all anew: the worker's index drops the new ones of a change that removes all.
    const gone = Object.keys(old).filter((key) => !(key in properties));
    const told = Object.keys(properties).filter((key) => properties[key] !== old[key]);
    if (!moved && gone.length === 0 && told.length === 0) continue;
    update.push({
      id,
      ...(moved ? { newGeometry: feature.geometry } : {}),
      ...(gone.length > 0 ? { removeProperties: gone } : {}),
      ...(told.length > 0 ? { addOrUpdateProperties: told.map((key) => ({ key, value: properties[key] as unknown })) } : {}),
    });
  }
  for (const id of before.keys()) if (!kept.has(id)) remove.push(id);
  return remove.length + add.length + update.length > after.length / 2 ? undefined : { remove, add, update };
}

/** The index's groups as the source's features: bubbles with their counts, and pins with their id and image; each with a feature id (`featureIdOf`). */
function groupFeatures(groups: PinGroups, list: readonly (Pin | undefined)[], imageOf: (pin: Pin) => string, placeOf: (id: string) => [number, number] | undefined): GeoJSON.FeatureCollection<GeoJSON.Point> {
  const features: GeoJSON.Feature<GeoJSON.Point>[] = [];
  const { clusters, keys } = groups;
  for (let k = 0; k < clusters.length; k += 4) {
    const count = clusters[k + 2]!;
    const key = keys[k / 4]!;
    features.push({
      type: 'Feature',
      id: featureIdOf.bubble(key),
      geometry: { type: 'Point', coordinates: [clusters[k]!, clusters[k + 1]!] },
      properties: { cluster: true, cluster_id: clusters[k + 3]!, bubble_key: key, point_count: count, point_count_abbreviated: abbreviate(count) },
    });
  }
  for (const i of groups.pins) {
    const pin = list[i];
    if (!pin) continue;
    const [lng, lat] = placeOf(pin.id) ?? pin.lngLat;
    features.push({ type: 'Feature', id: featureIdOf.pin(i), geometry: { type: 'Point', coordinates: [lng, lat] }, properties: { id: pin.id, image: imageOf(pin) } });
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
  listNow: () => readonly (Pin | undefined)[],
  toFeatures: (groups: PinGroups, list: readonly (Pin | undefined)[]) => GeoJSON.FeatureCollection<GeoJSON.Point>,
  placeOf: (id: string) => [number, number] | undefined,
): { first: Promise<void>; refresh(): void; redraw(): void; stop(): void } {
  let shown: { zoom: number; bbox: [number, number, number, number] } | undefined;
  /** The groups the source shows, and the list their pins' indexes are of. */
  let last: { groups: PinGroups; list: readonly (Pin | undefined)[] } | undefined;
  /** Where the source has each lone pin of `last` (by feature id), so a glide frame sends only the pins that moved. */
  let drawnAt = new Map<number, readonly [number, number]>();
  const source = () => map.getSource<GeoJSONSource>(PIN_SOURCE);
  /** What the source holds, by feature id (see `sourceDiff`). */
  let sent = new Map<number, GeoJSON.Feature<GeoJSON.Point>>();
  /**
   * The source given the groups of `last`, its pins at their places of now: what changed since
   * the groups it holds (`sourceDiff`), so a bubble or pin that did not change stays as it is
   * drawn; the whole set when it changed more than it stayed (another zoom, a far pan).
   */
  const setWhole = (whole = false) => {
    if (!last) return;
    const features = toFeatures(last.groups, last.list);
    drawnAt = new Map();
    for (const feature of features.features) {
      if (feature.properties?.cluster !== true) drawnAt.set(feature.id as number, feature.geometry.coordinates as [number, number]);
    }
    const before = sent;
    sent = new Map(features.features.map((feature) => [feature.id as number, feature]));
    const target = source();
    if (!target) return;
    const diff = whole ? undefined : sourceDiff(before, features.features);
    if (!diff) {
      target.setData(features);
      return;
    }
    if (diff.remove.length + diff.add.length + diff.update.length === 0) return;
    target.updateData(diff).catch(() => {
      // The source could not take the change (it was replaced or removed meanwhile): it is given the groups whole.
      if (!stopped) setWhole(true);
    });
  };
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
      // The list of the moment the question is asked: an update gives the index and the list their new pins together.
      const list = listNow();
      const groups = await index.groups(bbox, want.zoom);
      if (stopped) return;
      last = { groups, list };
      setWhole();
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
    // Gliding pins moved: those of the groups shown (lone pins; a bubble stays until the next
    // groups) are moved to their places of now, and nothing else is sent: the source reloads
    // only the tiles they are on.
    redraw() {
      if (stopped || !last) return;
      const update = pinsToMove(last.groups, last.list, placeOf, drawnAt);
      if (update.length === 0) return;
      // What the source holds, for the next regrouping's changes.
      for (const { id, newGeometry } of update) {
        const feature = sent.get(id);
        if (feature) sent.set(id, { ...feature, geometry: newGeometry });
      }
      source()
        ?.updateData({ update })
        .catch(() => {
          // The source could not take the change (it was replaced or removed meanwhile): it is given the groups whole.
          if (!stopped) setWhole(true);
        });
    },
    stop() {
      stopped = true;
      map.off('move', onMove);
      map.off('moveend', onMove);
      map.off('idle', onIdle);
    },
  };
}
