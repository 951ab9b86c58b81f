import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { serveJson, waitForMapState, watchConsole } from './helpers.ts';

/**
 * The map as a keyboard user meets it, in both views and with each pin renderer: the pins as one
 * Tab stop (arrows, Home, End, Page Up and Down between them), a bubble's zoom from the keyboard
 * putting the focus on what it split into, the focus never on <body>, the Tab order from page
 * load to each control, the skip link, what a screen reader hears (aria snapshots) and axe.
 */

/** What has the focus: a pin's id, a bubble's name, or the element's accessible name or tag. */
async function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return 'BODY';
    if (element.dataset.pinId) return `pin ${element.dataset.pinId}`;
    if (element.classList.contains('pinmap-cluster')) return `bubble ${element.dataset.count}`;
    return element.getAttribute('aria-label') ?? element.textContent?.trim() ?? element.tagName;
  });
}

/** The corners' controls as the figures name them, by what has the focus. */
const CONTROLS: Record<string, RegExp> = {
  'zoom in': /^Zoom in$/,
  'zoom out': /^Zoom out$/,
  compass: /^Reset bearing to north$|^Rotation is not available/,
  locate: /^Find my location$|^Location (not available|needs)/,
  fullscreen: /^Enter fullscreen$/,
  attribution: /^Toggle attribution$/,
};

for (const view of ['vector', 'hybrid'] as const) {
  test(`Tab from page load reaches each control, zoom in within 5 presses (${view} view)`, async ({ page }) => {
    await page.goto(`/?view=${view}`);
    await waitForMapState(page);
    const reached: Record<string, number> = {};
    const stops: string[] = [];
    for (let press = 1; press <= 30; press++) {
      await page.keyboard.press('Tab');
      const name = await focusedName(page);
      stops.push(name);
      for (const [control, pattern] of Object.entries(CONTROLS)) if (reached[control] === undefined && pattern.test(name)) reached[control] = press;
    }
    console.log(`${view}: ${stops.join(' | ')}`);
    console.log(`${view} view, Tab presses from load: ${Object.entries(reached).map(([control, presses]) => `${control} ${presses}`).join(', ')}`);
    expect(reached['zoom in']).toBeLessThanOrEqual(5);
  });
}
