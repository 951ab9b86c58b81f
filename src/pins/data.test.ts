import { describe, expect, it } from 'vitest';
import { BLNS, TRAPS } from '../testing/hostile-strings.testing.ts';
import { PLAIN_HTTP_URL, PinDataError, describePinSet, isHttpUrl, parsePins, pinNotice, summariseSkipped, wrapLongitude, PinsById } from './data.ts';
import { feature } from '../testing/pin-features.testing.ts';
import type { Pin } from './types.ts';


const at = (id: string, coordinates: unknown): Record<string, unknown> => feature(id, {}, { geometry: { type: 'Point', coordinates } });

function collection(features: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'FeatureCollection', features, ...extra };
}

describe('parsePins: the collection', () => {
  it.each([
    [[], 'got an array'],
    [null, 'got null'],
    ['{"type":"FeatureCollection"}', 'got the string'],
    [42, 'got the number 42'],
    [{ type: 'Feature', geometry: null, properties: {} }, 'got type "Feature"'],
    [{ features: [] }, 'without "type": "FeatureCollection"'],
  ])('refuses %j as not a FeatureCollection (%s)', (input, got) => {
    expect(() => parsePins(input)).toThrow(PinDataError);
    expect(() => parsePins(input)).toThrow(/^pins must be a GeoJSON FeatureCollection/);
    expect(() => parsePins(input)).toThrow(got);
  });

  it('refuses a FeatureCollection whose features is not an array', () => {
    expect(() => parsePins({ type: 'FeatureCollection', features: {} })).toThrow('"features" is an array (got an object)');
    expect(() => parsePins({ type: 'FeatureCollection' })).toThrow('"features" is an array (got nothing)');
  });

  it('accepts an empty collection', () => {
    expect(parsePins(collection([]))).toEqual({ pins: [], skipped: [], warnings: [], pinStyles: {} });
  });

  it('reads a good feature into a pin', () => {
    const set = parsePins(
      collection([
        {
          type: 'Feature',
          id: 'paris',
          geometry: { type: 'Point', coordinates: [2.35, 48.85] },
          properties: { title: 'Paris', description: 'Capital of France', url: 'https://example.com/paris', category: 'capital' },
        },
      ]),
    );
    expect(set.skipped).toEqual([]);
    expect(set.warnings).toEqual([]);
    expect(set.pins).toEqual([
      { id: 'paris', title: 'Paris', description: 'Capital of France', url: 'https://example.com/paris', category: 'capital', lngLat: [2.35, 48.85], options: {} },
    ]);
  });

  it('reads the attribution foreign member, and warns about one that is not a string', () => {
    expect(parsePins(collection([], { attribution: 'Cities: GeoNames (CC BY 4.0)' })).attribution).toBe('Cities: GeoNames (CC BY 4.0)');
    expect(parsePins(collection([]))).not.toHaveProperty('attribution');
    const set = parsePins(collection([feature('a')], { attribution: { text: 'x' } }));
    expect(set).not.toHaveProperty('attribution');
    expect(set.warnings).toEqual(['pins: attribution must be a string (got an object); it is ignored']);
    expect(set.pins).toHaveLength(1);
  });
});

