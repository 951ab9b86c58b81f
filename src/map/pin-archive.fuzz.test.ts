import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { pinBucket } from '../pins/archive-format.ts';
import type { PinArchive } from '../pins/types.ts';
import { fuzzParameters, fuzzTimeout, reportFuzz } from '../testing/fuzz.testing.ts';
import {
  gzipBomb,
  peakMemory,
  pinmapOf,
  rangeFetch,
  regionsOf,
  sectionsOf,
  tileCollection,
  withIndexBucket,
  withLeafBlock,
  withLeafDirectory,
  withRegion,
  withSearchBlock,
  withSearchDirectory,
  withTile,
} from '../testing/pin-archive.testing.ts';
import { clumpedLngLats, feature } from '../testing/pin-features.testing.ts';
import { ArchiveSectionError } from './archive-sections.ts';
import { PinArchiveTiles, type Bbox, type TiledGroup } from './pin-archive-tiles.ts';
import { loadPinSet } from './pin-source.ts';
import { MAP_RESOURCE_LIMIT } from './map-requests.ts';
import { forgetArchiveReader } from './pmtiles.ts';

/**
 * Fuzz: pin archives made by the pin tiler, then damaged in any of their sections: the PMTiles
 * header, root directory, metadata, leaf directories and tiles, and the sections after the tiles
 * (the pin index, the search index, the bubbles' pins). Bytes flipped, the file cut in a section,
 * or a piece swapped for a gzip bomb (the metadata, a directory, a tile, a bucket, a block). Read
 * as the page reads them: opened as the page's pins (`loadPinSet`), then pins by id, a search,
 * bubbles' pins, and tiles at four zooms (`PinArchiveTiles`, through the `pmtiles://` reader the
 * vector view's map uses too). Every read gives what the whole archive gives, or the page is told
 * a notice that names the archive and the section at fault; and the memory a case takes stays
 * under a bound (`HEAP_BOUND`), measured as it runs.
 *
 * Where the format has no checksum, a damage can read as other data, and that is all asked of it:
 * the header's numbers (bounds, zooms, offsets into tiles) and the tiles (pin archives store them
 * uncompressed) give tiles whose groups are well formed (a pin with an id and a title, a bubble
 * with a count), and a flipped pin number in the bubbles' orders lists another pin of the archive.
 */

const HOST = 'https://pins.example.org';
/** Enough pins for leaf directories (the root alone would be over 16 KiB). */
const COUNT = 4500;
const title = (i: number) => `Pin ${i} ${['Rivoli', 'Corso', 'Allee'][i % 3]}`;
/** Where the tiles are read: the world at zoom 0, Europe at 3, round the first clump's centre (pin p0) at 10 and 16. */
const VIEWS: [number, Bbox][] = [
  [0, [-180, -85, 180, 85]],
  [3, [-5, 38, 25, 58]],
];
/**
 * The most memory (heap and array buffers) one case may take above what was in use when it
 * started. The largest piece the page inflates is a tile, a directory or the metadata, within
 * `MAP_RESOURCE_LIMIT` (64 MiB): read in chunks and joined, about twice that at once; the
 * archive's sections have lower limits (`SECTION_LIMITS`). A bomb read without its limit (256 MB
 * here) goes far past it.
 */
const HEAP_BOUND = 2 * MAP_RESOURCE_LIMIT + 48_000_000;

let bytes: Buffer;
let bomb: Buffer;
/** The groups of the whole archive's tiles, view by view. */
let whole: string[][];

const SECTIONS = ['header', 'root directory', 'metadata', 'leaf directories', 'tiles', 'pin index', 'search index', "bubbles' pins"] as const;
type Section = (typeof SECTIONS)[number];
const PIECES = ['metadata', 'root directory', 'leaf directory', 'tile', 'pin index bucket', 'search directory', 'search block', "bubbles' pins block"] as const;
type Piece = (typeof PIECES)[number];

/** Where each section of `bytes` lies: `[from, to)`. */
function sectionRanges(): Record<Section, [number, number]> {
  const regions = regionsOf(bytes);
  const { index, search, leaves } = sectionsOf(bytes);
  return { ...regions, 'pin index': [index, search], 'search index': [search, leaves], "bubbles' pins": [leaves, bytes.length] };
}

type Damage = { kind: 'flip'; section: Section; at: number; values: number[] } | { kind: 'cut'; section: Section; at: number } | { kind: 'inflate'; piece: Piece; which: number };

function damaged(damage: Damage): Buffer {
  if (damage.kind === 'inflate') return inflated(damage.piece, damage.which);
  const [from, to] = sectionRanges()[damage.section];
  const at = from + (damage.at % (to - from));
  if (damage.kind === 'cut') return bytes.subarray(0, at);
  const copy = Buffer.from(bytes);
  damage.values.slice(0, copy.length - at).forEach((value, k) => (copy[at + k]! ^= value));
  return copy;
}

