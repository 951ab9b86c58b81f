import { useEffect, useLayoutEffect, useState, type RefObject } from 'react';
import type { Locale } from '../../config/locale.ts';
import { EnterFullscreenIcon, ExitFullscreenIcon } from './icons.tsx';

/** `off`, `on` (the Fullscreen API) or `pseudo` (filling the window where that API is missing). */
export type FullscreenState = 'off' | 'on' | 'pseudo';

/** The Fullscreen API with the prefixed variant older Safari still has. */
type FullscreenDocument = Document & { webkitFullscreenElement?: Element | null; webkitExitFullscreen?: () => Promise<void> | void; webkitFullscreenEnabled?: boolean };
type FullscreenElement = HTMLElement & { webkitRequestFullscreen?: () => Promise<void> | void };

function nativeFullscreenElement(): Element | null {
  const doc = document as FullscreenDocument;
  return doc.fullscreenElement ?? doc.webkitFullscreenElement ?? null;
}

/** Whether the page may use the Fullscreen API at all (it may be missing, or disabled in a frame). */
function hasFullscreenApi(): boolean {
  const doc = document as FullscreenDocument;
  const root = document.documentElement as FullscreenElement;
  const callable = typeof root.requestFullscreen === 'function' || typeof root.webkitRequestFullscreen === 'function';
  return callable && (doc.fullscreenEnabled ?? doc.webkitFullscreenEnabled ?? false);
}

/** The class that makes the map fill the window where the Fullscreen API is missing. */
export const PSEUDO_FULLSCREEN_CLASS = 'pinmap-pseudo-fullscreen';

/**
 * Enter / exit fullscreen for the whole Pinmap (map and controls). Uses the Fullscreen API and
 * follows the document's fullscreen changes (Esc, the browser's own UI); where the API is
 * missing, it makes the map fill the window instead, and Esc leaves that too.
 */
export function FullscreenControl({ root, locale }: { root: RefObject<HTMLElement | null>; locale: Locale }) {
  // A control made while the map is already fullscreen (a view switch makes new controls) says so.
  const [state, setState] = useState<FullscreenState>(() => (root.current && nativeFullscreenElement() === root.current ? 'on' : 'off'));

  useEffect(() => {
    const onChange = () => setState((previous) => (nativeFullscreenElement() === root.current ? 'on' : previous === 'on' ? 'off' : previous));
    document.addEventListener('fullscreenchange', onChange);
    document.addEventListener('webkitfullscreenchange', onChange);
    return () => {
      document.removeEventListener('fullscreenchange', onChange);
      document.removeEventListener('webkitfullscreenchange', onChange);
    };
  }, [root]);

  // A layout effect: the map fills the window (and leaves it) in the same frame as the button says so.
  useLayoutEffect(() => {
    const element = root.current;
    if (!element || state !== 'pseudo') return;
    element.classList.add(PSEUDO_FULLSCREEN_CLASS);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setState('off');
    };
    window.addEventListener('keydown', onKey);
    return () => {
      element.classList.remove(PSEUDO_FULLSCREEN_CLASS);
      window.removeEventListener('keydown', onKey);
    };
  }, [root, state]);

  const toggle = () => {
    const element = root.current as FullscreenElement | null;
    if (!element) return;
    if (state === 'pseudo') return setState('off');
    if (state === 'on') {
      const doc = document as FullscreenDocument;
      void Promise.resolve(doc.exitFullscreen ? doc.exitFullscreen() : doc.webkitExitFullscreen?.()).catch(() => setState('off'));
      return;
    }
    if (!hasFullscreenApi()) return setState('pseudo');
    const request = element.requestFullscreen ? element.requestFullscreen() : element.webkitRequestFullscreen?.();
    // A refusal (no user gesture, a policy) leaves the page as it was, but the user asked: fill the window.
    void Promise.resolve(request).catch(() => setState('pseudo'));
  };

  const title = state === 'off' ? locale['FullscreenControl.Enter'] : locale['FullscreenControl.Exit'];
  return (
    <div className="pinmap-ctrl pinmap-ctrl-group pinmap-fullscreen" data-state={state}>
      <button type="button" className="pinmap-button" title={title} aria-label={title} aria-pressed={state !== 'off'} onClick={toggle}>
        {state === 'off' ? <EnterFullscreenIcon /> : <ExitFullscreenIcon />}
      </button>
    </div>
  );
}
