import { expect, test, type Page } from './test.ts';
import { BLNS, OBJECT_KEYS, TRAPS } from '../src/testing/hostile-strings.testing.ts';
import { safeParseConfig } from '../src/config/schema.ts';
import { LOCALE_KEYS, type LocaleKey } from '../src/config/locale.ts';
import { attributionParts } from '../src/ui/controls/attribution-text.ts';
import { openEmbedPage, PLAIN_STYLE, serveJson, waitForMapState, type EmbedWindow } from './helpers.ts';

/**
 * Hostile strings in a real page (the Big List of Naughty Strings, every one of them, plus traps
 * that set `window.__pwned` and the names plain objects already have): as pin titles,
 * descriptions and URLs in both views, and as the config text that reaches the page. Nothing
 * runs (the trap stays unset, no dialog opens, no page error, no script, frame or event-handler
 * attribute is ever added to the document), the text shows literally, and nothing but an
 * absolute http(s) URL becomes a link.
 */

const STRINGS: readonly string[] = [...BLNS, ...TRAPS, ...OBJECT_KEYS];


/** What the page's guard saw: dialogs, page errors and what was ever added to the document that could run. */
interface Guard {
  dialogs: string[];
  pageErrors: string[];
}

/**
 * Watches the page from its first script: every dialog (dismissed) and page error, and, in the
 * page, every element ever added (even if removed at once) that can run script or load
 * something (script, frames, objects, forms, images…), every `on…` attribute, and every
 * attribute whose value is a `javascript:`, `vbscript:` or `data:` URL.
 */
async function guardPage(page: Page): Promise<Guard> {
  const guard: Guard = { dialogs: [], pageErrors: [] };
  page.on('dialog', (dialog) => {
    guard.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => guard.pageErrors.push(error.message));
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __hostileSeen: string[] }).__hostileSeen = seen;
    const RUNNABLE = new Set(['SCRIPT', 'IFRAME', 'FRAME', 'OBJECT', 'EMBED', 'BASE', 'FORM', 'DETAILS', 'IMG', 'VIDEO', 'AUDIO', 'SOURCE', 'MATH', 'META', 'TEMPLATE', 'MARQUEE']);
    // As the URL parser reads it: control characters and spaces do not count.
    const badUrl = (value: string) => /^(javascript|vbscript|data):/i.test([...value].filter((c) => c > ' ').join(''));
    const URL_ATTRIBUTES = new Set(['href', 'src', 'xlink:href', 'action', 'formaction', 'srcdoc', 'data', 'poster', 'background']);
    // Leaflet's raster tiles are images, blanked with this GIF when they go.
    const leafletTile = (element: Element) => element.tagName === 'IMG' && element.classList.contains('leaflet-tile');
    const EMPTY_GIF = 'data:image/gif;base64,R0lGODlhAQABAAD/ACwAAAAAAQABAAACADs=';
    const check = (element: Element) => {
      if (RUNNABLE.has(element.tagName.toUpperCase()) && !leafletTile(element)) seen.push(`<${element.tagName.toLowerCase()}> added`);
      for (const attribute of element.attributes) {
        if (/^on/i.test(attribute.name)) seen.push(`${attribute.name} attribute on <${element.tagName.toLowerCase()}>`);
        if (leafletTile(element) && attribute.name === 'src' && attribute.value === EMPTY_GIF) continue;
        if (URL_ATTRIBUTES.has(attribute.name.toLowerCase()) && badUrl(attribute.value)) seen.push(`${attribute.name}="${attribute.value}" on <${element.tagName.toLowerCase()}>`);
      }
    };
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'attributes' && record.target instanceof Element) check(record.target);
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          check(node);
          for (const inner of node.querySelectorAll('*')) check(inner);
        }
      }
    });
    // The page's own markup is the app's: watched is what scripts add after it.
    document.addEventListener('DOMContentLoaded', () => observer.observe(document, { childList: true, subtree: true, attributes: true }));
  });
  return guard;
}

/** The app's favicon, which the browser fetches again whenever the address changes. */
const FAVICON = /\/favicon-[\w-]+\.svg$/;

