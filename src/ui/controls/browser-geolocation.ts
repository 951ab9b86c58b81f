import { fromCallback, fromPromise, type EventObject } from 'xstate';
import type { GeolocationPermission, PositionRequest, PositionSourceEvent, SupportResult } from '../../machines/geolocate.machine.ts';

/**
 * The browser's side of the geolocation machine: the actors it is given in place of its inert
 * defaults. They speak the machine's events and nothing else, so the machine never sees the DOM.
 */

function toEvent(position: GeolocationPosition): PositionSourceEvent {
  const { longitude: lng, latitude: lat, accuracy } = position.coords;
  return { type: 'position.received', position: { lng, lat, accuracy } };
}

function toError(error: GeolocationPositionError): PositionSourceEvent {
  return { type: 'position.error', code: error.code, message: error.message };
}

async function permissionStatus(): Promise<PermissionStatus | undefined> {
  if (!navigator.permissions?.query) return undefined;
  return navigator.permissions.query({ name: 'geolocation' });
}

/**
 * Whether locating can work here: not on an insecure page (browsers refuse); not without
 * `navigator.geolocation`; not when the permission is denied. A Permissions API that rejects the
 * query (older Safari) leaves the answer to `navigator.geolocation`.
 */
export const checkSupport = fromPromise<SupportResult>(async () => {
  if (!window.isSecureContext) return 'insecure';
  if (!('geolocation' in navigator)) return 'unsupported';
  try {
    const status = await permissionStatus();
    return status?.state === 'denied' ? 'denied' : 'supported';
  } catch {
    return 'supported';
  }
});

/** Follows the position with `watchPosition` until the actor stops. */
export const watchPosition = fromCallback<EventObject, PositionRequest>(({ sendBack, input }) => {
  const id = navigator.geolocation.watchPosition(
    (position) => sendBack(toEvent(position)),
    (error) => sendBack(toError(error)),
    input.options,
  );
  return () => navigator.geolocation.clearWatch(id);
});

/** Asks once with `getCurrentPosition`; an answer after the actor stopped is dropped. */
export const getCurrentPosition = fromCallback<EventObject, PositionRequest>(({ sendBack, input }) => {
  let live = true;
  navigator.geolocation.getCurrentPosition(
    (position) => live && sendBack(toEvent(position)),
    (error) => live && sendBack(toError(error)),
    input.options,
  );
  return () => {
    live = false;
  };
});

/** Tells the machine whenever the geolocation permission changes (granted later, revoked). */
export const watchPermission = fromCallback<EventObject>(({ sendBack }) => {
  let status: PermissionStatus | undefined;
  let stopped = false;
  const onChange = () => status && sendBack({ type: 'permission.changed', state: status.state as GeolocationPermission });
  permissionStatus().then(
    (found) => {
      if (stopped || !found) return;
      status = found;
      status.addEventListener('change', onChange);
    },
    () => undefined, // no Permissions API for geolocation: nothing to follow
  );
  return () => {
    stopped = true;
    status?.removeEventListener('change', onChange);
  };
});
