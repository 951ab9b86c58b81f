import type { Camera, ViewName } from './address.ts';
import type { MapStatusEvent } from '../machines/map-status.machine.ts';
import type { PinSet } from './pin-data.ts';

/**
 * The one small surface that controls, machines and the React layer use to talk to a map.
 * Each engine (vector: MapLibre; hybrid: Leaflet holding MapLibre) implements it in one module,
 * so nothing outside `src/map` imports MapLibre or Leaflet.
 */
export interface MapAdapter {
  readonly view: ViewName;
  /** The camera now, in MapLibre's terms (512 px tiles), whatever the engine. */
  getCamera(): Camera;
  /** Moves the camera at once, without animation. */
  jumpTo(camera: Partial<Camera>): void;
  /** Called on every camera change (user gestures and code alike). Returns an unsubscribe. */
  onCameraChange(listener: (camera: Camera) => void): () => void;
  /**
   * Shows the pins once `pins` resolves (replacing any shown); until then the map does not
   * report itself idle. A rejected promise leaves the map without pins. The returned promise
   * settles once the pins are on the map (or known not to come).
   */
  setPins(pins: Promise<PinSet>): Promise<void>;
  /** Opens a pin's popup (closing any other), moving the camera to the pin if asked; false for an unknown id. */
  openPin(id: string, options?: { moveCamera?: boolean }): boolean;
  /** Closes the open popup, if any. */
  closePin(): void;
  /** Called with the pin's id when a popup opens and null when it closes. Returns an unsubscribe. */
  onOpenPinChange(listener: (id: string | null) => void): () => void;
  /** Loads the style again after a failure. */
  retry(): void;
  /** Frees the map, its WebGL context, its workers' listeners and its DOM. */
  destroy(): void;
}

/** What an engine reports while it lives: the map status machine's events. */
export type EngineEvents = {
  onStatus: (event: MapStatusEvent) => void;
};
