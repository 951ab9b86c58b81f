import { expect, test, type Page } from './test.ts';
import { axe, PLAIN_STYLE, goToAddress, serveJson, waitForMapState, watchConsole } from './helpers.ts';

/**
 * The map as a keyboard user meets it, in both views and with each pin renderer: the pins as one
 * Tab stop (arrows, Home, End, Page Up and Down between them), a bubble's zoom from the keyboard
 * putting the focus on what it split into, the focus never on <body>, the Tab order from page
 * load to each control, the skip link, what a screen reader hears (aria snapshots) and axe.
 */

const GEOJSON = 'pins/cities.geojson';
const ARCHIVE = 'pmtiles://pins/cities.pmtiles';

async function openApp(page: Page, config: Record<string, unknown>): Promise<void> {
  await serveJson(page, '/__keyboard/config.json', { fadeDuration: 0, hash: true, ...config });
  await page.goto('/?config=/__keyboard/config.json');
  await waitForMapState(page, 'idle');
}

/** A pin or bubble as the test sees it: a key (a pin's id, a bubble's count), its kind and its middle (x on the page, y in the world). */
interface Item {
  key: string;
  kind: 'pin' | 'bubble';
  count: number;
  x: number;
  y: number;
  /** How far its middle is inside the map's nearest edge (CSS px). */
  edge: number;
}

/** What has the focus (an item of the pins' group, or the element's name or tag) and the group's items in view. */
interface FocusState {
  focused: Item | string;
  inView: Item[];
  group: string | null;
  /** The middle of the map (x on the page, y in the world), where a bubble zoomed into from the keyboard stands once the camera rests. */
  middle: { x: number; y: number };
}