describe('parsePins: ids', () => {
  it('takes the GeoJSON id, else properties.id, and turns numbers into strings', () => {
    const set = parsePins(collection([feature('a'), feature(7), feature(undefined, { id: 'from-props' }), feature(undefined, { id: 0 }), feature(1.5, { id: 'ignored' })]));
    expect(set.pins.map((p) => p.id)).toEqual(['a', '7', 'from-props', '0', '1.5']);
    expect(set.skipped).toEqual([]);
  });

  it('skips a feature without a usable id, naming it by index', () => {
    const set = parsePins(collection([feature(undefined), feature(''), feature({ x: 1 }), feature(undefined, { id: true }), feature(Number.NaN), feature('ok')]));
    expect(set.pins.map((p) => p.id)).toEqual(['ok']);
    expect(set.skipped.map((s) => s.reason)).toEqual([
      'feature 0: has no id (a pin needs an `id` or `properties.id`, a string or a number)',
      'feature 1: id must not be empty',
      'feature 2: id must be a string or a number (got an object)',
      'feature 3: properties.id must be a string or a number (got true)',
      'feature 4: id must be a string or a finite number (got the number NaN)',
    ]);
    expect(set.skipped.map((s) => s.index)).toEqual([0, 1, 2, 3, 4]);
  });

  it('keeps the first of duplicate ids (a number and its string are the same id) and skips the rest', () => {
    const set = parsePins(collection([feature('paris', { title: 'First' }), feature('paris', { title: 'Second' }), feature(3), feature('3')]));
    expect(set.pins.map((p) => [p.id, p.title])).toEqual([
      ['paris', 'First'],
      ['3', 'Pin 3'],
    ]);
    expect(set.skipped).toEqual([
      { index: 1, id: 'paris', reason: 'feature 1 ("paris"): duplicate id "paris" (feature 0 has it and is shown)' },
      { index: 3, id: '3', reason: 'feature 3 ("3"): duplicate id "3" (feature 2 has it and is shown)' },
    ]);
  });

  it('lets a later feature have the id of an earlier one that was skipped', () => {
    const set = parsePins(collection([at('x', [0, 95]), at('x', [0, 45])]));
    expect(set.pins.map((p) => p.lngLat)).toEqual([[0, 45]]);
    expect(set.skipped.map((s) => s.index)).toEqual([0]);
  });
});

describe('parsePins: geometry', () => {
  it.each([
    ['no geometry', feature('g', {}, { geometry: null }), 'has no geometry (a pin needs a Point)'],
    ['a LineString', feature('g', {}, { geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] } }), 'geometry is a LineString, not a Point'],
    ['a MultiPoint', feature('g', {}, { geometry: { type: 'MultiPoint', coordinates: [[0, 0]] } }), 'geometry is a MultiPoint, not a Point'],
    ['a geometry that is a string', feature('g', {}, { geometry: 'POINT(0 0)' }), 'geometry must be a GeoJSON Point (got the string "POINT(0 0)")'],
    ['no coordinates', feature('g', {}, { geometry: { type: 'Point' } }), 'coordinates must be [longitude, latitude] (got nothing)'],
    ['one coordinate', at('g', [1]), 'coordinates must be [longitude, latitude] or [longitude, latitude, altitude] (got 1 value)'],
    ['four coordinates', at('g', [1, 2, 3, 4]), 'coordinates must be [longitude, latitude] or [longitude, latitude, altitude] (got 4 values)'],
    ['a string longitude', at('g', ['2.35', 48.85]), 'longitude must be a finite number (got the string "2.35")'],
    ['a null latitude', at('g', [2.35, null]), 'latitude must be a finite number (got null)'],
    ['a NaN longitude', at('g', [Number.NaN, 0]), 'longitude must be a finite number (got the number NaN)'],
    ['an infinite latitude', at('g', [0, Number.POSITIVE_INFINITY]), 'latitude must be a finite number (got the number Infinity)'],
    ['a latitude above 90', at('g', [2, 95]), 'latitude 95 is outside -90..90'],
    ['a latitude below -90', at('g', [2, -90.5]), 'latitude -90.5 is outside -90..90'],
    ['a string altitude', at('g', [2, 45, 'high']), 'altitude must be a finite number when given (got the string "high")'],
  ])('skips %s', (_what, bad, problem) => {
    const set = parsePins(collection([feature('good'), bad]));
    expect(set.pins.map((p) => p.id)).toEqual(['good']);
    expect(set.skipped).toEqual([{ index: 1, id: 'g', reason: `feature 1 ("g"): ${problem}` }]);
  });

  it('accepts the latitude limits, an altitude, and keeps ±180', () => {
    const set = parsePins(collection([at('n', [0, 90]), at('s', [0, -90]), at('alt', [10, 20, 300]), at('e', [180, 0]), at('w', [-180, 0])]));
    expect(set.skipped).toEqual([]);
    expect(set.pins.map((p) => p.lngLat)).toEqual([
      [0, 90],
      [0, -90],
      [10, 20],
      [180, 0],
      [-180, 0],
    ]);
  });

  it('wraps longitudes outside -180..180 into range, without a warning', () => {
    const set = parsePins(collection([at('a', [190, 10]), at('b', [-181, 10]), at('c', [540, 10]), at('d', [-360, 10]), at('e', [725.5, 10])]));
    expect(set.skipped).toEqual([]);
    expect(set.warnings).toEqual([]);
    expect(set.pins.map((p) => p.lngLat[0])).toEqual([-170, 179, 180 - 360, 0, 5.5]);
  });

  it('wrapLongitude keeps values in range and wraps others by whole turns', () => {
    expect(wrapLongitude(0)).toBe(0);
    expect(wrapLongitude(180)).toBe(180);
    expect(wrapLongitude(-180)).toBe(-180);
    expect(wrapLongitude(179.9)).toBe(179.9);
    expect(wrapLongitude(180.5)).toBeCloseTo(-179.5, 9);
    expect(wrapLongitude(-180.5)).toBeCloseTo(179.5, 9);
    expect(Object.is(wrapLongitude(360), 0)).toBe(true);
  });
});

