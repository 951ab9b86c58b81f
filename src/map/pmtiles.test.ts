import { afterEach, describe, expect, it, vi } from 'vitest';
import { writePmtiles } from '../../scripts/pmtiles-writer.ts';
import { ArchiveError, ArchiveSource } from './pmtiles.ts';

/** A small real archive (three zooms of made-up tiles). */
const ARCHIVE = writePmtiles(
  [0, 1, 2].flatMap((z) => Array.from({ length: 4 ** z }, (_, i) => ({ z, x: i % 2 ** z, y: Math.floor(i / 2 ** z), data: new TextEncoder().encode(`tile ${z}/${i} `.repeat(50)) }))),
  { tileType: 'mvt', bounds: [-180, -85, 180, 85], center: [0, 0, 0], metadata: { name: 'test' } },
);

/** A static host in `fetch`'s place: answers Range from `bytes` (or ignores it), and records the ranges asked for. */
function serve(bytes: Buffer, { ignoreRange = false, status }: { ignoreRange?: boolean; status?: number } = {}) {
  const ranges: string[] = [];
  vi.stubGlobal('fetch', async (_url: string, init: { headers: Record<string, string> }) => {
    const range = init.headers.Range ?? '';
    ranges.push(range);
    if (status) return new Response('no', { status });
    const [, from, to] = /^bytes=(\d+)-(\d+)$/.exec(range)!.map(Number) as [number, number, number];
    if (ignoreRange) return new Response(new Uint8Array(bytes), { status: 200, headers: { 'Content-Length': String(bytes.length) } });
    const end = Math.min(to, bytes.length - 1);
    return new Response(new Uint8Array(bytes.subarray(from, end + 1)), { status: 206, headers: { 'Content-Range': `bytes ${from}-${end}/${bytes.length}` } });
  });
  return ranges;
}

afterEach(() => vi.unstubAllGlobals());

describe('ArchiveSource', () => {
  it('asks for byte ranges, and answers reads inside the first 16 KiB from the first answer', async () => {
    const ranges = serve(ARCHIVE);
    const source = new ArchiveSource('https://maps.example.org/a.pmtiles', { 'X-Api-Key': 'k' });
    const first = await source.getBytes(0, 16_384);
    expect(first.data.byteLength).toBe(Math.min(16_384, ARCHIVE.length));
    const inside = await source.getBytes(200, 100);
    expect(Buffer.from(inside.data).equals(ARCHIVE.subarray(200, 300))).toBe(true);
    expect(ranges).toEqual(['bytes=0-16383']);
  });

  it('reads a server that ignores Range once, whole, and tells', async () => {
    const ranges = serve(ARCHIVE, { ignoreRange: true });
    const whole = vi.fn();
    const source = new ArchiveSource('https://maps.example.org/a.pmtiles', {}, whole);
    await source.getBytes(0, 16_384);
    const late = await source.getBytes(ARCHIVE.length - 10, 10);
    expect(Buffer.from(late.data).equals(ARCHIVE.subarray(ARCHIVE.length - 10))).toBe(true);
    expect(ranges).toHaveLength(1);
    expect(whole).toHaveBeenCalledWith(ARCHIVE.length);
  });

  it('says what is wrong: HTTP status (5xx passing, 4xx not), truncation, magic number, version', async () => {
    const failure = async (bytes: Buffer, status?: number, offset = 0) => {
      serve(bytes, status ? { status } : {});
      return new ArchiveSource('https://maps.example.org/a.pmtiles').getBytes(offset, 16_384).then(
        () => undefined,
        (error: unknown) => error as ArchiveError,
      );
    };
    expect(await failure(ARCHIVE, 404)).toMatchObject({ message: 'the server answered HTTP 404', transient: false });
    expect(await failure(ARCHIVE, 503)).toMatchObject({ message: 'the server answered HTTP 503', transient: true });
    expect((await failure(ARCHIVE.subarray(0, ARCHIVE.length - 10)))?.message).toBe(`the archive is truncated: its header describes ${ARCHIVE.length} bytes, the file has ${ARCHIVE.length - 10}`);
    const wrongMagic = Buffer.from(ARCHIVE);
    wrongMagic.write('PK', 0, 'ascii');
    expect((await failure(wrongMagic))?.message).toBe('it is not a PMTiles archive (wrong magic number)');
    const version4 = Buffer.from(ARCHIVE);
    version4[7] = 4;
    expect((await failure(version4))?.message).toBe('it is PMTiles version 4; only version 3 is supported');
    expect(await failure(ARCHIVE)).toBeUndefined();
  });
});