/** Waits until no request of the page is in flight, so an image a payload asked for would have failed (and run its handler) by now. */
async function requestsSettled(page: Page, inFlight: Set<unknown>): Promise<void> {
  await expect.poll(() => inFlight.size, { message: 'requests still in flight' }).toBe(0);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** What the whole document holds, at the end, of links and sources that could run script, and `on…` attributes. */
async function runnableLeftInDocument(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const element of document.querySelectorAll('*')) {
      for (const attribute of element.attributes) {
        const value = [...attribute.value].filter((c) => c > ' ').join('');
        if (/^on/i.test(attribute.name)) found.push(`${attribute.name} on <${element.tagName.toLowerCase()}>`);
        if (element.matches('img.leaflet-tile') && attribute.name === 'src' && value.startsWith('data:image/gif;base64,')) continue; // a blanked tile
        if (/(^|:)(href|src|action|formaction|srcdoc)$/i.test(attribute.name) && /^(javascript|vbscript|data):/i.test(value)) found.push(`${attribute.name}="${attribute.value}"`);
      }
      if (element instanceof HTMLAnchorElement && element.href && !/^https?:$/.test(element.protocol)) found.push(`a link to ${element.href}`);
    }
    found.push(...[...document.querySelectorAll('iframe, frame, object, embed')].map((e) => `<${e.tagName.toLowerCase()}>`));
    return found;
  });
}

/** Nothing ran: the trap is unset, no dialog opened, no page error, nothing runnable was ever added or is left in the document. */
async function expectNothingRan(page: Page, guard: Guard): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), 'window.__pwned').toBeUndefined();
  expect(guard.dialogs, 'dialogs opened').toEqual([]);
  expect(guard.pageErrors, 'page errors').toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __hostileSeen: string[] }).__hostileSeen), 'runnable things added to the page').toEqual([]);
  expect(await runnableLeftInDocument(page), 'runnable things in the document').toEqual([]);
}

/** Where pin `i` goes: a grid of 26 × 20, 2.1° apart (about 48 px at zoom 4, more than the 40 px within which pins group). */
function gridPoint(i: number): [number, number] {
  const column = i % 26;
  const row = Math.floor(i / 26);
  return [(column - 12.5) * 2.1, (9.5 - row) * 2.1];
}

