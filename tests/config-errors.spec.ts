import { expect, test, type Page } from './test.ts';
import { BAD_CONFIGS, show, type BadConfig } from '../src/testing/config-corpus.testing.ts';
import { safeParseConfig } from '../src/config/schema.ts';
import { openEmbedPage, type EmbedWindow } from './helpers.ts';

/**
 * The corpus of bad configs (src/map/config-corpus.testing.ts, also run by the unit tests) in a
 * real page, through both ways in: the app's `?config=<url>` and the embed library's
 * `createPinmap(element, config)`. Each config shows the error panel, whose list names the
 * option; nothing is thrown past it (no page error, no unhandled rejection), and `createPinmap`
 * returns its handle, whose `ready` rejects with the message, as documented. Values JSON cannot
 * carry (BigInt, functions, cycles, getters that throw…) go through `createPinmap` only.
 */

const ENTRIES = Object.entries(BAD_CONFIGS).flatMap(([group, rows]) => rows.map((row) => ({ group, row })));

/** Up to `most` entries of each group, spread over it: a page load each is too slow for all of them. */
function spread<T>(rows: readonly T[], most: number): T[] {
  if (rows.length <= most) return [...rows];
  return Array.from({ length: most }, (_, k) => rows[Math.round((k * (rows.length - 1)) / (most - 1))]!);
}

/** A corpus input as text for the page: JSON, with marks for NaN, ±Infinity and BigInt. */
interface Encoded {
  text: string;
  /** Plain JSON: what a config file can hold. */
  json: boolean;
}

const SPECIAL = '$pinmapTestValue';

/**
 * Writes `value` as JSON (own keys as they are, `__proto__` included), marking the numbers JSON
 * has no words for; undefined for what cannot be sent as data at all (functions, symbols,
 * proxies, getters, boxed numbers, typed arrays): those cases are written as code below.
 */
function encode(value: unknown): Encoded | undefined {
  let json = true;
  const write = (v: unknown): string | undefined => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return JSON.stringify(v);
    if (typeof v === 'number') {
      if (Number.isFinite(v)) return JSON.stringify(v);
      json = false;
      return JSON.stringify({ [SPECIAL]: String(v) });
    }
    if (typeof v === 'bigint') {
      json = false;
      return JSON.stringify({ [SPECIAL]: `${v}n` });
    }
    if (typeof v !== 'object') return undefined;
    try {
      if (Array.isArray(v)) {
        const items = v.map(write);
        return items.every((item) => item !== undefined) ? `[${items.join(',')}]` : undefined;
      }
      const prototype = Object.getPrototypeOf(v);
      if (prototype !== Object.prototype && prototype !== null) return undefined;
      const descriptors = Object.getOwnPropertyDescriptors(v);
      const members: string[] = [];
      for (const [key, descriptor] of Object.entries(descriptors)) {
        if (!descriptor.enumerable) continue;
        if (!('value' in descriptor)) return undefined;
        const item = write(descriptor.value);
        if (item === undefined) return undefined;
        members.push(`${JSON.stringify(key)}:${item}`);
      }
      return `{${members.join(',')}}`;
    } catch {
      return undefined; // a proxy that refuses to be read
    }
  };
  const text = write(value);
  return text === undefined ? undefined : { text, json };
}

/**
 * Configs only code can hand over, written as code the page runs: the value, the option the
 * panel must name, and a fragment of what it says.
 */
const CODE_ONLY: readonly (readonly [source: string, option: string, message: string])[] = [
  ['({ zoom: 3n })', 'zoom', 'must be a finite number (zoom)'],
  ['({ zoom: () => 3 })', 'zoom', 'must be a finite number (zoom)'],
  ['() => ({ zoom: 3 })', 'config', 'must be an object'],
  ["(() => { const layer = { url: 'tiles/{z}/{x}/{y}.png' }; layer.again = layer; return { rasterLayers: [layer] }; })()", 'rasterLayers[0].again', 'is not a known option'],
  ["(() => { const config = { zoom: 'far' }; config.pinStyles = { cafe: config }; return config; })()", 'zoom', 'must be a finite number (zoom)'],
  ["Object.defineProperty({}, 'zoom', { enumerable: true, get() { throw new Error('zoom is not ready'); } })", 'config', 'could not be read (zoom is not ready)'],
  ["({ vectorLayer: Object.defineProperty({}, 'padding', { enumerable: true, get() { throw new Error('no padding yet'); } }) })", 'config', 'could not be read (no padding yet)'],
  ["new Proxy({}, { ownKeys() { throw new Error('no keys for you'); } })", 'config', 'could not be read (no keys for you)'],
  ["({ pinStyles: { cafe: new Proxy({}, { ownKeys() { throw new Error('no keys here'); } }) } })", 'config', 'could not be read (no keys here)'],
  ["({ zoom: Symbol('zoom') })", 'zoom', 'must be a finite number (zoom)'],
  ['({ zoom: new Number(3) })', 'zoom', 'must be a finite number (zoom)'],
  ['({ zoom: new Date(0) })', 'zoom', 'must be a finite number (zoom)'],
  ['({ center: new Float64Array([2, 48]) })', 'center', 'must be [longitude, latitude]'],
  ["({ pinStyles: { cafe: { markerColor: 3n } } })", 'pinStyles.cafe.markerColor', 'must be a CSS colour'],
  ["({ locale: { 'Popup.Close': () => 'Close' } })", 'locale.Popup.Close', 'must be a string'],
  ["({ rasterLayers: [{ url: 'tiles/{z}/{x}/{y}.png', opacity: 1n }] })", 'rasterLayers[0].opacity', 'must be a finite number'],
  ['({ style: { version: 8n, sources: {}, layers: [] } })', 'style', 'must be a style URL or a MapLibre style object'],
];