describe('parsePins: properties', () => {
  it.each([
    ['no properties', feature('p', {}, { properties: null }), 'has no properties (a pin needs properties.title)'],
    ['properties that are an array', feature('p', {}, { properties: ['Paris'] }), 'properties must be an object (got an array)'],
    ['no title', feature('p', { title: undefined }), 'has no properties.title'],
    ['a numeric title', feature('p', { title: 42 }), 'properties.title must be a string (got the number 42)'],
    ['a blank title', feature('p', { title: '  ' }), 'properties.title must not be empty'],
    ['a numeric description', feature('p', { description: 3 }), 'properties.description must be a string (got the number 3)'],
    ['an object url', feature('p', { url: { href: 'https://example.com' } }), 'properties.url must be a string (got an object)'],
    ['a boolean category', feature('p', { category: true }), 'properties.category must be a string (got true)'],
  ])('skips a feature with %s, naming the property', (_what, bad, problem) => {
    const set = parsePins(collection([bad, feature('good')]));
    expect(set.pins.map((p) => p.id)).toEqual(['good']);
    expect(set.skipped).toEqual([{ index: 0, id: 'p', reason: `feature 0 ("p"): ${problem}` }]);
  });

  it('skips a feature that is not a Feature', () => {
    const set = parsePins(collection(['paris', null, feature('t', {}, { type: 'Point' }), feature('ok')]));
    expect(set.skipped.map((s) => s.reason)).toEqual([
      'feature 0: must be a GeoJSON Feature object (got the string "paris")',
      'feature 1: must be a GeoJSON Feature object (got null)',
      'feature 2 ("t"): type must be "Feature" (got the string "Point")',
    ]);
    expect(set.pins.map((p) => p.id)).toEqual(['ok']);
  });

  it('treats null optional properties as absent', () => {
    const [pin] = parsePins(collection([feature('a', { description: null, url: null, category: null, pin: null })])).pins;
    expect(pin).toEqual({ id: 'a', title: 'Pin a', description: '', lngLat: [2.35, 48.85], options: {} });
  });

  it('keeps only http(s) links; any other url is dropped with a warning naming the pin', () => {
    const set = parsePins(
      collection([
        feature('http', { url: 'http://example.com/a' }),
        feature('https', { url: 'HTTPS://example.com/b?c=d#e' }),
        feature('js', { url: 'javascript:alert(1)' }),
        feature('rel', { url: '/pins/rel' }),
        feature('data', { url: 'data:text/html,<b>x</b>' }),
        feature('broken', { url: 'https://' }),
      ]),
    );
    expect(set.pins.map((p) => [p.id, p.url])).toEqual([
      ['http', 'http://example.com/a'],
      ['https', 'HTTPS://example.com/b?c=d#e'],
      ['js', undefined],
      ['rel', undefined],
      ['data', undefined],
      ['broken', undefined],
    ]);
    expect(set.pins.find((p) => p.id === 'js')).not.toHaveProperty('url');
    expect(set.warnings).toEqual([
      'pin "js": properties.url "javascript:alert(1)" is not an http(s) URL; it is not shown as a link',
      'pin "rel": properties.url "/pins/rel" is not an http(s) URL; it is not shown as a link',
      'pin "data": properties.url "data:text/html,<b>x</b>" is not an http(s) URL; it is not shown as a link',
      'pin "broken": properties.url "https://" is not an http(s) URL; it is not shown as a link',
    ]);
  });

  it('isHttpUrl', () => {
    expect(isHttpUrl('https://www.geonames.org/2988507')).toBe(true);
    expect(isHttpUrl('ftp://example.com')).toBe(false);
    expect(isHttpUrl(' https://example.com')).toBe(false);
    expect(isHttpUrl('https:example.com')).toBe(false);
  });

  it('isHttpUrl: the plain-link shortcut agrees with the URL parser on hostile and edge-case links', () => {
    const edges = ['https://example.com:99999', 'https://example.com:65535/', 'https://1.2.3.999', 'https://1.2.3.4.example', 'https://a.0x10', 'https://xn--a.com', 'https://xn--bcher-kva.example/', 'https://exa_mple.com/', 'https://example.com/ a', 'https://example.com\\evil', 'https://user@example.com/', 'https://-a.com/', 'https://a-.com/', 'HTTP://EXAMPLE.COM/Ü', 'https://example.com?', 'https://example.com#%zz', 'https://a..com/'];
    const candidates = [...edges];
    for (const text of [...BLNS, ...TRAPS]) candidates.push(text, `https://${text}`, `https://example.com/${text}`, `http://a.${text}.com/`, `https://example.com:${text}`, `https://example.${text}`);
    let shortcut = 0;
    for (const link of candidates) {
      const parsed = /^https?:\/\//i.test(link) && URL.canParse(link);
      if (PLAIN_HTTP_URL.test(link) && !/xn--/i.test(link)) {
        shortcut++;
        expect(URL.canParse(link), link).toBe(true);
      }
      expect(isHttpUrl(link), link).toBe(parsed);
    }
    expect(shortcut).toBeGreaterThan(200); // the shortcut is taken, not only the parser
  });
});