/** The link a popup must show for `url`: only an absolute http(s) URL is one. */
function expectedLink(url: string): { href: string; text: string } | undefined {
  if (!/^https?:\/\//i.test(url)) return undefined;
  try {
    const parsed = new URL(url);
    return { href: parsed.href, text: parsed.host };
  } catch {
    return undefined;
  }
}

/** What the batch reads from one pin and its popup. */
interface PopupReading {
  id: string;
  pin: { ariaLabel: string | null; title: string | null } | null;
  popup: {
    ariaLabel: string | null;
    /** Every element in the popup's content: tag and class. */
    elements: string[];
    title: { text: string | null; shown: string } | null;
    description: { text: string | null; shown: string } | null;
    link: { href: string | null; text: string | null; target: string; rel: string } | null;
  } | null;
}

for (const view of ['vector', 'hybrid'] as const) {
  test(`${view} view: every blns string as a pin's title, description and URL shows literally, runs nothing and links only http(s)`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1400, height: 1100 });
    const guard = await guardPage(page);
    const features = STRINGS.map((s, i) => ({ type: 'Feature', id: `n${i}`, geometry: { type: 'Point', coordinates: gridPoint(i) }, properties: { title: s, description: s, url: s } }));
    await serveJson(page, '/__hostile/pins.json', {
      style: PLAIN_STYLE,
      view,
      center: [0, 1],
      zoom: 4,
      domPinLimit: 2000,
      fadeDuration: 0,
      pins: { type: 'FeatureCollection', features },
    });
    await page.goto('/?config=/__hostile/pins.json');
    await waitForMapState(page, 'idle', 60_000);

    const shown = STRINGS.map((s, i) => ({ s, id: `n${i}` })).filter(({ s }) => s.trim() !== '');
    await expect(page.locator('.pinmap-pin')).toHaveCount(shown.length);
    await expect(page.locator('.pinmap-cluster')).toHaveCount(0);
    await expect(page.getByRole('status')).toHaveText(`${STRINGS.length - shown.length} pins could not be shown×`);

    // From here on, only fonts for the text shown (and the browser's favicon, again, as the
    // address changes with the open pin) may be fetched: anything else was asked for by a payload.
    // The settling waits for every request but the favicon's: the browser asks for it again at
    // each of the hundreds of address changes, and on a slow machine the last of them are still
    // queued long after any request a payload could have made has failed.
    const inFlight = new Set<unknown>();
    const fetched: string[] = [];
    page.on('request', (request) => {
      if (!FAVICON.test(new URL(request.url()).pathname)) inFlight.add(request);
      fetched.push(request.url());
    });
    page.on('requestfinished', (request) => inFlight.delete(request));
    page.on('requestfailed', (request) => inFlight.delete(request));

    const started = Date.now();
    // Each pin's button is clicked, as a user's click reaches it, and its popup read at once.
    const readings = await page.evaluate((ids) => {
      const pins = new Map<string, HTMLElement>();
      for (const element of document.querySelectorAll<HTMLElement>('.pinmap-pin')) pins.set(element.dataset.pinId ?? '', element);
      const text = (element: Element | null) => (element ? { text: element.textContent, shown: (element as HTMLElement).innerText } : null);
      return ids.map((id): PopupReading => {
        const pin = pins.get(id);
        if (!pin) return { id, pin: null, popup: null };
        pin.click();
        const popups = [...document.querySelectorAll<HTMLElement>('.pinmap-popup')].filter((p) => p.dataset.pinId === id);
        const popup = popups[popups.length - 1];
        const content = popup?.querySelector('.pinmap-popup-content');
        const link = content?.querySelector('a') ?? null;
        return {
          id,
          pin: { ariaLabel: pin.getAttribute('aria-label'), title: pin.getAttribute('title') },
          popup:
            popup && content
              ? {
                  ariaLabel: popup.getAttribute('aria-label'),
                  elements: [...content.querySelectorAll('*')].map((e) => `${e.tagName.toLowerCase()}.${e.getAttribute('class') ?? ''}`),
                  title: text(content.querySelector('.pinmap-popup-title')),
                  description: text(content.querySelector('.pinmap-popup-description')),
                  link: link && { href: link.getAttribute('href'), text: link.textContent, target: link.target, rel: link.rel },
                }
              : null,
        };
      });
    }, shown.map(({ id }) => id));
    const batchMs = Date.now() - started;
    await requestsSettled(page, inFlight);
    await expectNothingRan(page, guard);

    const problems: string[] = [];
    let links = 0;
    for (const [index, { s, id }] of shown.entries()) {
      const reading = readings[index]!;
      const label = `${id} ${JSON.stringify(s)}`;
      if (!reading.pin) {
        problems.push(`${label}: no pin button`);
        continue;
      }
      if (reading.pin.ariaLabel !== s || reading.pin.title !== s) problems.push(`${label}: the pin is named ${JSON.stringify(reading.pin)}`);
      const popup = reading.popup;
      if (!popup) {
        problems.push(`${label}: no popup opened`);
        continue;
      }
      const link = expectedLink(s);
      const expectedElements = ['p.pinmap-popup-title', 'p.pinmap-popup-description', ...(link ? ['a.pinmap-popup-link'] : [])];
      if (JSON.stringify(popup.elements) !== JSON.stringify(expectedElements)) problems.push(`${label}: popup holds ${JSON.stringify(popup.elements)}`);
      if (popup.ariaLabel !== s) problems.push(`${label}: popup named ${JSON.stringify(popup.ariaLabel)}`);
      if (popup.title?.text !== s) problems.push(`${label}: title text ${JSON.stringify(popup.title?.text)}`);
      if (popup.description?.text !== s) problems.push(`${label}: description text ${JSON.stringify(popup.description?.text)}`);
      if (popup.title?.shown !== shownAs(s, 'normal')) problems.push(`${label}: title shows ${JSON.stringify(popup.title?.shown)}, not ${JSON.stringify(shownAs(s, 'normal'))}`);
      if (popup.description?.shown !== shownAs(s, 'pre-line')) problems.push(`${label}: description shows ${JSON.stringify(popup.description?.shown)}, not ${JSON.stringify(shownAs(s, 'pre-line'))}`);
      if (link) {
        links++;
        const expected = { href: link.href, text: link.text, target: '_blank', rel: 'noopener noreferrer' };
        if (JSON.stringify(popup.link) !== JSON.stringify(expected)) problems.push(`${label}: link ${JSON.stringify(popup.link)}, not ${JSON.stringify(expected)}`);
      }
    }
    expect(problems.slice(0, 40), `${problems.length} problems`).toEqual([]);

    // The accessible name a screen reader announces for each pin button is its title.
    const namesStarted = Date.now();
    const names = await accessibleNames(page, '.pinmap-pin', 'data-pin-id');
    // Whitespace compared as a screen reader hears it, collapsed (as Playwright's name check compares it).
    const heard = (text: string | undefined) => text?.replace(/\u200b/g, '').trim().replace(/\s+/g, ' ');
    const misnamed = shown.filter(({ s, id }) => heard(names.get(id)) !== heard(s)).map(({ s, id }) => `${id} ${JSON.stringify(s)}: ${JSON.stringify(names.get(id))}`);
    expect(misnamed.slice(0, 40), `${misnamed.length} pins named otherwise`).toEqual([]);
    const namesMs = Date.now() - namesStarted;

    // The traps once more, opened by keyboard as a user would: Enter on the focused pin, Esc to close.
    const popupTitle = page.locator('.pinmap-popup .pinmap-popup-title');
    for (const { s, id } of shown.filter(({ s }) => TRAPS.includes(s) || OBJECT_KEYS.includes(s))) {
      await page.locator(`.pinmap-pin[data-pin-id="${id}"]`).focus();
      await page.keyboard.press('Enter');
      await expect(page.locator('.pinmap-popup')).toHaveAttribute('data-pin-id', id);
      expect(await popupTitle.evaluate((element) => element.textContent)).toBe(s);
      await page.keyboard.press('Escape');
      await expect(page.locator('.pinmap-popup')).toHaveCount(0);
    }
    await requestsSettled(page, inFlight);

    await expectNothingRan(page, guard);
    expect(fetched.filter((url) => !/\.woff2?$/.test(new URL(url).pathname) && !FAVICON.test(new URL(url).pathname)), 'requests made while the popups opened').toEqual([]);
    console.log(`hostile strings, ${view} view: ${STRINGS.length} strings (${BLNS.length} blns + ${TRAPS.length} traps + ${OBJECT_KEYS.length} object keys), ${shown.length} pins (${STRINGS.length - shown.length} blank titles skipped), ${readings.length} popups opened in ${batchMs} ms, ${links} http(s) links, ${shown.length} accessible names checked in ${namesMs} ms`);
  });
}

