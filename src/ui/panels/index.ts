/**
 * The pin panels (list, legend, search): shown only when config names them, so they load as a
 * chunk of their own when a map first shows one (with the virtual list and the search), not with
 * every map.
 */
export { LegendControl } from './LegendControl.tsx';
export { PinListControl } from './PinListControl.tsx';
export { SearchControl } from './SearchControl.tsx';
