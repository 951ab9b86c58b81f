import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { EMBEDDED_BASEMAP_DETAIL_ZOOM } from '../../config/constants.ts';
import type { MapAdapter } from '../../map/adapter.ts';

/** Whether this page has said it already: the note is said once per page, whatever maps come and go. */
let saidOnThisPage = false;

/**
 * Where the note is: not shown; due (the zoom was reached, the map is still moving or drawing);
 * shown (fading out by itself); leaving (faded or closed while the map moves: its strip goes when
 * the map is at rest).
 */
export type BasemapNoteState = 'hidden' | 'due' | 'shown' | 'leaving';

/**
 * The note that the embedded basemap has no streets: due the first time a map on the embedded
 * basemap (`onEmbeddedBasemap`) reaches {@link EMBEDDED_BASEMAP_DETAIL_ZOOM}, in either view, and
 * never again on this page once said. It takes a strip of the map's box ({@link useNoteStrip}),
 * which pans the map; so it comes, and goes, only while the map is at rest and drawn (`idle`),
 * never under a gesture or a camera animation, and a slow load does not take it away unseen.
 * Shown, it starts to fade at once; `hide` takes it away (its strip with the next rest).
 */
export function useBasemapNote(adapter: MapAdapter | undefined, onEmbeddedBasemap: boolean, idle: boolean): { state: BasemapNoteState; hide: () => void } {
  const [state, setState] = useState<BasemapNoteState>('hidden');
  useEffect(() => {
    if (!adapter || !onEmbeddedBasemap || saidOnThisPage) return;
    const check = (zoom: number) => {
      if (saidOnThisPage || zoom < EMBEDDED_BASEMAP_DETAIL_ZOOM) return;
      saidOnThisPage = true;
      setState('due');
    };
    check(adapter.getCamera().zoom);
    return adapter.onCameraChange((camera) => check(camera.zoom));
  }, [adapter, onEmbeddedBasemap]);
  // Adjusted while rendering (React's pattern for state that follows a prop).
  if (state === 'due' && idle) setState('shown');
  if (state === 'leaving' && idle) setState('hidden');
  return { state: onEmbeddedBasemap ? state : 'hidden', hide: () => setState(idle ? 'hidden' : 'leaving') };
}

/** The custom property of the map's root that says how tall the note's strip is (pinmap.css). */
const STRIP_PROPERTY = '--pinmap-note-strip';

/**
 * The strip the note takes at the top of the map's box (`strip`, while it is in the page): the
 * map's own box (its canvas, pins and popups), the top corners and the notices start under it
 * (`--pinmap-note-strip` on `root`, read by pinmap.css), so the note never covers a pin; and the
 * map pans by half the strip's height as it comes, changes height (the text wraps anew) and goes
 * (`MapAdapter.resizeFromTop`), so nothing drawn moves on the screen. The height is rounded up to
 * whole even pixels: Leaflet pans by whole pixels.
 */
export function useNoteStrip(adapter: MapAdapter | undefined, root: RefObject<HTMLElement | null>, strip: HTMLElement | null): void {
  // The adapter of the moment (a view switch makes a new one, in the box as it is then).
  const current = useRef(adapter);
  useLayoutEffect(() => {
    current.current = adapter;
  }, [adapter]);
  useLayoutEffect(() => {
    const element = root.current;
    if (!strip || !element) return;
    let height = 0;
    const fit = () => {
      const next = 2 * Math.ceil(strip.getBoundingClientRect().height / 2);
      if (next === height) return;
      const change = next - height;
      height = next;
      element.style.setProperty(STRIP_PROPERTY, `${next}px`);
      current.current?.resizeFromTop(change);
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(strip);
    return () => {
      observer.disconnect();
      element.style.removeProperty(STRIP_PROPERTY);
      current.current?.resizeFromTop(-height);
    };
  }, [strip, root]);
}