/**
 * The accessible name of each element matching `selector`, by its `key` attribute, as the
 * browser's own accessibility tree gives it to a screen reader (the whole tree read once, where
 * Playwright's name check takes a round of its own per element).
 */
async function accessibleNames(page: Page, selector: string, key: string): Promise<Map<string, string>> {
  const session = await page.context().newCDPSession(page);
  try {
    const { nodes } = await session.send('Accessibility.getFullAXTree');
    const heard = new Map(nodes.map((node) => [node.backendDOMNodeId, String(node.name?.value ?? '')]));
    const { root } = await session.send('DOM.getDocument', { depth: 0 });
    const { nodeIds } = await session.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector });
    const names = new Map<string, string>();
    for (const nodeId of nodeIds) {
      const { node } = await session.send('DOM.describeNode', { nodeId });
      const attributes = node.attributes ?? [];
      names.set(attributes[attributes.indexOf(key) + 1] ?? '', heard.get(node.backendNodeId) ?? '');
    }
    return names;
  } finally {
    await session.detach();
  }
}

/** How CSS shows text under `white-space: normal` (collapsed, trimmed) or `pre-line` (lines kept). */
function shownAs(text: string, whiteSpace: 'normal' | 'pre-line'): string {
  if (whiteSpace === 'normal') return text.replace(/[ \t\n\r\f]+/g, ' ').replace(/^ | $/g, '');
  return text
    .split(/\r\n|\n|\r/)
    .map((line) => line.replace(/[ \t\f]+/g, ' ').replace(/^ | $/g, ''))
    .join('\n');
}

/** Each string once, in order. */
const UNIQUE: readonly string[] = [...new Set(STRINGS)];

/** Mounts a map with `config` (sent as JSON, so `__proto__` stays a plain key) on the embed page, replacing the one before; its status once ready settles. */
async function mount(page: Page, config: unknown): Promise<{ status: string; error?: string }> {
  return page.evaluate(async (json) => {
    const w = window as unknown as EmbedWindow;
    w.handle?.destroy();
    w.handle = w.Pinmap.createPinmap('map', JSON.parse(json));
    try {
      // `ready` settles at the first idle; by the time this runs the map may be drawing again
      // (a resize, a late tile), so its status now would say loading.
      await w.handle.ready;
      return { status: 'idle' };
    } catch (error) {
      return { status: w.handle.status, error: (error as Error).message };
    }
  }, JSON.stringify(config));
}

