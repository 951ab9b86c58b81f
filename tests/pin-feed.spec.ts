import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve } from '../src/cli/serve.ts';
import { serveJson, waitForMapState } from './helpers.ts';
import { expect, test, type Page } from './test.ts';

/**
 * Pins fed while the map is open (README, "Pins that move", "A feed"): a pin stream
 * (`pinsStream`), a pin file read again (`pinsRefresh`) and `pinmap serve --watch`, in the app on
 * the plain backdrop. The pins change by id: the camera and the open popup stay.
 */

test.use({ viewport: { width: 480, height: 360 }, reducedMotion: 'reduce' });

const CONFIG = { center: [5, 46], zoom: 6, fitPins: false, controls: { attribution: false, fullscreen: false, geolocate: false } };
const pin = (page: Page, id: string) => page.locator(`.pinmap-pin[data-pin-id="${id}"]`);
const popup = (page: Page) => page.locator('.pinmap-popup');
const notice = (page: Page) => page.locator('.pinmap-notice-text');
const csv = (rows: [id: string, lng: number, lat: number][]) => `id,title,lng,lat\n${rows.map(([id, lng, lat]) => `${id},Bus ${id},${lng},${lat}`).join('\n')}\n`;
const feature = (id: string, lng: number, lat: number) => ({ type: 'Feature', id, geometry: { type: 'Point', coordinates: [lng, lat] }, properties: { title: `Bus ${id}` } });
const xOf = async (page: Page, id: string) => (await pin(page, id).boundingBox())!.x;

test('a pin stream adds, moves and removes pins by id, names a malformed event, and after a drop reads on from the last event id', async ({ mapPage: page }) => {
  await page.route((url) => url.pathname === '/__feed/buses.csv', (route) => route.fulfill({ contentType: 'text/csv', body: csv([['a', 4, 46], ['b', 6, 46]]) }));
  let open = () => {};
  const gate = new Promise<void>((done) => (open = done));
  const lastIds: (string | undefined)[] = [];
  const bodies = [
    'retry: 50\n\n' + `id: 1\ndata: ${JSON.stringify({ add: [feature('d', 5, 45)] })}\n\n` + 'id: 2\ndata: {"update": [\n\n' + `id: 3\ndata: ${JSON.stringify({ update: [feature('a', 4.5, 46)] })}\n\n`,
    // The next reconnection would be in an hour: the test is over by then.
    `id: 4\ndata: ${JSON.stringify({ remove: ['b'] })}\n\nretry: 3600000\n\n`,
  ];
  await page.route(
    (url) => url.pathname === '/__feed/stream',
    async (route) => {
      lastIds.push(route.request().headers()['last-event-id']);
      const body = bodies[lastIds.length - 1] ?? 'retry: 3600000\n\n';
      if (lastIds.length === 1) await gate;
      await route.fulfill({ contentType: 'text/event-stream', body });
    },
  );
  await serveJson(page, '/__feed/config.json', { ...CONFIG, controls: { ...CONFIG.controls, view: 'top-left' }, pins: '/__feed/buses.csv', pinsStream: '/__feed/stream' });
  await page.goto('/?config=/__feed/config.json');
  await waitForMapState(page, 'idle');
  await pin(page, 'a').click();
  await expect(popup(page)).toHaveAttribute('data-pin-id', 'a');
  const hash = await page.evaluate(() => location.hash);
  const before = await xOf(page, 'a');
  await expect(pin(page, 'd')).toHaveCount(0);

  open();
  await expect(pin(page, 'd')).toBeVisible();
  await expect(pin(page, 'b')).toHaveCount(0);
  await expect.poll(() => xOf(page, 'a')).toBeGreaterThan(before + 20);
  await expect(notice(page)).toContainText('sent a malformed event (event 2, id "2"): it is not JSON');
  expect(lastIds).toEqual([undefined, '3']);
  await expect(popup(page)).toHaveAttribute('data-pin-id', 'a');
  expect(await page.evaluate(() => location.hash)).toBe(hash);

  // The other view shows the pins as the stream left them, not as the file was first read.
  await page.getByRole('group', { name: 'Map view' }).getByRole('button', { name: 'Hybrid' }).click();
  await expect(page.locator('.pinmap')).toHaveAttribute('data-view', 'hybrid');
  await expect(pin(page, 'd')).toBeVisible();
  await expect(pin(page, 'b')).toHaveCount(0);
});

