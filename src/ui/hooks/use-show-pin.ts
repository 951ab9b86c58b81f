import { useCallback, useEffect, useRef, useState } from 'react';
import type { MapAdapter, OpenPinOptions } from '../../map/adapter.ts';
import type { useCameraActor } from './use-camera-actor.ts';
import { reasonOf } from '../../config/errors.ts';

/** How `ShowPin` shows a pin: from the keyboard or not, where focus goes after, and what to do when it cannot. */
export interface ShowPinOptions extends Pick<OpenPinOptions, 'byKeyboard' | 'returnFocus'> {
  /** Fly to the pin first (default true); false opens its popup where the camera is (a popup carried over from the other view). */
  fly?: boolean;
  /** The pins have no such pin. */
  onMissing?: () => void;
  /** The pins could not tell whether they have it (a pre-tiled archive's damaged pin index); else a console error. */
  onUnreadable?: (error: unknown) => void;
}

/** Flies to a pin and opens its popup: what `?pin=`, a pick in the pin list or the search results, and `selectedPinId` do. */
export type ShowPin = (id: string, options?: ShowPinOptions) => void;

/**
 * The one path to a pin: the camera machine flies to where the pin stands alone (a jump under
 * reduced motion; a gesture cuts it short) and the popup opens when the flight is over, however it
 * ended. A new call replaces a flight still under way.
 */
export function useShowPin(adapter: MapAdapter, camera: ReturnType<typeof useCameraActor>): ShowPin {
  const cancel = useRef<(() => void) | undefined>(undefined);
  useEffect(() => () => cancel.current?.(), []);
  return useCallback(
    (id, { fly = true, onMissing, onUnreadable, ...options } = {}) => {
      cancel.current?.();
      let live = true;
      let watching: { unsubscribe: () => void } | undefined;
      cancel.current = () => {
        live = false;
        watching?.unsubscribe();
      };
      void adapter.pinView(id).then(
        (view) => {
          if (!live) return;
          if (!view) return onMissing?.();
          if (!fly) {
            adapter.openPin(id, { ...options, pan: false });
            return;
          }
          let opened = false;
          const open = () => {
            if (opened) return;
            opened = true;
            watching?.unsubscribe();
            if (live) adapter.openPin(id, options);
          };
          // Watched before the flight is asked for: under reduced motion it is a jump, over (back
          // to idle) before `send` returns, so a watch begun after it would wait for ever.
          watching = camera.subscribe((snapshot) => {
            if (snapshot.value === 'idle') open();
          });
          camera.send({ type: 'camera.flyTo', center: view.center, zoom: view.zoom });
          if (camera.getSnapshot().value === 'idle') open();
        },
        (error: unknown) => {
          if (!live) return;
          if (onUnreadable) onUnreadable(error);
          else console.error(`Pinmap: pin "${id}" cannot be shown: ${reasonOf(error)}`);
        },
      );
    },
    [adapter, camera],
  );
}

/**
 * A number that changes each time a new pin set is on the map, so what is read from
 * `adapter.getPins()` is read again.
 */
export function usePinSetVersion(adapter: MapAdapter): number {
  const [version, setVersion] = useState(0);
  useEffect(() => adapter.onPinsChange(() => setVersion((n) => n + 1)), [adapter]);
  return version;
}
