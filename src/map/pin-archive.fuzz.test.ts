import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { pinBucket } from '../pins/archive-format.ts';
import type { PinArchive } from '../pins/types.ts';
import { fuzzParameters, fuzzTimeout } from '../testing/fuzz.testing.ts';
import { gzipBomb, openServedArchive, pinmapOf, sectionsOf, tileCollection, withIndexBucket, withLeafBlock, withSearchBlock, withSearchDirectory } from '../testing/pin-archive.testing.ts';
import { clumpedLngLats, feature } from '../testing/pin-features.testing.ts';
import { ArchiveSectionError } from './archive-sections.ts';
import { PinArchiveError } from './pin-archive.ts';
import { ArchiveError } from './pmtiles.ts';
import { RequestError } from './request-path.ts';

/**
 * Fuzz: pin archives made by the pin tiler, then damaged in one of their sections after the tiles
 * (the pin index, the search index, the bubbles' pins) or their metadata: bytes flipped, the file
 * cut, a piece swapped for a gzip bomb. Read as the page reads them (pins by id, a search, every
 * bubble's pins), each read gives what the whole archive gives, or fails with an error naming the
 * archive and the section, told to the page (`onDamage`); opening fails only with a named error.
 * The bubbles' orders carry no checksum: a flipped pin number there lists another pin of the
 * archive, which is still a pin of it, with its own title.
 */

const HOST = 'https://pins.example.org';
const COUNT = 800;
const title = (i: number) => `Pin ${i} ${['Rivoli', 'Corso', 'Allee'][i % 3]}`;
let bytes: Buffer;
let bomb: Buffer;
beforeAll(async () => {
  const features = clumpedLngLats(COUNT).map((coordinates, i) => feature(`p${i}`, { title: title(i), category: ['cafe', 'park'][i % 2] }, { geometry: { type: 'Point', coordinates } }));
  bytes = await tileCollection({ type: 'FeatureCollection', features });
  bomb = await gzipBomb(64);
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

type Damage =
  | { kind: 'flip'; at: number; values: number[] }
  | { kind: 'cut'; at: number }
  | { kind: 'bomb'; section: 'bucket' | 'directory' | 'block' | 'leaf'; which: number };

function damaged(damage: Damage): Buffer {
  if (damage.kind === 'cut') return bytes.subarray(0, damage.at);
  if (damage.kind === 'flip') {
    const copy = Buffer.from(bytes);
    damage.values.forEach((value, k) => (copy[damage.at + k]! ^= value));
    return copy;
  }
  const pinmap = pinmapOf(bytes);
  if (damage.section === 'bucket') return withIndexBucket(bytes, damage.which % pinmap.index.buckets, bomb);
  if (damage.section === 'directory') return withSearchDirectory(bytes, bomb);
  if (damage.section === 'block') return withSearchBlock(bytes, damage.which % 4, bomb);
  return withLeafBlock(bytes, damage.which % Math.ceil(COUNT / 64), bomb);
}

describe('fuzz: pin archives with a section flipped, cut or inflated', () => {
  it('(the whole archive reads: every pin, the search, every bubble)', async () => {
    const { archive } = await openServedArchive(bytes, HOST);
    for (let i = 0; i < COUNT; i += 97) expect((await archive.find(`p${i}`))?.pin.title).toBe(title(i));
    expect((await archive.search!.search('rivoli', 8, new Set())).total).toBe(Math.ceil(COUNT / 3));
    for (let first = 0; first < COUNT; first += 200) expect(await archive.bubblePins!({ cluster_id: COUNT + 15, first, point_count: 200 }, [0, 0], new Set())).toHaveLength(200);
  });

  it('read as the whole archive does, or name the archive and the section', async () => {
    const { index } = sectionsOf(bytes);
    const metadataAt = Number(bytes.readBigUInt64LE(24));
    const metadataLength = Number(bytes.readBigUInt64LE(32));
    const place = fc.oneof(fc.integer({ min: index, max: bytes.length - 1 }), fc.integer({ min: metadataAt, max: metadataAt + metadataLength - 1 }));
    const damage: fc.Arbitrary<Damage> = fc.oneof(
      fc.record({ kind: fc.constant('flip' as const), at: place, values: fc.array(fc.integer({ min: 1, max: 255 }), { minLength: 1, maxLength: 8 }) }).map((d) => ({ ...d, values: d.values.slice(0, bytes.length - d.at) })),
      fc.record({ kind: fc.constant('cut' as const), at: fc.integer({ min: index, max: bytes.length - 1 }) }),
      fc.record({ kind: fc.constant('bomb' as const), section: fc.constantFrom('bucket' as const, 'directory' as const, 'block' as const, 'leaf' as const), which: fc.nat() }),
    );
    const { buckets } = pinmapOf(bytes).index;
    await fc.assert(
      fc.asyncProperty(damage, fc.integer({ min: 0, max: COUNT - 1 }), async (change, pin) => {
        vi.spyOn(console, 'warn').mockImplementation(() => {});
        let archive: PinArchive;
        try {
          archive = (await openServedArchive(damaged(change), HOST)).archive;
        } catch (error) {
          // Only a damaged metadata (or a file cut before it is read) stops the archive opening.
          expect(error instanceof PinArchiveError || error instanceof ArchiveError || error instanceof RequestError, String(error)).toBe(true);
          expect((error as Error).message.length).toBeGreaterThan(10);
          return;
        }
        const notices: string[] = [];
        archive.onDamage((notice) => notices.push(notice));
        for (const id of [`p${pin}`, 'p0', `p${(pin + 1) % COUNT}`]) {
          await readOrNamed(archive.find(id), (found) => expect(found?.pin.title).toBe(title(Number(id.slice(1)))), notices);
        }
        expect(pinBucket('p0', buckets)).toBeLessThan(buckets);
        await readOrNamed(archive.search!.search('rivoli', 8, new Set()), (found) => {
          expect(found.total).toBe(Math.ceil(COUNT / 3));
          for (const hit of found.hits) expect(hit.pin.title).toBe(title(Number(hit.pin.id.slice(1))));
        }, notices);
        for (let first = 0; first < COUNT; first += 200) {
          await readOrNamed(archive.bubblePins!({ cluster_id: COUNT + 15, first, point_count: 200 }, [0, 0], new Set()), (pins) => {
            expect(pins.length).toBe(200);
            for (const listed of pins) expect(listed.title).toBe(title(Number(listed.id.slice(1))));
          }, notices);
        }
      }),
      fuzzParameters(20),
    );
  }, fuzzTimeout(120_000));
});