test('a pin stream that is not found is a notice naming it, and the pins stay', async ({ mapPage: page, baseURL }) => {
  await page.route((url) => url.pathname === '/__feed/buses.csv', (route) => route.fulfill({ contentType: 'text/csv', body: csv([['a', 4, 46]]) }));
  await page.route((url) => url.pathname === '/__feed/missing', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await serveJson(page, '/__feed/config.json', { ...CONFIG, pins: '/__feed/buses.csv', pinsStream: '/__feed/missing' });
  await page.goto('/?config=/__feed/config.json');
  await expect(notice(page)).toHaveText(`The pin stream ${baseURL}/__feed/missing could not be read: not found (HTTP 404)`);
  await expect(pin(page, 'a')).toBeVisible();
});

test('pinsRefresh reads the file again with its ETag: a 304 changes nothing, a new file moves, adds and removes pins by id, a failure is a notice the next reading clears', async ({ mapPage: page, baseURL }) => {
  const file = { body: csv([['a', 4, 46], ['b', 6, 46]]), etag: '"v1"', fail: false };
  const answers: string[] = [];
  await page.route(
    (url) => url.pathname === '/__feed/refresh.csv',
    async (route) => {
      const asked = route.request().headers()['if-none-match'];
      const status = file.fail ? 500 : asked === file.etag ? 304 : 200;
      answers.push(`${asked ?? '-'} ${status}`);
      if (status === 200) return route.fulfill({ contentType: 'text/csv', headers: { ETag: file.etag }, body: file.body });
      return route.fulfill({ status, headers: { ETag: file.etag }, body: '' });
    },
  );
  await serveJson(page, '/__feed/config.json', { ...CONFIG, pins: '/__feed/refresh.csv', pinsRefresh: 1 });
  await page.goto('/?config=/__feed/config.json');
  await waitForMapState(page, 'idle');
  await pin(page, 'a').click();
  await expect(popup(page)).toHaveAttribute('data-pin-id', 'a');
  // Read again with the file's ETag, and not changed.
  await expect.poll(() => answers.includes('"v1" 304')).toBe(true);
  await expect(pin(page, 'b')).toBeVisible();
  const before = await xOf(page, 'a');

  Object.assign(file, { body: csv([['a', 4.5, 46], ['c', 5, 45]]), etag: '"v2"' });
  await expect(pin(page, 'c')).toBeVisible();
  await expect(pin(page, 'b')).toHaveCount(0);
  await expect.poll(() => xOf(page, 'a')).toBeGreaterThan(before + 20);
  await expect(popup(page)).toHaveAttribute('data-pin-id', 'a');

  file.fail = true;
  await expect(notice(page)).toContainText(`Could not load the pins from ${baseURL}/__feed/refresh.csv: HTTP 500`);
  await expect(pin(page, 'c')).toBeVisible();
  file.fail = false;
  await expect(notice(page)).toHaveCount(0);
  expect(answers[0]).toBe('- 200');
});

test.describe('pinmap serve --watch', () => {
  const folder = mkdtempSync(join(tmpdir(), 'pinmap-watch-spec-'));
  test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

  test('the open map follows a CSV file saved from a spreadsheet, naming a row that turned bad', async ({ mapPage: page }) => {
    const file = join(folder, 'buses.csv');
    writeFileSync(file, 'id,title,lat,lng\nbus-1,Line 1,46,4\nbus-2,Line 2,46,6\n');
    const serving = await serve({ files: [file], port: 0, host: '127.0.0.1', appDir: resolve('dist'), watch: true, panels: false });
    try {
      await page.goto(serving.url);
      await waitForMapState(page, 'idle');
      await expect(pin(page, 'bus-2')).toBeVisible();
      await expect(pin(page, 'bus-3')).toHaveCount(0);
      // Saved as a spreadsheet saves: a new file renamed over the old one. Line 2's latitude is now out of range.
      writeFileSync(`${file}.tmp`, 'id,title,lat,lng\nbus-1,Line 1,46.5,4\nbus-2,Line 2,96,6\nbus-3,Line 3,45.5,5\n');
      renameSync(`${file}.tmp`, file);
      await expect(pin(page, 'bus-3')).toBeVisible();
      await expect(pin(page, 'bus-2')).toHaveCount(0);
      await expect(notice(page)).toContainText('buses.csv: line 3 ("Line 2"): latitude 96 is outside -90..90');
    } finally {
      await serving.close();
    }
  });
});
