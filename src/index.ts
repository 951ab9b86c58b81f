/**
 * Pinmap's public API: the `<Pinmap/>` React component, the `createPinmap` embed call, and the
 * config parser with its types.
 */
export { Pinmap, type PinmapProps } from './ui/Pinmap.tsx';
export { createPinmap, type PinmapHandle } from './ui/create-pinmap.tsx';
export {
  parseConfig,
  safeParseConfig,
  ConfigError,
  DEFAULT_CONTROL_CORNERS,
  type PinmapConfig,
  type PinmapConfigInput,
  type ConfigProblem,
  type PinOptions,
} from './map/config.ts';
export { DEFAULT_LOCALE, type LocaleKey } from './map/locale.ts';
export { pinmapLocaleDe } from './map/locales/de.ts';
export type { MapStatus } from './machines/map-status.machine.ts';
export type { Camera, ViewName } from './map/address.ts';