/** The options a corpus entry must name. */
const optionsOf = (row: BadConfig) => (typeof row[1] === 'string' ? [row[1]] : [...row[1]]);

/** The error panel's list in `root`: each problem's option (its `<code>`) and whole text. */
async function panelProblems(page: Page, root: string): Promise<{ option: string; text: string }[]> {
  return page.locator(`${root} .pinmap-error-problems li`).evaluateAll((items) => items.map((li) => ({ option: li.querySelector('code')?.textContent ?? '', text: li.textContent ?? '' })));
}

/** What is wrong with a panel's list for a config that must name `options` (and say `message`), or undefined. */
function misnamed(problems: { option: string; text: string }[], options: string[], message: string | undefined): string | undefined {
  for (const option of options) {
    const named = problems.filter((p) => p.option === option);
    if (named.length === 0) return `no problem names ${option} (${JSON.stringify(problems)})`;
    if (message !== undefined && !named.some((p) => p.text.includes(message))) return `${option} is not told "${message}" (${JSON.stringify(named)})`;
  }
  return undefined;
}

/** Counts what escapes the page's own handling: uncaught errors and unhandled rejections. */
async function watchEscapes(page: Page): Promise<string[]> {
  const escaped: string[] = [];
  page.on('pageerror', (error) => escaped.push(`page error: ${error.message}`));
  await page.addInitScript(() => {
    window.addEventListener('unhandledrejection', (event) => console.error(`unhandled rejection: ${String(event.reason)}`));
  });
  page.on('console', (message) => {
    if (message.type() === 'error') escaped.push(message.text());
  });
  return escaped;
}

test('configs of every group of the corpus, loaded with ?config=, show the error panel naming the option', async ({ mapPage: page }) => {
  test.setTimeout(180_000);
  const escaped = await watchEscapes(page);
  const files = new Map<string, string>();
  await page.route(
    (url) => url.pathname.startsWith('/__bad/'),
    (route) => route.fulfill({ contentType: 'application/json', body: files.get(new URL(route.request().url()).pathname) ?? '' }),
  );
  const failures: string[] = [];
  let tried = 0;
  let notObjects = 0;
  const started = Date.now();
  const chosen = Object.entries(BAD_CONFIGS).flatMap(([group, rows]) =>
    spread(
      rows.filter((row) => encode(row[0])?.json),
      4,
    ).map((row) => ({ group, row, text: encode(row[0])!.text })),
  );
  for (const [n, { group, row, text }] of chosen.entries()) {
    tried++;
    const path = `/__bad/${n}.json`;
    files.set(path, text);
    await page.goto(`/?config=${path}`);
    await expect(page.locator('.pinmap')).toHaveAttribute('data-map-state', 'error');
    const panel = page.getByRole('alert');
    const label = `${group}: ${show(row[0])}`;
    if (typeof row[0] !== 'object' || row[0] === null || Array.isArray(row[0])) {
      // A file that is not a JSON object at all is no config: the panel says so, and where it is.
      notObjects++;
      const text = await panel.textContent();
      if (!text?.includes(`This map's configuration could not be loaded`) || !text.includes(`${path}: the file is not a JSON object`)) failures.push(`${label}: ${text}`);
      continue;
    }
    await expect(panel).toContainText("This map's configuration has errors");
    const wrong = misnamed(await panelProblems(page, '.pinmap'), optionsOf(row), row[2]);
    if (wrong) failures.push(`${label}: ${wrong}`);
  }
  expect(failures).toEqual([]);
  expect(escaped, 'errors that escaped the panel').toEqual([]);
  expect(tried).toBeGreaterThanOrEqual(40);
  console.log(
    `bad configs through ?config=: ${tried} of the corpus's ${ENTRIES.length} (up to 4 from each of its ${Object.keys(BAD_CONFIGS).length} groups, of those a JSON file can hold), ${tried - notObjects} error panels naming the option, ` +
      `${notObjects} files that are not an object refused as such, nothing thrown past the panel (${Date.now() - started} ms)`,
  );
});

