import { useEffect } from 'react';
import { formatMapHash, parseMapHash, withHidden } from '../../config/address.ts';
import type { MapAdapter } from '../../map/adapter.ts';

/**
 * Keeps the camera in the page address as `#map=zoom/lat/lng/bearing/pitch`: replaced (never
 * pushed) as the map moves, at most once per animation frame and at once when it comes to rest,
 * and followed when the user edits the hash by hand.
 */
export function useAddressSync(adapter: MapAdapter | undefined, enabled: boolean): void {
  useEffect(() => {
    if (!adapter || !enabled) return;
    let frame = 0;
    const write = () => {
      frame = 0;
      const hash = formatMapHash(adapter.getCamera(), window.location.hash);
      if (hash !== window.location.hash) {
        window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}${hash}`);
      }
    };
    const unsubscribe = adapter.onCameraChange(() => {
      if (!frame) frame = requestAnimationFrame(write);
    });
    // Where the map comes to rest is written at once, not a frame later: whoever reads the
    // address when the map says it is idle finds the camera it shows.
    const unsubscribeMotion = adapter.onMotion((event) => {
      if (event.type !== 'motion.ended') return;
      if (frame) cancelAnimationFrame(frame);
      write();
    });
    const onHashChange = (event: HashChangeEvent) => {
      // The address the user went to, not the one now shown: while the map moves, a frame's
      // write may have put the old camera back in the address before this event came.
      const camera = parseMapHash(new URL(event.newURL).hash);
      if (camera) adapter.jumpTo(camera);
    };
    window.addEventListener('hashchange', onHashChange);
    write(); // the address shows the camera from the start, garbage in it replaced
    return () => {
      unsubscribe();
      unsubscribeMotion();
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener('hashchange', onHashChange);
    };
  }, [adapter, enabled]);
}

/**
 * Keeps the open pin in the page address as `?pin=<id>`: written when a popup opens, removed
 * when it closes (replaced, never pushed), so a shared address opens the same popup.
 */
export function useOpenPinAddressSync(adapter: MapAdapter | undefined, enabled: boolean): void {
  useEffect(() => {
    if (!adapter || !enabled) return;
    return adapter.onOpenPinChange((id) => {
      const url = new URL(window.location.href);
      if (id === null) url.searchParams.delete('pin');
      else url.searchParams.set('pin', id);
      if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url.href);
    });
  }, [adapter, enabled]);
}

/**
 * Keeps the legend's hidden categories in the page address as `?hide=cat1,cat2` (replaced, never
 * pushed; removed when every category shows), so a shared address filters the same way.
 */
export function useHiddenAddressSync(hidden: readonly string[], enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const next = withHidden(window.location.href, hidden);
    if (next !== window.location.href) window.history.replaceState(window.history.state, '', next);
  }, [hidden, enabled]);
}