async function focusState(page: Page): Promise<FocusState> {
  return page.evaluate(() => {
    const map = document.querySelector('.pinmap-map')!.getBoundingClientRect();
    const group = document.querySelector<HTMLElement>('.pinmap-map [role="group"]');
    // The map's top edge in the world (Web Mercator px, 512 px tiles), from the camera in the address.
    const [zoom, lat] = location.hash.slice('#map='.length).split('/').map(Number) as [number, number];
    const sin = Math.sin((lat * Math.PI) / 180);
    const top = (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * 512 * 2 ** zoom - map.height / 2;
    const describe = (element: HTMLElement) => {
      const box = element.getBoundingClientRect();
      const x = box.left + box.width / 2;
      const bubble = element.classList.contains('pinmap-cluster');
      // Where it stands on the map: a pin's tip, a bubble's middle.
      const y = (bubble ? box.top + box.height / 2 : box.bottom) - map.top + top;
      const edge = Math.min(x - map.left, map.right - x, y - top, top + map.height - y);
      return { key: bubble ? `bubble ${element.dataset.count}` : `pin ${element.dataset.pinId}`, kind: bubble ? 'bubble' : 'pin', count: Number(element.dataset.count ?? 1), x, y, edge } as const;
    };
    const items = group ? Array.from(group.querySelectorAll<HTMLElement>('.pinmap-pin, .pinmap-cluster')) : [];
    const inView = items.map(describe).filter((item) => item.edge >= 0);
    const active = document.activeElement as HTMLElement | null;
    let focused: Item | string;
    if (!active || active === document.body) focused = 'BODY';
    else if (items.includes(active)) focused = describe(active);
    else focused = active.getAttribute('aria-label') ?? active.textContent?.trim() ?? active.tagName;
    return { focused, inView, group: group?.getAttribute('aria-label') ?? null, middle: { x: map.left + map.width / 2, y: top + map.height / 2 } };
  });
}

/** The item focused now (failing when the focus is elsewhere). */
async function focusedItem(page: Page): Promise<Item> {
  const { focused } = await focusState(page);
  expect(typeof focused, `the focus is on a pin or bubble, not ${String(focused)}`).toBe('object');
  return focused as Item;
}

/** The items in reading order, as pin-focus.ts reads them: rows of 64 px, each from left to right. */
const reading = (items: Item[]) => [...items].sort((a, b) => Math.floor(a.y / 64) - Math.floor(b.y / 64) || a.x - b.x || a.y - b.y);

/**
 * Whether `item` comes before `other` in reading order whatever the error of the test's world y
 * (the same for both, within `slack` px): the rows are 64 px from the app's own top, which the test
 * knows from the address only to a few pixels.
 */
function surelyBefore(item: Item, other: Item, slack: number): boolean {
  for (let shift = -slack; shift <= slack; shift++) {
    const [row, otherRow] = [Math.floor((item.y + shift) / 64), Math.floor((other.y + shift) / 64)];
    if (!(row < otherRow || (row === otherRow && item.x < other.x))) return false;
  }
  return true;
}

/** How far (CSS px) from where a bubble stands once zoomed into the items it split into are looked for (4 × the bubbles' radius, pin-group.ts). */
const SPLIT_RADIUS = 160;

/**
 * Once the camera rests, the focus is on a pin or bubble in view, or on the map: never on <body>
 * nor on a pin out of sight.
 */
async function expectFocusKept(page: Page, mapName = 'Map'): Promise<void> {
  await waitForMapState(page, 'idle');
  await expect
    .poll(async () => {
      const { focused, inView } = await focusState(page);
      if (typeof focused === 'string') return focused;
      return inView.some((item) => item.key === focused.key) ? 'an item in view' : `${focused.key} out of view`;
    })
    .toMatch(new RegExp(`^(an item in view|${mapName})$`));
}

/** Presses arrows until the focused item is of `kind` (a walk as a user would take, each press checked to move that way). */
async function arrowTo(page: Page, kind: Item['kind']): Promise<Item> {
  for (const key of ['ArrowDown', 'ArrowRight', 'ArrowUp', 'ArrowLeft', 'ArrowDown', 'ArrowRight']) {
    for (let press = 0; press < 8; press++) {
      const from = await focusedItem(page);
      if (from.kind === kind) return from;
      await page.keyboard.press(key);
      const to = await focusedItem(page);
      if (to.key === from.key) break;
      if (key === 'ArrowDown') expect(to.y, `${key} went down`).toBeGreaterThan(from.y);
      if (key === 'ArrowUp') expect(to.y, `${key} went up`).toBeLessThan(from.y);
      if (key === 'ArrowRight') expect(to.x, `${key} went right`).toBeGreaterThan(from.x);
      if (key === 'ArrowLeft') expect(to.x, `${key} went left`).toBeLessThan(from.x);
    }
  }
  throw new Error(`no ${kind} reached with the arrows`);
}

const WALKS = [
  { view: 'vector', renderer: 'DOM pins', pins: GEOJSON, domPinLimit: 1000 },
  { view: 'vector', renderer: 'GPU pins', pins: GEOJSON, domPinLimit: 0 },
  { view: 'vector', renderer: 'pre-tiled pins', pins: ARCHIVE, domPinLimit: 1000 },
  { view: 'hybrid', renderer: 'DOM pins', pins: GEOJSON, domPinLimit: 1000 },
  { view: 'hybrid', renderer: 'DOM pins grouped in the worker', pins: GEOJSON, domPinLimit: 0 },
  { view: 'hybrid', renderer: 'pre-tiled pins', pins: ARCHIVE, domPinLimit: 1000 },
] as const;

for (const { view, renderer, pins, domPinLimit } of WALKS) {
  test(`keyboard only (${view} view, ${renderer}): Tab in, arrows, Home/End, Page Down, Enter on a bubble, a popup and Esc, Tab out and back, the focus kept`, async ({ mapPage: page }) => {
    const console = watchConsole(page);
    await openApp(page, { style: PLAIN_STYLE, view, pins, domPinLimit, center: [10, 50], zoom: 3.5 });
    const hash = () => new URL(page.url()).hash;

    // Tab: the skip link (seen once focused), the map, then the pins, entered at the first in reading order.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to map controls' });
    await expect(skip).toBeFocused();
    expect((await skip.boundingBox())!.width).toBeGreaterThan(50);
    await page.keyboard.press('Tab');
    const map = page.getByRole('region', { name: 'Map', exact: true });
    await expect(map).toBeFocused();
    await expect(skip).toHaveCSS('clip-path', 'inset(50%)');
    // On the map the arrows pan it.
    const start = hash();
    await page.keyboard.press('ArrowRight');
    await expect.poll(hash).not.toBe(start);
    await waitForMapState(page, 'idle');
    await page.keyboard.press('Tab');
    // A pin entered at the view's edge is brought inside it: the camera rests again (and the group's name follows).
    await waitForMapState(page, 'idle');
    const entered = await focusedItem(page);
    const { inView, group } = await focusState(page);
    expect(inView.length).toBeGreaterThan(5);
    // The first in reading order: rows of 64 px in the world, which the test knows from the address
    // to a few pixels (the hybrid view's to a row), so among the first few here.
    expect(reading(inView).slice(0, 3).map((item) => item.key)).toContain(entered.key);
    expect(group).toMatch(/^Pins, [\d,]+ in view$/);
    const pinsInView = inView.reduce((sum, item) => sum + item.count, 0);
    expect(group).toBe(`Pins, ${pinsInView.toLocaleString('en-US')} in view`);

    // End and Home: the last and first in view (one at the view's edge is brought inside it, and
    // what the camera then shows counts for the next key); Page Down and Up: a row down and up.
    const press = async (key: string) => {
      const before = (await focusState(page)).inView;
      await page.keyboard.press(key);
      await waitForMapState(page, 'idle');
      return { before, item: await focusedItem(page) };
    };
    const end = await press('End');
    expect(end.item.key).toBe(reading(end.before).at(-1)!.key);
    const home = await press('Home');
    expect(home.item.key).toBe(reading(home.before)[0]!.key);
    const rowOf = (item: Item) => Math.floor(item.y / 64);
    const below = (await press('PageDown')).item;
    expect(rowOf(below)).toBeGreaterThan(rowOf(home.item));
    expect(rowOf((await press('PageUp')).item)).toBeLessThan(rowOf(below));
    const bubble = await arrowTo(page, 'bubble');
    const before = hash();

    // Enter on a bubble: once the camera rests, the focus is on the first of what it split into, said politely.
    await page.keyboard.press('Enter');
    await expect.poll(() => hash()).not.toBe(before);
    await expectFocusKept(page);
    const split = await focusedItem(page);
    expect(split.key).not.toBe(bubble.key);
    // The first of what it split into: of the pins and bubbles near where it stands (the view's
    // middle), none comes before the focused one in reading order.
    const after = await focusState(page);
    const near = after.inView.filter((item) => Math.hypot(item.x - after.middle.x, item.y - after.middle.y) <= SPLIT_RADIUS);
    expect(near.map((item) => item.key), 'what the bubble split into').toContain(split.key);
    const slack = view === 'hybrid' ? 64 : 32;
    expect(near.filter((item) => surelyBefore(item, split, slack)).map((item) => item.key), `what it split into before ${split.key} in reading order`).toEqual([]);
    await expect(page.locator('.pinmap-map [aria-live="polite"]')).toHaveText(`Zoomed in: ${bubble.count.toLocaleString('en-US')} pins`);

    // A pin's popup by Enter, closed by Esc: the focus back on the pin.
    const pin = await arrowTo(page, 'pin');
    await page.keyboard.press('Enter');
    const popup = page.locator(`.pinmap-popup[data-pin-id="${pin.key.slice(4)}"]`);
    await expect(popup).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.pinmap-popup') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    await expectFocusKept(page);
    expect((await focusedItem(page)).key).toBe(pin.key);

    // Tab leaves the pins for the controls (the zoom buttons first), Shift+Tab comes back to the same pin.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Zoom in', exact: true })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    expect((await focusedItem(page)).key).toBe(pin.key);

    // The focused pin leaves the view (the camera goes elsewhere): the focus goes to a pin in view, or the map.
    await page.evaluate(() => (location.hash = '#map=4/-25/135'));
    await expectFocusKept(page);
    // And a view with no pin: the map.
    await page.keyboard.press('Home');
    await page.evaluate(() => (location.hash = '#map=5/-40/-140'));
    await expectFocusKept(page);
    await expect(map).toBeFocused();
    expect(console.errors).toEqual([]);
  });
}

/** The corners' controls as the figures name them, by the focused element's name. */
const CONTROLS: Record<string, RegExp> = {
  'zoom in': /^Zoom in$/,
  'zoom out': /^Zoom out$/,
  compass: /^Reset bearing to north$|^Rotation is not available/,
  locate: /^Find my location$|^Location (not available|needs)/,
  fullscreen: /^Enter fullscreen$/,
  attribution: /^Toggle attribution$|^Natural Earth$/,
  'search (panel)': /^Search the pins$/,
  'list (panel)': /^List the pins in view$/,
  'legend (panel)': /^Show the legend$|^Legend$/,
  scale: /^[\d,.]+\s(km|m|mi|ft|nm)$/,
};

/** The controls in the order README "Keyboard" gives: corner by corner, top right, top left, bottom left, bottom right. */
const README_ORDER: [corner: string, controls: string[]][] = [
  ['top-right', ['zoom in', 'zoom out', 'compass', 'locate']],
  ['top-left', ['search (panel)', 'fullscreen', 'list (panel)']],
  ['bottom-left', ['scale']],
  ['bottom-right', ['legend (panel)', 'attribution']],
];

test.describe(() => {
  test.use({ basemap: 'embedded' }); // its credits are the attribution's links, the last stops
  for (const view of ['vector', 'hybrid'] as const) {
    test(`Tab from page load: the skip link, the map, the pins, then the controls corner by corner (top right, top left, bottom left, bottom right) in README's order; zoom in within 5 presses (${view} view)`, async ({ mapPage: page }) => {
      await openApp(page, { view, pins: GEOJSON, controls: { list: true, legend: true, search: true } });
      const expected = README_ORDER.map(([corner, controls]) => [corner, controls.filter((control) => view === 'vector' || control !== 'compass')] as const);
      const all = expected.flatMap(([, controls]) => controls);
      const reached: Record<string, number> = {};
      const stops: string[] = [];
      /** The corner of each stop from the first control on. */
      const corners: (string | null)[] = [];
      for (let press = 1; press <= 40 && Object.keys(reached).length < all.length; press++) {
        await page.keyboard.press('Tab');
        const { focused } = await focusState(page);
        const name = typeof focused === 'string' ? focused : focused.kind;
        stops.push(name);
        if (Object.keys(reached).length > 0 || CONTROLS['zoom in']!.test(name)) {
          corners.push(await page.evaluate(() => document.activeElement?.closest('[data-corner]')?.getAttribute('data-corner') ?? null));
        }
        for (const [control, pattern] of Object.entries(CONTROLS)) if (reached[control] === undefined && pattern.test(name)) reached[control] = press;
      }
      console.log(`${view} view, Tab presses from page load: ${Object.entries(reached).map(([control, presses]) => `${control} ${presses}`).join(', ')}`);
      expect(stops.slice(0, 4)).toEqual(['Skip to map controls', 'Map', expect.stringMatching(/^(pin|bubble)$/), 'Zoom in']);
      expect(reached['zoom in']).toBeLessThanOrEqual(5);
      // Each control reached, in README's order, and the corners one after the other, each once.
      expect(Object.keys(reached).sort((a, b) => reached[a]! - reached[b]!), `the controls in the order Tab reached them (stops: ${stops.join(' | ')})`).toEqual(all);
      expect(corners.filter((corner, i) => corner !== corners[i - 1]), 'the corners in the order Tab goes through them').toEqual(expected.map(([corner]) => corner));
      for (const [corner, controls] of expected) {
        for (const control of controls) {
          const at = reached[control]! - reached['zoom in']!;
          expect(corners[at], `the corner of ${control}`).toBe(corner);
        }
      }

      // The skip link goes past the map and its pins, to the first control.
      await page.reload();
      await waitForMapState(page, 'idle');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('button', { name: 'Zoom in', exact: true })).toBeFocused();
    });
  }
});

