import { afterEach, describe, expect, it, vi } from 'vitest';
import { writePmtiles } from '../../scripts/pmtiles-writer.ts';
import { ArchiveError, ArchiveSource, archiveFailure, loadFromArchive, prefetchArchives, readTilesAhead, WHOLE_FILE_LIMIT } from './pmtiles.ts';
import { tokenTransform } from './request-transform.ts';

/** A small real archive (three zooms of made-up tiles). */
const ARCHIVE = writePmtiles(
  [0, 1, 2].flatMap((z) => Array.from({ length: 4 ** z }, (_, i) => ({ z, x: i % 2 ** z, y: Math.floor(i / 2 ** z), data: new TextEncoder().encode(`tile ${z}/${i} `.repeat(50)) }))),
  { tileType: 'mvt', bounds: [-180, -85, 180, 85], center: [0, 0, 0], metadata: { name: 'test' } },
);

/** Bytes that do not compress, the same for the same seed. */
function noise(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed + 1;
  for (let i = 0; i < length; i++) bytes[i] = (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) >>> 16;
  return bytes;
}

/** An archive well past the first 16 KiB the reader asks for (four zooms of 2 KB tiles). */
const LARGE = writePmtiles(
  [0, 1, 2, 3].flatMap((z) => Array.from({ length: 4 ** z }, (_, i) => ({ z, x: i % 2 ** z, y: Math.floor(i / 2 ** z), data: noise(2_000, 100 * z + i) }))),
  { tileType: 'mvt', bounds: [-180, -85, 180, 85], center: [0, 0, 0], metadata: { name: 'large' } },
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

  it('reads a whole archive (a server that ignores Range) of up to 64 MiB, and refuses a bigger one, declared or not, naming its size', async () => {
    expect(WHOLE_FILE_LIMIT).toBe(64 * 1024 * 1024);
    /** A server that ignores Range: `size` bytes (the archive, then zeros), in 8 MiB chunks, counting the chunks it sent. */
    const wholeFile = (size: number, declared: boolean) => {
      const sent = { chunks: 0 };
      vi.stubGlobal('fetch', async () => {
        let at = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (at >= size) return controller.close();
            const chunk = new Uint8Array(Math.min(2 ** 23, size - at));
            if (at === 0) chunk.set(ARCHIVE);
            at += chunk.length;
            sent.chunks++;
            controller.enqueue(chunk);
          },
        });
        return new Response(body, { status: 200, headers: declared ? { 'Content-Length': String(size) } : {} });
      });
      return sent;
    };
    const refusal = (size: string) => `the server ignores Range requests and the archive (${size}) is too big to read whole; serve it from a host that answers Range`;

    // At the limit: read, and a tile's bytes found in it.
    wholeFile(WHOLE_FILE_LIMIT, true);
    const whole = vi.fn();
    const atLimit = new ArchiveSource('https://maps.example.org/limit.pmtiles', {}, whole);
    await atLimit.getBytes(0, 16_384);
    expect(whole).toHaveBeenCalledWith(WHOLE_FILE_LIMIT);
    expect(Buffer.from((await atLimit.getBytes(ARCHIVE.length - 10, 10)).data).equals(ARCHIVE.subarray(ARCHIVE.length - 10))).toBe(true);

    // A byte more, declared: refused before its body is read.
    const declared = wholeFile(WHOLE_FILE_LIMIT + 1, true);
    const over = new ArchiveSource('https://maps.example.org/declared.pmtiles');
    const error = await over.getBytes(0, 16_384).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as Error).message).toBe(refusal(`${WHOLE_FILE_LIMIT + 1} bytes`));
    expect(declared.chunks, 'chunks of the refused body read').toBeLessThanOrEqual(1);

    // A byte more, not declared: the reading stops at the limit.
    const undeclared = wholeFile(WHOLE_FILE_LIMIT + 1, false);
    await expect(new ArchiveSource('https://maps.example.org/undeclared.pmtiles').getBytes(0, 16_384)).rejects.toThrow(new ArchiveError(refusal(`over ${WHOLE_FILE_LIMIT} bytes`)));
    expect(undeclared.chunks).toBe(9);
  });

  it('asks once more past the browser\'s cache for a range answered short, as Chromium\'s in-memory cache answers one of several in flight; a server that keeps sending less is a truncated archive', async () => {
    // Chromium's answer: a 206 that declares the whole range and brings only its start (the bytes
    // up to the cache entry's next 4 KiB block), as a success.
    const requests: { range: string; cache: RequestCache | undefined }[] = [];
    const answerShort = (always: boolean) =>
      vi.stubGlobal('fetch', async (_url: string, init: { headers: Record<string, string>; cache?: RequestCache }) => {
        const range = init.headers.Range ?? '';
        requests.push({ range, cache: init.cache });
        const [, from, to] = /^bytes=(\d+)-(\d+)$/.exec(range)!.map(Number) as [number, number, number];
        const end = Math.min(to, LARGE.length - 1);
        const short = from > 0 && (always || init.cache !== 'no-store');
        const body = LARGE.subarray(from, short ? Math.min(end + 1, (Math.floor(from / 4096) + 1) * 4096) : end + 1);
        return new Response(new Uint8Array(body), { status: 206, headers: { 'Content-Range': `bytes ${from}-${end}/${LARGE.length}` } });
      });
    const tileAt = 20_000;
    answerShort(false);
    const source = new ArchiveSource('https://maps.example.org/a.pmtiles');
    await source.getBytes(0, 16_384);
    const tile = await source.getBytes(tileAt, 5_000);
    expect(Buffer.from(tile.data).equals(LARGE.subarray(tileAt, tileAt + 5_000))).toBe(true);
    expect(requests).toEqual([
      { range: 'bytes=0-16383', cache: undefined },
      { range: `bytes=${tileAt}-${tileAt + 4_999}`, cache: undefined },
      { range: `bytes=${tileAt}-${tileAt + 4_999}`, cache: 'no-store' },
    ]);

    answerShort(true);
    const broken = new ArchiveSource('https://maps.example.org/b.pmtiles');
    await broken.getBytes(0, 16_384);
    await expect(broken.getBytes(tileAt, 5_000)).rejects.toThrow(`the archive is truncated: bytes ${tileAt}–${tileAt + 4_999} (a tile) were asked for and ${4096 - (tileAt % 4096)} came`);
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

/** A static host of `ARCHIVE` in `fetch`'s place that records each request's URL, key header and range; `failing` URLs answer 404. */
function recordRequests(failing: string[] = []) {
  const requests: { url: string; key: string | undefined; range: string }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: { headers: Record<string, string> }) => {
    const range = init.headers.Range ?? '';
    requests.push({ url, key: init.headers['X-Api-Key'], range });
    if (failing.includes(url)) return new Response('no', { status: 404 });
    const [, from, to] = /^bytes=(\d+)-(\d+)$/.exec(range)!.map(Number) as [number, number, number];
    const end = Math.min(to, ARCHIVE.length - 1);
    return new Response(new Uint8Array(ARCHIVE.subarray(from, end + 1)), { status: 206, headers: { 'Content-Range': `bytes ${from}-${end}/${ARCHIVE.length}` } });
  });
  return requests;
}

