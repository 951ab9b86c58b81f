import type { Page } from '@playwright/test';

/**
 * Counts the listeners registered on `window` and `document` and not yet removed (a `once`
 * listener is not counted: it removes itself), so a test can say whether maps that come and go
 * leave theirs behind. Install before the page loads.
 */
export async function countListeners(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const live = { listeners: 0, types: new Map<string, string>() };
    (window as unknown as { __listeners: typeof live }).__listeners = live;
    for (const [name, target] of [['window', window], ['document', document]] as const) {
      const add = target.addEventListener.bind(target);
      const remove = target.removeEventListener.bind(target);
      const registered = new Set<string>();
      const ids = new WeakMap<object, number>();
      let nextId = 0;
      const keyOf = (type: string, listener: object, options?: boolean | EventListenerOptions) => {
        const capture = typeof options === 'boolean' ? options : !!options?.capture;
        let id = ids.get(listener);
        if (id === undefined) ids.set(listener, (id = nextId++));
        return `${type}|${capture}|${id}`;
      };
      target.addEventListener = (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) => {
        if (listener && !(typeof options === 'object' && options.once)) {
          const key = keyOf(type, listener, options);
          if (!registered.has(key)) {
            registered.add(key);
            live.types.set(`${name}|${key}`, `${name} ${type}`);
            live.listeners++;
          }
        }
        return add(type, listener as EventListenerOrEventListenerObject, options);
      };
      target.removeEventListener = (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions) => {
        const key = listener && keyOf(type, listener, options);
        if (key && registered.delete(key)) {
          live.types.delete(`${name}|${key}`);
          live.listeners--;
        }
        return remove(type, listener as EventListenerOrEventListenerObject, options);
      };
    }
  });
}

/** Listeners on `window` and `document` registered and not removed. */
export function liveListeners(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __listeners: { listeners: number } }).__listeners.listeners);
}

/** What the live listeners listen to, as `window click`, `document visibilitychange`, sorted. */
export function liveListenerTypes(page: Page): Promise<string[]> {
  return page.evaluate(() => [...(window as unknown as { __listeners: { types: Map<string, string> } }).__listeners.types.values()].sort());
}
