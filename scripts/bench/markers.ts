import { Map as MapLibreMap, Marker, setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url&no-inline';
import 'maplibre-gl/dist/maplibre-gl.css';
import { resolveStyleUrls } from '../../src/map/style-urls.ts';

/**
 * The DOM-marker baseline of `npm run bench:pins`: a bare MapLibre map on the same style and
 * camera as the app, with one default `new Marker()` per pin. Reads its inputs from the address
 * (`style`, `pins`, `center`, `zoom`, `fadeDuration`) and sets `data-map-state="idle"` on its
 * `.pinmap` root at the first map `idle` after every marker is on the map, as the app does.
 */

setWorkerUrl(workerUrl);

interface PinCollection {
  features: { geometry: { coordinates: [number, number] } }[];
}

async function main(root: HTMLElement): Promise<void> {
  const params = new URLSearchParams(window.location.search);
  const styleUrl = new URL(params.get('style') ?? '/basemap/style.json', window.location.href).href;
  const pinsUrl = params.get('pins');
  const center = JSON.parse(params.get('center') ?? '[10, 30]') as [number, number];
  const zoom = Number(params.get('zoom') ?? '2');
  const fadeDuration = Number(params.get('fadeDuration') ?? '300');

  const map = new MapLibreMap({
    container: 'map',
    style: styleUrl,
    transformStyle: (_previous, next) => resolveStyleUrls(next, styleUrl),
    center,
    zoom,
    fadeDuration,
    attributionControl: {},
  });
  map.on('error', (event) => console.warn(`bench markers page: ${String(event.error)}`));

  if (pinsUrl) {
    const response = await fetch(pinsUrl);
    if (!response.ok) throw new Error(`pins: HTTP ${response.status}`);
    const pins = (await response.json()) as PinCollection;
    for (const feature of pins.features) new Marker().setLngLat(feature.geometry.coordinates).addTo(map);
    root.dataset.markers = String(pins.features.length);
  }
  // Idle once the style, tiles and every marker are drawn.
  const idle = map.once('idle');
  map.triggerRepaint();
  await idle;
  root.dataset.mapState = 'idle';
}

const root = document.querySelector<HTMLElement>('.pinmap');
if (root) {
  main(root).catch((error: unknown) => {
    root.dataset.mapState = 'error';
    root.dataset.error = String(error);
  });
}