/** A tile of a `pmtiles://` source as MapLibre asks for it: its URL through the request transform, then the protocol. */
async function loadTile(url: string, transform: ReturnType<typeof tokenTransform>) {
  const params = transform ? await transform(url, 'Tile' as never)! : { url };
  return loadFromArchive({ ...params, type: 'arrayBuffer' }, new AbortController());
}

describe('a damaged archive names the piece at fault', () => {
  /** `ARCHIVE` with the gzip checksum of the piece at `at` (of `length` bytes: its last 8 are the checksum and the size) flipped. */
  const flipped = (at: number, length: number) => {
    const bytes = Buffer.from(ARCHIVE);
    bytes[at + length - 8]! ^= 0x5a;
    return bytes;
  };
  const header = (at: number) => Number(ARCHIVE.readBigUInt64LE(at));
  const cases = [
    { piece: 'its root directory', bytes: () => flipped(header(8), header(16)) },
    { piece: 'its metadata', bytes: () => flipped(header(24), header(32)) },
    // The first tile (0/0/0) is the first of the tile data, up to where the next begins.
    { piece: 'a tile', bytes: () => flipped(header(56), ARCHIVE.indexOf(Buffer.from([0x1f, 0x8b]), header(56) + 2) - header(56)) },
  ];
  for (const { piece, bytes } of cases) {
    it(`${piece}: "${piece} is not gzip-compressed", not "its data"`, async () => {
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      serve(bytes());
      const archive = `https://maps.example.org/${piece.replace(/\W+/g, '-')}.pmtiles`;
      await loadFromArchive({ url: `pmtiles://${archive}`, type: 'json' }, new AbortController());
      // A tile read clears the archive's failure when it reads: only the tile is asked for after the TileJSON failed.
      if (piece === 'a tile') await loadFromArchive({ url: `pmtiles://${archive}/0/0/0`, type: 'arrayBuffer' }, new AbortController()).catch(() => {});
      expect(archiveFailure(archive)).toBe(`${piece} is not gzip-compressed, though its header says it is`);
    });
  }
});

