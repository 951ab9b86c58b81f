/**
 * The numbers the control machines run on (PRODUCT.md, "Map options and limits", and CONTROLS.md
 * where PRODUCT.md is silent). Machines may not import from `src/map`, so their constants live
 * here; code outside the machines that needs one of these numbers imports it from this module.
 */

/** Zoom in / zoom out ease, in milliseconds. */
export const ZOOM_EASE_MS = 500;

/** Compass click: the ease back to north, in milliseconds. */
export const RESET_NORTH_MS = 1000;

/**
 * A user rotation that ends near north eases the rest of the way like a compass click does
 * (MapLibre snaps with its reset-north ease).
 */
export const SNAP_NORTH_MS = RESET_NORTH_MS;

/** Fitting the camera to the user's location: the map's default ease (MapLibre's fitBounds). */
export const FIT_TO_LOCATION_MS = 500;

/**
 * Flying to a pin. MapLibre derives a flight's length from its distance; we fix it so the machine
 * knows how long the flight takes: long enough to follow, short enough not to wait on.
 */
export const FLY_TO_PIN_MS = 1500;

/**
 * How long past an animation's own duration the camera machine waits for the map to report the
 * end before it gives up on that report and stops the animation itself.
 */
export const ANIMATION_END_GRACE_MS = 1000;

/** A rotation that ends less than this many degrees from north snaps to north. */
export const BEARING_SNAP_DEGREES = 7;

/** How long the browser may take for one position before it reports error code 3 (timeout). */
export const GEOLOCATION_TIMEOUT_MS = 6000;

/** Highest zoom the camera reaches when it fits the user's accuracy circle. */
export const LOCATE_MAX_ZOOM = 15;

/** A one-shot locate (tracking off) is given up after this many milliseconds. */
export const ONE_SHOT_FINISH_MS = 10000;

/** The attribution is compact when the map's container is this many pixels wide or less. */
export const ATTRIBUTION_COMPACT_MAX_WIDTH = 640;
