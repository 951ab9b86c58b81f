import type { PinmapConfigInput } from '../src/map/config.ts';
import type { Tolerance } from './compare.ts';

/** A step taken before the capture, as data. */
export type SceneAction =
  | { type: 'click'; selector: string }
  | { type: 'press'; key: string }
  | { type: 'drag'; from: [number, number]; to: [number, number] }
  | { type: 'wheel'; at: [number, number]; deltaY: number };

/**
 * One screenshot scene: what to open, how big, what to do, what to capture and how strictly to
 * compare. The map is captured once `data-map-state` says `expectState`, the fonts are loaded
 * and two frames have passed.
 */
export interface Scene {
  name: string;
  description: string;
  /** Config served to the app as `?config=<url>`; test settings (no fade, fixed pixel ratio) are added. */
  config?: PinmapConfigInput;
  /** Extra address after the config: `?view=…`, `#map=…`. */
  address?: string;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  /** WebGL off, as on a machine where it cannot start. */
  webgl?: boolean;
  actions?: SceneAction[];
  /** Which state the map settles in; `idle` unless the scene shows a failure. */
  expectState?: 'idle' | 'error';
  /** The map root (`map`) or the whole page (`page`, for corner and panel scenes). */
  capture: 'map' | 'page';
  tolerance?: Partial<Tolerance>;
}

const desktop = { width: 800, height: 600 };

export const scenes: Scene[] = [
  {
    name: 'basemap-z1',
    description: 'The embedded world basemap at zoom 1: continents, oceans, borders, country labels.',
    config: { center: [10, 20], zoom: 1 },
    viewport: desktop,
    deviceScaleFactor: 1,
    capture: 'map',
  },
  {
    name: 'basemap-z3',
    description: 'Europe and North Africa at zoom 3: borders, coastlines, big-city labels.',
    config: { center: [12, 45], zoom: 3 },
    viewport: desktop,
    deviceScaleFactor: 1,
    capture: 'map',
  },
  {
    name: 'basemap-z5',
    description: 'Central Europe at zoom 5 on a 2× screen: smaller cities appear, labels stay crisp.',
    config: { center: [10, 50], zoom: 5 },
    viewport: { width: 600, height: 450 },
    deviceScaleFactor: 2,
    capture: 'map',
  },
  {
    name: 'basemap-keyboard',
    description: 'Keyboard use of the map: focus it, zoom in with + and pan with the arrow keys.',
    config: { center: [12, 45], zoom: 3 },
    viewport: desktop,
    deviceScaleFactor: 1,
    actions: [
      { type: 'click', selector: 'canvas.maplibregl-canvas' },
      { type: 'press', key: '+' },
      { type: 'press', key: 'ArrowRight' },
      { type: 'press', key: 'ArrowDown' },
    ],
    capture: 'map',
  },
  {
    name: 'webgl-failed',
    description: "The page on a machine where WebGL cannot start: the 'Failed to initialize WebGL' panel.",
    viewport: desktop,
    deviceScaleFactor: 1,
    webgl: false,
    expectState: 'error',
    capture: 'page',
  },
];
