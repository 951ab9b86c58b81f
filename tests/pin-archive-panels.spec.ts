import { expect, test, type Page } from './test.ts';
import { tileCollection, withMetadata } from '../src/testing/pin-archive.testing.ts';
import { feature } from '../src/testing/pin-features.testing.ts';
import { PLAIN_STYLE, serveArchive, serveJson, waitForMapState, watchConsole } from './helpers.ts';

/**
 * The pin panels over pre-tiled pins (README "Pre-tiled pins"), in both views, on an archive the
 * tests make with the pin tiler: the search box through the archive's search index, the list of
 * the pins in view with their popup text and the bubbles as entries, the legend's counts, and
 * hidden categories that shrink the bubbles.
 */

const KINDS = [
  ['Café', 'cafe'],
  ['Musée', 'museum'],
  ['Parc', 'park'],
] as const;
const NAMES = ['Alma', 'Bercy', 'Clichy', 'Dauphine', 'Étoile', 'Fleurus', 'Gobelins', 'Halles', 'Invalides', 'Jussieu', 'Kléber', 'Louvre', 'Monge', 'Nation', 'Opéra', 'Passy', 'Quinet', 'Rivoli', 'Sèvres', 'Temple', 'Ulm', 'Vaugirard', 'Wagram', 'Yvette', 'Zola'];
const CENTER = [2.35, 48.86] as const;
/** Where the crowd of 40 pins is: a bubble there at every zoom up to 14. */
const CROWD = [2.23, 48.74] as const;

/**
 * A town's pins: 25 places on a grid 0.05° apart around the centre (each alone from zoom 11),
 * "Café Alma", "Musée Bercy", … with two-line descriptions; and a crowd of 40 at one spot in its
 * south-west corner, half cafés and half museums, a bubble at every zoom.
 */
function townPins() {
  const places = NAMES.map((name, i) => {
    const [kind, category] = KINDS[i % 3]!;
    const coordinates = [CENTER[0] - 0.1 + (i % 5) * 0.05, CENTER[1] + 0.1 - Math.floor(i / 5) * 0.05];
    return feature(`place-${i}`, { title: `${kind} ${name}`, category, description: `${(i % 20) + 1}e arrondissement\nOpen ${i % 2 ? 'daily' : 'on weekdays'}` }, { geometry: { type: 'Point', coordinates } });
  });
  const crowd = Array.from({ length: 40 }, (_, i) =>
    feature(`crowd-${i}`, { title: `Stall ${i + 1}`, category: i % 2 ? 'museum' : 'cafe', description: 'Market' }, { geometry: { type: 'Point', coordinates: [CROWD[0] + i * 1e-6, CROWD[1]] } }),
  );
  return { type: 'FeatureCollection', pinStyles: { cafe: { markerColor: '#6D4C41' }, museum: { markerColor: '#8E24AA' }, park: { markerColor: '#2E7D32' } }, features: [...places, ...crowd] };
}

const noControls = { navigation: false, geolocate: false, scale: false, fullscreen: false, attribution: false };
const still = { style: PLAIN_STYLE, fadeDuration: 0, preserveDrawingBuffer: true, pixelRatio: 1, controls: noControls };

let archive: Buffer;
test.beforeAll(async () => {
  archive = await tileCollection(townPins(), { searchFields: ['description'] });
});

/** Opens the app on the town's archive (or `bytes`) with `config` over it. */
async function openTown(page: Page, config: Record<string, unknown>, bytes = archive) {
  await serveArchive(page, '/__town/pins.pmtiles', bytes);
  await serveJson(page, '/__town/config.json', { ...still, center: CENTER, zoom: 11, pins: 'pmtiles:///__town/pins.pmtiles', searchFields: ['description'], ...config });
  await page.goto('/?config=/__town/config.json');
  await waitForMapState(page, 'idle');
}

