import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { geolocateMachine, isGeolocateEnabled, isGeolocateWatching } from '../../machines/geolocate.machine.ts';
import type { LngLatBounds } from '../../machines/geo.ts';
import type { MapAdapter } from '../../map/adapter.ts';
import type { Locale } from '../../config/locale.ts';
import { inspectOptions } from '../inspect.ts';
import { checkSupport, getCurrentPosition, watchPermission, watchPosition } from './browser-geolocation.ts';
import { GeolocateIcon } from './icons.tsx';

export interface GeolocateControlProps {
  adapter: MapAdapter;
  locale: Locale;
  /** Keep following the user (config `trackUserLocation`). */
  trackUserLocation: boolean;
  /** Move the camera to the position (config `fitToUserLocation`). */
  fitToUserLocation: boolean;
  /** Fits the camera to the accuracy circle's box: the camera machine's fit. */
  fitCamera: (bounds: LngLatBounds, maxZoom: number) => void;
}

/**
 * The geolocation button. Its machine (src/machines/geolocate.machine.ts) runs the cycle; this
 * component gives it the browser's geolocation, the map's dot and the camera fit, tells it when
 * the user moves the map, and shows its state as `data-state`, the title and `aria-pressed`.
 */
export function GeolocateControl({ adapter, locale, trackUserLocation, fitToUserLocation, fitCamera }: GeolocateControlProps) {
  const actor = useActorRef(
    geolocateMachine.provide({
      actors: { checkSupport, watchPosition, getCurrentPosition, watchPermission },
      actions: {
        showPosition: (_, { position }) => adapter.setUserLocation({ lngLat: [position.lng, position.lat], accuracy: position.accuracy, stale: false }),
        markPositionStale: ({ context }) => {
          const position = context.position;
          if (position) adapter.setUserLocation({ lngLat: [position.lng, position.lat], accuracy: position.accuracy, stale: true });
        },
        clearPosition: () => adapter.setUserLocation(undefined),
        fitCameraToPosition: (_, { bounds, maxZoom }) => fitCamera(bounds, maxZoom),
      },
    }),
    { input: { trackUserLocation, fitCamera: fitToUserLocation }, ...inspectOptions() },
  );
  const state = useSelector(actor, (s) => s.value as string);
  const enabled = useSelector(actor, isGeolocateEnabled);
  const watching = useSelector(actor, isGeolocateWatching);
  const reason = useSelector(actor, (s) => s.context.reason);

  // A move the user makes (not a zoom: zooming keeps the lock) lets go of the position.
  useEffect(
    () =>
      adapter.onMotion((event) => {
        if (event.type === 'user.gesture' && event.gesture !== 'zoom') actor.send({ type: 'map.userMoved' });
      }),
    [adapter, actor],
  );

  const title =
    state === 'UNAVAILABLE'
      ? reason === 'insecure'
        ? locale['GeolocateControl.NeedsSecurePage']
        : locale['GeolocateControl.LocationNotAvailable']
      : locale['GeolocateControl.FindMyLocation'];
  return (
    <div className="pinmap-ctrl pinmap-ctrl-group pinmap-geolocate" data-state={state}>
      <button
        type="button"
        className="pinmap-button"
        title={title}
        aria-label={title}
        disabled={!enabled}
        aria-pressed={trackUserLocation ? watching : undefined}
        onClick={() => actor.send({ type: 'geolocate.click' })}
      >
        <GeolocateIcon />
      </button>
    </div>
  );
}
