import { useSelector } from '@xstate/react';
import type { MapAdapter } from '../../map/adapter.ts';
import type { Locale } from '../../config/locale.ts';
import { useCamera } from '../hooks/use-camera.ts';
import { CompassIcon, ZoomInIcon, ZoomOutIcon } from './icons.tsx';
import { stateName } from './state-name.ts';
import type { CameraActor } from '../hooks/use-camera-actor.ts';

/** Zoom buttons can be off by a hair of the limit after an ease; this counts as at the limit. */
const AT_LIMIT = 1e-6;

/**
 * Zoom in, zoom out and the compass, in one group. The buttons send commands to the camera
 * machine (which eases 500 ms / 1000 ms, or jumps under reduced motion); its state shows as
 * `data-state` (and how the latest animation finished as `data-last-animation`, e.g.
 * `zoomIn ended`, `resetNorth interrupted`). A zoom button is disabled at the zoom limit; the compass needle shows the bearing,
 * and in a view that cannot rotate the compass is disabled with a title that says why.
 */
export function NavigationControl({ adapter, camera, locale }: { adapter: MapAdapter; camera: CameraActor; locale: Locale }) {
  const state = useSelector(camera, (s) => stateName(s.value));
  const last = useSelector(camera, (s) => (s.context.last ? `${s.context.last.kind} ${s.context.last.outcome}` : undefined));
  const { zoom, bearing } = useCamera(adapter);
  const range = adapter.getZoomRange();
  const atMax = zoom >= range.max - AT_LIMIT;
  const atMin = zoom <= range.min + AT_LIMIT;
  const compassTitle = adapter.canRotate ? locale['NavigationControl.ResetBearing'] : locale['NavigationControl.RotationUnavailable'];

  return (
    <div className="pinmap-ctrl pinmap-ctrl-group pinmap-navigation" data-state={state} data-last-animation={last}>
      <button type="button" className="pinmap-button pinmap-zoom-in" title={locale['NavigationControl.ZoomIn']} aria-label={locale['NavigationControl.ZoomIn']} disabled={atMax} aria-disabled={atMax} onClick={() => camera.send({ type: 'camera.zoomIn' })}>
        <ZoomInIcon />
      </button>
      <button type="button" className="pinmap-button pinmap-zoom-out" title={locale['NavigationControl.ZoomOut']} aria-label={locale['NavigationControl.ZoomOut']} disabled={atMin} aria-disabled={atMin} onClick={() => camera.send({ type: 'camera.zoomOut' })}>
        <ZoomOutIcon />
      </button>
      <button type="button" className="pinmap-button pinmap-compass" title={compassTitle} aria-label={compassTitle} disabled={!adapter.canRotate} onClick={() => camera.send({ type: 'camera.resetNorth' })}>
        <CompassIcon bearing={bearing} />
      </button>
    </div>
  );
}