/** 10,000 pins around central Europe in four categories, as a GeoJSON file. */
function tenThousandPins() {
  const features = Array.from({ length: 10_000 }, (_, i) => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [-5 + (i % 100) * 0.3, 40 + Math.floor(i / 100) * 0.2] },
    properties: { id: `p${i}`, title: `Place ${i}`, category: ['Museum', 'Park', 'Cafe', 'Library'][i % 4] },
  }));
  return { type: 'FeatureCollection', features };
}

for (const view of ['vector', 'hybrid'] as const) {
  test(`what a screen reader hears (${view} view, 10,000 pins): the skip link, the map, the pins' group with its pins and bubbles, the controls; axe finds nothing`, async ({ mapPage: page }) => {
    test.setTimeout(120_000);
    await serveJson(page, '/__keyboard/pins.geojson', tenThousandPins());
    await openApp(page, { view, pins: '/__keyboard/pins.geojson', center: [10, 50], zoom: 7 });
    // The keyboard reaches the map (the vector view's GPU pins get their stand-ins).
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const group = view === 'vector' ? '  - region "Map"\n  - group' : '  - region "Map":\n    - group';
    const indent = view === 'vector' ? '    ' : '      ';
    const tree = (item: string) => `
- region "Interactive map":
  - link "Skip to map controls"
${group} /^Pins, [\\d,]+ in view$/:
${indent}- ${item}
  - button "Zoom in"
  - button "Zoom out"
  - button "Enter fullscreen"
`;
    await expect(page.locator('.pinmap')).toMatchAriaSnapshot(tree('button /^Place \\d+, (Museum|Park|Cafe|Library)$/'));
    expect((await axe(page).include('.pinmap').analyze()).violations.map((violation) => violation.id)).toEqual([]);

    // Zoomed out, the bubbles: each named by its count.
    await goToAddress(page, '#map=4/50/10');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(page.locator('.pinmap')).toMatchAriaSnapshot(tree('button /^[\\d,]+ pins. zoom in$/'));
  });
}