describe('parsePins: pin options', () => {
  it('keeps valid per-pin options, parsed (a numeric label becomes a string), including 0 values', () => {
    const [pin] = parsePins(collection([feature('a', { pin: { markerColor: 'rebeccapurple', iconSize: 0, iconXOffset: -3, label: 7, popupAnchor: [0, -40], shadow: false } })])).pins;
    expect(pin?.options).toEqual({ markerColor: 'rebeccapurple', iconSize: 0, iconXOffset: -3, label: '7', popupAnchor: [0, -40], shadow: false });
  });

  it('drops each invalid or unknown field with one warning naming the pin and the field; the other fields and pins stay', () => {
    const set = parsePins(
      collection([
        feature('paris', { pin: { markerColor: 'blue-ish', iconSize: -1, popupAnchor: [1, 'x'], colour: 'red', iconColor: '#000' } }),
        feature('rome', { pin: { markerColor: '#f00' } }),
      ]),
    );
    expect(set.skipped).toEqual([]);
    expect(set.pins.map((p) => p.options)).toEqual([{ iconColor: '#000' }, { markerColor: '#f00' }]);
    expect(set.warnings).toEqual([
      'pin "paris": pin.markerColor must be a CSS colour such as #3FB1CE, rgb(…), hsl(…) or a colour name (got the string "blue-ish"); the default is used',
      'pin "paris": pin.iconSize must be 0 or more (px) (got the number -1); the default is used',
      'pin "paris": pin.popupAnchor[1] must be a finite number (px) (got the string "x"); the default is used',
      'pin "paris": pin.colour is not a pin option; it is ignored',
    ]);
  });

  it('ignores a pin member that is not an object, with a warning, and still shows the pin', () => {
    const set = parsePins(collection([feature('a', { pin: 'red' })]));
    expect(set.pins.map((p) => p.options)).toEqual([{}]);
    expect(set.warnings).toEqual(['pin "a": pin must be an object of pin options (got the string "red"); it is ignored']);
  });

  it('shares one frozen options object among the pins of a category without options of their own', () => {
    const set = parsePins(collection([feature('a', { category: 'c' }), feature('b', { category: 'c' }), feature('d', { category: 'c', pin: { scale: 2 } })]), { c: { iconSize: 10 } });
    const [a, b, d] = set.pins;
    expect(a?.options).toEqual({ iconSize: 10 });
    expect(a?.options).toBe(b?.options);
    expect(Object.isFrozen(a?.options)).toBe(true);
    expect(a?.options).not.toBe(set.pinStyles.c);
    // A pin with options of its own has its own object.
    expect(d?.options).toEqual({ iconSize: 10, scale: 2 });
    expect(d?.options).not.toBe(a?.options);
  });
});

