import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { MaplibreGL } from '@maplibre/maplibre-gl-leaflet';
import { addProtocol, setWorkerUrl, type Map as MapLibreMap, type StyleSpecification } from 'maplibre-gl';
import { Protocol } from 'pmtiles';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url&no-inline';
import 'maplibre-gl/dist/maplibre-gl.css';
import '@fortawesome/fontawesome-free/css/all.css';
import 'leaflet-fa-markers/L.Icon.FontAwesome.css';
import { resolveStyleUrls } from '../../src/map/style-urls.ts';
import { readPageInputs, signalError, signalIdle } from './page-inputs.ts';

/**
 * The Leaflet baseline of `npm run bench`: Leaflet 1.9 with the same vector basemap as the app
 * (the same style through the `@maplibre/maplibre-gl-leaflet` layer, as the hybrid view holds
 * it), so only the pins differ: one `leaflet-fa-markers` icon (`L.icon.fontAwesome`, an SVG pin
 * with a Font Awesome glyph) per pin, in the pins' own category styles. Camera: Leaflet's zoom
 * is MapLibre's + 1 (256 px tiles), so the same scale as the MapLibre pages.
 */

setWorkerUrl(workerUrl);
// The basemap is one PMTiles archive: read it as a bare MapLibre page would, with the package's protocol.
addProtocol('pmtiles', new Protocol({ metadata: true }).tile);

interface PinStyleOptions {
  iconClasses?: string;
  markerColor?: string;
  iconColor?: string;
}

interface PinCollection {
  pinStyles?: Record<string, PinStyleOptions>;
  features: { geometry: { coordinates: [number, number] }; properties: { category?: string } }[];
}

type FaIconFactory = (options: PinStyleOptions & L.BaseIconOptions) => L.Icon;

async function loadPlugin(): Promise<FaIconFactory> {
  // The plugin is a script for a page with a global `L`.
  (window as unknown as { L: typeof L }).L = L;
  await import('leaflet-fa-markers');
  return (L.icon as unknown as { fontAwesome: FaIconFactory }).fontAwesome;
}

async function main(root: HTMLElement): Promise<void> {
  const { styleUrl, pinsUrl, center, zoom, fadeDuration } = readPageInputs();
  const faIcon = pinsUrl ? loadPlugin() : undefined;
  // As the hybrid view's Leaflet map: any zoom, 120 px of wheel per zoom level.
  const map = L.map('map', { center: [center[1], center[0]], zoom: zoom + 1, zoomSnap: 0, zoomDelta: 1, wheelPxPerZoomLevel: 120 });
  const layer = new MaplibreGL({
    style: styleUrl,
    transformStyle: (_previous: StyleSpecification | undefined, next: StyleSpecification) => resolveStyleUrls(next, styleUrl),
    fadeDuration,
  } as unknown as L.LeafletMaplibreGLOptions);
  layer.addTo(map);
  const glMap = layer.getMaplibreMap() as MapLibreMap;
  glMap.on('error', (event) => console.warn(`bench Leaflet page: ${String(event.error)}`));
  const basemapIdle = glMap.once('idle');

  if (pinsUrl && faIcon) {
    const response = await fetch(pinsUrl);
    if (!response.ok) throw new Error(`pins: HTTP ${response.status}`);
    const pins = (await response.json()) as PinCollection;
    const icon = await faIcon;
    // One icon object per category, as a page with a few pin styles would make them.
    const icons = new Map<string, L.Icon>();
    const iconFor = (category = '') => {
      let made = icons.get(category);
      if (!made) {
        const style = pins.pinStyles?.[category] ?? {};
        made = icon({ iconClasses: style.iconClasses ?? 'fa-solid fa-location-dot', markerColor: style.markerColor ?? '#3FB1CE', iconColor: style.iconColor ?? '#ffffff' });
        icons.set(category, made);
      }
      return made;
    };
    for (const feature of pins.features) {
      const [lng, lat] = feature.geometry.coordinates;
      L.marker([lat, lng], { icon: iconFor(feature.properties.category) }).addTo(map);
    }
    root.dataset.markers = String(pins.features.length);
  }
  await basemapIdle;
  // The markers are in the page; one more frame so they are laid out and drawn.
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  signalIdle(root);
}

const root = document.querySelector<HTMLElement>('.pinmap');
if (root) main(root).catch((error: unknown) => signalError(root, error));
