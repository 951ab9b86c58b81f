/**
 * What the baseline pages of `npm run bench` read from their address, and how they report
 * back: the same `data-map-state` attribute on a `.pinmap` root as the app, so the benchmark
 * measures every page the same way.
 */
export interface PageInputs {
  /** Absolute URL of the style. */
  styleUrl: string;
  /** URL of the pins (a GeoJSON FeatureCollection), if any. */
  pinsUrl: string | null;
  /** URL of the bubbles and pins the app shows in view (a GeoJSON FeatureCollection, `first-view`), if any. */
  groupsUrl: string | null;
  /** MapLibre camera: Leaflet pages add 1 to the zoom for the same scale. */
  center: [number, number];
  zoom: number;
  fadeDuration: number;
  /** Which page variant to draw (`bare`, `markers`, `cluster`, `first-pin`, `first-view`, `fa-markers`). */
  mode: string;
}

export function readPageInputs(): PageInputs {
  const params = new URLSearchParams(window.location.search);
  return {
    styleUrl: new URL(params.get('style') ?? '/basemap/style.json', window.location.href).href,
    pinsUrl: params.get('pins'),
    groupsUrl: params.get('groups'),
    center: JSON.parse(params.get('center') ?? '[10, 30]') as [number, number],
    zoom: Number(params.get('zoom') ?? '2'),
    fadeDuration: Number(params.get('fadeDuration') ?? '300'),
    mode: params.get('mode') ?? 'bare',
  };
}

export function signalIdle(root: HTMLElement): void {
  root.dataset.mapState = 'idle';
}

export function signalError(root: HTMLElement, error: unknown): void {
  root.dataset.mapState = 'error';
  root.dataset.error = String(error);
}
