import { Map as MapLibreMap, Marker, addProtocol, setWorkerUrl } from 'maplibre-gl';
import { Protocol } from 'pmtiles';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url&no-inline';
import 'maplibre-gl/dist/maplibre-gl.css';
import { resolveStyleUrls } from '../../src/map/style-urls.ts';
import { readPageInputs, signalIdle, signalError } from './page-inputs.ts';

/**
 * The bare MapLibre pages of `npm run bench`: a MapLibre map on the same style and camera as
 * the app, and, by `mode` in the address,
 * - `bare` (no `pins`): nothing else: the floor for cold load and size;
 * - `markers`: one default `new Marker()` per pin (DOM);
 * - `cluster`: MapLibre's own GeoJSON clustering (the pins' URL as the source's `data`, fetched
 *   and clustered in the worker) drawn by one plain circle layer: the floor for GPU pins;
 * - `first-pin`: the pin file read (fetched and parsed, from the start) and only its first pin
 *   in view shown, as one symbol: the least a page can do to show pins from the file as MapLibre
 *   symbols, so the floor for time to idle with a given file (a symbol fades in for `fadeDuration`).
 * - `first-view`: the pin file read as by `first-pin`, and the bubbles and pins the app shows in
 *   the view drawn as one symbol layer (a disc of the app's size for each bubble, with its count
 *   in the app's font), from `groups`: the app's grouping, done by the benchmark beforehand. The
 *   floor for time to idle with the app's drawing of the view, but none of its checking or grouping.
 * Sets `data-map-state="idle"` on its `.pinmap` root at the first map `idle` after every pin is
 * on the map, as the app does.
 */

setWorkerUrl(workerUrl);
// The basemap is one PMTiles archive: read it as a bare MapLibre page would, with the package's protocol.
addProtocol('pmtiles', new Protocol({ metadata: true }).tile);

/** As the app's (src/pins/grouping/clusters.ts): pins within 40 px merge, none above zoom 14. */
const CLUSTER_RADIUS = 40;
const CLUSTER_MAX_ZOOM = 14;

interface PinCollection {
  features: { geometry: { coordinates: [number, number] } }[];
}

