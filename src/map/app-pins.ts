import type { Pin } from '../pins/types.ts';

/**
 * Pins the app draws itself (`<Pinmap highlightedPins renderPin/>`), in either view: a few named
 * pins whose marker holds the app's element in place of the pin icon, at the pin's place and
 * anchored at its bottom centre, as the pin's tip is. Everything else of the pin stays: its
 * click (its popup, `onPinClick`), its place in the keyboard's walk and its name, its room among
 * the basemap's labels.
 *
 * - A DOM pin (the hybrid view; a small set in the vector view) is its own marker: its button
 *   takes the app's element in place of its icon (`data-app-pin`; pinmap.css hides the icon).
 * - A GPU pin (a large inline set in the vector view) is still drawn by the GPU layer, at no
 *   opacity (so labels keep out from under it and its keyboard stand-in still comes), and a
 *   marker of its own (`.pinmap-app-marker`) takes the app's element over it.
 * - Only a pin shown on its own is drawn by the app: one inside a bubble is not, until the map
 *   shows it alone (nor a pin of a same-place fan, nor a pre-tiled pin of the vector view).
 */

/** How many pins at most the app draws itself; ids past it are left out (with a console warning). */
export const APP_PIN_LIMIT = 100;

/** Where the app draws a pin: the pin, and the element its content goes into. */
export interface AppPinHost {
  pin: Pin;
  element: HTMLElement;
}

/**
 * The ids the app draws, as given: each once, the first `APP_PIN_LIMIT` of them; `over` says
 * whether some were left out.
 */
export function takeAppPins(ids: readonly string[]): { ids: string[]; over: boolean } {
  const taken = new Set<string>();
  for (const id of ids) {
    if (taken.has(id)) continue;
    if (taken.size === APP_PIN_LIMIT) return { ids: [...taken], over: true };
    taken.add(id);
  }
  return { ids: [...taken], over: false };
}

/** The class of the element the app's content of a pin goes into. */
const HOST_CLASS = 'pinmap-pin-app';

/**
 * The markers of a map that may hold an app's pin: the DOM pins (not a keyboard stand-in, nor a
 * pin of a same-place fan) and the GPU pins' app markers, children of the pins' group.
 */
const CANDIDATES = ':scope > .pinmap-pin[data-pin-id]:not(.pinmap-standin, .pinmap-fan-pin), :scope > .pinmap-app-marker[data-pin-id]';

/**
 * The app's pins of one map: watches the element the pins' markers are in (`root`), puts a host
 * element into each marker of a pin named (`setIds`) and takes it out of one no longer named,
 * and tells `onChange` the hosts whenever they change.
 */
export class AppPinHosts {
  private named: ReadonlySet<string> = new Set();
  private hosts = new Map<string, AppPinHost>();
  private readonly observer: MutationObserver;
  private scheduled = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly pinOf: (id: string) => Pin | undefined,
    private readonly onChange: (hosts: ReadonlyMap<string, AppPinHost>) => void,
  ) {
    this.observer = new MutationObserver(() => this.schedule());
  }

  /** The ids of the pins the app draws. */
  get ids(): ReadonlySet<string> {
    return this.named;
  }

  /** Takes the ids of the pins the app draws (already within `APP_PIN_LIMIT`) and dresses the markers shown. */
  setIds(ids: readonly string[]): void {
    this.named = new Set(ids);
    if (this.named.size > 0) this.observer.observe(this.root, { childList: true });
    else this.observer.disconnect();
    this.sync();
  }

  /** Looks at the markers shown again once the current task's changes are done (a pin's text may have changed). */
  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.sync();
    });
  }

  /** Dresses the markers of the pins named, undresses the rest, and tells the hosts if they changed. */
  sync(): void {
    const next = new Map<string, AppPinHost>();
    for (const marker of this.root.querySelectorAll<HTMLElement>(CANDIDATES)) {
      const id = marker.dataset.pinId!;
      const pin = this.named.has(id) && !next.has(id) ? this.pinOf(id) : undefined;
      if (!pin) {
        undress(marker);
        continue;
      }
      next.set(id, { pin, element: dress(marker) });
    }
    // A marker taken off the map (its pin went into a bubble) keeps its host, should it come back: only those on the map are told.
    const same = next.size === this.hosts.size && [...next].every(([id, host]) => this.hosts.get(id)?.element === host.element && this.hosts.get(id)?.pin === host.pin);
    this.hosts = next;
    if (!same) this.onChange(next);
  }

  /** Stops watching and undresses every marker; tells that no host is left. */
  destroy(): void {
    this.observer.disconnect();
    this.named = new Set();
    for (const marker of this.root.querySelectorAll<HTMLElement>('[data-app-pin]')) undress(marker);
    if (this.hosts.size > 0) this.onChange(new Map());
    this.hosts = new Map();
  }
}

/** Gives a marker its host element (kept if it has one): the marker then shows the host's content in place of its icon. */
function dress(marker: HTMLElement): HTMLElement {
  const existing = marker.querySelector<HTMLElement>(`:scope > .${HOST_CLASS}`);
  if (existing) return existing;
  const host = document.createElement('div');
  host.className = HOST_CLASS;
  marker.dataset.appPin = '';
  marker.append(host);
  return host;
}

/** Takes a marker's host element out: the marker shows its icon again. */
function undress(marker: HTMLElement): void {
  if (!('appPin' in marker.dataset)) return;
  delete marker.dataset.appPin;
  marker.querySelector(`:scope > .${HOST_CLASS}`)?.remove();
}
