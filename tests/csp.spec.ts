import { readFileSync, readdirSync } from 'node:fs';
import { expect, test, type Page } from './test.ts';
import { CONTENT_SECURITY_POLICY, CSP_DIRECTIVES } from '../src/config/csp.ts';
import { watchCsp } from './csp-violations.ts';
import { serveJson, waitForMapState, watchConsole } from './helpers.ts';

/**
 * The production build under its Content Security Policy (src/config/csp.ts), which the preview server
 * sends with every response, so every browser test of the suite runs under it. Here: the policy
 * is what it says and is in force, and both views do everything a user does without one refusal.
 */

const UNSAFE = ["'unsafe-eval'", "'unsafe-inline'", "'unsafe-hashes'", "'wasm-unsafe-eval'", 'data:', 'blob:', '*', 'http:', 'https:'];

/** The header's value as directive → sources. */
function parsePolicy(header: string): Map<string, string[]> {
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
  );
}

test.describe('the policy the server sends', () => {
  test('every kind of response carries it; scripts and workers come from the app only, never inline or evaluated', async ({ request }) => {
    const assets = readdirSync('dist/assets');
    const worker = assets.find((name) => /^maplibre-gl-worker-.+\.mjs$/.test(name));
    const css = assets.find((name) => name.endsWith('.css'));
    const paths = ['/', '/index.html', `/assets/${worker}`, `/assets/${css}`, '/basemap/style.json', '/pins/cities.geojson', '/lib/pinmap-embed.js', '/no-such-file'];
    for (const path of paths) {
      const response = await request.get(path);
      expect(response.headers()['content-security-policy'], path).toBe(CONTENT_SECURITY_POLICY);
    }
    const policy = parsePolicy(CONTENT_SECURITY_POLICY);
    for (const directive of ['default-src', 'script-src', 'worker-src', 'child-src']) {
      expect(policy.get(directive), directive).toEqual(["'self'"]);
    }
    expect(policy.get('style-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'self'"]);
    // Nothing anywhere lets code be evaluated or inlined.
    for (const [directive, sources] of policy) {
      for (const unsafe of ["'unsafe-eval'", "'unsafe-inline'", "'unsafe-hashes'", "'wasm-unsafe-eval'", '*']) expect(sources, directive).not.toContain(unsafe);
    }
    // Only fetches, images and fonts may reach other (https) origins; images also data: (pin images).
    for (const [directive, sources] of policy) {
      if (['connect-src', 'img-src', 'font-src'].includes(directive)) continue;
      for (const unsafe of UNSAFE) expect(sources, directive).not.toContain(unsafe);
    }
    expect(Object.keys(CSP_DIRECTIVES)).toHaveLength(policy.size);
    // README.md shows site owners the policy word for word.
    const readme = readFileSync('README.md', 'utf8');
    const shown = /## Content Security Policy[\s\S]*?```\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(shown?.replace(/\s+/g, ' ').trim(), 'the policy in README.md').toBe(CONTENT_SECURITY_POLICY);
    console.log(`CSP: ${paths.length} responses checked, ${policy.size} directives`);
  });

  test('the built pages hold no inline script and no inline event handler', () => {
    let scripts = 0;
    for (const file of ['dist/index.html']) {
      const html = readFileSync(file, 'utf8');
      const tags = html.match(/<script\b[^>]*>[\s\S]*?<\/script>/gi) ?? [];
      scripts += tags.length;
      for (const tag of tags) {
        expect(tag, file).toMatch(/\ssrc=/);
        expect(tag.replace(/^<script\b[^>]*>/i, '').replace(/<\/script>$/i, '').trim(), file).toBe('');
      }
      expect(html, file).not.toMatch(/\son[a-z]+\s*=/i);
      expect(html, file).not.toMatch(/\sstyle\s*=/i);
    }
    expect(scripts).toBeGreaterThan(0);
    console.log(`CSP: ${scripts} script tag(s) in dist/index.html, each a file (src), none inline`);
  });
});

test.describe('the policy in force', () => {
  test('an injected inline script, an inline event handler, a string evaluated as code and a fetch to a plain-http origin are refused and reported', async ({ mapPage: page }) => {
    const csp = await watchCsp(page);
    const console = watchConsole(page);
    await page.goto('/');
    await waitForMapState(page, 'idle');
    expect(csp.violations).toEqual([]);

    // Each attempt is made by the page's own code, as an attacker's injected markup would be
    // (code that Playwright evaluates itself is exempt from the policy).
    const outcome = await page.evaluate(async () => {
      const ran = window as unknown as { inlineRan?: boolean; handlerRan?: boolean; stringRan?: boolean };
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.body.append(script);
      const image = document.createElement('img');
      image.setAttribute('onerror', 'window.handlerRan = true');
      image.src = 'data:image/png;base64,bm90IGFuIGltYWdl';
      document.body.append(image);
      (setTimeout as (code: string, ms: number) => number)('window.stringRan = true', 0);
      let fetched = 'ran';
      try {
        await fetch('http://localhost:9/refused.json');
      } catch (error) {
        fetched = (error as Error).name;
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      image.remove();
      script.remove();
      return { inlineRan: ran.inlineRan === true, handlerRan: ran.handlerRan === true, stringRan: ran.stringRan === true, fetched };
    });
    expect(outcome).toEqual({ inlineRan: false, handlerRan: false, stringRan: false, fetched: 'TypeError' });
    await expect.poll(() => csp.violations.map((v) => v.directive).sort()).toEqual(['connect-src', 'script-src', 'script-src-attr', 'script-src-elem']);
    for (const violation of csp.violations) expect(violation.disposition).toBe('enforce');
    // What the browser tells the console: the same refusals, as errors.
    await expect.poll(() => csp.messages.length).toBeGreaterThanOrEqual(3);
    expect(console.errors.filter((m) => /Content Security Policy/.test(m))).toEqual(csp.messages);
    // The map goes on.
    await page.getByRole('button', { name: 'Zoom in', exact: true }).click();
    await waitForMapState(page, 'idle');
    globalThis.console.log(`CSP: 4 refusals injected, ${csp.violations.length} violations reported, ${csp.messages.length} console messages`);
  });

  for (const view of ['vector', 'hybrid'] as const) {
    test(`${view} view: a style on a plain-http origin is refused: the map names the style, the policy, its directive and the origin to add`, async ({ mapPage: page }) => {
      const csp = await watchCsp(page);
      const style = 'http://localhost:9/style.json';
      await serveJson(page, '/__test/http-style.json', { style, view });
      await page.goto('/?config=/__test/http-style.json');
      await waitForMapState(page, 'error');
      const panel = page.getByRole('alert');
      await expect(panel).toContainText(`Could not load the map style from ${style}`);
      await expect(panel).toContainText("the page's Content Security Policy does not allow it (connect-src): add http://localhost:9 to connect-src");
      await expect.poll(() => csp.violations.map((v) => `${v.directive} ${v.blocked}`)).toEqual([`connect-src ${style}`]);
    });
  }

  test('a ?config= of the page\'s own origin that redirects to a plain-http origin: the panel says the redirect went where the policy refuses, not "Failed to fetch"', async ({ mapPage: page, baseURL }) => {
    const csp = await watchCsp(page);
    await page.route((url) => url.pathname === '/__test/moved-config.json', (route) => route.fulfill({ status: 302, headers: { Location: 'http://localhost:9/config.json' } }));
    await page.goto('/?config=/__test/moved-config.json');
    await waitForMapState(page, 'error');
    const panel = page.getByRole('alert');
    await expect(panel).toContainText(
      `Could not load the config from ${baseURL}/__test/moved-config.json: the server redirected it to an origin the page's Content Security Policy does not allow (connect-src): serve the file without the redirect, or add the origin it redirects to to connect-src`,
    );
    // The browser reports the address asked for, never where the redirect pointed.
    expect(csp.violations.map((v) => `${v.directive} ${v.blocked}`)).toEqual([`connect-src ${baseURL}/__test/moved-config.json`]);
  });

  test('hybrid view: a raster layer on a plain-http origin is refused: the warning names img-src and the origin to add; the map goes on', async ({ mapPage: page }) => {
    const console = watchConsole(page);
    await serveJson(page, '/__test/http-raster.json', { view: 'hybrid', rasterLayers: [{ url: 'http://localhost:9/{z}/{x}/{y}.png' }] });
    await page.goto('/?config=/__test/http-raster.json');
    await waitForMapState(page, 'idle');
    await expect.poll(() => console.warnings.filter((w) => w.includes("the page's Content Security Policy does not allow it (img-src): add http://localhost:9 to img-src")).length).toBeGreaterThan(0);
  });
});

/** Clicks the pin `id`, sees its popup, closes it with Esc and sees it go. */
async function openAndClosePopup(page: Page, id: string): Promise<void> {
  await page.locator(`.pinmap-pin[data-pin-id="${id}"]`).click();
  await expect(page.locator(`.pinmap-popup[data-pin-id="${id}"]`)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.locator('.pinmap-popup')).toHaveCount(0);
}

for (const view of ['vector', 'hybrid'] as const) {
  test.describe(`the ${view} view under the policy`, () => {
    test.use({ geolocation: { longitude: 2.35, latitude: 48.86, accuracy: 2000 }, permissions: ['geolocation'] });

    test('loads to idle with pins, popups, controls, geolocation, the other view and GPU pins, with no violation', async ({ page }) => {
      test.setTimeout(120_000);
      const csp = await watchCsp(page);
      const console = watchConsole(page);
      let requests = 0;
      page.on('requestfinished', () => requests++);

      await page.goto(`/?view=${view}#map=6/48.86/2.35`);
      await waitForMapState(page, 'idle');
      await expect(page.locator('.pinmap')).toHaveAttribute('data-view', view);
      const pins = await page.locator('.pinmap-pin').count();
      expect(pins).toBeGreaterThan(3);
      await openAndClosePopup(page, 'paris-fr');

      await page.getByRole('button', { name: 'Zoom in', exact: true }).click();
      await waitForMapState(page, 'idle');
      await page.getByRole('button', { name: 'Find my location' }).click();
      await expect(page.locator('.pinmap-geolocate')).toHaveAttribute('data-state', 'ACTIVE_LOCK');
      await expect(page.locator('.pinmap-user-dot')).toBeVisible();
      await waitForMapState(page, 'idle');
      await page.getByRole('button', { name: 'Enter fullscreen' }).click();
      await expect(page.locator('.pinmap-fullscreen')).toHaveAttribute('data-state', 'on');
      await page.getByRole('button', { name: 'Exit fullscreen' }).click();
      await expect(page.locator('.pinmap-fullscreen')).toHaveAttribute('data-state', 'off');

      // The other view, loaded on demand (the hybrid view's chunk and style sheet), and back.
      const other = view === 'vector' ? 'Hybrid' : 'Map';
      await page.getByRole('group', { name: 'Map view' }).getByRole('button', { name: other, exact: true }).click();
      await expect(page.locator('.pinmap')).toHaveAttribute('data-view', view === 'vector' ? 'hybrid' : 'vector');
      await waitForMapState(page, 'idle');
      await page.goto(`/?view=${view}&pin=paris-fr#map=3/48.86/2.35`);
      await waitForMapState(page, 'idle');
      await expect(page.locator('.pinmap-popup[data-pin-id="paris-fr"]')).toBeVisible();

      // Every pin drawn by the GPU (vector view) or as Leaflet markers (hybrid): pin images from data: URLs.
      await serveJson(page, '/__test/gpu-pins.json', { view, domPinLimit: 0, pins: 'pins/cities.geojson' });
      await page.goto('/?config=/__test/gpu-pins.json#map=3/48/10');
      await waitForMapState(page, 'idle');

      const violations = csp.violations;
      expect(violations).toEqual([]);
      expect(csp.messages).toEqual([]);
      expect(console.errors).toEqual([]);
      expect(console.warnings).toEqual([]);
      globalThis.console.log(`CSP, ${view} view: ${pins} pin elements, 3 pages loaded, ${requests} requests, ${violations.length} violations, ${csp.messages.length} policy messages`);
    });
  });
}
