import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writePmtiles } from '../../scripts/pmtiles-writer.ts';
import { fuzzParameters, fuzzTimeout } from '../testing/fuzz.testing.ts';
import { ArchiveError, archiveFailure, loadFromArchive } from './pmtiles.ts';
import { RequestError } from './request-path.ts';

/**
 * Fuzz: PMTiles archives with mutated headers and directories, read as the map reads them
 * (`loadFromArchive`: the TileJSON, then tiles). Every failure is an `ArchiveError` (or the
 * request path's `RequestError`) whose message says what is wrong; nothing else is thrown, and
 * nothing hangs.
 */

const ARCHIVE = writePmtiles(
  [0, 1, 2].flatMap((z) => Array.from({ length: 4 ** z }, (_, i) => ({ z, x: i % 2 ** z, y: Math.floor(i / 2 ** z), data: new TextEncoder().encode(`tile ${z}/${i} `.repeat(20)) }))),
  { tileType: 'mvt', bounds: [-180, -85, 180, 85], center: [0, 0, 0], metadata: { name: 'fuzz' } },
);
/** Where the root directory lies (header bytes 8–23), so mutations can aim at it. */
const ROOT_OFFSET = Number(ARCHIVE.readBigUInt64LE(8));
const ROOT_LENGTH = Number(ARCHIVE.readBigUInt64LE(16));

/** A static host in `fetch`'s place for `bytes` (ranges, as a CDN answers them). */
function serve(bytes: Buffer): void {
  vi.stubGlobal('fetch', async (_url: string, init: { headers: Record<string, string> }) => {
    const match = /^bytes=(\d+)-(\d+)$/.exec(init.headers.Range ?? '');
    if (!match) return new Response(new Uint8Array(bytes), { status: 200 });
    const from = Number(match[1]);
    if (from >= bytes.length) return new Response('', { status: 416, headers: { 'Content-Range': `bytes */${bytes.length}` } });
    const end = Math.min(Number(match[2]), bytes.length - 1);
    return new Response(new Uint8Array(bytes.subarray(from, end + 1)), { status: 206, headers: { 'Content-Range': `bytes ${from}-${end}/${bytes.length}` } });
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A mutation: bytes set at places in the header, or in the root directory, and perhaps the file cut short. */
const mutation = fc.record({
  header: fc.array(fc.tuple(fc.integer({ min: 0, max: 126 }), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
  directory: fc.array(fc.tuple(fc.integer({ min: 0, max: ROOT_LENGTH - 1 }), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
  cutTo: fc.option(fc.integer({ min: 0, max: ARCHIVE.length }), { nil: undefined }),
});

let run = 0;

describe('fuzz: mutated archive headers and directories', () => {
  it('read as tiles or fail with a named ArchiveError, never anything else', async () => {
    await fc.assert(
      fc.asyncProperty(mutation, async ({ header, directory, cutTo }) => {
        vi.spyOn(console, 'warn').mockImplementation(() => {}); // an archive that cannot be read is one warning each
        const bytes = Buffer.from(ARCHIVE);
        for (const [at, value] of header) bytes[at] = value;
        for (const [at, value] of directory) bytes[ROOT_OFFSET + at] = value;
        serve(cutTo === undefined ? bytes : bytes.subarray(0, cutTo));
        const archive = `https://maps.example.org/fuzz-${++run}.pmtiles`;
        const tileJson = await loadFromArchive({ url: `pmtiles://${archive}`, type: 'json' }, new AbortController());
        expect(tileJson.data).toHaveProperty('tiles');
        const failure = archiveFailure(archive);
        if (failure !== undefined) expect(failure.length).toBeGreaterThan(10);
        for (const [z, x, y] of [[0, 0, 0], [1, 1, 0], [2, 3, 3]] as const) {
          try {
            await loadFromArchive({ url: `pmtiles://${archive}/${z}/${x}/${y}`, type: 'arrayBuffer' }, new AbortController());
          } catch (error) {
            expect(error instanceof ArchiveError || error instanceof RequestError, `${String(error)}`).toBe(true);
            expect((error as Error).message.length).toBeGreaterThan(10);
          }
        }
      }),
      fuzzParameters(150),
    );
  }, fuzzTimeout(20000));
});