async function main(root: HTMLElement): Promise<void> {
  const { styleUrl, pinsUrl, groupsUrl, center, zoom, fadeDuration, mode } = readPageInputs();
  const map = new MapLibreMap({
    container: 'map',
    style: styleUrl,
    transformStyle: (_previous, next) => resolveStyleUrls(next, styleUrl),
    center,
    zoom,
    fadeDuration,
    attributionControl: {},
  });
  map.on('error', (event) => console.warn(`bench MapLibre page: ${String(event.error)}`));

  if (pinsUrl && mode === 'first-pin') {
    const read = readPins(pinsUrl);
    await map.once('style.load');
    const pins = await read;
    const bounds = map.getBounds();
    const first = pins.features.find((feature) => bounds.contains(feature.geometry.coordinates));
    if (!first) throw new Error('pins: no pin in view');
    map.addImage('pin', { width: 16, height: 16, data: new Uint8Array(16 * 16 * 4).fill(255) });
    const sourceLoaded = whenSourceLoaded(map, 'pins');
    map.addSource('pins', { type: 'geojson', data: { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: first.geometry.coordinates } } });
    map.addLayer({ id: 'pins', type: 'symbol', source: 'pins', layout: { 'icon-image': 'pin', 'icon-allow-overlap': true } });
    await sourceLoaded;
    root.dataset.pins = String(pins.features.length);
  } else if (pinsUrl && groupsUrl && mode === 'first-view') {
    const read = readPins(pinsUrl);
    const groups = fetch(groupsUrl).then((response) => response.json() as Promise<GeoJSON.FeatureCollection<GeoJSON.Point>>);
    await map.once('style.load');
    await read;
    const data = await groups;
    const steps = [...new Set(data.features.flatMap((feature) => (feature.properties?.diameter === undefined ? [] : [Number(feature.properties.diameter)])))];
    for (const diameter of steps) map.addImage(`bubble-${diameter}`, disc(diameter));
    map.addImage('pin', { width: 16, height: 16, data: new Uint8Array(16 * 16 * 4).fill(255) });
    const sourceLoaded = whenSourceLoaded(map, 'pins');
    map.addSource('pins', { type: 'geojson', data });
    map.addLayer({
      id: 'pins',
      type: 'symbol',
      source: 'pins',
      layout: {
        'icon-image': ['case', ['has', 'point_count'], ['concat', 'bubble-', ['get', 'diameter']], 'pin'],
        'text-field': ['coalesce', ['get', 'point_count_abbreviated'], ''],
        'text-font': ['Noto Sans Bold'],
        'text-size': 12,
        'icon-allow-overlap': true,
        'text-allow-overlap': true,
        'text-ignore-placement': true,
      },
      paint: { 'text-color': '#ffffff' },
    });
    await sourceLoaded;
    root.dataset.pins = String(data.features.length);
  } else if (pinsUrl && mode === 'markers') {
    const pins = await readPins(pinsUrl);
    for (const feature of pins.features) new Marker().setLngLat(feature.geometry.coordinates).addTo(map);
    root.dataset.markers = String(pins.features.length);
  } else if (pinsUrl && mode === 'cluster') {
    await map.once('style.load');
    const sourceLoaded = whenSourceLoaded(map, 'pins');
    map.addSource('pins', { type: 'geojson', data: new URL(pinsUrl, window.location.href).href, cluster: true, clusterRadius: CLUSTER_RADIUS, clusterMaxZoom: CLUSTER_MAX_ZOOM });
    map.addLayer({
      id: 'pins',
      type: 'circle',
      source: 'pins',
      paint: { 'circle-color': '#3FB1CE', 'circle-radius': ['case', ['has', 'point_count'], 14, 6], 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 2 },
    });
    await sourceLoaded;
  }
  // Idle once the style, tiles and every pin are drawn.
  const idle = map.once('idle');
  map.triggerRepaint();
  await idle;
  // A floor that drew nothing would be no floor: its one pin must be on the screen.
  if (mode === 'first-pin' && map.queryRenderedFeatures({ layers: ['pins'] }).length !== 1) throw new Error('first-pin: the pin is not drawn');
  signalIdle(root);
}

/** A filled disc with a white ring, `diameter` px across, as an image for `addImage`. */
function disc(diameter: number): { width: number; height: number; data: Uint8Array } {
  const data = new Uint8Array(diameter * diameter * 4);
  const r = diameter / 2;
  for (let y = 0; y < diameter; y++) {
    for (let x = 0; x < diameter; x++) {
      const d = Math.hypot(x + 0.5 - r, y + 0.5 - r);
      if (d > r) continue;
      const ring = d > r - 2;
      data.set(ring ? [255, 255, 255, 255] : [0x2b, 0x6c, 0xb0, 255], (y * diameter + x) * 4);
    }
  }
  return { width: diameter, height: diameter, data };
}

async function readPins(url: string): Promise<PinCollection> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`pins: HTTP ${response.status}`);
  return (await response.json()) as PinCollection;
}

/** Resolves once the source's data is loaded (its tiles made); listen before adding it. */
function whenSourceLoaded(map: MapLibreMap, id: string): Promise<void> {
  return new Promise<void>((resolve) => {
    const onData = (event: { sourceId?: string; isSourceLoaded?: boolean }) => {
      if (event.sourceId !== id || !event.isSourceLoaded) return;
      map.off('sourcedata', onData);
      resolve();
    };
    map.on('sourcedata', onData);
  });
}

const root = document.querySelector<HTMLElement>('.pinmap');
if (root) main(root).catch((error: unknown) => signalError(root, error));