describe('parsePins: category styles', () => {
  const fileStyles = {
    capital: { iconClasses: 'fa-solid fa-landmark-flag', markerColor: '#C62828', iconSize: 14 },
    city: { iconClasses: 'fa-solid fa-building' },
  };

  it("merges the file's pinStyles with config's (config wins per field) and a pin's own options over its category", () => {
    const set = parsePins(
      collection(
        [
          feature('rome', { category: 'capital', pin: { iconSize: 20 } }),
          feature('lyon', { category: 'city' }),
          feature('oslo', { category: 'port' }),
          feature('nowhere', { category: 'unknown' }),
          feature('plain'),
        ],
        { pinStyles: fileStyles },
      ),
      { capital: { markerColor: '#000000' }, port: { markerColor: 'navy' } },
    );
    expect(set.pinStyles).toEqual({
      capital: { iconClasses: 'fa-solid fa-landmark-flag', markerColor: '#000000', iconSize: 14 },
      city: { iconClasses: 'fa-solid fa-building' },
      port: { markerColor: 'navy' },
    });
    expect(set.pins.map((p) => p.options)).toEqual([
      { iconClasses: 'fa-solid fa-landmark-flag', markerColor: '#000000', iconSize: 20 },
      { iconClasses: 'fa-solid fa-building' },
      { markerColor: 'navy' },
      {},
      {},
    ]);
    expect(set.warnings).toEqual([]);
  });

  it("says the category's value applies when a pin's own value for it is bad", () => {
    const set = parsePins(collection([feature('rome', { category: 'capital', pin: { markerColor: 'nope', iconColor: 'nope' } })], { pinStyles: fileStyles }));
    expect(set.pins[0]?.options.markerColor).toBe('#C62828');
    expect(set.warnings).toEqual([
      'pin "rome": pin.markerColor must be a CSS colour such as #3FB1CE, rgb(…), hsl(…) or a colour name (got the string "nope"); the "capital" style\'s value is used',
      'pin "rome": pin.iconColor must be a CSS colour such as #3FB1CE, rgb(…), hsl(…) or a colour name (got the string "nope"); the default is used',
    ]);
  });

  it("checks the file's pinStyles field by field, with one warning per bad field or category", () => {
    const set = parsePins(
      collection([feature('a', { category: 'capital' })], {
        pinStyles: { capital: { markerColor: 'nope', iconSize: 12, glyph: 'x' }, broken: 'red' },
      }),
    );
    expect(set.pinStyles).toEqual({ capital: { iconSize: 12 } });
    expect(set.pins[0]?.options).toEqual({ iconSize: 12 });
    expect(set.warnings).toEqual([
      'pins: pinStyles.capital.markerColor must be a CSS colour such as #3FB1CE, rgb(…), hsl(…) or a colour name (got the string "nope"); the default is used',
      'pins: pinStyles.capital.glyph is not a pin option; it is ignored',
      'pins: pinStyles.broken must be an object of pin options (got the string "red"); it is ignored',
    ]);
  });

  it('treats categories named like Object members as plain names', () => {
    const set = parsePins(
      collection([feature('a', { category: 'constructor' }), feature('b', { category: '__proto__' }), feature('c', { category: 'toString' })], {
        pinStyles: JSON.parse('{"__proto__": {"iconSize": 9}, "constructor": {"iconSize": 8}}') as unknown,
      }),
    );
    expect(set.pins.map((p) => p.options)).toEqual([{ iconSize: 8 }, { iconSize: 9 }, {}]);
    expect(Object.keys(set.pinStyles).sort()).toEqual(['__proto__', 'constructor']);
    expect(set.warnings).toEqual([]);
    expect(({} as Record<string, unknown>).iconSize).toBeUndefined();
  });

  it('warns once about a pinStyles member that is not an object', () => {
    const set = parsePins(collection([feature('a')], { pinStyles: [] }));
    expect(set.pinStyles).toEqual({});
    expect(set.warnings).toEqual(['pins: pinStyles must be an object of category → pin options (got an array); it is ignored']);
  });
});

