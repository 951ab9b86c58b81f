import { addProtocol } from 'maplibre-gl';
import { Protocol } from 'pmtiles';
import { createRoot } from 'react-dom/client';
import { Map } from 'react-map-gl/maplibre';
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
 * `.pinmap` root at the map's first `idle`, as the app does.
 */

addProtocol('pmtiles', new Protocol({ metadata: true }).tile);

const root = document.querySelector<HTMLElement>('.pinmap');
if (root) {
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
    />,
  );
}