/** Types `query` into the search box a key at a time, as a user does. */
async function search(page: Page, query: string) {
  const box = page.getByRole('combobox', { name: 'Search the pins' });
  await box.focus();
  await box.fill('');
  await box.pressSequentially(query);
  await expect(page.locator('.pinmap-search-results')).toHaveAttribute('data-query', query);
}

for (const view of ['vector', 'hybrid'] as const) {
  test.describe(`${view} view`, () => {
    test('the search finds pins by the words of their titles and descriptions from the archive\'s index; choosing one opens its pin', async ({ mapPage: page }) => {
      const console = watchConsole(page);
      await openTown(page, { view, controls: { ...noControls, search: 'top-left' } });
      const options = page.getByRole('option');

      await search(page, 'musée');
      await expect(page.getByRole('status').filter({ hasText: 'found' })).toHaveText('8 pins found');
      // The best first, then by title: titles that begin with the word.
      await expect(options.locator('.pinmap-list-title')).toHaveText(['Musée Bercy', 'Musée Étoile', 'Musée Halles', 'Musée Kléber', 'Musée Nation', 'Musée Quinet', 'Musée Temple', 'Musée Wagram']);
      await expect(options.first().locator('.pinmap-list-meta')).toHaveText('museum · 2e arrondissement');

      // A word of the description, and words in any order.
      await search(page, 'daily parc');
      await expect(options.locator('.pinmap-list-title')).toHaveText(['Parc Fleurus', 'Parc Louvre', 'Parc Rivoli', 'Parc Yvette']);
      await search(page, '7e arr');
      await expect(options.locator('.pinmap-list-title')).toHaveText(['Café Gobelins']);
      await search(page, 'zzz');
      await expect(page.locator('.pinmap-search-empty')).toHaveText('No pins found');

      // Enter on a result flies to it and opens its popup, with the whole description.
      await search(page, 'sèvres');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      const popup = page.locator('.pinmap-popup[data-pin-id="place-18"]');
      await expect(popup).toContainText('Café Sèvres');
      await expect(popup).toContainText('Open on weekdays');
      await expect.poll(() => new URL(page.url()).searchParams.get('pin')).toBe('place-18');
      expect(console.errors).toEqual([]);
    });

    test('an archive made before archives kept a search index shows its pins, and the search box says it must be made again', async ({ mapPage: page }) => {
      const old = withMetadata(archive, (pinmap) => {
        pinmap.version = 2;
        delete pinmap.search;
      });
      await openTown(page, { view, controls: { ...noControls, search: 'top-left', list: 'top-right' } }, old);
      await page.getByRole('combobox', { name: 'Search the pins' }).pressSequentially('musée');
      await expect(page.locator('.pinmap-search-empty')).toHaveText('This pin archive has no search index: make it again with pinmap-tile-pins');
      // Its pins are shown (drawn on the GPU in the vector view): the list of the pins in view has the one at the middle, and no notice.
      await page.getByRole('button', { name: 'List the pins in view' }).click();
      await expect(page.locator('.pinmap-list-item[data-pin-id="place-12"] .pinmap-list-title')).toHaveText('Café Monge');
      await expect(page.locator('.pinmap-notice')).toHaveCount(0);
    });

    test('the list shows each pin in view with its popup text, read from the archive\'s pin index', async ({ mapPage: page }) => {
      const console = watchConsole(page);
      await openTown(page, { view, zoom: 12, controls: { ...noControls, list: 'top-right' } });
      await page.getByRole('button', { name: 'List the pins in view' }).click();
      const entry = page.locator('.pinmap-list-item[data-pin-id="place-12"]');
      await expect(entry.locator('.pinmap-list-title')).toHaveText('Café Monge');
      await expect(entry.locator('.pinmap-list-meta')).toHaveText('cafe · 13e arrondissement');
      await entry.click();
      await expect(page.locator('.pinmap-popup[data-pin-id="place-12"]')).toContainText('Open on weekdays');
      expect(console.errors).toEqual([]);
    });

    test('the list shows each bubble in view as "N pins: zoom in"; choosing one flies to where it splits and lists its pins', async ({ mapPage: page }) => {
      const console = watchConsole(page);
      await openTown(page, { view, hash: true, center: CROWD, controls: { ...noControls, list: 'top-right' } });
      await page.getByRole('button', { name: 'List the pins in view' }).click();
      const bubble = page.locator('.pinmap-list-bubble');
      await expect(bubble).toHaveText('40 pins: zoom in');
      await expect(page.locator('.pinmap-list-note')).toHaveText('Pins in bubbles are listed by bubble: choose one to zoom in');
      // The pins in view: the town's places inside the map (from their places, the camera and the
      // map's size) listed alone, and the 40 in the bubble.
      const lone = placesInView(townPins(), CROWD, 11, (await page.locator('.pinmap-map').boundingBox())!);
      expect(lone.length, 'places in view').toBeGreaterThan(0);
      await expect(page.locator('.pinmap-list-count')).toHaveText(`${lone.length + 40} pins in view`);
      await expect(page.locator('.pinmap-list-item[data-pin-id]')).toHaveCount(lone.length);
      // By keyboard: to the bubble's entry (the last), Enter.
      await page.locator('.pinmap-list-item').first().focus();
      await page.keyboard.press('End');
      await expect(bubble).toBeFocused();
      await page.keyboard.press('Enter');
      // Its pins are 1e-6° apart: grouped to the archive's last grouping zoom (18), apart at 19.
      await expect.poll(() => Number(/#map=([\d.]+)/.exec(new URL(page.url()).hash)?.[1])).toBe(19);
      await waitForMapState(page, 'idle');
      // Split: its 40 pins are listed, the bubble no more; focus is on the first entry.
      await expect(page.locator('.pinmap-list-count')).toHaveText('40 pins in view');
      await expect(page.locator('.pinmap-list-item[data-pin-id^="crowd-"]').first()).toBeVisible();
      await expect(page.locator('.pinmap-list-item[data-pin-id]:not([data-pin-id^="crowd-"])')).toHaveCount(0);
      await expect(bubble).toHaveCount(0);
      await expect(page.locator('.pinmap-list-item').first()).toBeFocused();
      const shot = test.info().outputPath('list.png');
      await page.locator('.pinmap').screenshot({ path: shot });
      await test.info().attach('list.png', { path: shot, contentType: 'image/png' });
      expect(console.errors).toEqual([]);
    });

    test('hiding a category shrinks the bubbles by its pins and removes a bubble with none left; the legend keeps the archive\'s counts', async ({ mapPage: page }) => {
      const console = watchConsole(page);
      await openTown(page, { view, center: CROWD, controls: { ...noControls, list: 'top-right', legend: 'bottom-right' } });
      const legend = page.locator('.pinmap-legend-entry');
      await expect(legend.locator('.pinmap-legend-count')).toHaveText(['29', '28', '8']);
      await expect(legend.locator('.pinmap-legend-name')).toHaveText(['cafe', 'museum', 'park']);
      await page.getByRole('button', { name: 'List the pins in view' }).click();
      const bubble = page.locator('.pinmap-list-bubble');
      await expect(bubble).toHaveText('40 pins: zoom in');
      // The vector view draws the bubble in WebGL: what is drawn where it is (no lone pin is that near).
      const before = await bubblePixels(page);

      await legend.filter({ hasText: 'museum' }).locator('input').uncheck();
      await waitForMapState(page, 'idle');
      await expect(bubble).toHaveText('20 pins: zoom in');
      if (view === 'hybrid') await expect(page.locator('.pinmap-cluster')).toHaveAttribute('data-count', '20');
      const twenty = await bubblePixels(page);
      expect(twenty.equals(before), 'the bubble is drawn with its new count').toBe(false);

      // No pins left in it: the list has no bubble, because the map draws none.
      await legend.filter({ hasText: 'cafe' }).locator('input').uncheck();
      await waitForMapState(page, 'idle');
      await expect(bubble).toHaveCount(0);
      if (view === 'hybrid') await expect(page.locator('.pinmap-cluster')).toHaveCount(0);
      expect((await bubblePixels(page)).equals(twenty)).toBe(false);
      // Shown again, the bubble is whole again; the legend's counts never changed.
      await legend.filter({ hasText: 'museum' }).locator('input').check();
      await legend.filter({ hasText: 'cafe' }).locator('input').check();
      await waitForMapState(page, 'idle');
      await expect(bubble).toHaveText('40 pins: zoom in');
      await expect.poll(async () => (await bubblePixels(page)).equals(before)).toBe(true);
      await expect(legend.locator('.pinmap-legend-count')).toHaveText(['29', '28', '8']);
      expect(console.errors).toEqual([]);
    });
  });
}

test('pins without categories: the legend has their line with the archive\'s count, as inline; list entries of one title say where each is', async ({ mapPage: page }) => {
  const console = watchConsole(page);
  // Houses along a street, 0.01° apart (alone at zoom 13): three called "12".
  const houses = Array.from({ length: 6 }, (_, i) =>
    feature(`house-${i}`, { title: i % 2 ? `${20 + i}` : '12' }, { geometry: { type: 'Point', coordinates: [CENTER[0] - 0.025 + i * 0.01, CENTER[1]] } }),
  );
  const bytes = await tileCollection({ type: 'FeatureCollection', features: houses });
  await openTown(page, { zoom: 13, controls: { ...noControls, list: 'top-right', legend: 'bottom-right' } }, bytes);
  const line = page.locator('.pinmap-legend-entry[data-uncategorised]');
  await expect(line.locator('.pinmap-legend-name')).toHaveText('Pins');
  await expect(line.locator('.pinmap-legend-count')).toHaveText('6');

  await page.getByRole('button', { name: 'List the pins in view' }).click();
  await expect(page.locator('.pinmap-list-count')).toHaveText('6 pins in view');
  const detail = (id: string) => page.locator(`.pinmap-list-item[data-pin-id="${id}"] .pinmap-list-detail`);
  await expect(detail('house-0')).toHaveText('48.8600° N, 2.3250° E');
  await expect(detail('house-2')).toHaveText('48.8600° N, 2.3450° E');
  await expect(detail('house-4')).toHaveText('48.8600° N, 2.3650° E');
  await expect(detail('house-1')).toHaveCount(0);
  expect(console.errors).toEqual([]);
});

/**
 * The ids of the town's places (not the crowd) inside a map of `size` centred on `center` at
 * `zoom` (Web Mercator, 512 px tiles); failing when one is so near an edge that in or out is a
 * matter of rounding.
 */
function placesInView(pins: ReturnType<typeof townPins>, center: readonly [number, number], zoom: number, size: { width: number; height: number }): string[] {
  const world = 512 * 2 ** zoom;
  const project = ([lng, lat]: readonly number[]) => {
    const sin = Math.sin((lat! * Math.PI) / 180);
    return [((lng! + 180) / 360) * world, (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * world] as const;
  };
  const [cx, cy] = project(center);
  return pins.features.flatMap((pin) => {
    if (!String(pin.id).startsWith('place-')) return [];
    const [x, y] = project((pin.geometry as { coordinates: number[] }).coordinates);
    const inside = [size.width / 2 - Math.abs(x - cx), size.height / 2 - Math.abs(y - cy)];
    expect(inside.every((margin) => Math.abs(margin) > 2), `${String(pin.id)} is not on the map's edge`).toBe(true);
    return inside.every((margin) => margin > 0) ? [String(pin.id)] : [];
  });
}

/** A screenshot of the middle of the map (where the crowd's bubble is when the map is centred on it), to tell whether what is drawn there changed. */
async function bubblePixels(page: Page): Promise<Buffer> {
  const box = (await page.locator('.pinmap').boundingBox())!;
  return page.screenshot({ clip: { x: box.x + box.width / 2 - 24, y: box.y + box.height / 2 - 24, width: 48, height: 48 } });
}
