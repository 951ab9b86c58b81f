import { expect, test, type Page } from './test.ts';
import { pinmapLocaleDe } from '../src/config/locales/de.ts';
import { serveJson, waitForMapState, watchConsole } from './helpers.ts';

/**
 * The German locale and right-to-left text, as a user meets them: the controls' names and titles
 * from the German table, and Arabic and Hebrew pin names in popups and on the map, under the
 * app's Content Security Policy.
 */

async function openApp(page: Page, config: Record<string, unknown>, address = ''): Promise<void> {
  await serveJson(page, '/__test/locale.json', { fadeDuration: 0, ...config });
  await page.goto(`/?config=/__test/locale.json${address}`);
  await waitForMapState(page, 'idle');
}

const pins = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', id: 'library', geometry: { type: 'Point', coordinates: [29.9, 31.2] }, properties: { title: 'مكتبة الإسكندرية', description: 'مكتبة ومركز ثقافي' } },
    { type: 'Feature', id: 'museum', geometry: { type: 'Point', coordinates: [35.2, 31.77] }, properties: { title: 'מוזיאון ישראל' } },
  ],
};

for (const view of ['vector', 'hybrid'] as const) {
  test(`${view} view: the German locale names every control, the region, the view switch and the popup's close button`, async ({ mapPage: page }) => {
    await openApp(page, { locale: pinmapLocaleDe, pins, center: [32, 31], zoom: 5, controls: { view: 'top-left' } }, `&view=${view}`);
    await expect(page.getByRole('region', { name: 'Interaktive Karte' })).toBeVisible();
    for (const name of ['Vergrößern', 'Verkleinern', 'Meinen Standort finden', 'Vollbild', 'Karte', 'Hybrid']) {
      await expect(page.getByRole('button', { name, exact: true }), name).toBeVisible();
    }
    await expect(page.getByRole('button', { name: view === 'vector' ? 'Nach Norden ausrichten' : 'In dieser Ansicht lässt sich die Karte nicht drehen' })).toBeVisible();
    await expect(page.locator('.pinmap-scale')).toHaveAttribute('title', 'Maßeinheit wechseln');
    await expect(page.getByRole('group', { name: 'Kartenansicht' })).toBeVisible();
    await page.locator('.pinmap-pin[data-pin-id="library"]').click();
    await expect(page.getByRole('button', { name: 'Popup schließen' })).toBeVisible();
    // No English control name is left.
    const names = await page.locator('.pinmap button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? b.textContent ?? ''));
    for (const english of ['Zoom in', 'Zoom out', 'Find my location', 'Enter fullscreen', 'Close popup']) expect(names).not.toContain(english);
  });
}

for (const [renderer, domPinLimit] of [
  ['GPU', 0],
  ['DOM', 500],
] as const) {
  test(`${renderer} pins named in Arabic and Hebrew: the popup reads right to left, under the app's policy without errors`, async ({ mapPage: page }) => {
    const console = watchConsole(page);
    await openApp(page, { pins, domPinLimit, center: [32, 31], zoom: 5, openPin: 'library' });
    const title = page.locator('.pinmap-popup[data-pin-id="library"] .pinmap-popup-title');
    await expect(title).toHaveText('مكتبة الإسكندرية');
    expect(await title.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    // Right-aligned: the text's right edge at the paragraph's right edge.
    const [text, box] = await title.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return [range.getBoundingClientRect().right, element.getBoundingClientRect().right];
    });
    expect(Math.abs(text - box)).toBeLessThan(1);
    expect(await page.locator('.pinmap-popup-description').evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    expect(console.errors).toEqual([]);
  });
}
