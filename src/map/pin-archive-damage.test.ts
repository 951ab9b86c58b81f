import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { pinBucket } from '../pins/archive-format.ts';
import { openPinArchive } from './pin-archive.ts';
import { forgetArchiveReader } from './pmtiles.ts';
import type { PinArchive } from '../pins/types.ts';
import {
  gzipBomb,
  openServedArchive,
  peakMemory,
  pinmapOf,
  rangeFetch,
  sectionsOf,
  tileCollection,
  withIndexBucket,
  withLeafBlock,
  withMetadata,
  withSearchBlock,
  withSearchDirectory,
} from '../testing/pin-archive.testing.ts';
import { clumpedLngLats, feature } from '../testing/pin-features.testing.ts';
import { SECTION_LIMITS } from './archive-sections.ts';

/**
 * Pin archives made by the pin tiler, then damaged section by section (a gzip bomb, a cut file,
 * flipped bytes, a metadata that lists too many looks), read as the page reads them: each damage
 * is an error that names the archive and the section, told to the page (`onDamage`) once; a bomb
 * stops at the section's limit; the other sections read on.
 */

const HOST = 'https://pins.example.org';
const COUNT = 3000;
let bytes: Buffer;
/** A bomb that inflates to 256 MB (about 250 KB): far past every section's limit. */
let bomb: Buffer;
beforeAll(async () => {
  const features = clumpedLngLats(COUNT).map((coordinates, i) =>
    feature(`p${i}`, { title: `Pin ${i} ${['Rivoli', 'Corso', 'Allee'][i % 3]}`, description: `Pin number ${i}`, category: ['cafe', 'park'][i % 2] }, { geometry: { type: 'Point', coordinates } }),
  );
  bytes = await tileCollection({ type: 'FeatureCollection', features });
  bomb = await gzipBomb(256);
}, 120_000);
afterEach(() => vi.unstubAllGlobals());

/** Opens `archive` as the page does; the notices it tells the page. */
async function open(archive: Buffer): Promise<{ archive: PinArchive; notices: string[] }> {
  const opened = await openServedArchive(archive, HOST);
  const notices: string[] = [];
  opened.archive.onDamage((notice) => notices.push(notice));
  return { archive: opened.archive, notices };
}

/** A bubble of zoom 14 (the last range of zooms) holding the pins `first` on of its range's order, as its tile gives it. */
const bubble = (first: number, points: number) => ({ cluster_id: COUNT + 15, first, point_count: points });

/** Lists the pins of bubbles that hold every pin of the last range of zooms between them: reads every block of the bubbles' pins. */
async function listEvery(archive: PinArchive): Promise<void> {
  for (let first = 0; first < COUNT; first += 500) await archive.bubblePins!(bubble(first, 500), [0, 0], new Set());
}

/** A bucket of the pin index other than `p2`'s, and a pin in it. */
function otherPin(): string {
  const { buckets } = pinmapOf(bytes).index;
  for (let i = 3; ; i++) if (pinBucket(`p${i}`, buckets) !== pinBucket('p2', buckets)) return `p${i}`;
}

