import { MESSAGES } from './errors.ts';

/**
 * Finds the element a Pinmap is mounted in: an element id (with or without '#') or the element
 * itself. Throws the catalogue's messages for anything else.
 */
export function resolveContainer(container: unknown): HTMLElement {
  if (typeof container === 'string') {
    const id = container.startsWith('#') ? container.slice(1) : container;
    const element = id ? document.getElementById(id) : null;
    if (!element) throw new Error(MESSAGES.containerNotFound);
    return element;
  }
  if (typeof HTMLElement !== 'undefined' && container instanceof HTMLElement) return container;
  throw new TypeError(MESSAGES.containerInvalid);
}
