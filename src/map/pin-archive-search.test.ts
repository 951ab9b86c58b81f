import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parsePins } from '../pins/data.ts';
import { ARCHIVE_SEARCH } from '../pins/archive-search.ts';
import { createPinSearch } from '../pins/search.ts';
import type { Pin } from '../pins/types.ts';
import { openServedArchive, tileCollection, withMetadata, type ServedRange } from '../testing/pin-archive.testing.ts';
import { feature } from '../testing/pin-features.testing.ts';

const HOST = 'https://pins.example.org';
const CATEGORIES = ['cafe', 'museum', 'park'];
const STREETS = ['Rue de Rivoli', 'Bahnhofstrasse', 'Via del Corso', 'Straße des 17. Juni', 'Øster Allé'];

/** 6,000 pins: titles of a number, a street and a place ("Café 12, Rue de Rivoli"); descriptions with a district. */
function collection() {
  return {
    type: 'FeatureCollection',
    features: Array.from({ length: 6000 }, (_, i) =>
      feature(`p${i}`, {
        title: `${['Café', 'Musée', 'Park'][i % 3]} ${i + 1}, ${STREETS[i % STREETS.length]}`,
        description: `District ${(i % 20) + 1}\nOpen ${i % 2 ? 'daily' : 'weekdays'}`,
        category: CATEGORIES[i % 3],
      }, { geometry: { type: 'Point', coordinates: [-10 + (i % 100) * 0.3, 40 + Math.floor(i / 100) * 0.2] } }),
    ),
  };
}

let titlesOnly: Buffer;
let withFields: Buffer;
let pins: Pin[];
beforeAll(async () => {
  titlesOnly = await tileCollection(collection());
  withFields = await tileCollection(collection(), { searchFields: ['description'] });
  pins = parsePins(collection(), {}, { searchFields: ['description'] }).pins;
}, 120_000);

let served: ServedRange[];
/** Opens `bytes` as the page does (see `openServedArchive`); `served` lists its range requests. */
async function open(bytes: Buffer) {
  const opened = await openServedArchive(bytes, HOST);
  served = opened.served;
  return opened.archive;
}
afterEach(() => vi.unstubAllGlobals());

/** The inline search of the same pins (the rule both follow: each word of the query begins a word of a text searched). */
function inlineSearch(fields: string[]) {
  const inline = createPinSearch(pins, fields);
  return (query: string, limit: number) => inline.search(query, limit);
}

/** What the results list shows of each hit, best first. */
const shown = (hits: { pin: { id: string; title: string; category?: string | undefined }; field: string }[]) => hits.map(({ pin, field }) => [pin.id, pin.title, pin.category, field]);