describe('a gzip bomb in a section of a pin archive', () => {
  it('in a bucket of the pin index: named, stopped at the limit, the other buckets read', async () => {
    const { archive, notices } = await open(withIndexBucket(bytes, pinBucket('p2', pinmapOf(bytes).index.buckets), bomb));
    const message = /pins-\d+\.pmtiles: its pin index is damaged \(bucket \d+ inflates to more than the 16 MB allowed\)/;
    const peak = await peakMemory(() => archive.find('p2').catch(() => {}));
    expect(peak).toBeLessThan(3 * SECTION_LIMITS.indexBucket);
    await expect(archive.find('p2')).rejects.toThrow(message);
    expect(notices[0]).toMatch(/^Could not read the pin archive https:\/\/pins\.example\.org\/pins-\d+\.pmtiles: its pin index is damaged \(bucket \d+ inflates to more than/);
    expect((await archive.find(otherPin()))?.pin.title).toMatch(/^Pin \d+/);
  });

  it('in the search directory: named, stopped at the limit; the pins read', async () => {
    const { archive, notices } = await open(withSearchDirectory(bytes, bomb));
    const peak = await peakMemory(() => archive.search!.search('rivoli', 8, new Set()).catch(() => {}));
    expect(peak).toBeLessThan(3 * SECTION_LIMITS.searchDirectory);
    await expect(archive.search!.search('rivoli', 8, new Set())).rejects.toThrow(/its search index is damaged \(its directory inflates to more than the 32 MB allowed\)/);
    expect(notices[0]).toMatch(/its search index is damaged/);
    expect((await archive.find('p2'))?.pin.title).toBe('Pin 2 Allee');
  });

  it('in a block of the search index: named, stopped at the limit', async () => {
    const { archive, notices } = await open(withSearchBlock(bytes, 0, bomb));
    const peak = await peakMemory(async () => {
      for (const query of ['0', '1', '2']) await archive.search!.search(query, 8, new Set()).catch(() => {});
    });
    expect(peak).toBeLessThan(3 * SECTION_LIMITS.searchBlock);
    expect(notices.some((notice) => /its search index is damaged \(its words block 0 inflates to more than the 16 MB allowed\)/.test(notice)), notices.join('\n')).toBe(true);
  });

  it("in a block of the bubbles' pins: named, stopped at the limit", async () => {
    const damaged = withLeafBlock(bytes, 0, bomb);
    const { archive, notices } = await open(damaged);
    const peak = await peakMemory(async () => {
      await listEvery(archive).catch(() => {});
    });
    expect(peak).toBeLessThan(3 * SECTION_LIMITS.leafBlock + 16_000_000);
    expect(notices.some((notice) => /its bubbles' pins are damaged \(block 0 inflates to more than the 4 MB allowed\)/.test(notice)), notices.join('\n')).toBe(true);
  });
});

describe('a pin archive damaged otherwise', () => {
  it('reads whole before it is damaged (the bubble, search and pin used below)', async () => {
    const { archive, notices } = await open(bytes);
    expect((await archive.bubblePins!(bubble(0, 20), [0, 0], new Set())).length).toBe(20);
    expect((await archive.search!.search('rivoli', 8, new Set())).total).toBe(COUNT / 3);
    expect((await archive.find('p2'))?.pin.title).toBe('Pin 2 Allee');
    expect(notices).toEqual([]);
  });

  it('cut short in each section: each read names its section', async () => {
    const { index, search, leaves } = sectionsOf(bytes);
    const cutIn = async (at: number) => (await open(bytes.subarray(0, at))).archive;
    const inLeaves = await cutIn(leaves + 100);
    await expect(inLeaves.bubblePins!(bubble(0, 500), [0, 0], new Set())).rejects.toThrow(/its bubbles' pins are damaged \(.*(past the end|truncated|outside its section)/);
    const inSearch = await cutIn(search + 100);
    await expect(inSearch.search!.search('rivoli', 8, new Set())).rejects.toThrow(/its search index is damaged \(its directory/);
    const inIndex = await cutIn(index + 100);
    await expect(inIndex.find('p2')).rejects.toThrow(/its pin index is damaged \(/);
  });

  it('with flipped bytes in each section: each read names its section, or reads right', async () => {
    const { index, search, leaves } = sectionsOf(bytes);
    const { buckets } = pinmapOf(bytes).index;
    const [directoryAt] = pinmapOf(bytes).search.directory;
    const flipped = (at: number, count: number) => {
      const copy = Buffer.from(bytes);
      for (let k = 0; k < count; k++) copy[at + k]! ^= 0xa5;
      return copy;
    };
    const bucketAt = index + bytes.readDoubleLE(index + pinBucket('p2', buckets) * 8);
    await expect((await open(flipped(bucketAt + 20, 8))).archive.find('p2')).rejects.toThrow(/its pin index is damaged \(bucket \d+ is not gzipped JSON\)/);
    await expect((await open(flipped(index + pinBucket('p2', buckets) * 8, 16))).archive.find('p2')).rejects.toThrow(/its pin index is damaged \(bucket \d+ (spans|lies at|has)/);
    await expect((await open(flipped(search + directoryAt + 20, 8))).archive.search!.search('rivoli', 8, new Set())).rejects.toThrow(/its search index is damaged \(its directory is not gzipped JSON\)/);
    const blockAt = leaves + bytes.readDoubleLE(leaves);
    await expect(listEvery((await open(flipped(blockAt + 20, 8))).archive)).rejects.toThrow(/its bubbles' pins are damaged \(block \d+ is not gzipped JSON\)/);
    const blocks = Math.ceil(COUNT / 64);
    await expect(listEvery((await open(flipped(leaves, (blocks + 1) * 8))).archive)).rejects.toThrow(/its bubbles' pins are damaged \(/);
  });

  it('listing 200,000 pin looks is refused at opening, naming the archive', async () => {
    const looks = withMetadata(bytes, (pinmap) => (pinmap.looks = Array.from({ length: 200_000 }, () => ({}))));
    await expect(open(looks)).rejects.toThrow(/pins-\d+\.pmtiles: its metadata lists 200000 pin looks; a pin archive has at most 1000/);
  });

  it('a zoom its tiles are cut from that is not one is refused at opening, naming the archive', async () => {
    for (const cutFrom of [undefined, -1, 2.5, 40, '10']) {
      const odd = withMetadata(bytes, (pinmap) => (pinmap.cutFrom = cutFrom));
      await expect(open(odd)).rejects.toThrow(/pins-\d+\.pmtiles: its metadata's pinmap\.cutFrom is .*, not the zoom its tiles are cut from/);
    }
  });
});

describe('a pin archive whose sections the page may not read', () => {
  it("the page's policy refuses the reads after its tiles: the notice says the pin index could not be read and why, not that it is damaged", async () => {
    const url = `${HOST}/refused.pmtiles`;
    afterEach(() => forgetArchiveReader(url));
    // A page whose policy lets the archive's first bytes through, then refuses (as a browser's
    // fetch fails, with the violation a task later): the sections are read past the tiles.
    const page = new EventTarget();
    vi.stubGlobal('document', page);
    const served = rangeFetch({ [url]: bytes }).fetch;
    const { index } = sectionsOf(bytes);
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      const from = Number(/bytes=(\d+)/.exec(new Headers(init?.headers).get('range') ?? '')?.[1] ?? 0);
      if (from < index) return served(input, init);
      setTimeout(() => page.dispatchEvent(Object.assign(new Event('securitypolicyviolation'), { blockedURI: input, effectiveDirective: 'connect-src' })), 0);
      throw new TypeError('Failed to fetch');
    });
    const archive = await openPinArchive(`pmtiles://${url}`, {}, `${HOST}/`);
    const notices: string[] = [];
    archive.onDamage((notice) => notices.push(notice));
    const reason = `the offsets of bucket ${pinBucket('p2', pinmapOf(bytes).index.buckets)}: the page's Content Security Policy does not allow it (connect-src): add ${HOST} to connect-src`;
    await expect(archive.find('p2')).rejects.toThrow(`${url}: its pin index could not be read (${reason})`);
    expect(notices).toEqual([`Could not read the pin archive ${url}: its pin index could not be read (${reason})`]);
  });
});
