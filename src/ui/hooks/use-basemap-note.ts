import { useEffect, useState } from 'react';
import { EMBEDDED_BASEMAP_DETAIL_ZOOM } from '../../config/constants.ts';
import type { MapAdapter } from '../../map/adapter.ts';

/** Whether this page has said it already: the note is said once per page, whatever maps come and go. */
let saidOnThisPage = false;

/** Where the note is: not shown, shown (waiting for the map to be drawn), or fading out. */
export type BasemapNoteState = 'hidden' | 'shown' | 'fading';

/**
 * The note that the embedded basemap has no streets: shown the first time a map on the embedded
 * basemap (`onEmbeddedBasemap`) reaches {@link EMBEDDED_BASEMAP_DETAIL_ZOOM}, in either view, and
 * never again on this page once shown. It starts to fade once the map is drawn (`idle`), so a
 * slow load does not take it away unseen; `hide` takes it away at once.
 */
export function useBasemapNote(adapter: MapAdapter | undefined, onEmbeddedBasemap: boolean, idle: boolean): { state: BasemapNoteState; hide: () => void } {
  const [state, setState] = useState<BasemapNoteState>('hidden');
  useEffect(() => {
    if (!adapter || !onEmbeddedBasemap || saidOnThisPage) return;
    const check = (zoom: number) => {
      if (saidOnThisPage || zoom < EMBEDDED_BASEMAP_DETAIL_ZOOM) return;
      saidOnThisPage = true;
      setState('shown');
    };
    check(adapter.getCamera().zoom);
    return adapter.onCameraChange((camera) => check(camera.zoom));
  }, [adapter, onEmbeddedBasemap]);
  // Adjusted while rendering (React's pattern for state that follows a prop): once it has started,
  // the fade goes on whatever the map does next.
  if (state === 'shown' && idle) setState('fading');
  return { state: onEmbeddedBasemap ? state : 'hidden', hide: () => setState('hidden') };
}