describe('the search of a pre-tiled archive', () => {
  it('finds what the inline search finds in the same pins, in the same order', async () => {
    const archive = await open(titlesOnly);
    const inline = inlineSearch([]);
    for (const query of ['café 12', 'RUE', 'musee 5', 'strasse des 17', 'juni', 'oster alle 29', 'park 600', 'bahnhofstrasse café', 'zzz']) {
      const found = await archive.search!.search(query, 8, new Set());
      const expected = inline(query, 8);
      expect(shown(found.hits), query).toEqual(shown(expected.hits));
      expect(found.total, query).toBe(expected.total);
      expect(found.exact).toBe(true);
    }
    const [hit] = (await archive.search!.search('café 1, rue', 1, new Set())).hits;
    expect(hit!.pin).toEqual({ id: 'p0', title: 'Café 1, Rue de Rivoli', description: 'District 1', category: 'cafe' });
  });

  it('searches the fields the archive was made with, as the inline search does with them', async () => {
    const archive = await open(withFields);
    expect(archive.search!.fields).toEqual(['description']);
    const inline = inlineSearch(['description']);
    for (const query of ['district 7', 'musée 4217 district', 'district 12 park 95', 'daily']) {
      const found = await archive.search!.search(query, 8, new Set());
      const expected = inline(query, 8);
      expect(shown(found.hits), query).toEqual(shown(expected.hits));
      expect(found.total, query).toBe(expected.total);
      expect(found.exact).toBe(true);
    }
    // A word common to thousands of pins in a field beyond the description's first line: matched
    // among its best pins only, and the count says at least.
    for (const query of ['weekdays musée', 'musée 4217 weekdays']) {
      const common = await archive.search!.search(query, 8, new Set());
      expect(common.exact).toBe(false);
      const all = inline(query, pins.length).hits.map((hit) => hit.pin.id);
      for (const hit of common.hits) expect(all).toContain(hit.pin.id);
    }
  });

  it('answers each keystroke with at most 3 range requests, after one for the index\'s directory', async () => {
    const archive = await open(withFields);
    const before = served.length;
    archive.search!.prepare();
    await archive.search!.search('x', 8, new Set());
    const directory = served.length - before;
    expect(directory).toBeLessThanOrEqual(2);
    const perKey: number[] = [];
    for (const query of ['musée 4217, via del corso', 'district 13 daily', 'p', 'øster']) {
      for (let n = 1; n <= query.length; n++) {
        const start = served.length;
        await archive.search!.search(query.slice(0, n), 8, new Set());
        perKey.push(served.length - start);
      }
    }
    expect(Math.max(...perKey)).toBeLessThanOrEqual(3);
    // Most keystrokes find their blocks read already.
    expect(perKey.filter((n) => n === 0).length).toBeGreaterThan(perKey.length / 2);
  });

  it('answers a word common to thousands of pins from its best pins, with the count of all of them', async () => {
    const archive = await open(titlesOnly);
    const inline = inlineSearch([]);
    for (const query of ['c', 'ca', 'caf', 'de']) {
      const found = await archive.search!.search(query, 8, new Set());
      const expected = inline(query, 8);
      expect(shown(found.hits), query).toEqual(shown(expected.hits));
      expect(found.total, query).toBe(expected.total);
      expect(found.exact).toBe(true);
    }
    // With another word the count is what the best pins held: at least that many.
    const both = await archive.search!.search('c d', 8, new Set());
    expect(both.exact).toBe(false);
    expect(both.hits.length).toBeGreaterThan(0);
    for (const hit of both.hits) expect(hit.pin.title.toLowerCase()).toMatch(/(^| )c.* d/);
  });

  it('leaves out the pins of hidden categories', async () => {
    const archive = await open(titlesOnly);
    const found = await archive.search!.search('rivoli', 100, new Set(['cafe', 'park']));
    expect(found.total).toBe(pins.filter((pin) => pin.category === 'museum' && pin.title.includes('Rivoli')).length);
    expect(new Set(found.hits.map((hit) => hit.pin.category))).toEqual(new Set(['museum']));
  });

  it('rejects with a message naming the archive when its index is damaged, and reads it again at the next search', async () => {
    const at = await (async () => {
      const archive = await open(titlesOnly);
      archive.search!.prepare();
      await archive.search!.search('rue', 8, new Set());
      return served.at(-1)!;
    })();
    const damaged = Buffer.from(titlesOnly);
    damaged.fill(0, at.offset, at.offset + at.length);
    const archive = await open(damaged);
    await expect(archive.search!.search('rue', 8, new Set())).rejects.toThrow(/pins-\d+\.pmtiles: its search index is damaged \(its words block \d+ is not gzipped JSON\)/);
    const asked = served.length;
    await expect(archive.search!.search('rue', 8, new Set())).rejects.toThrow(/damaged/);
    expect(served.length).toBeGreaterThan(asked);
  });

  it('opens an archive of format version 2 without a search index, and one whose search member is not one', async () => {
    const old = await open(withMetadata(titlesOnly, (pinmap) => {
      pinmap.version = 2;
      delete pinmap.search;
    }));
    expect(old.search).toBeUndefined();
    expect(old.bubbleCategories).toBe(false);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const odd = await open(withMetadata(titlesOnly, (pinmap) => (pinmap.search = { fields: 'title' })));
    expect(odd.search).toBeUndefined();
    expect(warn.mock.calls[0]?.[0]).toMatch(/pinmap\.search is an object, not where a search index is/);
    warn.mockRestore();
    await expect(open(withMetadata(titlesOnly, (pinmap) => (pinmap.version = 1)))).rejects.toThrow(/version the number 1; this Pinmap reads versions 2 to 5 \(make the archive again/);
  });
});

/** 3,000 addresses: numbers, ranges ("1-49"), letters ("12b"), diacritics and capitals; a city in the description; no categories. */
function addresses() {
  const streets = ['Hauptstraße', 'Rue de Genève', 'Øster Allé', 'ÉCOLE Lane', 'Main St'];
  const cities = ['Zürich', 'São Paulo', 'MÜNCHEN', 'Kraków'];
  return {
    type: 'FeatureCollection',
    features: Array.from({ length: 3000 }, (_, i) => {
      const street = streets[i % streets.length]!;
      const n = (i % 150) + 1;
      const title = [`${street} ${n}-${n + 48}`, `${street} ${n}`, `${n} ${street}`, `${street} ${n}b`, `${street} ${2000 + n}`][Math.floor(i / 5) % 5]!;
      return feature(`a${i}`, { title, description: `Apt ${i % 112}, ${cities[i % cities.length]}` }, { geometry: { type: 'Point', coordinates: [5 + (i % 60) * 0.05, 45 + Math.floor(i / 60) * 0.05] } });
    }),
  };
}

describe('one set of answers: the inline search and an archive\'s index', () => {
  let titles: Buffer;
  let described: Buffer;
  let inlinePins: Pin[];
  beforeAll(async () => {
    titles = await tileCollection(addresses());
    described = await tileCollection(addresses(), { searchFields: ['description'] });
    inlinePins = parsePins(addresses(), {}, { searchFields: ['description'] }).pins;
  }, 120_000);

  const QUERIES = ['1-49', '12', '1 49', '49-1', 'hauptstrasse 12', 'HAUPTSTRASSE', 'Straße 2012', 'genève', 'GENEVE 7', 'ecole', 'École lane 12b', 'øster', 'oster', '12b', '2', 'zzz', 'allé 3-'];
  const FIELD_QUERIES = [...QUERIES, 'zurich', 'ZÜRICH apt 1', 'sao paulo', 'KRAKOW 150', 'munchen 49', 'apt 12'];

  for (const [name, fields, queries] of [
    ['titles only', [] as string[], QUERIES],
    ['titles and descriptions', ['description'], FIELD_QUERIES],
  ] as const) {
    it(`finds the same pins, counted alike and in the same order: ${name}`, async () => {
      const archive = await open(fields.length === 0 ? titles : described);
      const inline = createPinSearch(inlinePins, fields);
      const counts: Record<string, number> = {};
      for (const query of queries) {
        const expected = inline.search(query, inlinePins.length);
        counts[query] = expected.total;
        // The best 8, as the search box shows them, and every pin where the index keeps them all.
        for (const limit of [8, expected.total <= ARCHIVE_SEARCH.topPins ? inlinePins.length : 8]) {
          const found = await archive.search!.search(query, limit, new Set());
          expect(shown(found.hits), `${query} (${limit})`).toEqual(shown(expected.hits.slice(0, limit)));
          expect(found.total, query).toBe(expected.total);
          expect(found.exact, query).toBe(true);
        }
      }
      // Word starts, not substrings: "1-49" is the words 1 and 49 (the ranges starting at 1, and 1's and 49's), "12" no "112" or "2012".
      expect(counts['1-49']).toBe(counts['1 49']);
      expect(counts['1-49']).toBe(counts['49-1']);
      expect(counts['12']).toBe(inlinePins.filter((pin) => /(^|[^0-9a-z])12/i.test(pin.title) || (fields.length > 0 && /(^|[^0-9a-z])12/i.test(pin.description))).length);
      expect(counts['genève']).toBe(inlinePins.filter((pin) => pin.title.includes('Genève')).length);
      expect(counts['oster']).toBe(0);
      expect(counts['øster']).toBeGreaterThan(0);
      expect(counts['zzz']).toBe(0);
    });
  }
});