/** `bytes` with `piece` swapped for the gzip bomb. */
function inflated(piece: Piece, which: number): Buffer {
  const pinmap = pinmapOf(bytes);
  switch (piece) {
    case 'metadata':
      return withRegion(bytes, 'metadata', bomb);
    case 'root directory':
      return withRegion(bytes, 'root directory', bomb);
    case 'leaf directory':
      return withLeafDirectory(bytes, bomb);
    case 'tile':
      return withTile(bytes, bomb);
    case 'pin index bucket':
      return withIndexBucket(bytes, which % pinmap.index.buckets, bomb);
    case 'search directory':
      return withSearchDirectory(bytes, bomb);
    case 'search block':
      return withSearchBlock(bytes, which % 4, bomb);
    case "bubbles' pins block":
      return withLeafBlock(bytes, which % Math.ceil(COUNT / 64), bomb);
  }
}

/** Whether `damage` lies where the format has no checksum to tell it (see the top of the file). */
const unchecked = (damage: Damage) => damage.kind === 'flip' && (damage.section === 'header' || damage.section === 'tiles');

/** A tile group as a line to compare; throws unless it is well formed. */
function described(group: TiledGroup): string {
  if (group.kind === 'cluster') {
    expect(Number.isFinite(group.count) && group.lngLat.every(Number.isFinite), `bubble ${group.key}`).toBe(true);
    return `${group.key} ${group.count} ${group.expansionZoom} ${group.lngLat.map((n) => n.toFixed(6)).join(',')}`;
  }
  expect(typeof group.pin.id === 'string' && group.pin.id.length > 0 && typeof group.pin.title === 'string', `pin ${group.key}`).toBe(true);
  return `${group.key} ${group.pin.title} ${group.pin.lngLat.map((n) => n.toFixed(6)).join(',')}`;
}

/** The archive's tiles at each of `VIEWS`, as lines; `onUnreadable` told the notices. */
async function tileGroups(archive: PinArchive, onUnreadable: (url: string, reason: string) => void): Promise<string[][]> {
  const tiles = new PinArchiveTiles(archive, undefined, onUnreadable);
  const views: string[][] = [];
  for (const [zoom, box] of VIEWS) views.push((await tiles.groupsAt(zoom, box)).map(described));
  return views;
}

/** What a notice must name: the archive, and the section or piece at fault. */
const NAMES_SECTION = /header|directory|metadata|a tile|its pin tiles|PMTiles|pin index|search index|bubbles' pins|pinmap/;

let opened = 0;

