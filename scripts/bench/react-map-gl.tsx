import { addProtocol } from 'maplibre-gl';
import { Protocol } from 'pmtiles';
import { createRoot } from 'react-dom/client';
import { Map, Marker } from 'react-map-gl/maplibre';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url&no-inline';
import 'maplibre-gl/dist/maplibre-gl.css';
import { resolveStyleUrls } from '../../src/map/style-urls.ts';
import { readPageInputs, signalIdle } from './page-inputs.ts';

/**
 * The React page of `npm run bench`: what a React developer ships for a map without Pinmap.
 * React 19 renders react-map-gl 8's MapLibre `<Map>` (`react-map-gl/maplibre`) on the same style
 * and camera as the app, with no pins and nothing else: the reference of the weight and cold-load
 * targets. MapLibre's worker comes from its own file and the basemap archive is read with the
 * pmtiles package's protocol, as on the bare MapLibre page. Sets `data-map-state="idle"` on its
 * `.pinmap` root at the map's first `idle`, as the app does. With `markers=<url>` (a JSON list of
 * `[longitude, latitude, label]`), each is a react-map-gl `<Marker>` holding a price tag: the usual
 * way to put React content on a map's points (`npm run bench -- --react`).
 */

addProtocol('pmtiles', new Protocol({ metadata: true }).tile);

const root = document.querySelector<HTMLElement>('.pinmap');
const markersUrl = new URLSearchParams(window.location.search).get('markers');
const markersLoaded: Promise<[number, number, string][]> = markersUrl ? fetch(markersUrl).then((response) => response.json() as Promise<[number, number, string][]>) : Promise.resolve([]);
if (root) void markersLoaded.then((markers) => {
  const { styleUrl, center, zoom, fadeDuration } = readPageInputs();
  createRoot(root).render(
    <Map
      workerUrl={workerUrl}
      mapStyle={styleUrl}
      transformStyle={(_previous, next) => resolveStyleUrls(next, styleUrl)}
      initialViewState={{ longitude: center[0], latitude: center[1], zoom }}
      fadeDuration={fadeDuration}
      style={{ width: '100%', height: '100%' }}
      onIdle={() => signalIdle(root)}
      onError={(event) => console.warn(`bench react-map-gl page: ${String(event.error)}`)}
    >
      {markers.map(([longitude, latitude, label], i) => (
        <Marker key={i} longitude={longitude} latitude={latitude} anchor="bottom">
          <span className="price-tag">€{label}</span>
        </Marker>
      ))}
    </Map>,
  );
});
