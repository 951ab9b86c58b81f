import type { Camera } from '../config/address.ts';

/**
 * The camera as React props give it, in react-map-gl's terms: `longitude` and `latitude` in
 * degrees, `zoom` in MapLibre's zoom levels (512 px tiles), `bearing` in degrees clockwise from
 * north, `pitch` in degrees from looking straight down.
 */
export interface ViewState {
  /** Degrees east, -180 to 180. */
  longitude: number;
  /** Degrees north, -90 to 90. */
  latitude: number;
  /** MapLibre zoom level (512 px tiles). */
  zoom: number;
  /** Degrees clockwise from north. Default 0. */
  bearing?: number;
  /** Degrees from looking straight down. Default 0. */
  pitch?: number;
}

/** A view state as the map's camera; what it leaves out stays as `fallback` has it. */
export function cameraOf(view: Partial<ViewState>, fallback: Camera): Camera {
  return {
    center: [view.longitude ?? fallback.center[0], view.latitude ?? fallback.center[1]],
    zoom: view.zoom ?? fallback.zoom,
    bearing: view.bearing ?? fallback.bearing,
    pitch: view.pitch ?? fallback.pitch,
  };
}

/** The map's camera as a view state (every field given). */
export function viewStateOf(camera: Camera): Required<ViewState> {
  return { longitude: camera.center[0], latitude: camera.center[1], zoom: camera.zoom, bearing: camera.bearing, pitch: camera.pitch };
}

/** Whether the camera already shows `view` (to within float noise), field by field where given. */
export function showsViewState(camera: Camera, view: Partial<ViewState>): boolean {
  const close = (a: number, b: number | undefined) => b === undefined || Math.abs(a - b) < 1e-9;
  return close(camera.center[0], view.longitude) && close(camera.center[1], view.latitude) && close(camera.zoom, view.zoom) && close(camera.bearing, view.bearing) && close(camera.pitch, view.pitch);
}

/** The config keys of an initial view state (`center`, `zoom`, `bearing`, `pitch`), for those it gives. */
export function configCameraOf(view: Partial<ViewState> | undefined): Record<string, unknown> {
  if (!view) return {};
  const out: Record<string, unknown> = {};
  if (view.longitude !== undefined && view.latitude !== undefined) out.center = [view.longitude, view.latitude];
  if (view.zoom !== undefined) out.zoom = view.zoom;
  if (view.bearing !== undefined) out.bearing = view.bearing;
  if (view.pitch !== undefined) out.pitch = view.pitch;
  return out;
}
