import type { EngineEvents, MapAdapter } from './adapter.ts';
import type { PinmapConfig } from '../config/schema.ts';
import { createVectorEngine } from './vector/engine.ts';

/**
 * Makes the map for a config's view. The vector view is in the main bundle; the hybrid view
 * (Leaflet, the plugin and their style sheets) loads only when it is asked for.
 */
export async function createEngine(container: HTMLElement, config: PinmapConfig, events: EngineEvents): Promise<MapAdapter> {
  if (config.view === 'hybrid') {
    const { createHybridEngine } = await import('./hybrid/engine.ts');
    return createHybridEngine(container, config, events);
  }
  return createVectorEngine(container, config, events);
}
