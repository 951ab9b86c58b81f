/**
 * The product's constants (PRODUCT.md, "Map options and limits"). Everything that needs one of
 * these numbers imports it from here, so the spec and the code say the same thing once.
 */
export const LIMITS = {
  /** Lowest zoom a site may allow. */
  minZoom: -2,
  /** Highest zoom a site may allow. */
  maxZoom: 22,
  /** Lowest pitch in degrees. */
  minPitch: 0,
  /** Highest pitch in degrees. */
  maxPitch: 60,
} as const;

export const DEFAULTS = {
  /** A rotation that ends within this many degrees of north snaps to north. */
  bearingSnap: 7,
  /** Pixels a pointer may move and still count as a click. */
  clickTolerance: 3,
  /** Symbol fade-in, in milliseconds. */
  fadeDuration: 300,
  /** Default camera ease, in milliseconds. */
  easeDuration: 500,
  /** Reset-north animation, in milliseconds. */
  resetNorthDuration: 1000,
  /** Container width at or below which attribution turns compact. */
  attributionCompactWidth: 640,
  /** Geolocation position timeout, in milliseconds. */
  geolocationTimeout: 6000,
  /** Maximum zoom when fitting the camera to the user's location. */
  geolocationMaxZoom: 15,
  /** A one-shot locate finishes after this many milliseconds. */
  oneShotLocateDuration: 10000,
  /** Widest the scale bar may be, in pixels. */
  scaleMaxWidth: 100,
  /** Widest a popup may be. */
  popupMaxWidth: '240px',
  /** Pin fill colour. */
  markerColor: '#3FB1CE',
  /** Initial camera when neither config nor address names one. */
  center: [0, 20] as [number, number],
  zoom: 1,
} as const;

/** Where the app serves its embedded offline basemap, relative to the page. */
export const EMBEDDED_STYLE_PATH = 'basemap/style.json';
