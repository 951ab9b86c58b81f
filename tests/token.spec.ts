import { expect, test } from '@playwright/test';
import { serveJson, waitForMapState } from './helpers.ts';

/**
 * The access token goes to the maps provider's origin only. The provider here is
 * http://localhost:4173, another origin than the app's http://127.0.0.1:4173: its style is made
 * up by the test, its tiles are the embedded basemap's, fetched from the app's own server.
 */
for (const view of ['vector', 'hybrid'] as const) {
  for (const carrier of ['query', 'header'] as const) {
    test(`${view} view, token as ${carrier === 'query' ? 'the access_token parameter' : 'a header'}: it reaches only the provider origin, and never the address, the console or the page`, async ({ page, baseURL }) => {
      const token = 'pk.Test+Token/42=';
      const provider = 'http://localhost:4173';
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
        rasterLayers: [{ url: `${baseURL}/raster/hatch/{z}/{x}/{y}.png`, maxTileZoom: 5 }],
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
      if (view === 'hybrid') expect(elsewhere.some((u) => /\/raster\/hatch\/\d+\/\d+\/\d+\.png$/.test(u))).toBe(true);
      for (const url of elsewhere) {
        if (url.includes('/__test/token.json')) continue; // the config file itself, which the site owner wrote
        expect(url, 'a request to another origin').not.toContain('access_token');
        expect(url).not.toContain(encodeURIComponent(token));
        expect(Object.values(headers.get(url) ?? {}).some((v) => v.includes(token)), `headers of ${url}`).toBe(false);
      }
      expect(page.url()).not.toContain(encodeURIComponent(token));
      expect(page.url()).not.toContain('access_token');
      expect(messages.filter((m) => m.includes(token) || m.includes(encodeURIComponent(token)))).toEqual([]);
      expect(await page.content()).not.toContain(token);
    });
  }
}
