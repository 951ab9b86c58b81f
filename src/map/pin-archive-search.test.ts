import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parsePins } from '../pins/data.ts';
import { createPinSearch, fieldText } from '../pins/search.ts';
import { searchWords } from '../pins/archive-search.ts';
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

/**
 * The inline search of the same pins, keeping the pins of which every word of the query begins a
 * word of the title or of a searched field (the archive's rule; inline, a word may be anywhere).
 */
function inlineWordStarts(fields: string[]) {
  const inline = createPinSearch(pins, fields);
  const startsAWord = (text: string, word: string) => searchWords(text).some((w) => w.startsWith(word));
  return (query: string, limit: number) => {
    const words = searchWords(query);
    const { hits } = inline.search(query, pins.length);
    const kept = hits.filter(({ pin }) => words.every((word) => [pin.title, ...fields.map((name) => fieldText(pin as Pin, name))].some((text) => startsAWord(text, word))));
    return { hits: kept.slice(0, limit), total: kept.length };
  };
}

/** What the results list shows of each hit, best first. */
const shown = (hits: { pin: { id: string; title: string; category?: string | undefined }; field: string }[]) => hits.map(({ pin, field }) => [pin.id, pin.title, pin.category, field]);

describe('the search of a pre-tiled archive', () => {
  it('finds, for queries whose words begin words, what the inline search finds in the same pins, in the same order', async () => {
    const archive = await open(titlesOnly);
    const inline = inlineWordStarts([]);
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
    const inline = inlineWordStarts(['description']);
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
    const inline = inlineWordStarts([]);
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
    await expect(open(withMetadata(titlesOnly, (pinmap) => (pinmap.version = 1)))).rejects.toThrow(/version the number 1; this Pinmap reads versions 2 to 4 \(make the archive again/);
  });
});
