import type { EngineEvents, MapAdapter } from './adapter.ts';
import type { PinmapConfig } from './config.ts';
import { createVectorEngine } from './vector-engine.ts';

/**
 * Makes the map for a config's view. The hybrid view (Leaflet holding the vector map) is not
 * built yet; until it is, it falls back to the vector view with a console notice.
 */
export function createEngine(container: HTMLElement, config: PinmapConfig, events: EngineEvents): MapAdapter {
  if (config.view === 'hybrid') {
    console.info('Pinmap: the hybrid view is not available yet; showing the vector view.');
  }
  return createVectorEngine(container, config, events);
}
