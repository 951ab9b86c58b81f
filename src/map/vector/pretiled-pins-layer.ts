import type { ExpressionSpecification, FilterSpecification, Map as MapLibreMap } from 'maplibre-gl';
import { PIN_ARCHIVE, bubbleCategoryKey, hiddenCategoryIndices, revealZoomOf, shownBubbleCount } from '../../pins/archive-format.ts';
import { pinStyleKey, type PinStyle } from '../../pins/icon.ts';
import { drawPinImage } from '../../pins/icon-image.ts';
import type { Pin, PinArchive, ShownBubble } from '../../pins/types.ts';
import { pinFromTile, pinLookup } from '../pin-archive.ts';
import type { PinImages } from './pin-images.ts';
import type { PinStrategy, PinStrategyInput } from './pin-strategy.ts';
import { PIN_LAYERS, PIN_SOURCE, addPinLayers, bubbleLayout, clusterFont, pinSymbolAt, removePinLayers } from './pin-symbol-layers.ts';

/**
 * How many of an archive's looks have their pin images drawn as soon as the archive is open
 * (an archive may have up to 1,000 looks; each image takes a few ms of the page to draw).
 */
const EAGER_LOOK_IMAGES = 16;

/** What the pre-tiled layer draws: a pin archive (`pins: "pmtiles://…"`). */
export interface PretiledPinsInput extends PinStrategyInput {
  archive: PinArchive;
  /** The style of each of the archive's looks, in its order (looks that draw alike share one). */
  lookStyles: PinStyle[];
  images: PinImages;
  /** Resolves once the map's style has loaded. */
  whenStyleLoaded: () => Promise<void>;
  /** False once the pin layer has moved on to another set. */
  isCurrent: () => boolean;
}

/**
 * Pre-tiled pins: the archive's tiles are the source of the same layers and pin images as the
 * inline GL pins (`addPinLayers`); the bubbles, their counts and where they split are in the
 * tiles, so nothing is grouped here. Each look of the archive is one pin style (one image). A pin
 * is looked up in the archive's pin index for its popup (its tile holds only what its symbol needs).
 * Hidden categories leave the pins' layer, and each bubble's count (an archive of version 3 counts
 * each bubble's pins per category); a bubble with none left is not drawn.
 */
