import { expect, test } from '@playwright/test';
import { serveJson, waitForMapState } from './helpers.ts';

/**
 * The access token goes to the maps provider's origin only. The provider here is
 * http://localhost:4173, another origin than the app's http://127.0.0.1:4173: its style is made
 * up by the test, its tiles are the embedded basemap's, fetched from the app's own server.
 */
test('the access token reaches only the provider origin, and never the address, the console or the page', async ({ page, baseURL }) => {
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
  await serveJson(page, '/__test/token.json', { style: `${provider}/__provider/style.json`, accessToken: token, center: [10, 50], zoom: 3 });
  const requests: string[] = [];
  const messages: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => messages.push(message.text()));

  await page.goto('/?config=/__test/token.json');
  await waitForMapState(page, 'idle');
  await page.mouse.move(400, 300);
  await page.mouse.down();
  await page.mouse.move(200, 250, { steps: 5 });
  await page.mouse.up();
  await waitForMapState(page, 'idle');

  const toProvider = requests.filter((u) => new URL(u).origin === provider);
  const elsewhere = requests.filter((u) => new URL(u).origin !== provider);
  expect(toProvider.some((u) => u.includes('/__provider/style.json'))).toBe(true);
  expect(toProvider.filter((u) => u.includes('/basemap/tiles/')).length).toBeGreaterThan(3);
  for (const url of toProvider) expect(new URL(url).searchParams.get('access_token'), url).toBe(token);
  expect(elsewhere.some((u) => u.endsWith('/basemap/fonts/noto-sans-latin-400-normal.woff2'))).toBe(true);
  for (const url of elsewhere) {
    if (url.includes('/__test/token.json')) continue; // the config file itself, which the site owner wrote
    expect(url, 'a request to another origin').not.toContain('access_token');
    expect(url).not.toContain(encodeURIComponent(token));
  }
  expect(page.url()).not.toContain(encodeURIComponent(token));
  expect(page.url()).not.toContain('access_token');
  expect(messages.filter((m) => m.includes(token) || m.includes(encodeURIComponent(token)))).toEqual([]);
  expect(await page.content()).not.toContain(token);
});
