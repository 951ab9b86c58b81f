/**
 * Pinmap's public API: the `<Pinmap/>` React component, the `createPinmap` embed call, and the
 * config parser with its types.
 */
export type { PinCollectionInput } from './config/schema.ts';
export { Pinmap } from './ui/Pinmap.tsx';
export type { PinmapProps, PinmapRef, PinmapDataProps, PinEvent, PinmapPin, StatusListener } from './ui/pinmap-api.ts';
export type { ViewState } from './ui/view-state.ts';
export type { LngLatBounds } from './map/adapter.ts';
export { createPinmap, PinmapDestroyedError, type PinmapHandle, type PinmapEmbedConfig } from './ui/create-pinmap.tsx';
export { PinChangesError, type PinChangesInput } from './config/pin-changes.ts';
export {
  parseConfig,
  safeParseConfig,
  ConfigError,
  DEFAULT_CONTROL_CORNERS,
  type PinmapConfig,
  type PinmapConfigInput,
  type ConfigProblem,
  type PinOptions,
  type PinOptionsInput,
  type Corner,
  type ControlName,
  type InlineStyle,
  type RasterLayerConfig,
  type RasterLayerConfigInput,
  type VectorLayerConfig,
  type VectorLayerConfigInput,
} from './config/schema.ts';
export { DEFAULT_LOCALE, type LocaleKey } from './config/locale.ts';
export { pinmapLocaleDe } from './config/locales/de.ts';
export type { MapStatus } from './machines/map-status.machine.ts';
export type { Camera, ViewName } from './config/address.ts';
/**
 * The MapLibre GL JS that Pinmap's maps run on (bundled into the library). Set global MapLibre
 * options on it for Pinmap's maps, such as a protocol of your own for a style's sources
 * (`maplibre.addProtocol`), or make markers and popups for `getMap()`'s map with it. An app's own
 * `import … from 'maplibre-gl'` is a second copy of MapLibre, whose global settings do not reach
 * Pinmap's maps.
 */
export * as maplibre from 'maplibre-gl';
