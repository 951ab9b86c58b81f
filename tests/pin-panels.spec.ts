import { expect, test, type Page } from './test.ts';
import type { PinmapConfigInput } from '../src/config/schema.ts';
import { EMBEDDED_STYLE_PATH } from '../src/config/constants.ts';
import { axe, PLAIN_STYLE, serveJson, waitForMapState, watchConsole } from './helpers.ts';

/**
 * The pin panels (the list of the pins in view, the legend with its filter, the search box) as a
 * keyboard user meets them: real MapLibre and Leaflet in Chromium, the app's world cities,
 * every step taken with Tab, the arrows, Enter, Space and Escape only.
 */

const PANELS = { list: true, legend: true, search: true } as const;

/** Opens the app with the panels, on a plain style unless `config` names one. */
async function openApp(page: Page, config: PinmapConfigInput, address = '') {
  await serveJson(page, '/__panels/config.json', { style: PLAIN_STYLE, fadeDuration: 0, pins: 'pins/cities.geojson', controls: PANELS, ...config });
  await page.goto(`/?config=${encodeURIComponent('/__panels/config.json')}${address}`);
  await waitForMapState(page);
}

/**
 * Presses Tab from the start of the page until `selector` has focus (at most `max` times), as a
 * keyboard user reaches a control: past the skip link, the map and its pins (one Tab stop), the
 * corners' controls (README, "Keyboard").
 */
async function tabTo(page: Page, selector: string, max = 20) {
  // Where the first Tab of the page goes.
  await page.locator('.pinmap-skip-link').focus();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.locator(selector).evaluate((element) => element === document.activeElement).catch(() => false)) return;
  }
  throw new Error(`${selector} was not reached with ${max} presses of Tab`);
}

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-pin-id') ?? document.activeElement?.className ?? '');

const listCount = (page: Page) => page.locator('.pinmap-list-count').getAttribute('data-count').then(Number);

/** The list's entries now rendered, in order, by pin id. */
const listedIds = (page: Page) => page.locator('.pinmap-list-item').evaluateAll((items) => items.map((item) => item.getAttribute('data-pin-id')));

for (const view of ['vector', 'hybrid'] as const) {
  for (const renderer of view === 'vector' ? (['dom', 'gl'] as const) : (['dom'] as const)) {
    test(`list of the pins in view (${view}, ${renderer}): keyboard only, open, arrows, Enter opens the popup, Escape returns focus`, async ({ mapPage: page }) => {
      const console = watchConsole(page);
      await openApp(page, { view, center: [2.35, 48.86], zoom: 6, domPinLimit: renderer === 'dom' ? 500 : 0 });
      await tabTo(page, '.pinmap-list-button');
      await expect(page.locator('.pinmap-list-button')).toHaveAttribute('aria-expanded', 'false');
      await page.keyboard.press('Enter');
      await expect(page.locator('.pinmap-list-panel')).toBeVisible();
      await expect(page.locator('.pinmap-list-item').first()).toBeVisible();

      // The count is said politely, and the entries are in order (by title).
      const count = await listCount(page);
      expect(count).toBeGreaterThanOrEqual(3);
      await expect(page.locator('.pinmap-list-count')).toHaveText(`${count} pins in view`);
      await expect(page.locator('.pinmap-list-count')).toHaveAttribute('aria-live', 'polite');
      const titles = await page.locator('.pinmap-list-title').allTextContents();
      expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true })));
      expect(await listedIds(page)).toContain('paris-fr');

      // "Show all pins" beside the count, then one Tab stop for the list: Tab goes to the first entry, the arrows to the next ones.
      await page.keyboard.press('Tab');
      await expect(page.getByRole('button', { name: 'Show all pins' })).toBeFocused();
      await page.keyboard.press('Tab');
      const firstId = (await listedIds(page))[0];
      await expect.poll(() => focused(page)).toBe(firstId);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      const third = (await listedIds(page))[2]!;
      // Focus moves once the list has rendered the move (an effect after the render).
      await expect.poll(() => focused(page)).toBe(third);

      // Enter flies there and opens its popup, focus on the popup's close button.
      await page.keyboard.press('Enter');
      const popup = page.locator(`.pinmap-popup[data-pin-id="${third}"]`);
      await expect(popup).toBeVisible();
      await expect(popup).toHaveAttribute('role', 'dialog');
      await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.pinmap-popup') !== null)).toBe(true);
      await expect.poll(() => new URL(page.url()).searchParams.get('pin')).toBe(third);

      // Escape closes the popup and focus goes back to the entry; Escape again closes the panel.
      await page.keyboard.press('Escape');
      await expect(popup).toHaveCount(0);
      await expect.poll(() => focused(page)).toBe(third);
      await page.keyboard.press('Escape');
      await expect(page.locator('.pinmap-list-panel')).toHaveCount(0);
      await expect(page.locator('.pinmap-list-button')).toBeFocused();
      expect(console.errors).toEqual([]);
    });
  }
}

