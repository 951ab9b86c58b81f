import { useLayoutEffect, useMemo, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import type { MapStatus } from '../machines/map-status.machine.ts';
import type { PinmapConfigInput } from '../config/schema.ts';
import { resolveContainer } from '../config/container.ts';
import { Pinmap } from './Pinmap.tsx';
import type { PinmapPin, PinmapRef } from './pinmap-api.ts';
import { checkPinChanges, type PinChangesInput } from '../config/pin-changes.ts';

/** What `createPinmap` and `update` take: the config, and what a page adds that is not config. */
export type PinmapEmbedConfig = PinmapConfigInput & {
  /**
   * The content of a pin's popup, in place of the default: an element (with its own listeners)
   * that the popup holds inside its frame, close button and keyboard behaviour. Called once each
   * time a pin's popup opens.
   */
  renderPopup?: (pin: PinmapPin) => HTMLElement;
};

/** `ready`'s error when the map is destroyed before it was ready. */
export class PinmapDestroyedError extends Error {
  override name = 'PinmapDestroyedError';
  constructor() {
    super('The map was destroyed before it was ready');
  }
}

/** What `createPinmap` returns: the map's status, a promise for its first idle, and `destroy`. */
export interface PinmapHandle {
  /** The element the map was mounted in. */
  readonly container: HTMLElement;
  /** `loading`, `idle` or `error`, as on the root's `data-map-state`; `destroyed` once `destroy()` ran. */
  readonly status: MapStatus | 'destroyed';
  /**
   * Settles when the map first becomes idle (resolves) or fails (rejects with the message), or is
   * destroyed first (rejects with a `PinmapDestroyedError`).
   */
  readonly ready: Promise<void>;
  /**
   * Gives the map a new config. What a live map can take (`pins`, `pinStyles`, `controls`,
   * `units`, …: see `PinmapProps.config`) is set on it, with its camera, popup and WebGL context
   * kept; any other change makes a new map. A config with errors shows them. Ignored once destroyed.
   */
  update(config: PinmapEmbedConfig): void;
  /**
   * Changes some of the map's pins by id (see `PinmapRef.updatePins` and the README's "Pins that
   * move"): `add` and `update` are GeoJSON Point features, `remove` pin ids. Throws a
   * `PinChangesError` for an argument of the wrong shape; the promise rejects while the map is
   * not made yet or destroyed, and settles once the pins are on the map.
   */
  updatePins(changes: PinChangesInput): Promise<void>;
  /** Removes the map, its WebGL context, its listeners and its DOM. Safe to call twice. */
  destroy(): void;
}

/**
 * Mounts a Pinmap in `container` (an element or its id). Throws 'Container not found' or
 * 'Invalid type: container must be a String or HTMLElement' for a container it cannot use;
 * a config with errors shows them in the container.
 */
export function createPinmap(container: string | HTMLElement, config: PinmapEmbedConfig = {}): PinmapHandle {
  const element = resolveContainer(container);
  const root = createRoot(element);
  let status: MapStatus | 'destroyed' = 'loading';
  let destroyed = false;
  let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  ready.catch(() => {}); // an embedder that never awaits it must not see an unhandled rejection

  const onStatusChange = (next: MapStatus, error?: string) => {
    if (destroyed) return;
    status = next;
    if (next === 'idle') settle?.resolve();
    if (next === 'error') settle?.reject(new Error(error ?? 'Pinmap failed'));
  };
  const handle: { current: PinmapRef | null } = { current: null };
  const render = (input: PinmapEmbedConfig) => {
    const { config: rest, renderPopup } = withoutRenderPopup(input);
    root.render(<Pinmap config={rest} onStatusChange={onStatusChange} ref={handle} renderPopup={renderPopup && ((pin) => <ElementContent pin={pin} render={renderPopup} />)} />);
  };
  render(config);

  return {
    container: element,
    get status() {
      return status;
    },
    ready,
    update(next) {
      if (!destroyed) render(next);
    },
    updatePins(changes) {
      const checked = checkPinChanges(changes);
      const map = destroyed ? null : handle.current;
      if (!map) return Promise.reject(new Error(destroyed ? 'updatePins: the map was destroyed' : 'updatePins: the map is not made yet (await ready first)'));
      return map.updatePins(checked);
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      root.unmount();
      status = 'destroyed';
      settle?.reject(new PinmapDestroyedError());
    },
  };
}

/**
 * The config without the page's `renderPopup` function. Anything else (not an object, a proxy, a
 * getter that throws) goes to the config's checks untouched, which name what is wrong with it:
 * the property is looked up, never read through a getter.
 */
function withoutRenderPopup(input: PinmapEmbedConfig): { config: PinmapConfigInput; renderPopup?: (pin: PinmapPin) => HTMLElement } {
  if (input === null || typeof input !== 'object') return { config: input };
  let own: PropertyDescriptor | undefined;
  try {
    own = Object.getOwnPropertyDescriptor(input, 'renderPopup');
  } catch {
    return { config: input };
  }
  if (typeof own?.value !== 'function') return { config: input };
  const { renderPopup, ...rest } = input;
  return { config: rest, renderPopup };
}

/** The element a page's `renderPopup` makes for a pin, put in the popup (made once per pin shown). */
function ElementContent({ pin, render }: { pin: PinmapPin; render: (pin: PinmapPin) => HTMLElement }) {
  const host = useRef<HTMLDivElement>(null);
  const element = useMemo(() => render(pin), [pin, render]);
  useLayoutEffect(() => {
    host.current?.replaceChildren(element);
    return () => element.remove();
  }, [element]);
  return <div ref={host} />;
}
