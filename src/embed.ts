/**
 * The self-contained embed build: everything, React included, for pages that are not React
 * apps. `createPinmap(container, config)` is all they need.
 */
export { createPinmap, type PinmapHandle } from './ui/create-pinmap.tsx';
export { parseConfig, ConfigError, type PinmapConfigInput } from './map/config.ts';
export { pinmapLocaleDe } from './map/locales/de.ts';