test('the list follows the view once it rests, a screen reader finds real named elements (axe: no violations), and a long list is virtualised', async ({ mapPage: page }) => {
  await openApp(page, { center: [2.35, 48.86], zoom: 6 });
  await page.locator('.pinmap-list-button').press('Enter');
  await expect(page.locator('.pinmap-list-item').first()).toBeVisible();
  const before = await listCount(page);
  expect(await listedIds(page)).toContain('paris-fr');

  // The user moves to South America (the address's camera, followed like a gesture).
  await page.evaluate(() => (window.location.hash = '#map=5/-23/-46'));
  await expect.poll(() => listedIds(page)).toContain('sao-paulo-br');
  expect(await listedIds(page)).not.toContain('paris-fr');
  const after = await listCount(page);
  expect(before).toBeGreaterThan(0);
  await expect(page.locator('.pinmap-list-count')).toHaveText(after === 1 ? '1 pin in view' : `${after} pins in view`);

  // Real list semantics: a named section, a list of buttons, each with its position in the whole list.
  await expect(page.getByRole('region', { name: 'Pins in view' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Pins in view' })).toBeVisible();
  const item = page.locator('.pinmap-list-items > li').first();
  await expect(item).toHaveAttribute('aria-posinset', '1');
  await expect(item).toHaveAttribute('aria-setsize', String(await listCount(page)));
  await expect(page.locator('.pinmap-list-items').getByRole('button', { name: /^São Paulo/ })).toBeVisible();

  const results = await axe(page).include('.pinmap-corner').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);

  // The whole world: every pin in view, yet only the entries scrolled into the panel are in the DOM.
  await page.evaluate(() => (window.location.hash = '#map=0.5/20/10'));
  await expect.poll(() => listCount(page)).toBe(440);
  expect(await page.locator('.pinmap-list-item').count()).toBeLessThan(30);
  await page.locator('.pinmap-list-item').first().focus();
  await page.keyboard.press('End');
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest('li')?.getAttribute('aria-posinset'))).toBe('440');
  await expect(page.locator('.pinmap-list-item:focus .pinmap-list-title')).toHaveText('Zarqa'); // last by title

  // Two cities called Valencia (entries 415 and 416): each says where it is; a title of one city says nothing more.
  await page.locator('.pinmap-list-scroll').evaluate((scroller) => (scroller.scrollTop = 410 * 44));
  await expect(page.locator('.pinmap-list-item[data-pin-id="valencia-es"] .pinmap-list-meta')).toHaveText('regional-capital · 39.4698° N, 0.3774° W · Regional capital in Spain · population 814,208');
  await expect(page.locator('.pinmap-list-item[data-pin-id="valencia-ve"] .pinmap-list-detail')).toHaveText('10.1620° N, 68.0076° W');
  await expect(page.locator('.pinmap-list-item[data-pin-id="valletta-mt"]')).toBeVisible();
  await expect(page.locator('.pinmap-list-item[data-pin-id="valletta-mt"] .pinmap-list-detail')).toHaveCount(0);
});