test('every config of the corpus, and values JSON cannot carry, given to createPinmap: the panel names the option, ready rejects, nothing is thrown', async ({ mapPage: page }) => {
  test.setTimeout(180_000);
  const escaped = await watchEscapes(page);
  await openEmbedPage(page);
  const cases = [
    ...ENTRIES.flatMap(({ group, row }) => {
      const encoded = encode(row[0]);
      return encoded ? [{ label: `${group}: ${show(row[0])}`, text: encoded.text, source: undefined, options: optionsOf(row), message: row[2] }] : [];
    }),
    ...CODE_ONLY.map(([source, option, message]) => ({ label: `code: ${source}`, text: undefined, source, options: [option], message })),
  ];
  // The code-only cases are what they say they are: the config check itself names their option in Node too.
  for (const [source, option, message] of CODE_ONLY) {
    const result = safeParseConfig(new Function(`return (${source})`)());
    expect(result.ok, source).toBe(false);
    if (!result.ok) expect(result.error.problems.some((p) => p.option === option && p.message.includes(message)), `${source}: ${JSON.stringify(result.error.problems)}`).toBe(true);
  }
  const fromData = cases.filter((c) => c.text !== undefined).length;
  const codeCorpus = ENTRIES.length - fromData;

  const started = Date.now();
  const outcomes = await page.evaluate(
    async ({ cases, special }) => {
      const w = window as unknown as EmbedWindow;
      const revive = (_key: string, value: unknown) => {
        if (typeof value !== 'object' || value === null || !(special in value)) return value;
        const mark = (value as Record<string, string>)[special]!;
        return mark.endsWith('n') ? BigInt(mark.slice(0, -1)) : Number(mark);
      };
      // The code-only values are compiled from their source before the first await: code that
      // Playwright hands the page is exempt from the page's Content Security Policy (no string
      // code) only while it runs, not in what runs after an await.
      const compiled = cases.map((c) => (c.source !== undefined ? new Function(`return (${c.source})`)() : undefined) as unknown);
      const results = [];
      for (const [i, c] of cases.entries()) {
        const config: unknown = c.source !== undefined ? compiled[i] : JSON.parse(c.text!, revive);
        let thrown: string | undefined;
        let handle: ReturnType<EmbedWindow['Pinmap']['createPinmap']> | undefined;
        try {
          handle = w.Pinmap.createPinmap('map', config as never);
        } catch (error) {
          thrown = String(error);
        }
        const ready = handle ? await handle.ready.then(() => 'resolved', (error: unknown) => (error instanceof Error ? `rejected: ${error.message}` : `rejected with ${String(error)}`)) : undefined;
        const root = document.querySelector('#map .pinmap');
        results.push({
          thrown,
          ready,
          status: handle?.status,
          state: root?.getAttribute('data-map-state'),
          title: root?.querySelector('[role="alert"] .pinmap-error-title')?.textContent,
          problems: [...document.querySelectorAll('#map .pinmap-error-problems li')].map((li) => ({ option: li.querySelector('code')?.textContent ?? '', text: li.textContent ?? '' })),
        });
        handle?.destroy();
      }
      return results;
    },
    { cases: cases.map(({ text, source }) => ({ text, source })), special: SPECIAL },
  );
  const failures: string[] = [];
  for (const [i, outcome] of outcomes.entries()) {
    const c = cases[i]!;
    const wrong =
      outcome.thrown !== undefined
        ? `createPinmap threw ${outcome.thrown}`
        : outcome.status !== 'error' || outcome.state !== 'error'
          ? `status ${outcome.status}, data-map-state ${outcome.state}`
          : !outcome.ready?.startsWith('rejected: Invalid Pinmap config: ') || !c.options.every((option) => outcome.ready!.includes(`${option}: `))
            ? `ready ${outcome.ready}`
            : outcome.title !== "This map's configuration has errors"
              ? `the panel says ${outcome.title}`
              : misnamed(outcome.problems, c.options, c.message);
    if (wrong) failures.push(`${c.label}: ${wrong}`);
  }
  expect(failures).toEqual([]);
  expect(escaped, 'errors that escaped the panel').toEqual([]);
  console.log(
    `bad configs through createPinmap: ${cases.length} (${fromData} of the corpus's ${ENTRIES.length} as data, NaN, Infinity and BigInt included; ` +
      `${CODE_ONLY.length} written as code: BigInt, functions, cycles, throwing getters and proxies, symbols, boxed numbers, dates, typed arrays, ` +
      `the kinds of the ${codeCorpus} corpus entries that cannot be sent as data), each an error panel naming the option and a rejected ready, none thrown (${Date.now() - started} ms)`,
  );
});
