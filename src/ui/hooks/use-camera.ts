import { useEffect, useState } from 'react';
import type { Camera } from '../../config/address.ts';
import type { MapAdapter } from '../../map/adapter.ts';

/**
 * The map's camera as React state, refreshed at most once per animation frame while it moves,
 * for controls that show it (compass needle, zoom limits, scale).
 */
export function useCamera(adapter: MapAdapter): Camera {
  const [camera, setCamera] = useState(() => adapter.getCamera());
  useEffect(() => {
    let frame = 0;
    const read = () => {
      frame = 0;
      setCamera(adapter.getCamera());
    };
    const unsubscribe = adapter.onCameraChange(() => {
      if (!frame) frame = requestAnimationFrame(read);
    });
    read();
    return () => {
      unsubscribe();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [adapter]);
  return camera;
}
