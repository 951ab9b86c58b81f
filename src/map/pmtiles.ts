import { addProtocol } from 'maplibre-gl';
import { Protocol } from 'pmtiles';

/**
 * PMTiles archives as MapLibre sources: any style source (vector or raster) may name its
 * `url` as `pmtiles://<archive URL>`, and its tiles are read from the one archive with HTTP range
 * requests, from any static host. One protocol for every map on the page, both views (the hybrid
 * view's vector layer is a MapLibre map too); registered when the first map is made.
 */
let registered: Protocol | undefined;

export function registerPmtilesProtocol(): Protocol {
  if (!registered) {
    registered = new Protocol({ metadata: true });
    addProtocol('pmtiles', registered.tile);
  }
  return registered;
}
