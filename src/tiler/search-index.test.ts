import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { PIN_ARCHIVE, type PinArchiveMetadata } from '../pins/archive-format.ts';
import { ARCHIVE_SEARCH, POSTING_BITS, blockSpan, fieldBit, isCommon, type SearchBlock, type SearchDirectory, type TopsBlock } from '../pins/archive-search.ts';
import type { Pin } from '../pins/types.ts';
import { feature } from '../testing/pin-features.testing.ts';
import { SearchIndexWriter, commonPrefixes, orderKey } from './search-index.ts';
import { foldText, searchWords } from '../pins/search.ts';
import { tilePins } from './tile-pins.ts';

const folder = mkdtempSync(join(tmpdir(), 'pinmap-search-index-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A pin as the checker makes it. */
const pin = (id: string, title: string, more: Partial<Pin> = {}): Pin => ({ id, title, description: '', lngLat: [0, 0], options: {}, ...more });

/** The index `pins` make (each of look 0), read back whole: its directory, blocks and tops blocks. */
function indexOf(pins: Pin[], fields: string[] = []) {
  const writer = new SearchIndexWriter(fields);
  for (const p of pins) writer.add(p, 0);
  const path = join(folder, `index-${Math.random()}.bin`);
  const written = writer.write(path);
  return { written, ...readIndex(readFileSync(path), written.directory) };
}

/** A search index's parts, from its bytes and where its directory is. */
function readIndex(bytes: Buffer, [at, length]: [number, number]) {
  const gunzip = <T>(from: number, to: number) => JSON.parse(gunzipSync(bytes.subarray(from, to)).toString('utf8')) as T;
  const directory = gunzip<SearchDirectory>(at, at + length);
  const blocks = directory.words.map((_, b) => gunzip<SearchBlock>(directory.offsets[b]!, directory.offsets[b + 1]!));
  const tops = directory.tops.map((_, b) => gunzip<TopsBlock>(directory.topOffsets[b]!, directory.topOffsets[b + 1]!));
  return { directory, blocks, tops };
}

describe('SearchIndexWriter', () => {
  it('writes every word of each title and searched field once per pin, with where it is, in word order', () => {
    const pins = [
      pin('zh', 'Zürich Hauptbahnhof', { description: 'Largest station\nin Switzerland', category: 'railway' }),
      pin('be', 'Bern', { description: 'Capital; near Zürich', fields: { canton: 'Bern' } }),
      pin('gr', 'Grand Hotel Zurich zurich'),
    ];
    const { blocks, directory } = indexOf(pins, ['description', 'canton']);
    expect(blocks).toHaveLength(1);
    expect(directory.words).toEqual(['bern']);
    const words = blocks[0]!.map(([word]) => word);
    expect(words).toEqual([...words].sort());
    const postings = new Map(blocks[0]!.map(([word, found]) => [word, found.map(([bits, id]) => [id, bits])]));
    expect(postings.get('zurich')).toEqual([
      ['zh', POSTING_BITS.titleFirst],
      ['gr', POSTING_BITS.inTitle],
      ['be', fieldBit(0)],
    ]);
    expect(postings.get('bern')).toEqual([['be', POSTING_BITS.titleFirst | fieldBit(1)]]);
    expect(postings.get('largest')).toEqual([['zh', fieldBit(0)]]);
    // The second line of a description is searched; a result shows the first.
    expect(postings.get('switzerland')).toEqual([['zh', fieldBit(0)]]);
    expect(blocks[0]!.find(([word]) => word === 'hauptbahnhof')![1][0]).toEqual([POSTING_BITS.inTitle, 'zh', 'Zürich Hauptbahnhof', 0, 'Largest station']);
    // The category is not searched unless named.
    expect(postings.has('railway')).toBe(false);
    expect(indexOf(pins, ['category']).blocks[0]!.find(([word]) => word === 'railway')?.[1].map(([bits, id]) => [id, bits])).toEqual([['zh', fieldBit(0)]]);
    // Words are split at anything but letters and digits.
    expect(indexOf(pins, ['description']).blocks[0]!.some(([word]) => word === 'capital')).toBe(true);
  });

  it('cuts the postings into blocks of about blockBytes, each block starting with its directory word, a word of many pins over several', () => {
    const pins = Array.from({ length: 6000 }, (_, i) => pin(`p${i}`, `Pin ${i + 1} ${['red', 'green', 'blue'][i % 3]}`));
    const { blocks, directory } = indexOf(pins);
    expect(blocks.length).toBeGreaterThan(8);
    blocks.forEach((block, b) => {
      expect(block[0]![0]).toBe(directory.words[b]);
      expect(JSON.stringify(block).length).toBeLessThan(ARCHIVE_SEARCH.blockBytes + 400);
    });
    // "pin" fills several blocks: each begins with it again.
    expect(directory.words.filter((word) => word === 'pin').length).toBeGreaterThan(ARCHIVE_SEARCH.maxBlocks);
    // Read in the directory's order, the words are in order and every pin has its three.
    const all = blocks.flat();
    const words = all.map(([word]) => word);
    expect(words).toEqual([...words].sort());
    const perPin = new Map<string, number>();
    for (const [, found] of all) for (const [, id] of found) perPin.set(id, (perPin.get(id) ?? 0) + 1);
    expect(perPin.size).toBe(6000);
    expect([...perPin.values()].every((n) => n === 3)).toBe(true);
    // A word's postings: the title's first word first, then in title order ("Pin 9" before "Pin 10").
    const pinWord = all.filter(([word]) => word === 'pin').flatMap(([, found]) => found.map(([, , title]) => title));
    expect(pinWord.slice(0, 11)).toEqual(['Pin 1 red', 'Pin 2 green', 'Pin 3 blue', 'Pin 4 red', 'Pin 5 green', 'Pin 6 blue', 'Pin 7 red', 'Pin 8 green', 'Pin 9 blue', 'Pin 10 red', 'Pin 11 green']);
  });

  it('keeps, for each prefix whose words fill more than maxBlocks blocks, its pin count and its best pins; the page finds them from the directory', () => {
    const pins = Array.from({ length: 6000 }, (_, i) => pin(`p${i}`, i % 2 ? `Pin ${i + 1}` : `Red pin ${i + 1}`));
    const { tops, directory } = indexOf(pins);
    const kept = new Map(tops.flat().map(([prefix, total, best]) => [prefix, { total, best }]));
    // Every prefix of "pin" is common; it and its best pins: the titles that start with it first, in title order.
    for (const prefix of ['p', 'pi', 'pin']) {
      expect(isCommon(directory.words, prefix)).toBe(true);
      expect(kept.get(prefix)?.total).toBe(6000);
    }
    const best = kept.get('pin')!.best;
    expect(best).toHaveLength(ARCHIVE_SEARCH.topPins);
    expect(best.slice(0, 3).map(([bits, , title]) => [bits, title])).toEqual([
      [POSTING_BITS.titleFirst, 'Pin 2'],
      [POSTING_BITS.titleFirst, 'Pin 4'],
      [POSTING_BITS.titleFirst, 'Pin 6'],
    ]);
    // Only the common ones are kept, in order, with the tops directory naming each block's first.
    const prefixes = tops.flat().map(([prefix]) => prefix);
    expect(prefixes).toEqual([...prefixes].sort());
    for (const prefix of prefixes) expect(isCommon(directory.words, prefix)).toBe(true);
    expect(tops.map((block) => block[0]![0])).toEqual(directory.tops);
    expect(kept.has('red')).toBe(isCommon(directory.words, 'red'));
  });

  it('enumerates the common prefixes from the sorted words alone', () => {
    const words = ['apple', 'pin', 'pine', 'pink', 'zebra'];
    // Blocks: a word's range is common when it spans more than maxBlocks of them.
    const firsts = ['apple', ...Array.from({ length: ARCHIVE_SEARCH.maxBlocks + 1 }, () => 'pin'), 'pink', 'zebra'];
    expect([...commonPrefixes(words, firsts)].map(([prefix, from, to]) => [prefix, words.slice(from, to)])).toEqual([
      ['p', ['pin', 'pine', 'pink']],
      ['pi', ['pin', 'pine', 'pink']],
      ['pin', ['pin', 'pine', 'pink']],
    ]);
    expect(blockSpan(firsts, 'pine')[1] - blockSpan(firsts, 'pine')[0] + 1).toBeLessThanOrEqual(ARCHIVE_SEARCH.maxBlocks + 1);
  });

  it('orders titles roughly as the panels do, numbers by their value', () => {
    const titles = ['Pin 10', 'pin 9', 'Ärger', 'apple', 'Pin 009', 'b'];
    const sorted = [...titles].sort((a, b) => {
      const [ah, al] = orderKey(foldText(a));
      const [bh, bl] = orderKey(foldText(b));
      return ah - bh || al - bl;
    });
    expect(sorted).toEqual(['apple', 'Ärger', 'b', 'pin 9', 'Pin 009', 'Pin 10']);
  });

  it('writes an empty index for no pins', () => {
    const { blocks, tops, written } = indexOf([]);
    expect([blocks, tops]).toEqual([[], []]);
    expect(written.length).toBeGreaterThan(0);
  });
});

describe('the tiler', () => {
  it('puts the search index after the pin index and says in the metadata where it is and which fields it searched', async () => {
    const path = join(folder, 'searched.pmtiles');
    const collection = { type: 'FeatureCollection', features: [feature('a', { title: 'Café Zürich', description: 'Coffee', city: 'Zürich' }), feature('b', { title: 'Bern' })] };
    await tilePins(Readable.from([JSON.stringify(collection)]), path, { searchFields: ['title', 'city', 'description'] });
    const bytes = readFileSync(path);
    const metadataAt = Number(bytes.readBigUInt64LE(24));
    const metadata = JSON.parse(gunzipSync(bytes.subarray(metadataAt, metadataAt + Number(bytes.readBigUInt64LE(32)))).toString('utf8')) as { pinmap: PinArchiveMetadata };
    const { search, index, version } = metadata.pinmap;
    expect(version).toBe(PIN_ARCHIVE.version);
    expect(search?.fields).toEqual(['city', 'description']);
    const indexAt = Number(bytes.readBigUInt64LE(56)) + Number(bytes.readBigUInt64LE(64));
    const at = indexAt + index.length;
    // The bubbles' pins follow it, to the end of the file.
    expect(at + search!.length + metadata.pinmap.leaves!.length).toBe(bytes.length);
    const { blocks } = readIndex(bytes.subarray(at), search!.directory);
    const postings = new Map(blocks.flat().map(([word, found]) => [word, found.map(([bits, id]) => [id, bits])]));
    expect(postings.get('zurich')).toEqual([['a', POSTING_BITS.inTitle | fieldBit(0)]]);
    expect(postings.get('coffee')).toEqual([['a', fieldBit(1)]]);
    expect(searchWords('Café')).toEqual(['cafe']);
    expect(postings.get('cafe')).toEqual([['a', POSTING_BITS.titleFirst]]);
  });
});