beforeAll(async () => {
  const features = clumpedLngLats(COUNT).map((coordinates, i) => feature(`p${i}`, { title: title(i), category: ['cafe', 'park'][i % 2] }, { geometry: { type: 'Point', coordinates } }));
  // A small root directory, so that the archive has leaf directories to damage.
  bytes = await tileCollection({ type: 'FeatureCollection', features }, { rootDirectoryBytes: 1024 });
  bomb = await gzipBomb(256);
  const [lng, lat] = clumpedLngLats(1)[0]!;
  VIEWS.push([10, [lng - 0.2, lat - 0.1, lng + 0.2, lat + 0.1]], [16, [lng - 0.004, lat - 0.002, lng + 0.004, lat + 0.002]]);
  const url = `${HOST}/whole.pmtiles`;
  vi.stubGlobal('fetch', rangeFetch({ [url]: bytes }).fetch);
  const set = await loadPinSet(`pmtiles://${url}`, {}, `${HOST}/`);
  whole = await tileGroups(set.archive!, (_url, reason) => expect.fail(reason));
  vi.unstubAllGlobals();
}, 120_000);
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A read that gave what the whole archive gives, or failed naming the archive and the section (and told the page). */
async function readOrNamed<T>(read: Promise<T>, check: (value: T) => void, notices: string[]): Promise<void> {
  try {
    check(await read);
  } catch (error) {
    expect(error instanceof ArchiveSectionError, String(error)).toBe(true);
    expect((error as Error).message).toMatch(/^https:\/\/pins\.example\.org\/pins-\d+\.pmtiles: its (pin index is|search index is|bubbles' pins are) damaged \(.+\)$/);
    expect(notices).toContain(`Could not read the pin archive ${(error as Error).message}`);
  }
}

describe('fuzz: pin archives with any section flipped, cut or inflated', () => {
  it('the whole archive has leaf directories, and its tiles read at every view', () => {
    const { 'leaf directories': [from, to] } = regionsOf(bytes);
    expect(to - from).toBeGreaterThan(0);
    expect(whole.map((groups) => groups.length > 0)).toEqual([true, true, true, true]);
  });

  it('read as the whole archive does, or a notice names the archive and the section; the memory stays bounded', async () => {
    const place = fc.integer({ min: 0, max: 2 ** 31 });
    const section = fc.constantFrom(...SECTIONS);
    const damage: fc.Arbitrary<Damage> = fc.oneof(
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('flip' as const), section, at: place, values: fc.array(fc.integer({ min: 1, max: 255 }), { minLength: 1, maxLength: 8 }) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('cut' as const), section, at: place }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('inflate' as const), piece: fc.constantFrom(...PIECES), which: fc.nat() }) },
    );
    const { buckets } = pinmapOf(bytes).index;
    const started = performance.now();
    let cases = 0;
    let peakOfAll = 0;
    await fc.assert(
      fc.asyncProperty(damage, fc.integer({ min: 0, max: COUNT - 1 }), async (change, pin) => {
        cases++;
        vi.spyOn(console, 'warn').mockImplementation(() => {});
        vi.spyOn(console, 'error').mockImplementation(() => {});
        const url = `${HOST}/pins-${++opened}.pmtiles`;
        const file = damaged(change);
        vi.stubGlobal('fetch', rangeFetch({ [url]: file }).fetch);
        const peak = await peakMemory(async () => {
          try {
            await readAll(url, change, pin, buckets);
          } finally {
            forgetArchiveReader(url);
          }
        });
        peakOfAll = Math.max(peakOfAll, peak);
        expect(peak, `memory taken by ${JSON.stringify(change)}`).toBeLessThan(HEAP_BOUND);
      }),
      {
        ...fuzzParameters<[Damage, number]>(24),
        // Whatever the seed: a bomb in every piece that is gzipped, and a cut in every section.
        examples: [
          ...PIECES.map((piece): [Damage, number] => [{ kind: 'inflate', piece, which: 0 }, 0]),
          ...SECTIONS.map((section): [Damage, number] => [{ kind: 'cut', section, at: 1000 }, 1]),
          // A tile whose bubble lost its pin count (npm run fuzz, seed 20261129): it is left out.
          [{ kind: 'flip', section: 'tiles', at: 21, values: [1, 1] }, 0],
        ],
      },
    );
    reportFuzz({ suite: 'pin archives, any section flipped, cut or inflated', cases, seconds: (performance.now() - started) / 1000, peakMB: peakOfAll / 1e6, boundMB: HEAP_BOUND / 1e6 });
  }, fuzzTimeout(240_000));
});

/** Opens the archive at `url` as the page's pins and reads it all, as the property says. */
async function readAll(url: string, change: Damage, pin: number, buckets: number): Promise<void> {
  let archive: PinArchive;
  try {
    archive = (await loadPinSet(`pmtiles://${url}`, {}, `${HOST}/`)).archive!;
  } catch (error) {
    // The page's notice is the error's message: it names the archive and what is at fault.
    const notice = (error as Error).message;
    expect(notice, notice).toContain(url);
    expect(notice).toMatch(NAMES_SECTION);
    return;
  }
  const notices: string[] = [];
  archive.onDamage((notice) => notices.push(notice));
  for (const id of [`p${pin}`, 'p0', `p${(pin + 1) % COUNT}`]) {
    await readOrNamed(archive.find(id), (found) => expect(found?.pin.title).toBe(title(Number(id.slice(1)))), notices);
  }
  expect(pinBucket('p0', buckets)).toBeLessThan(buckets);
  expect(archive.search, 'the search index').toBeDefined();
  await readOrNamed(archive.search!.search('rivoli', 8, new Set()), (found) => {
    expect(found.total).toBe(Math.ceil(COUNT / 3));
    for (const hit of found.hits) expect(hit.pin.title).toBe(title(Number(hit.pin.id.slice(1))));
  }, notices);
  for (let first = 0; first < 800; first += 200) {
    await readOrNamed(archive.bubblePins!({ cluster_id: COUNT + 15, first, point_count: 200 }, [0, 0], new Set()), (pins) => {
      expect(pins.length).toBe(200);
      for (const listed of pins) expect(listed.title).toBe(title(Number(listed.id.slice(1))));
    }, notices);
  }
  // The tiles, as the hybrid view reads them (the vector view's map reads them through the same reader).
  const tileNotices: string[] = [];
  const groups = await tileGroups(archive, (archiveUrl, reason) => {
    expect(archiveUrl).toBe(url);
    tileNotices.push(reason);
  });
  for (const reason of tileNotices) expect(reason).toMatch(NAMES_SECTION);
  if (JSON.stringify(groups) === JSON.stringify(whole) || tileNotices.length > 0) return;
  // Read as other data without a word: only where the format has no checksum.
  expect(unchecked(change), `tiles read otherwise, and no notice, after ${JSON.stringify(change)}`).toBe(true);
}
