// A page with no bundler: the embed build straight from the installed package's files.
import { createPinmap } from '/node_modules/pinmap/dist/lib/pinmap-embed.js';

createPinmap('map', {
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
});