describe('reporting', () => {
  const bad = (n: number) => Array.from({ length: n }, (_, i) => at(`bad-${i}`, [0, 100 + i]));

  it('pinNotice counts skipped features, singular and plural, and is undefined when none were', () => {
    expect(pinNotice(parsePins(collection([feature('a')])))).toBeUndefined();
    expect(pinNotice(parsePins(collection(bad(1))))).toBe('1 pin could not be shown');
    expect(pinNotice(parsePins(collection(bad(3))))).toBe('3 pins could not be shown');
    expect(pinNotice({ skipped: Array.from({ length: 1234 }, (_, index) => ({ index, reason: 'x' })) })).toBe('1,234 pins could not be shown');
  });

  it('summariseSkipped lists the first reasons and counts the rest', () => {
    const set = parsePins(collection(bad(7)));
    expect(summariseSkipped(set, 2)).toEqual(['feature 0 ("bad-0"): latitude 100 is outside -90..90', 'feature 1 ("bad-1"): latitude 101 is outside -90..90', '… and 5 more']);
    expect(summariseSkipped(set)).toHaveLength(6);
    expect(summariseSkipped(parsePins(collection(bad(5))))).toHaveLength(5);
  });

  it('describePinSet gives the notice and console lines for skipped features and warnings', () => {
    const set = parsePins(collection([...bad(2), feature('ok', { pin: { scale: 9 } })]));
    expect(describePinSet(set)).toEqual({
      notice: '2 pins could not be shown',
      console: [
        '2 pins could not be shown:',
        '  feature 0 ("bad-0"): latitude 100 is outside -90..90',
        '  feature 1 ("bad-1"): latitude 101 is outside -90..90',
        '1 warning about the pins:',
        '  pin "ok": pin.scale must be between 0.5 and 3 (got the number 9); the default is used',
      ],
    });
    expect(describePinSet(parsePins(collection([feature('ok')])))).toEqual({ console: [] });
  });
});

describe('parsePins: fields kept for the search', () => {
  const feature = (properties: Record<string, unknown>) => ({ type: 'Feature', id: 'a', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { title: 'A', ...properties } });

  it('keeps the text of the named properties, numbers as text, and nothing else', () => {
    const set = parsePins({ type: 'FeatureCollection', features: [feature({ address: 'Bahnhofstrasse 1', zip: 8001, note: 'not named', tags: ['x'] })] }, {}, { searchFields: ['address', 'zip', 'tags', 'description'] });
    expect(set.pins[0]!.fields).toEqual({ address: 'Bahnhofstrasse 1', zip: '8001' });
    expect(set.skipped).toEqual([]);
  });

  it('keeps no fields when none are named', () => {
    expect(parsePins({ type: 'FeatureCollection', features: [feature({ address: 'x' })] }).pins[0]!.fields).toBeUndefined();
  });
});

const pinWith = (id: string, options: Pin['options']): Pin => ({ id, title: id, description: '', lngLat: [0, 0], options });

describe('PinsById', () => {
  it('finds each pin of the set by its id, and nothing for an id the set lacks', () => {
    const list = [pinWith('a', {}), pinWith('b', {}), pinWith('c', {})];
    const pins = new PinsById(list);
    expect(pins.size).toBe(3);
    expect(list.map((p) => pins.get(p.id))).toEqual(list);
    expect(pins.get('d')).toBeUndefined();
    expect(new PinsById([]).get('a')).toBeUndefined();
  });
});