export function createPretiledPins(map: MapLibreMap, input: PretiledPinsInput): PinStrategy {
  const { archive, lookStyles, styleOf, onPinClick, openPopup, whenStyleLoaded, isCurrent } = input;
  let hidden = input.hidden;
  let teardown = () => {};
  /** The pins found in the archive's index so far (by a click, `?pin=` or the ref), for `open`. */
  const found = pinLookup(archive);
  /** The places of the hidden categories in the archive's (none for an archive of version 2: its bubbles keep their counts). */
  const hiddenIndices = () => (archive.bubbleCategories ? hiddenCategoryIndices(archive.metadata, hidden) : []);
  const applyHidden = () => {
    if (!map.getLayer(PIN_LAYERS.pins)) return;
    map.setFilter(PIN_LAYERS.pins, tiledPinFilter(hidden, archive));
    const { count, label } = shownBubbleExpressions(hiddenIndices());
    map.setFilter(PIN_LAYERS.clusters, ['all', ['has', 'point_count'], ['>', count, 0]]);
    const layout = bubbleLayout(map, count, label);
    map.setLayoutProperty(PIN_LAYERS.clusters, 'icon-image', layout['icon-image']);
    map.setLayoutProperty(PIN_LAYERS.clusters, 'text-field', layout['text-field']);
  };

  async function place() {
    const pixelRatio = map.getPixelRatio();
    const lookImages = lookStyles.map(pinStyleKey);
    const distinctStyles = new Set(lookStyles);
    // The images of the first looks are drawn at once, while the style and the tiles load (as
    // the inline pins' are), so a tile that shows pins does not wait for the icon font and the
    // drawing. Any other look's image is drawn when a tile first shows a pin of it.
    for (const style of [...distinctStyles].slice(0, EAGER_LOOK_IMAGES)) drawPinImage(map, style, pixelRatio).catch(() => {}); // told when a tile needs it
    await whenStyleLoaded();
    if (!isCurrent() || lookStyles.length === 0) return;
    map.addSource(PIN_SOURCE, archive.source);
    teardown = () => removePinLayers(map);
    // The missing-image resolver adds each look's image when a tile first shows a pin of it.
    const images = input.images.layerImages(distinctStyles, pixelRatio);
    teardown = addPinLayers(map, {
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
        onPinClick(String(id));
        found.open(String(id), (pin) => openPopup(pin, trigger, byKeyboard ?? false), isCurrent);
      },
      pinOf: (feature) => {
        if (feature.geometry.type !== 'Point') return undefined;
        const pin = pinFromTile(feature.properties, feature.geometry.coordinates as [number, number], archive);
        return typeof pin === 'string' ? undefined : pin;
      },
      styleOf,
      clusterLabel: input.clusterLabel,
      bubbleCount: (properties) => shownBubbleCount(properties, hiddenIndices()),
      ...(archive.bubblePins ? { leaves: (_, properties, lngLat) => archive.bubblePins!(properties, lngLat, hidden) } : {}),
      listBubble: input.listBubble,
    });
    applyHidden();
  }

  return {
    mode: 'gl',
    placed: place(),
    setHidden(next) {
      hidden = next;
      applyHidden();
    },
    async revealZoom(id) {
      const entry = await found.lookUp(id);
      return entry ? revealZoomOf(entry.aloneMask, map.getZoom(), archive.source.maxzoom) : map.getZoom();
    },
    lookup: found,
    shownPins: () => tiledPinsDrawn(map, archive),
    shownBubbles: () => tiledBubblesDrawn(map, hiddenIndices()),
    hasPinAt: (point) => pinSymbolAt(map, point),
    destroy: () => teardown(),
  };
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

/**
 * The pre-tiled bubbles the map draws now, each once, with how many of their pins show (see
 * `shownBubbleCount`); a bubble with none left is not drawn (the layer's filter).
 */
function tiledBubblesDrawn(map: MapLibreMap, hiddenIndices: readonly number[]): ShownBubble[] {
  if (!map.getLayer(PIN_LAYERS.clusters)) return [];
  const drawn = new Map<string, ShownBubble>();
  for (const feature of map.queryRenderedFeatures({ layers: [PIN_LAYERS.clusters] })) {
    const key = String(feature.properties.cluster_id);
    if (feature.geometry.type !== 'Point' || drawn.has(key)) continue;
    const [lng, lat] = feature.geometry.coordinates as [number, number];
    const count = shownBubbleCount(feature.properties, hiddenIndices);
    const expansionZoom = Number(feature.properties.expansion_zoom);
    drawn.set(key, { key, count, lngLat: [lng, lat], expansionZoom: Number.isFinite(expansionZoom) ? expansionZoom : Math.floor(map.getZoom()) + 1 });
  }
  return [...drawn.values()];
}

/**
 * A pre-tiled bubble's count while the categories at `hiddenIndices` are hidden, as a MapLibre
 * expression (`shownBubbleCount`), and its label (as `abbreviate` writes it); the tiles' own when
 * none is.
 */
function shownBubbleExpressions(hiddenIndices: readonly number[]): { count: ExpressionSpecification; label: ExpressionSpecification } {
  if (hiddenIndices.length === 0) return { count: ['get', 'point_count'], label: ['get', 'point_count_abbreviated'] };
  const count: ExpressionSpecification = ['-', ['get', 'point_count'], ['+', 0, ...hiddenIndices.map((k): ExpressionSpecification => ['coalesce', ['get', bubbleCategoryKey(k)], 0])]];
  const label: ExpressionSpecification = [
    'case',
    ['<', count, 1000],
    ['to-string', count],
    ['<', count, 10000],
    ['concat', ['to-string', ['/', ['round', ['/', count, 100]], 10]], 'k'],
    ['concat', ['to-string', ['round', ['/', count, 1000]]], 'k'],
  ];
  return { count, label };
}
