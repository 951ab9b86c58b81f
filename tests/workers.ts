import type { Page } from '@playwright/test';

/**
 * Counts the page's Web Workers as they are made and terminated, so a test can say how many are
 * alive (MapLibre's worker pool ends its workers when its last map is removed). Install before
 * the page loads.
 */
export async function countWorkers(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const live = { workers: 0 };
    (window as unknown as { __workers: typeof live }).__workers = live;
    const NativeWorker = window.Worker;
    window.Worker = class extends NativeWorker {
      constructor(...args: ConstructorParameters<typeof Worker>) {
        super(...args);
        live.workers++;
      }
      override terminate() {
        live.workers--;
        super.terminate();
      }
    };
  });
}

/** Workers made and not yet terminated. */
export function liveWorkers(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __workers: { workers: number } }).__workers.workers);
}
