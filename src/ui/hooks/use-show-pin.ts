import { useCallback, useEffect, useRef, useState } from 'react';
import type { MapAdapter, OpenPinOptions } from '../../map/adapter.ts';
import type { useCameraActor } from './use-camera-actor.ts';
import { reasonOf } from '../../config/errors.ts';

/** Flies to a pin and opens its popup: what a pick in the pin list or the search results does. */
export type ShowPin = (id: string, options?: Pick<OpenPinOptions, 'byKeyboard' | 'returnFocus'>) => void;

/**
 * The path `?pin=` takes, for a pin picked in a panel: the camera machine flies to where the pin
 * stands alone (a jump under reduced motion; a gesture cuts it short) and the popup opens when
 * the flight is over, however it ended. A new pick replaces a flight still under way.
 */
export function useShowPin(adapter: MapAdapter, camera: ReturnType<typeof useCameraActor>): ShowPin {
  const cancel = useRef<(() => void) | undefined>(undefined);
  useEffect(() => () => cancel.current?.(), []);
  return useCallback(
    (id, options = {}) => {
      cancel.current?.();
      let live = true;
      let watching: { unsubscribe: () => void } | undefined;
      cancel.current = () => {
        live = false;
        watching?.unsubscribe();
      };
      void adapter.pinView(id).then((view) => {
        if (!live || !view) return;
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
      }, (error: unknown) => console.error(`Pinmap: pin "${id}" cannot be shown: ${reasonOf(error)}`));
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
