import { useMemo, type ReactNode, type RefObject } from 'react';
import type { MapAdapter } from '../../map/adapter.ts';
import { controlCorners, type ControlName, type Corner, type PinmapConfig } from '../../map/config.ts';
import { localeWith } from '../../map/locale.ts';
import { AttributionControl } from './AttributionControl.tsx';
import { FullscreenControl } from './FullscreenControl.tsx';
import { GeolocateControl } from './GeolocateControl.tsx';
import { NavigationControl } from './NavigationControl.tsx';
import { ScaleControl } from './ScaleControl.tsx';
import { useCameraActor } from './use-camera-actor.ts';
import './controls.css';

const CORNERS: Corner[] = ['top-left', 'top-right', 'bottom-left', 'bottom-right'];

/** The order controls stack in within a corner (and so the keyboard's Tab order). */
const ORDER: ControlName[] = ['fullscreen', 'navigation', 'geolocate', 'scale', 'attribution'];

export interface ControlsProps {
  adapter: MapAdapter;
  config: PinmapConfig;
  /** The Pinmap root: what goes fullscreen and whose width makes the attribution compact. */
  root: RefObject<HTMLElement | null>;
}

/**
 * The four corners (`data-corner`) and the controls config puts in them. One camera machine per
 * map runs every timed camera animation; the controls send it commands.
 */
export function Controls({ adapter, config, root }: ControlsProps) {
  const locale = useMemo(() => localeWith(config.locale), [config.locale]);
  const placement = useMemo(() => controlCorners(config), [config]);
  const camera = useCameraActor(adapter, config.bearingSnap);

  const render = (name: ControlName): ReactNode => {
    switch (name) {
      case 'navigation':
        return <NavigationControl key={name} adapter={adapter} camera={camera} locale={locale} />;
      case 'geolocate':
        return (
          <GeolocateControl
            key={name}
            adapter={adapter}
            locale={locale}
            trackUserLocation={config.trackUserLocation}
            fitToUserLocation={config.fitToUserLocation}
            fitCamera={(bounds, maxZoom) => camera.send({ type: 'camera.fitTo', bounds, maxZoom })}
          />
        );
      case 'scale':
        return <ScaleControl key={name} adapter={adapter} units={config.units} locale={locale} />;
      case 'fullscreen':
        return <FullscreenControl key={name} root={root} locale={locale} />;
      case 'attribution':
        return <AttributionControl key={name} adapter={adapter} root={root} locale={locale} />;
    }
  };

  return (
    <>
      {CORNERS.map((corner) => (
        <div key={corner} className="pinmap-corner" data-corner={corner}>
          {ORDER.filter((name) => placement[name] === corner).map(render)}
        </div>
      ))}
    </>
  );
}