// The hybrid view groups a set above domPinLimit in the pin index's worker, a smaller one on the page.
for (const [view, domPinLimit] of [['vector', 500], ['hybrid', 500], ['hybrid', 0]] as const) {
  const name = view === 'hybrid' ? `${view}, grouped ${domPinLimit === 0 ? 'in a worker' : 'on the page'}` : view;
  test(`legend (${name}): Space on a category hides its pins, bubbles count only what shows, ?hide= keeps it`, async ({ mapPage: page }) => {
    // Zoom 1: the cities group into bubbles; every pin of the set is in view.
    const console = watchConsole(page);
    await openApp(page, { view, center: [10, 20], zoom: 1, domPinLimit });
    const shownPins = () =>
      page.evaluate(() => {
        let total = document.querySelectorAll('.pinmap-pin').length;
        for (const bubble of document.querySelectorAll<HTMLElement>('.pinmap-cluster')) total += Number(bubble.dataset.count);
        return total;
      });
    await expect.poll(shownPins).toBe(440);
    const legend = page.locator('.pinmap-legend-panel');
    await expect(legend).toBeVisible(); // open from the start on a wide map
    await expect(legend.getByRole('checkbox')).toHaveCount(4);
    await expect(page.locator('.pinmap-legend-entry[data-category="capital"]')).toContainText('235');

    await tabTo(page, '.pinmap-legend-entry[data-category="capital"] input');
    await page.keyboard.press('Space');
    await expect(page.getByRole('checkbox', { name: /^capital/ })).not.toBeChecked();
    await expect.poll(() => new URL(page.url()).searchParams.get('hide')).toBe('capital');
    await expect.poll(shownPins).toBe(440 - 235);
    await expect(page.locator('.pinmap-pin[data-pin-id="paris-fr"]')).toHaveCount(0);

    // The address keeps it: a reload shows the same filter.
    await page.reload();
    await waitForMapState(page);
    await expect(page.getByRole('checkbox', { name: /^capital/ })).not.toBeChecked();
    await expect.poll(shownPins).toBe(440 - 235);

    // Space again shows them; Escape closes the legend and returns focus to its button.
    await tabTo(page, '.pinmap-legend-entry[data-category="capital"] input');
    await page.keyboard.press('Space');
    await expect.poll(shownPins).toBe(440);
    await expect.poll(() => new URL(page.url()).searchParams.has('hide')).toBe(false);
    await page.keyboard.press('Escape');
    await expect(legend).toHaveCount(0);
    await expect(page.locator('.pinmap-legend-button')).toBeFocused();
    expect(console.errors).toEqual([]);
  });
}

test('legend with GPU pins: a hidden category leaves the list, the search and the map', async ({ mapPage: page }) => {
  await openApp(page, { center: [2.35, 48.86], zoom: 4, domPinLimit: 0 }, '&hide=capital,megacity');
  await expect(page.getByRole('checkbox', { name: /^capital/ })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: /^megacity/ })).not.toBeChecked();
  await page.locator('.pinmap-list-button').press('Enter');
  await expect(page.locator('.pinmap-list-item').first()).toBeVisible();
  const filtered = await listCount(page);
  const categories = await page.locator('.pinmap-list-category').allTextContents();
  expect(categories.length).toBeGreaterThan(0);
  for (const category of categories) expect(['regional-capital', 'city']).toContain(category);
  await page.locator('.pinmap-search-input').fill('paris');
  await expect(page.locator('.pinmap-search-empty')).toHaveText('No pins found');

  await page.getByRole('checkbox', { name: /^capital/ }).check();
  await expect.poll(() => new URL(page.url()).searchParams.get('hide')).toBe('megacity');
  await expect.poll(() => listCount(page)).toBeGreaterThan(filtered);
  await page.locator('.pinmap-search-input').fill('');
  await page.locator('.pinmap-search-input').fill('paris');
  await expect(page.locator('.pinmap-search-option[data-pin-id="paris-fr"]')).toBeVisible();
});