describe('prefetchArchives', () => {
  const transform = tokenTransform('secret', 'https://maps.example.org', 'X-Api-Key');

  it('asks for the header of each archive a style names once, as soon as it has the style, with the token only on the provider\'s origin; the tiles find it read', async () => {
    const requests = recordRequests();
    prefetchArchives(
      {
        sources: {
          provider: { type: 'vector', url: 'pmtiles://https://maps.example.org/prefetch.pmtiles' },
          cdn: { type: 'vector', tiles: ['pmtiles://https://cdn.example.com/prefetch.pmtiles/{z}/{x}/{y}'] },
          again: { type: 'vector', tiles: ['pmtiles://https://cdn.example.com/prefetch.pmtiles/{z}/{x}/{y}.mvt'] },
          loose: { type: 'vector', tiles: ['https://cdn.example.com/tiles/{z}/{x}/{y}.pbf'] },
          pins: { type: 'geojson', data: 'https://cdn.example.com/pins.geojson' },
        },
      },
      transform,
    );
    await vi.waitFor(() => expect(requests).toHaveLength(2));
    expect(requests).toEqual([
      { url: 'https://maps.example.org/prefetch.pmtiles', key: 'secret', range: 'bytes=0-16383' },
      { url: 'https://cdn.example.com/prefetch.pmtiles', key: undefined, range: 'bytes=0-16383' },
    ]);
    const tile = await loadTile('pmtiles://https://cdn.example.com/prefetch.pmtiles/1/1/0', transform);
    expect(new TextDecoder().decode(tile.data as Uint8Array)).toMatch(/^tile 1\/1 /);
    await loadTile('pmtiles://https://maps.example.org/prefetch.pmtiles/2/3/3', transform);
    // No header was read again: the tiles used the readers the style's arrival started.
    expect(requests.filter((r) => r.range === 'bytes=0-16383')).toHaveLength(2);
    expect(requests.filter((r) => r.url.startsWith('https://cdn.example.com/')).every((r) => r.key === undefined)).toBe(true);
  });

  it('forgets a header that could not be read: the first tile asks again, and that request fails with the reason', async () => {
    const url = 'https://cdn.example.com/prefetch-missing.pmtiles';
    const requests = recordRequests([url]);
    prefetchArchives({ sources: { cdn: { type: 'vector', url: `pmtiles://${url}` } } }, transform);
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(loadTile(`pmtiles://${url}/0/0/0`, transform)).rejects.toThrow('the server answered HTTP 404');
    expect(requests).toHaveLength(2);
  });
});

describe('readTilesAhead', () => {
  it('reads the tiles it is given at once; the map\'s request for each then takes that read instead of asking again', async () => {
    const url = 'https://cdn.example.com/ahead.pmtiles';
    const ranges = serve(LARGE);
    readTilesAhead(url, {}, [[3, 1, 2], [3, 2, 2]]);
    // The header, then each tile's range (past the first 16 KiB).
    await vi.waitFor(() => expect(ranges).toHaveLength(3));
    const tile = await loadFromArchive({ url: `pmtiles://${url}/3/1/2`, type: 'arrayBuffer' }, new AbortController());
    expect(tile.data).toEqual(noise(2_000, 300 + 2 * 8 + 1));
    await loadFromArchive({ url: `pmtiles://${url}/3/2/2`, type: 'arrayBuffer' }, new AbortController());
    expect(ranges).toHaveLength(3);
    // Taken once: a second request for the tile reads it again.
    await loadFromArchive({ url: `pmtiles://${url}/3/1/2`, type: 'arrayBuffer' }, new AbortController());
    expect(ranges).toHaveLength(4);
  });
});
