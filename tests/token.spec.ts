import { expect, test, type Page, type Request, type Route } from './test.ts';
import { basemapTile } from './basemap-tiles.ts';
import { serveJson, waitForMapState } from './helpers.ts';

/**
 * Answers a provider's `/tiles/{z}/{x}/{y}.pbf` with the embedded basemap's tile (out of its
 * archive), anything else from the app's basemap folder; readable from any origin.
 */
async function fulfillTile(route: Route, path: string, baseURL: string): Promise<void> {
  const cors = { 'access-control-allow-origin': '*' };
  const tile = await basemapTile(path);
  if (tile) return route.fulfill({ headers: { ...cors, 'content-type': 'application/x-protobuf' }, body: tile });
  const response = await route.fetch({ url: `${baseURL}/basemap${path}` });
  return route.fulfill({ response, headers: { ...response.headers(), ...cors } });
}

/**
 * The access token goes to the maps provider's origin only. The provider here is
 * https://tiles.provider.test, another origin than the app's (and an https one, as the app's
 * Content Security Policy asks of providers), answered by the test: its style is made up, its
 * tiles are the embedded basemap's, fetched from the app's own server.
 */
for (const view of ['vector', 'hybrid'] as const) {
  for (const carrier of ['query', 'header'] as const) {
    test(`${view} view, token as ${carrier === 'query' ? 'the access_token parameter' : 'a header'}: it reaches only the provider origin, and never the address, the console or the page`, async ({ mapPage: page, baseURL }) => {
      const token = 'pk.Test+Token/42=';
      const provider = 'https://tiles.provider.test';
      await page.route(
        (url) => url.origin === provider,
        async (route) => {
          const url = new URL(route.request().url());
          const cors = { 'access-control-allow-origin': '*' };
          if (url.pathname === '/__provider/style.json') {
            return route.fulfill({
              headers: cors,
              json: {
                version: 8,
                sources: { basemap: { type: 'vector', tiles: [`${provider}/basemap/tiles/{z}/{x}/{y}.pbf`], maxzoom: 6 } },
                // Fonts from another origin (the app's): MapLibre fetches them, without the token.
                'font-faces': { 'Noto Sans Regular': [{ url: `${baseURL}/basemap/fonts/noto-sans-latin-400-normal.woff2` }] },
                layers: [
                  { id: 'water', type: 'background', paint: { 'background-color': '#cfe3f0' } },
                  { id: 'land', type: 'fill', source: 'basemap', 'source-layer': 'land', paint: { 'fill-color': '#f4f1e8' } },
                  { id: 'names', type: 'symbol', source: 'basemap', 'source-layer': 'country_labels', layout: { 'text-field': ['get', 'name'], 'text-font': ['Noto Sans Regular'] } },
                ],
              },
            });
          }
          const tile = await basemapTile(url.pathname);
          if (tile) return route.fulfill({ headers: { ...cors, 'content-type': 'application/x-protobuf' }, body: tile });
          const response = await route.fetch({ url: `${baseURL}${url.pathname}` });
          return route.fulfill({ response, headers: { ...response.headers(), ...cors } });
        },
      );
      const header = carrier === 'header' ? 'X-Api-Key' : undefined;
      await serveJson(page, '/__test/token.json', {
        style: `${provider}/__provider/style.json`,
        accessToken: token,
        ...(header ? { accessTokenHeader: header } : {}),
        view,
        center: [10, 50],
        zoom: 3,
        // A raster layer on another origin, and pins with a link: none of it may carry the token.
        // The hybrid view also shows one of the provider's, which does, in no attribute of the page.
        rasterLayers: [
          { url: `${baseURL}/raster/hatch/{z}/{x}/{y}.png`, maxTileZoom: 5 },
          ...(view === 'hybrid' ? [{ url: `${provider}/raster/hatch/{z}/{x}/{y}.png`, maxTileZoom: 5 }] : []),
        ],
        pins: { type: 'FeatureCollection', features: [{ type: 'Feature', id: 'p', geometry: { type: 'Point', coordinates: [10, 50] }, properties: { title: 'P', url: 'https://example.org/' } }] },
      });
      const requests: string[] = [];
      const headers = new Map<string, Record<string, string>>();
      const messages: string[] = [];
      page.on('request', (request) => {
        requests.push(request.url());
        headers.set(request.url(), request.headers());
      });
      page.on('console', (message) => messages.push(message.text()));

      await page.goto('/?config=/__test/token.json');
      await waitForMapState(page, 'idle');
      await page.mouse.move(400, 300);
      await page.mouse.down();
      await page.mouse.move(200, 250, { steps: 5 });
      await page.mouse.up();
      await waitForMapState(page, 'idle');

      // Open the pin's popup too: its link is another origin.
      await page.locator('.pinmap-pin[data-pin-id="p"]').click();
      await expect(page.locator('.pinmap-popup a')).toHaveAttribute('href', 'https://example.org/');
      expect(await page.locator('.pinmap-popup a').getAttribute('href')).not.toContain('access_token');

      const toProvider = requests.filter((u) => new URL(u).origin === provider);
      const elsewhere = requests.filter((u) => new URL(u).origin !== provider);
      expect(toProvider.some((u) => u.includes('/__provider/style.json'))).toBe(true);
      expect(toProvider.filter((u) => u.includes('/basemap/tiles/')).length).toBeGreaterThan(3);
      const carries = (url: string) => (header ? headers.get(url)?.[header.toLowerCase()] : new URL(url).searchParams.get('access_token'));
      for (const url of toProvider) expect(carries(url), url).toBe(token);
      if (header) for (const url of toProvider) expect(url).not.toContain('access_token');
      expect(elsewhere.some((u) => u.endsWith('/basemap/fonts/noto-sans-latin-400-normal.woff2'))).toBe(true);
      if (view === 'hybrid') {
        expect(elsewhere.some((u) => /\/raster\/hatch\/\d+\/\d+\/\d+\.png$/.test(u))).toBe(true);
        expect(toProvider.filter((u) => u.includes('/raster/hatch/')).length).toBeGreaterThan(0);
        // The provider's raster tiles show, from data: URLs: their images carry the token nowhere.
        const images = page.locator(`.pinmap-raster-layer img[data-pinmap-tile^="${provider}/raster/"]`);
        await expect(images.first()).toHaveAttribute('src', /^data:image\//);
        for (const attributes of await images.evaluateAll((found) => found.flatMap((image) => image.getAttributeNames().map((name) => image.getAttribute(name) ?? '')))) {
          expect(attributes).not.toContain('access_token');
        }
      }
      for (const url of elsewhere) {
        if (url.includes('/__test/token.json')) continue; // the config file itself, which the site owner wrote
        expect(url, 'a request to another origin').not.toContain('access_token');
        expect(url).not.toContain(encodeURIComponent(token));
        expect(Object.values(headers.get(url) ?? {}).some((v) => v.includes(token)), `headers of ${url}`).toBe(false);
      }
      expect(page.url()).not.toContain(encodeURIComponent(token));
      expect(page.url()).not.toContain('access_token');
      expect(messages.filter((m) => m.includes(token) || m.includes(encodeURIComponent(token)))).toEqual([]);
      const content = await page.content();
      for (const form of [token, encodeURIComponent(token), 'access_token']) expect(content).not.toContain(form);
    });
  }
}

/**
 * One whole session with a token: load, pan, zoom, switch views (vector → hybrid → vector with
 * the view switch), open popups in both views and follow a popup's link to another site. Every
 * request of every page of the session goes through one route, which checks it; the address,
 * the console, the page (and its storage) are checked after every step.
 */
for (const carrier of ['query', 'header'] as const) {
  test(`a whole session, both views, token as ${carrier === 'query' ? 'the access_token parameter' : 'an Authorization header'}: every request is checked, only the provider gets the token, and it never shows in the address, the console or the page`, async ({ page, context, baseURL }) => {
    test.setTimeout(180_000);
    const token = 'pk.Session+Token/7=';
    /** Every way the token can be written in a URL, a header or a text. */
    const forms = [token, encodeURIComponent(token), new URLSearchParams({ t: token }).toString().slice(2)];
    const holdsToken = (text: string) => forms.some((form) => text.includes(form));
    const provider = 'https://tiles.provider.example';
    const elsewhere = 'https://elsewhere.example';
    /** Another maps host the provider's style draws on: MapLibre's requests there must not carry the token. */
    const cdn = 'https://cdn.other.example';

    const config = {
      style: `${provider}/style.json`,
      accessToken: token,
      ...(carrier === 'header' ? { accessTokenHeader: 'Authorization' } : {}),
      center: [10, 50],
      zoom: 3,
      fadeDuration: 0,
      rasterLayers: [{ url: `${baseURL}/raster/hatch/{z}/{x}/{y}.png`, maxTileZoom: 5, attribution: 'Hatching' }],
      pins: {
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', id: 'p', geometry: { type: 'Point', coordinates: [10, 50] }, properties: { title: 'P', description: 'Links to another site', url: `${elsewhere}/pages/p?from=pinmap` } },
          { type: 'Feature', id: 'q', geometry: { type: 'Point', coordinates: [18, 46] }, properties: { title: 'Q', url: 'https://example.org/q' } },
        ],
      },
    };

    let failedTile: string | undefined;
    const checked: { url: string; origin: string; carries: boolean; problem?: string }[] = [];
    const routed = new Set<object>();
    await context.route('**/*', async (route) => {
      const request = route.request();
      routed.add(request);
      const url = new URL(request.url());
      const headers = await request.allHeaders();
      const carried = carrier === 'query' ? url.searchParams.get('access_token') === token : headers.authorization === `Bearer ${token}` && !url.searchParams.has('access_token');
      const elsewhereInRequest = holdsToken(decodeURIComponent(request.url())) || holdsToken(request.url()) || Object.values(headers).some(holdsToken) || holdsToken(request.postData() ?? '');
      if (url.origin === provider) {
        checked.push({ url: request.url(), origin: url.origin, carries: carried, ...(carried ? {} : { problem: 'a request to the provider without the token' }) });
        if (url.pathname === '/style.json') {
          return route.fulfill({
            headers: { 'access-control-allow-origin': '*' },
            json: {
              version: 8,
              sources: {
                basemap: { type: 'vector', tiles: [`${provider}/tiles/{z}/{x}/{y}.pbf`], maxzoom: 6, attribution: '<a href="https://provider.example/credits">© Provider</a>' },
                borders: { type: 'vector', tiles: [`${cdn}/tiles/{z}/{x}/{y}.pbf`], maxzoom: 6 },
              },
              'font-faces': { 'Noto Sans Regular': [{ url: `${baseURL}/basemap/fonts/noto-sans-latin-400-normal.woff2` }] },
              layers: [
                { id: 'water', type: 'background', paint: { 'background-color': '#cfe3f0' } },
                { id: 'land', type: 'fill', source: 'basemap', 'source-layer': 'land', paint: { 'fill-color': '#f4f1e8' } },
                { id: 'borders', type: 'line', source: 'borders', 'source-layer': 'boundaries', paint: { 'line-color': '#9a8c98' } },
                { id: 'names', type: 'symbol', source: 'basemap', 'source-layer': 'country_labels', layout: { 'text-field': ['get', 'name'], 'text-font': ['Noto Sans Regular'] } },
              ],
            },
          });
        }
        // The provider's tiles are the embedded basemap's, from the app's own server; the first
        // one fails, so the console has a message with its URL (which must not show the token).
        if (failedTile === undefined) {
          failedTile = url.pathname;
          return route.fulfill({ status: 500, headers: { 'access-control-allow-origin': '*' }, body: 'try again' });
        }
        return fulfillTile(route, url.pathname, baseURL!);
      }
      checked.push({ url: request.url(), origin: url.origin, carries: elsewhereInRequest, ...(elsewhereInRequest ? { problem: 'the token went to another origin' } : {}) });
      if (url.origin === elsewhere) return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Elsewhere</title><p>Another site</p>' });
      if (url.origin === cdn) return fulfillTile(route, url.pathname, baseURL!);
      if (url.pathname === '/__test/session.json') return route.fulfill({ json: config });
      return route.continue();
    });
    const seen: Request[] = [];
    context.on('request', (request) => {
      if (/^https?:/.test(request.url())) seen.push(request);
    });
    // Every address any page of the session had, moves of the camera and open pins included.
    const addresses: string[] = [];
    const watchAddress = (p: Page) => p.on('framenavigated', (frame) => addresses.push(frame.url()));
    watchAddress(page);
    context.on('page', watchAddress);
    const messages: string[] = [];
    context.on('console', (message) => messages.push(message.text()));
    context.on('weberror', (error) => messages.push(error.error().message));

    const steps: string[] = [];
    /** After each step: the address, the page's markup and storage, and the console so far hold no token. */
    const check = async (step: string) => {
      steps.push(step);
      for (const p of context.pages()) {
        expect(holdsToken(p.url()) || holdsToken(decodeURIComponent(p.url())), `${step}: the address ${p.url()}`).toBe(false);
        expect(holdsToken(await p.content()), `${step}: the page's markup`).toBe(false);
        const storage = await p.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie, document.title]));
        expect(holdsToken(storage), `${step}: storage`).toBe(false);
      }
      expect(messages.filter(holdsToken), `${step}: the console`).toEqual([]);
    };
    const map = page.locator('.pinmap-map');
    const drag = async (dx: number, dy: number) => {
      const box = (await map.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + dx, box.y + box.height / 2 + dy, { steps: 6 });
      await page.mouse.up();
      await waitForMapState(page, 'idle');
    };
    const openPin = async (id: string) => {
      // A popup that is open may cover the next pin: its close button closes it first.
      if ((await page.locator('.pinmap-popup').count()) > 0) {
        await page.locator('.pinmap-popup').getByRole('button', { name: 'Close popup' }).click();
        await expect(page.locator('.pinmap-popup')).toHaveCount(0);
      }
      const pin = page.locator(`.pinmap-pin[data-pin-id="${id}"]`);
      if ((await pin.count()) === 0) {
        // Zoomed out so far that the pins share a bubble: a click on it zooms to where they part.
        await page.locator('.pinmap-cluster').click();
        await expect(pin).toHaveCount(1);
        await waitForMapState(page, 'idle');
      }
      await pin.click();
      await expect(page.locator(`.pinmap-popup[data-pin-id="${id}"]`)).toBeVisible();
      await waitForMapState(page, 'idle');
    };
    const switchTo = async (view: 'hybrid' | 'vector') => {
      await page.getByRole('group', { name: 'Map view' }).getByRole('button', { name: view === 'hybrid' ? 'Hybrid' : 'Map' }).click();
      await expect(page.locator('.pinmap')).toHaveAttribute('data-view', view);
      await waitForMapState(page, 'idle');
    };

    await page.goto('/?config=/__test/session.json');
    await waitForMapState(page, 'idle');
    await check('vector: loaded');
    await drag(-120, 60);
    await check('vector: panned');
    await page.mouse.wheel(0, -240);
    await waitForMapState(page, 'idle');
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await waitForMapState(page, 'idle');
    await check('vector: zoomed');
    await openPin('q');
    await openPin('p');
    await check('vector: popups opened');

    await switchTo('hybrid');
    await expect(page.locator('.pinmap-popup[data-pin-id="p"]')).toBeVisible(); // the open popup comes along
    await check('hybrid: switched');
    await drag(80, -40);
    await check('hybrid: panned');
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await waitForMapState(page, 'idle');
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await waitForMapState(page, 'idle');
    await check('hybrid: zoomed');
    await openPin('q');
    await openPin('p');
    await check('hybrid: popups opened');

    await switchTo('vector');
    await check('vector again: switched');
    await drag(60, 30);
    await check('vector again: panned');

    // Following the popup's link opens the other site in a new page, whose request is checked too.
    const link = page.locator('.pinmap-popup[data-pin-id="p"] a');
    await expect(link).toHaveAttribute('href', `${elsewhere}/pages/p?from=pinmap`);
    const [other] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await other.waitForLoadState();
    expect(other.url()).toBe(`${elsewhere}/pages/p?from=pinmap`);
    await check('followed the link');
    await other.close();

    expect(addresses.filter((address) => holdsToken(address) || holdsToken(decodeURIComponent(address))), 'addresses').toEqual([]);
    expect(addresses.some((address) => address.includes('view=hybrid'))).toBe(true);
    const about = messages.filter((m) => failedTile !== undefined && m.includes(failedTile));
    expect(about.length, `a console message about the tile that failed (${failedTile})`).toBeGreaterThan(0);
    const problems = checked.filter((c) => c.problem);
    const toProvider = checked.filter((c) => c.origin === provider);
    const elsewhereChecked = checked.filter((c) => c.origin !== provider);
    expect(problems, 'requests that broke the rule').toEqual([]);
    // What the browser took from its memory cache (an image shown again) never left it; its URL was checked when it did.
    const unrouted = seen.filter((request) => !routed.has(request));
    const routedUrls = new Set(checked.map((c) => c.url));
    // A tile the map cancelled (out of view again) before the route took it never left the browser either.
    const cancelled = (request: Request) => request.failure()?.errorText === 'net::ERR_ABORTED';
    const pastTheRoute = unrouted.filter((request) => !cancelled(request)).map((request) => request.url());
    expect(pastTheRoute.filter((url) => !routedUrls.has(url)), 'requests that went past the route').toEqual([]);
    expect(toProvider.some((c) => c.url.includes('/style.json'))).toBe(true);
    expect(toProvider.filter((c) => c.url.includes('/tiles/')).length).toBeGreaterThan(10);
    expect(elsewhereChecked.some((c) => c.origin === elsewhere)).toBe(true);
    expect(elsewhereChecked.filter((c) => c.origin === cdn).length).toBeGreaterThan(3);
    expect(elsewhereChecked.some((c) => /\/raster\/hatch\//.test(c.url))).toBe(true);
    const origins = [...new Set(checked.map((c) => c.origin))];
    console.log(
      `token session (${carrier}): ${steps.length} steps (${steps.join(', ')}); ${checked.length} requests intercepted and checked, ` +
        `${toProvider.length} to the provider (${toProvider.filter((c) => c.carries).length} carrying the token), ${elsewhereChecked.length} to ${origins.length - 1} other origins (none carrying it); ` +
        `${unrouted.length} more served from the browser's memory cache (URLs checked when first fetched); ` +
        `${addresses.length} addresses seen; markup and storage of every page checked ${steps.length} times; console messages checked: ${messages.length} (${about.length} about a failed provider tile: ${JSON.stringify(about[0])})`,
    );
  });
}
