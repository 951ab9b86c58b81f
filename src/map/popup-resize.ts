/** What both views' pin popups share: noticing that their content changed size. */

/**
 * Calls `onResize` each time `element` changes size after it was first measured (the size it
 * opened with is no change); returns what stops watching.
 */
export function watchResize(element: HTMLElement | null, onResize: () => void): () => void {
  if (!element || typeof ResizeObserver !== 'function') return () => {};
  let size = `${element.offsetWidth}x${element.offsetHeight}`;
  const observer = new ResizeObserver(() => {
    const now = `${element.offsetWidth}x${element.offsetHeight}`;
    if (now === size) return;
    size = now;
    onResize();
  });
  observer.observe(element);
  return () => observer.disconnect();
}
