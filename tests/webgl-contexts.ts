import type { Page } from '@playwright/test';

/**
 * Counts WebGL contexts the page creates and loses, so a test can say how many are alive.
 * Install before the page loads.
 */
export async function countWebGLContexts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const counts = { created: 0, lost: 0 };
    (window as unknown as { __webgl: typeof counts }).__webgl = counts;
    const seen = new WeakSet<HTMLCanvasElement>();
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, type: string, ...rest: unknown[]) {
      const context = (original as (...args: unknown[]) => RenderingContext | null).call(this, type, ...rest);
      if (context && /webgl/i.test(type) && !seen.has(this)) {
        seen.add(this);
        counts.created++;
        this.addEventListener('webglcontextlost', () => counts.lost++);
      }
      return context;
    } as typeof HTMLCanvasElement.prototype.getContext;
  });
}

/** Contexts created and still alive (created minus lost). */
export function liveWebGLContexts(page: Page): Promise<{ created: number; alive: number }> {
  return page.evaluate(() => {
    const c = (window as unknown as { __webgl: { created: number; lost: number } }).__webgl;
    return { created: c.created, alive: c.created - c.lost };
  });
}