for (const view of ['vector', 'hybrid'] as const) {
  test(`search (${view}): keyboard only, diacritics ignored, arrows, Enter opens the popup, Escape returns focus and clears`, async ({ mapPage: page }) => {
    const console = watchConsole(page);
    await openApp(page, { view, center: [10, 20], zoom: 1, ...(view === 'vector' ? { searchFields: ['description'] } : {}) });
    await tabTo(page, '.pinmap-search-input');
    const box = page.getByRole('combobox', { name: 'Search the pins' });
    await expect(box).toBeFocused();
    await page.keyboard.type('sao paulo');
    const options = page.getByRole('listbox').getByRole('option');
    await expect(options.first()).toContainText('São Paulo');
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    await expect(page.locator('.pinmap-search [role="status"]')).toHaveText(/pins? found/);

    await page.keyboard.press('ArrowDown');
    await expect(options.first()).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveAttribute('aria-activedescendant', (await options.first().getAttribute('id'))!);
    await page.keyboard.press('Enter');
    const popup = page.locator('.pinmap-popup[data-pin-id="sao-paulo-br"]');
    await expect(popup).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.pinmap-popup') !== null)).toBe(true);

    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    await expect(box).toBeFocused();
    await expect(box).toHaveValue('sao paulo');
    await page.keyboard.press('Escape');
    await expect(box).toHaveValue('');
    expect(console.errors).toEqual([]);
    if (view === 'hybrid') return;

    // The fields config names are searched too (searchFields: ['description']); axe with results open.
    await page.keyboard.type('Türkiye');
    await expect(page.locator('.pinmap-search-option[data-pin-id="istanbul-tr"]')).toBeVisible();
    for (const text of await options.allTextContents()) expect(text).toMatch(/Türkiye/);
    const results = await axe(page).include('.pinmap-corner').analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
  });
}

test.describe(() => {
  test.use({ basemap: 'embedded' }); // its credits take their room
  test('the panels stay clear of each other and of the other controls at 800 × 600 and 375 px wide', async ({ page }) => {
    for (const viewport of [
      { width: 800, height: 600 },
      { width: 375, height: 667 },
    ]) {
      await page.setViewportSize(viewport);
      await openApp(page, { style: EMBEDDED_STYLE_PATH, center: [2.35, 48.86], zoom: 4 }); // its credits take their room
      await page.locator('.pinmap-list-button').click();
      if (viewport.width > 640) await expect(page.locator('.pinmap-legend-panel')).toBeVisible();
      else await page.locator('.pinmap-legend-button').click(); // narrow: one panel at a time
      await expect(page.locator('.pinmap-list-panel')).toHaveCount(viewport.width > 640 ? 1 : 0);
      if (viewport.width <= 640) await page.locator('.pinmap-list-button').click();
      const boxes = await page.locator('.pinmap-corner > .pinmap-ctrl > *').evaluateAll((elements) =>
        elements.filter((e) => e.getBoundingClientRect().width > 0).map((e) => {
          const r = e.getBoundingClientRect();
          return { name: e.className, left: r.left, top: r.top, right: r.right, bottom: r.bottom };
        }),
      );
      for (const box of boxes) {
        expect(box.left, `${box.name} inside the map`).toBeGreaterThanOrEqual(0);
        expect(box.right, `${box.name} inside the map`).toBeLessThanOrEqual(viewport.width);
        expect(box.bottom, `${box.name} inside the map`).toBeLessThanOrEqual(viewport.height);
      }
      for (const [i, a] of boxes.entries()) {
        for (const b of boxes.slice(i + 1)) {
          const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          expect(overlap, `${a.name} and ${b.name} overlap at ${viewport.width} px`).toBe(false);
        }
      }
    }
  });
});
