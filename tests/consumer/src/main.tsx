import { Map as AppMap } from 'maplibre-gl';
import { maplibre, Pinmap, type PinmapConfigInput, type PinmapRef } from 'pinmap';
import 'pinmap/style.css';
import { StrictMode, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import './app.css';
// The README's store locator, written here from the README by tests/consumer.spec.ts before the
// build, as it is and with `view: 'hybrid'` in its config.
import { StoreLocator } from './store-locator';
import { StoreLocator as HybridStoreLocator } from './store-locator-hybrid';

/** Three pins in Europe, two of them with their category's look. */
const config: PinmapConfigInput = {
  center: [8, 48],
  zoom: 3,
  pins: {
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', id: 'paris', geometry: { type: 'Point', coordinates: [2.35, 48.86] }, properties: { title: 'Paris', description: 'Capital of France', category: 'capital' } },
      { type: 'Feature', id: 'berlin', geometry: { type: 'Point', coordinates: [13.4, 52.52] }, properties: { title: 'Berlin', category: 'capital' } },
      { type: 'Feature', id: 'zurich', geometry: { type: 'Point', coordinates: [8.54, 47.37] }, properties: { title: 'Zürich' } },
    ],
  },
  pinStyles: { capital: { markerColor: '#C62828', iconClasses: 'fa-solid fa-landmark-flag' } },
  units: 'metric',
};

/** The map, with a ref and two of its events, as an app uses them: the page records what they say. */
function App() {
  const map = useRef<PinmapRef>(null);
  return (
    <Pinmap
      ref={map}
      config={config}
      onLoad={({ target }) => {
        document.body.dataset.loadedZoom = String(Math.round(target.getViewState().zoom));
        document.body.dataset.mapCanvas = String(target.getMap()?.getCanvas() instanceof HTMLCanvasElement);
        // The package's `maplibre` is the MapLibre its maps run on.
        document.body.dataset.sameMaplibre = String(target.getMap() instanceof maplibre.Map);
        // The app's own `maplibre-gl` is that MapLibre too: one copy, whose settings reach Pinmap's maps.
        document.body.dataset.appMaplibre = String(target.getMap() instanceof AppMap);
      }}
      onPinClick={({ id }) => {
        document.body.dataset.clickedPin = id;
      }}
    />
  );
}

/** The stores of the README's store locator (`?stores`, `?stores&view=hybrid`): its own list beside the map (public/stores.geojson). */
const STORES = [
  { id: 'lyon', name: 'Lyon' },
  { id: 'geneva', name: 'Geneva' },
  { id: 'turin', name: 'Turin' },
];

const page = new URLSearchParams(location.search);
createRoot(document.getElementById('root')!).render(
  <StrictMode>{page.has('stores') ? page.get('view') === 'hybrid' ? <HybridStoreLocator stores={STORES} /> : <StoreLocator stores={STORES} /> : <App />}</StrictMode>,
);
