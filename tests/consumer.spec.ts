import { expect, test, type Page } from './test.ts';
import { execFile, spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { CONTENT_SECURITY_POLICY } from '../src/config/csp.ts';
import { watchCsp } from './csp-violations.ts';
import { readmeExamples } from '../scripts/readme-examples.ts';
import { waitForMapState, watchConsole } from './helpers.ts';

// The app finds the embedded basemap beside the package's code and shows its credit.
test.use({ basemap: 'embedded' });

/**
 * Pinmap as someone who installs it meets it: the library is packed (`npm pack`, what a publish
 * would upload), the tarball installed into tests/consumer (a plain Vite + React app in strict
 * TypeScript that imports only `pinmap`, `pinmap/style.css` and `pinmap/vite`), type-checked with
 * its own tsconfig, built with Vite, and served under the app's Content Security Policy. Then the
 * consumer's build, and a plain HTML page that loads the embed build from the installed package
 * with no bundler, must each show the map, its pins, a popup and the controls. Needs
 * `npm run build` first (`npm test` does it).
 */

const ROOT = process.cwd();
const CONSUMER = path.join(ROOT, 'tests/consumer');
const run = promisify(execFile);

/** Runs a command and gives its standard output, failing with all it printed. */
async function sh(command: string, args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await run(command, args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
    return stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${path.relative(ROOT, cwd) || '.'}:\n${stdout}\n${stderr}`);
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.pbf': 'application/x-protobuf',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};

/**
 * Serves the consumer's build at `/`, and its no-bundler page (`/embed.html`) with the installed
 * package's files (`/node_modules/…`), every response with the app's Content Security Policy.
 */
function serve(): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    if (pathname === '/favicon.ico') {
      response.writeHead(204, { 'content-security-policy': CONTENT_SECURITY_POLICY }).end();
      return;
    }
    const fromConsumer = pathname.startsWith('/node_modules/') || pathname.startsWith('/embed.');
    const folder = fromConsumer ? CONSUMER : path.join(CONSUMER, 'dist');
    const file = path.join(folder, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(folder) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { 'content-security-policy': CONTENT_SECURITY_POLICY }).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-security-policy': CONTENT_SECURITY_POLICY });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

/**
 * The editor's hover texts (type and doc comment) in the consumer's code, as TypeScript's language
 * service (what editors ask) gives them: `hover(file, after, name)` is the hover of the first
 * `name` after `after` in `file`.
 */
function consumerHovers(): (file: string, after: string, name: string) => string {
  const configFile = ts.readConfigFile(path.join(CONSUMER, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, CONSUMER);
  const service = ts.createLanguageService({
    getCompilationSettings: () => parsed.options,
    getScriptFileNames: () => parsed.fileNames,
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => (existsSync(name) ? ts.ScriptSnapshot.fromString(readFileSync(name, 'utf8')) : undefined),
    getCurrentDirectory: () => CONSUMER,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  });
  return (file, after, name) => {
    const text = readFileSync(file, 'utf8');
    const info = service.getQuickInfoAtPosition(file, text.indexOf(name, text.indexOf(after)));
    return `${ts.displayPartsToString(info?.displayParts)}\n${ts.displayPartsToString(info?.documentation)}`;
  };
}

/** Checks what a map page shows: the map idle, three pins, a popup, the controls and the basemap's credit. */
async function expectWorkingMap(page: Page) {
  await waitForMapState(page, 'idle', 45_000);
  await expect(page.locator('canvas.maplibregl-canvas')).toHaveCount(1);
  const pins = page.locator('.pinmap-pin');
  await expect(pins).toHaveCount(3);
  await page.locator('.pinmap-pin[data-pin-id="paris"]').click();
  const popup = page.locator('.pinmap-popup');
  await expect(popup.locator('.pinmap-popup-title')).toHaveText('Paris');
  await expect(popup.locator('.pinmap-popup-description')).toHaveText('Capital of France');
  for (const name of ['Zoom in', 'Zoom out', 'Reset bearing to north', 'Find my location', 'Enter fullscreen']) {
    await expect(page.getByRole('button', { name }), `the "${name}" control`).toBeVisible();
  }
  await expect(page.locator('[data-corner="bottom-left"]')).toContainText(/\d+\s(km|m)\b/);
  // The embedded basemap's own credit: its style was found beside the code.
  await expect(page.locator('[data-corner="bottom-right"]')).toContainText('Natural Earth');
  // The pins' icon font came from the style sheet's font files.
  await expect.poll(() => page.evaluate(() => [...document.fonts].some((face) => /Font Awesome/.test(face.family) && face.status === 'loaded'))).toBe(true);
}

/** Records the responses of a page: path → status. */
function watchResponses(page: Page): Map<string, number> {
  const responses = new Map<string, number>();
  page.on('response', (response) => responses.set(new URL(response.url()).pathname, response.status()));
  return responses;
}

test.describe('the published package, in an app that installs it', () => {
  test.describe.configure({ mode: 'serial' });
  let server: Server | undefined;
  let origin = '';

  test.afterAll(() => server?.close());

  test('packs, installs from its tarball with no network, type-checks, shows its docs on hover, and builds with Vite', async () => {
    // Most of the time is writing the basemap's files (5,000 tiles today): packing them and
    // installing them. On a shared, loaded 2-core machine it has taken 2 to 6 minutes.
    test.setTimeout(600_000);
    const packStarted = Date.now();
    const packDir = mkdtempSync(path.join(tmpdir(), 'pinmap-pack-'));
    try {
      const packed = await sh('npm', ['pack', '--json', '--pack-destination', packDir], ROOT);
      const tarball = path.join(packDir, (JSON.parse(packed) as [{ filename: string }])[0].filename);
      rmSync(path.join(CONSUMER, 'node_modules'), { recursive: true, force: true });
      rmSync(path.join(CONSUMER, 'dist'), { recursive: true, force: true });
      // The package has no dependencies of its own, so the tarball is all there is to install.
      // Its peers (React, and maplibre-gl for its types), which npm would install from the
      // registry, Vite and TypeScript are the repository's own: no network is needed.
      await sh('npm', ['install', '--offline', '--no-save', '--no-package-lock', '--legacy-peer-deps', '--no-audit', '--no-fund', tarball], CONSUMER);
    } finally {
      rmSync(packDir, { recursive: true, force: true });
    }
    expect(existsSync(path.join(CONSUMER, 'node_modules/pinmap/dist/lib/pinmap.d.ts'))).toBe(true);

    // The README's store locator, as it is printed there, is part of the app (`?stores`): type-checked and built with it.
    const locator = readmeExamples(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).find((example) => example.code.includes('export function StoreLocator'));
    expect(locator, "the README's store locator example").toBeDefined();
    writeFileSync(path.join(CONSUMER, 'src/store-locator.tsx'), locator!.code);
    // And in the hybrid view: the same code, its config given `view: 'hybrid'` (the only change).
    expect(locator!.code.split('config={{ ').length, "the example's config, once").toBe(2);
    writeFileSync(path.join(CONSUMER, 'src/store-locator-hybrid.tsx'), locator!.code.replace('config={{ ', "config={{ view: 'hybrid', "));

    // The type check and the build are independent: side by side they take less time.
    const started = Date.now();
    const typeCheck = sh(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json'], CONSUMER);
    const build = sh(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], CONSUMER);
    // The package's bin (the command and its grouping's worker thread, as installed) tiles the
    // fixture pins into the same bytes as the committed archive made from the sources.
    const tiled = path.join(mkdtempSync(path.join(tmpdir(), 'pinmap-bin-')), 'cities.pmtiles');
    const tile = sh(path.join(CONSUMER, 'node_modules/.bin/pinmap-tile-pins'), [path.join(ROOT, 'fixtures/pins/cities.geojson'), '-o', tiled, '--quiet'], CONSUMER);
    await Promise.all([typeCheck, build, tile]);
    expect(readFileSync(tiled).equals(readFileSync(path.join(ROOT, 'fixtures/pins/cities.pmtiles'))), 'the installed pinmap-tile-pins made the fixture archive').toBe(true);
    rmSync(path.dirname(tiled), { recursive: true, force: true });
    const main = path.join(CONSUMER, 'src/main.tsx');
    const hover = consumerHovers();
    const zoomHover = hover(main, 'const config', 'zoom');
    expect(zoomHover).toContain('zoom?: number');
    expect(zoomHover).toContain('Default `1`');
    expect(hover(main, 'pinStyles', 'markerColor')).toContain("Default `'#3FB1CE'`");
    expect(existsSync(path.join(CONSUMER, 'dist/basemap/style.json')), 'pinmap/vite copied the basemap beside the build').toBe(true);
    // The app imports `maplibre-gl` itself (src/main.tsx) and Pinmap's React entry takes it from
    // the peer dependency: the build holds one MapLibre (a string of its attribution control's,
    // once per copy of its code).
    const chunks = readdirSync(path.join(CONSUMER, 'dist/assets')).filter((file) => file.endsWith('.js'));
    const copies = chunks.reduce((sum, file) => sum + readFileSync(path.join(CONSUMER, 'dist/assets', file), 'utf8').split('maplibregl-ctrl-attrib-button').length - 1, 0);
    expect(copies, 'copies of MapLibre in the app build').toBe(1);
    console.log(`consumer: packed and installed in ${((started - packStarted) / 1000).toFixed(1)} s, type-checked, built and hovered in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    ({ server, origin } = await serve());
  });

  test("the app's Vite build shows the map, pins, a popup and the controls, and tells its events, under the Content Security Policy", async ({ mapPage: page }) => {
    const console = watchConsole(page);
    const csp = await watchCsp(page);
    const responses = watchResponses(page);
    await page.goto(`${origin}/`);
    await expectWorkingMap(page);
    // The React API from the package: onLoad with the ref's handle (its camera, MapLibre's map), onPinClick.
    await expect(page.locator('body')).toHaveAttribute('data-loaded-zoom', '3');
    await expect(page.locator('body')).toHaveAttribute('data-map-canvas', 'true');
    await expect(page.locator('body')).toHaveAttribute('data-same-maplibre', 'true');
    await expect(page.locator('body')).toHaveAttribute('data-app-maplibre', 'true');
    await expect(page.locator('body')).toHaveAttribute('data-clicked-pin', 'paris');
    const loaded = [...responses].filter(([, status]) => status === 200).map(([file]) => file);
    expect(loaded.some((file) => /^\/assets\/maplibre-gl-worker-.+\.mjs$/.test(file)), "MapLibre's worker, emitted by the app's build").toBe(true);
    expect(loaded.some((file) => /^\/assets\/fa-solid-900-.+\.woff2$/.test(file)), 'the icon font, emitted by the app’s build').toBe(true);
    expect(loaded).toContain('/basemap/style.json');
    expect([...responses].filter(([, status]) => status >= 400)).toEqual([]);
    expect(console.errors).toEqual([]);
    expect(csp.violations).toEqual([]);
    expect(csp.messages).toEqual([]);
  });

  test("the README's store locator, built from the tarball: a store picked in the app's list opens its React popup with the app's context, a button in it changes the app's state, focus goes in and back, Escape closes; in both views", async ({ mapPage: page }) => {
    const console = watchConsole(page);
    for (const view of ['vector', 'hybrid'] as const) {
      await page.goto(`${origin}/?stores${view === 'hybrid' ? '&view=hybrid' : ''}`);
      await waitForMapState(page, 'idle', 45_000);
      await expect(page.locator('.pinmap')).toHaveAttribute('data-view', view);
      await expect(page.locator('.pinmap-pin')).toHaveCount(3);
      const list = page.getByRole('listitem').getByRole('button');
      const popup = page.locator('.pinmap-popup');

      // Picked in the app's own list: the popup is the app's StoreCard, reading the app's context.
      await list.filter({ hasText: 'Geneva' }).click();
      await expect(popup).toHaveAttribute('data-pin-id', 'geneva');
      await expect(popup).toContainText('Geneva store');
      await expect(popup).toContainText('Open 10:00–18:00');
      await expect(popup.getByRole('link', { name: 'Store page' })).toHaveAttribute('href', 'https://example.com/stores/geneva');
      await expect(list.filter({ hasText: 'Geneva' })).toHaveAttribute('aria-pressed', 'true');
      // Its button changes the app's state, through the context the popup is rendered in.
      const favourite = popup.getByRole('button', { name: 'Favourite' });
      await expect(favourite).toHaveAttribute('aria-pressed', 'false');
      await favourite.click();
      await expect(favourite).toHaveAttribute('aria-pressed', 'true');

      // Picked on the map from the keyboard: the focus goes into the popup, Escape closes it, the focus comes back to the pin, the app is told (nothing selected).
      await page.keyboard.press('Escape');
      await expect(popup).toHaveCount(0);
      const lyon = page.locator('.pinmap-pin[data-pin-id="lyon"]');
      await lyon.focus();
      await page.keyboard.press('Enter');
      await expect(popup).toHaveAttribute('data-pin-id', 'lyon');
      await expect(list.filter({ hasText: 'Lyon' })).toHaveAttribute('aria-pressed', 'true');
      await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.pinmap-popup') !== null), { message: 'the focus is in the popup' }).toBe(true);
      await expect(popup.getByRole('button', { name: 'Favourite' })).toHaveAttribute('aria-pressed', 'false');
      await page.keyboard.press('Escape');
      await expect(popup).toHaveCount(0);
      await expect(lyon).toBeFocused();
      for (const button of await list.all()) await expect(button).toHaveAttribute('aria-pressed', 'false');

      // The app's state outlives the popup: Geneva is still a favourite.
      await list.filter({ hasText: 'Geneva' }).click();
      await expect(popup.getByRole('button', { name: 'Favourite' })).toHaveAttribute('aria-pressed', 'true');
      await popup.getByRole('button', { name: 'Favourite' }).click(); // and no longer
      await expect(popup.getByRole('button', { name: 'Favourite' })).toHaveAttribute('aria-pressed', 'false');
      await page.keyboard.press('Escape');
      await expect(popup).toHaveCount(0);
    }
    expect(console.errors).toEqual([]);
  });

  test('the installed pinmap serve shows a CSV file on the map, from the app the package ships, under the Content Security Policy', async ({ mapPage: page }) => {
    const folder = mkdtempSync(path.join(tmpdir(), 'pinmap-installed-serve-'));
    const csv = path.join(folder, 'places.csv');
    writeFileSync(csv, 'id;Name;Lat;Lon\nparis;Paris;48,8566;2,3522\nberlin;Berlin;52,52;13,405\nnowhere;Nowhere;;\n');
    // As a user runs it: the bin npm linked, from the app's folder.
    const child = spawn(path.join(CONSUMER, 'node_modules/.bin/pinmap'), ['serve', csv, '--port', '0'], { cwd: CONSUMER, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let output = '';
      const address = await new Promise<string>((resolve, reject) => {
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          const found = /Pinmap: (http:\/\/\S+)/.exec(output);
          if (found) resolve(found[1]!);
        };
        child.stdout.on('data', read);
        child.stderr.on('data', read);
        child.on('exit', (code) => reject(new Error(`pinmap serve exited with ${code}:\n${output}`)));
      });
      expect(output).toContain(`${csv}: 2 pins, 1 skipped:`);
      expect(output).toContain('line 4 ("Nowhere"): has no latitude (its "Lat" column is empty)');
      const console = watchConsole(page);
      const csp = await watchCsp(page);
      await page.goto(address);
      await waitForMapState(page, 'idle', 45_000);
      await expect(page.locator('.pinmap-pin')).toHaveCount(2);
      await expect(page.locator('[data-corner="bottom-right"]')).toContainText('Natural Earth');
      expect(console.errors).toEqual([]);
      expect(csp.violations).toEqual([]);
    } finally {
      child.kill();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('a page with no bundler shows the same map from the installed package’s embed build', async ({ mapPage: page }) => {
    const console = watchConsole(page);
    const csp = await watchCsp(page);
    const responses = watchResponses(page);
    await page.goto(`${origin}/embed.html`);
    await expectWorkingMap(page);
    const loaded = [...responses].filter(([, status]) => status === 200).map(([file]) => file);
    const lib = '/node_modules/pinmap/dist/lib/';
    expect(loaded.some((file) => file.startsWith(`${lib}assets/maplibre-gl-worker-`))).toBe(true);
    expect(loaded.some((file) => file.startsWith(`${lib}assets/fa-solid-900-`))).toBe(true);
    expect(loaded).toContain('/node_modules/pinmap/dist/basemap/style.json');
    expect([...responses].filter(([, status]) => status >= 400)).toEqual([]);
    expect(console.errors).toEqual([]);
    expect(csp.violations).toEqual([]);
    expect(csp.messages).toEqual([]);
  });
});
