/**
 * The self-contained embed build: everything, React included, for pages that are not React
 * apps. `createPinmap(container, config)` is all they need.
 */
export { createPinmap, PinmapDestroyedError, type PinmapHandle, type PinmapEmbedConfig } from './ui/create-pinmap.tsx';
export type { PinmapPin } from './ui/pinmap-api.ts';
export { parseConfig, ConfigError, type PinmapConfigInput } from './config/schema.ts';
export { PinChangesError, type PinChangesInput } from './config/pin-changes.ts';
export { pinmapLocaleDe } from './config/locales/de.ts';
/** The MapLibre GL JS that the maps run on: see `maplibre` in index.ts (a protocol of your own, say). */
export * as maplibre from 'maplibre-gl';