test.describe('hostile strings as config text', () => {
  test('locale: every string as the controls’ names, titles and texts, the map’s name, the pins’ bubble and notice, in both views', async ({ page }) => {
    test.setTimeout(240_000);
    const guard = await guardPage(page);
    await openEmbedPage(page);
    const strings = UNIQUE.filter((s) => s !== ''); // an empty text is refused (the error panel test has it)
    const pins = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', id: 'lone', geometry: { type: 'Point', coordinates: [30, 0] }, properties: { title: 'Lone' } },
        { type: 'Feature', id: 'a', geometry: { type: 'Point', coordinates: [-30, 0] }, properties: { title: 'A' } },
        { type: 'Feature', id: 'b', geometry: { type: 'Point', coordinates: [-30.2, 0.1] }, properties: { title: 'B' } },
        { type: 'Feature', id: 'bad', geometry: null, properties: { title: 'Bad' } },
      ],
    };
    /** Where each locale key shows in a view: the keys given one string together show one of them. */
    const slots = (view: 'vector' | 'hybrid'): LocaleKey[][] => [
      ['Pinmap.Region'],
      ['NavigationControl.ZoomIn'],
      ['NavigationControl.ZoomOut'],
      [view === 'vector' ? 'NavigationControl.ResetBearing' : 'NavigationControl.RotationUnavailable'],
      ['GeolocateControl.FindMyLocation', 'GeolocateControl.LocationNotAvailable', 'GeolocateControl.NeedsSecurePage'],
      ['FullscreenControl.Enter'],
      ['AttributionControl.ToggleAttribution'],
      ['ScaleControl.ChangeUnits'],
      ['ScaleControl.Meters', 'ScaleControl.Kilometers'],
      ['ViewControl.Label'],
      ['ViewControl.Vector'],
      ['ViewControl.Hybrid'],
      ['Popup.Close'],
      ['PinLayer.Cluster'],
      ['PinLayer.Dismiss'],
    ];
    let next = 0;
    let mounts = 0;
    let checked = 0;
    const problems: string[] = [];
    while (next < strings.length) {
      const view = mounts % 2 === 0 ? 'vector' : 'hybrid';
      const given = new Map<LocaleKey, string>();
      for (const keys of slots(view)) {
        const s = strings[next++ % strings.length]!;
        for (const key of keys) given.set(key, s);
      }
      // The keys not shown in this state get strings too (the next ones round), unchecked.
      const locale = Object.fromEntries(LOCALE_KEYS.map((key, i) => [key, given.get(key) ?? strings[(next + i) % strings.length]!]));
      const result = await mount(page, {
        view,
        style: PLAIN_STYLE,
        fadeDuration: 0,
        center: [0, 0],
        zoom: 2,
        rasterLayers: [{ url: '/raster/hatch/{z}/{x}/{y}.png', maxTileZoom: 5 }],
        pins,
        locale,
      });
      mounts++;
      if (result.status !== 'idle') {
        problems.push(`mount ${mounts} (${view}): ${result.status} ${result.error ?? ''}`);
        continue;
      }
      await page.locator('#map .pinmap-pin[data-pin-id="lone"]').click();
      await expect(page.locator('#map .pinmap-popup')).toHaveCount(1);
      const seen = await page.evaluate((view) => {
        const root = document.querySelector('#map .pinmap')!;
        const attributes = (selector: string) => {
          const element = root.querySelector(selector);
          return element ? [element.getAttribute('aria-label'), element.getAttribute('title')] : ['(missing)'];
        };
        const scale = root.querySelector('.pinmap-scale')?.textContent ?? '';
        const closeButton = view === 'vector' ? '.maplibregl-popup-close-button' : '.pinmap-popup-close';
        return {
          'Pinmap.Region': [root.getAttribute('aria-label')],
          'NavigationControl.ZoomIn': attributes('.pinmap-zoom-in'),
          'NavigationControl.ZoomOut': attributes('.pinmap-zoom-out'),
          [view === 'vector' ? 'NavigationControl.ResetBearing' : 'NavigationControl.RotationUnavailable']: attributes('.pinmap-compass'),
          'GeolocateControl.FindMyLocation': attributes('.pinmap-geolocate button'),
          'FullscreenControl.Enter': attributes('.pinmap-fullscreen button'),
          'AttributionControl.ToggleAttribution': attributes('.pinmap-attrib-button'),
          'ScaleControl.ChangeUnits': [root.querySelector('.pinmap-scale')?.getAttribute('title') ?? '(missing)'],
          'ScaleControl.Meters': [scale.slice(scale.indexOf('\u00a0') + 1)],
          'ViewControl.Label': [root.querySelector('.pinmap-view-switch')?.getAttribute('aria-label') ?? '(missing)'],
          'ViewControl.Vector': [root.querySelector('.pinmap-view-button[data-view="vector"]')?.textContent ?? '(missing)'],
          'ViewControl.Hybrid': [root.querySelector('.pinmap-view-button[data-view="hybrid"]')?.textContent ?? '(missing)'],
          'Popup.Close': view === 'vector' ? [root.querySelector(closeButton)?.getAttribute('aria-label') ?? '(missing)'] : attributes(closeButton),
          'PinLayer.Cluster': attributes('.pinmap-cluster'),
          'PinLayer.Dismiss': attributes('.pinmap-notice-dismiss'),
        } as Record<string, (string | null)[]>;
      }, view);
      for (const [key, values] of Object.entries(seen)) {
        const s = given.get(key as LocaleKey)!;
        const expected = key === 'PinLayer.Cluster' ? s.replace('{count}', '2') : s;
        checked++;
        if (values.some((value) => value !== expected)) problems.push(`${view} ${key} = ${JSON.stringify(s)} shows ${JSON.stringify(values)}`);
      }
    }
    await page.evaluate(() => (window as unknown as EmbedWindow).handle?.destroy());
    await expectNothingRan(page, guard);
    expect(problems.slice(0, 30), `${problems.length} problems`).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(strings.length);
    console.log(`hostile strings as locale text: ${strings.length} strings over ${mounts} maps (both views), ${checked} texts, names and titles read back literally`);
  });

  test('attribution: every string as a raster layer’s credit (hybrid view) and a style source’s credit (vector view): text, and http(s) links only', async ({ mapPage: page }) => {
    test.setTimeout(240_000);
    const guard = await guardPage(page);
    await openEmbedPage(page);
    /**
     * Two credits per string: the string as it is, and as a link's target and text. Each starts
     * with its own mark, so none is dropped as part of a longer one and each is found again.
     */
    const credits = (i: number, s: string) => [
      { mark: `a${i}`, text: `⟦a${i}⟧ ${s}` },
      { mark: `b${i}`, text: `⟦b${i}⟧ <a href="${s}">${s}</a>` },
    ];
    const perMap = 60;
    let maps = 0;
    let shown = 0;
    let links = 0;
    const problems: string[] = [];
    for (const view of ['hybrid', 'vector'] as const) {
      for (let first = 0; first < UNIQUE.length; first += perMap) {
        const chunk = UNIQUE.slice(first, first + perMap).map((s, j) => ({ i: first + j, s }));
        // The hybrid maps' 120 raster layers are transparent: only their credits are checked, and
        // Chromium then composites none of their tiles (a layer is credited wherever its zoom shows it).
        const config =
          view === 'hybrid'
            ? { view, style: PLAIN_STYLE, zoom: 1, rasterLayers: chunk.flatMap(({ i, s }) => credits(i, s).map((c) => ({ url: '/raster/hatch/{z}/{x}/{y}.png', maxTileZoom: 5, opacity: 0, attribution: c.text }))) }
            : {
                view,
                zoom: 1,
                style: {
                  ...PLAIN_STYLE,
                  sources: Object.fromEntries(
                    chunk.flatMap(({ i, s }) => credits(i, s).map((c) => [c.mark, { type: 'geojson', data: { type: 'FeatureCollection', features: [] }, attribution: c.text }])),
                  ),
                  layers: [...PLAIN_STYLE.layers, ...chunk.flatMap(({ i, s }) => credits(i, s).map((c) => ({ id: c.mark, type: 'circle', source: c.mark })))],
                },
              };
        const result = await mount(page, config);
        maps++;
        expect(result, `${view} map ${maps}`).toEqual({ status: 'idle' });
        const spans = await page.locator('#map .pinmap-attrib-text > span').evaluateAll((elements) =>
          elements.map((span) => ({
            text: (span.textContent ?? '').replace(/^ \| /, ''),
            elements: [...span.querySelectorAll('*')].map((e) => e.tagName.toLowerCase()),
            links: [...span.querySelectorAll('a')].map((a) => ({ href: a.getAttribute('href') ?? '', text: a.textContent ?? '' })),
          })),
        );
        const byMark = new Map(spans.map((span) => [/^⟦(\w+)⟧ /.exec(span.text)?.[1], span]));
        if (spans.length !== chunk.length * 2) problems.push(`${view} map ${maps}: ${spans.length} credits shown for ${chunk.length * 2}`);
        for (const { i, s } of chunk) {
          for (const [n, c] of credits(i, s).entries()) {
            const span = byMark.get(c.mark);
            const label = `${view} ${JSON.stringify(c.text)}`;
            if (!span) {
              problems.push(`${label}: not shown`);
              continue;
            }
            shown++;
            const parts = attributionParts(c.text);
            const expected = parts.map((part) => part.text).join('');
            // Without markup or character references, a credit is its text, literally.
            if (n === 0 && !/[<&]/.test(s) && expected !== c.text) problems.push(`${label}: the credit reads ${JSON.stringify(expected)}`);
            if (span.text !== expected) problems.push(`${label}: shows ${JSON.stringify(span.text)}, not ${JSON.stringify(expected)}`);
            if (span.elements.some((tag) => tag !== 'a')) problems.push(`${label}: holds ${span.elements.join(', ')}`);
            const expectedLinks = parts.flatMap((part) => (part.href ? [{ href: part.href, text: part.text }] : []));
            if (JSON.stringify(span.links) !== JSON.stringify(expectedLinks)) problems.push(`${label}: links ${JSON.stringify(span.links)}`);
            for (const link of span.links) if (!/^https?:$/.test(new URL(link.href).protocol)) problems.push(`${label}: a link to ${link.href}`);
            links += span.links.length;
          }
        }
      }
    }
    await page.evaluate(() => (window as unknown as EmbedWindow).handle?.destroy());
    await expectNothingRan(page, guard);
    expect(problems.slice(0, 30), `${problems.length} problems`).toEqual([]);
    console.log(`hostile strings as attribution: ${UNIQUE.length} strings, each as text and as a link, in each view: ${shown} credits over ${maps} maps shown as text, ${links} http(s) links, no markup`);
  });

  test('the error panel: every string as an unknown option, an unknown locale key and a pin style category is named literally', async ({ mapPage: page }) => {
    test.setTimeout(120_000);
    const guard = await guardPage(page);
    // Keys as JSON.parse makes them: "__proto__" is a plain key like any other.
    const config = {
      ...Object.fromEntries(UNIQUE.map((s) => [s, 1])),
      locale: Object.fromEntries(UNIQUE.map((s) => [s, 'text'])),
      pinStyles: Object.fromEntries(UNIQUE.map((s) => [s, { markerColor: 'not a colour' }])),
    };
    const json = JSON.stringify(config);
    const expected = safeParseConfig(JSON.parse(json));
    if (expected.ok) throw new Error('the config was meant to be refused');
    const problems = expected.error.problems;
    // Each string is named: as an option (an empty key is the config's own), a locale key and a category.
    for (const s of UNIQUE) {
      const named = new Set(problems.map((p) => p.option));
      expect(named, JSON.stringify(s)).toContain(s === '' ? 'config' : s);
      expect(named, JSON.stringify(s)).toContain(`locale.${s}`);
      expect(named, JSON.stringify(s)).toContain(s === '__proto__' ? 'pinStyles.__proto__' : `pinStyles.${s}.markerColor`);
    }
    const read = (root: string) =>
      page.locator(`${root} .pinmap-error-problems li`).evaluateAll((items) => items.map((li) => ({ option: li.querySelector('code')?.textContent, text: li.textContent, elements: li.querySelectorAll('*').length })));
    const wanted = problems.map((p) => ({ option: p.option, text: `${p.option} ${p.message}`, elements: 1 }));

    await serveJson(page, '/__hostile/keys.json', json);
    await page.goto('/?config=/__hostile/keys.json');
    await waitForMapState(page, 'error');
    await expect(page.getByRole('alert')).toContainText("This map's configuration has errors");
    expect(await read('.pinmap')).toEqual(wanted);

    await openEmbedPage(page);
    const result = await mount(page, JSON.parse(json));
    expect(result.status).toBe('error');
    expect(result.error).toBe(expected.error.message);
    expect(await read('#map')).toEqual(wanted);
    await expectNothingRan(page, guard);
    console.log(`hostile strings in the error panel: ${UNIQUE.length} strings as keys in 3 places, ${problems.length} problems shown literally, through ?config= and createPinmap`);
  });

  test('pin style categories: every string as a category name, with its label (up to 3 characters) or its glyph classes, in config and on pins', async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1400, height: 1100 });
    const guard = await guardPage(page);
    // "__proto__" cannot be a category of config (the error panel test has it).
    const categories = UNIQUE.filter((s) => s !== '__proto__');
    const colour = (i: number) => `#${((i * 2654435) % 0xffffff).toString(16).padStart(6, '0')}`;
    const isLabel = (s: string) => [...s].length >= 1 && [...s].length <= 3;
    await serveJson(page, '/__hostile/categories.json', {
      style: PLAIN_STYLE,
      center: [0, 1],
      zoom: 4,
      domPinLimit: 2000,
      fadeDuration: 0,
      pinStyles: Object.fromEntries(categories.map((s, i) => [s, isLabel(s) ? { markerColor: colour(i), label: s } : { markerColor: colour(i), iconClasses: s }])),
      pins: {
        type: 'FeatureCollection',
        features: categories.map((s, i) => ({ type: 'Feature', id: `c${i}`, geometry: { type: 'Point', coordinates: gridPoint(i) }, properties: { title: `Category ${i}`, category: s } })),
      },
    });
    await page.goto('/?config=/__hostile/categories.json');
    await waitForMapState(page, 'idle', 60_000);
    await expect(page.locator('.pinmap-pin')).toHaveCount(categories.length);
    const pins = await page.locator('.pinmap-pin').evaluateAll((elements) =>
      elements.map((pin) => ({
        id: (pin as HTMLElement).dataset.pinId ?? '',
        fills: [...pin.querySelectorAll('svg [fill]')].map((e) => e.getAttribute('fill')),
        label: pin.querySelector('.pinmap-pin-label')?.textContent ?? null,
        glyph: pin.querySelector('i')?.getAttribute('class') ?? null,
        elements: [...pin.querySelectorAll('*')].map((e) => e.tagName.toLowerCase()),
      })),
    );
    const problems: string[] = [];
    let labels = 0;
    for (const pin of pins) {
      const i = Number(pin.id.slice(1));
      const s = categories[i]!;
      const label = `${pin.id} ${JSON.stringify(s)}`;
      if (!pin.fills.includes(colour(i))) problems.push(`${label}: not in its category's colour (${JSON.stringify(pin.fills)})`);
      if (isLabel(s)) {
        labels++;
        if (pin.label !== s) problems.push(`${label}: label ${JSON.stringify(pin.label)}`);
      } else if (pin.label !== null || (pin.glyph !== null && pin.glyph !== s)) {
        // A glyph whose classes show nothing is dropped (with a warning): the pin stays plain.
        problems.push(`${label}: label ${JSON.stringify(pin.label)}, glyph classes ${JSON.stringify(pin.glyph)}`);
      }
      const foreign = pin.elements.filter((tag) => !['div', 'svg', 'path', 'g', 'defs', 'filter', 'fegaussianblur', 'feoffset', 'feflood', 'fecomposite', 'femerge', 'femergenode', 'ellipse', 'circle', 'span', 'i'].includes(tag));
      if (foreign.length > 0) problems.push(`${label}: holds ${foreign.join(', ')}`);
    }
    await expectNothingRan(page, guard);
    expect(problems.slice(0, 30), `${problems.length} problems`).toEqual([]);
    console.log(`hostile strings as pin style categories: ${categories.length} categories on ${pins.length} pins, each in its own colour; ${labels} as labels shown literally, ${categories.length - labels} as glyph classes`);
  });

  test('hybrid vector layer: blank, Unicode-space, object-key and markup strings as its class names and pane name', async ({ mapPage: page }) => {
    test.setTimeout(180_000);
    const guard = await guardPage(page);
    await openEmbedPage(page);
    // What class lists and Leaflet's pane registry treat specially: blanks and Unicode spaces
    // (Leaflet splits classes on them), names plain objects already have, and some markup.
    const special = UNIQUE.filter((s) => /^\s*$|[\u00a0\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/.test(s) || OBJECT_KEYS.includes(s) || TRAPS.slice(0, 4).includes(s));
    const problems: string[] = [];
    for (const s of special) {
      const result = await mount(page, { view: 'hybrid', style: PLAIN_STYLE, zoom: 1, vectorLayer: { className: s, ...(s === '' ? {} : { pane: s }) } });
      const label = JSON.stringify(s);
      if (s === '__proto__') {
        if (result.status !== 'error' || !result.error?.includes('vectorLayer.pane: must be a Leaflet pane name, not "__proto__"')) problems.push(`${label}: ${JSON.stringify(result)}`);
        continue;
      }
      if (result.status !== 'idle') {
        problems.push(`${label}: ${JSON.stringify(result)}`);
        continue;
      }
      const layer = await page.evaluate(() => {
        const canvas = document.querySelector<HTMLElement>('#map .pinmap-vector-layer canvas');
        return {
          classes: canvas ? [...canvas.classList] : null,
          pane: canvas?.closest('.pinmap-vector-layer')?.parentElement?.className ?? null,
          notices: [...document.querySelectorAll('#map .pinmap-notice')].map((n) => n.textContent),
        };
      });
      const words = s.trim().split(/\s+/).filter(Boolean);
      if (!layer.classes || words.some((word) => !layer.classes!.includes(word))) problems.push(`${label}: canvas classes ${JSON.stringify(layer.classes)}`);
      if (!layer.pane?.split(' ').includes('leaflet-pane')) problems.push(`${label}: the layer is in ${JSON.stringify(layer.pane)}`);
      if (layer.notices.length > 0) problems.push(`${label}: ${JSON.stringify(layer.notices)}`);
    }
    await page.evaluate(() => (window as unknown as EmbedWindow).handle?.destroy());
    await expectNothingRan(page, guard);
    expect(problems, `${problems.length} problems`).toEqual([]);
    console.log(`hostile strings as the vector layer's className and pane: ${special.length} maps (${JSON.stringify(special)})`);
  });
});
