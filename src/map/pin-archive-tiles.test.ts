import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PinArchiveTiles, tilesCovering, type Bbox } from './pin-archive-tiles.ts';
import { openPinArchive } from './pin-archive.ts';
import { parsePins } from '../pins/data.ts';
import { PinClusters } from '../pins/grouping/clusters.ts';
import { tokenTransform } from './request-transform.ts';
import { PIN_ARCHIVE } from '../pins/archive-format.ts';
import { CLUSTER_MAX_ZOOM } from '../config/constants.ts';
import type { Pin } from '../pins/types.ts';
import { openServedArchive, tileCollection } from '../testing/pin-archive.testing.ts';
import { cityLngLats, feature } from '../testing/pin-features.testing.ts';

/** The committed archive of the default pins, and the file it was made from. */
const ARCHIVE = readFileSync('fixtures/pins/cities.pmtiles');
const GEOJSON = JSON.parse(readFileSync('fixtures/pins/cities.geojson', 'utf8')) as unknown;
const HOST = 'https://pins.example.org';

/** A static host in `fetch`'s place, answering Range from the archive; records each request's headers. */
function serve(fail: () => boolean = () => false, bytes: Buffer = ARCHIVE) {
  const requests: Record<string, string>[] = [];
  vi.stubGlobal('fetch', async (_url: string, init: { headers: Headers | Record<string, string> }) => {
    const headers = init.headers instanceof Headers ? Object.fromEntries(init.headers.entries()) : Object.fromEntries(Object.entries(init.headers).map(([k, v]) => [k.toLowerCase(), v]));
    requests.push(headers);
    if (fail()) return new Response('busy', { status: 503 });
    const [, from, to] = /^bytes=(\d+)-(\d+)$/.exec(headers.range ?? '')!.map(Number) as [number, number, number];
    const end = Math.min(to, bytes.length - 1);
    return new Response(new Uint8Array(bytes.subarray(from, end + 1)), { status: 206, headers: { 'Content-Range': `bytes ${from}-${end}/${bytes.length}` } });
  });
  return requests;
}

afterEach(() => vi.unstubAllGlobals());

const WORLD: Bbox = [-180, -85.06, 180, 85.06];

/** A box round `[lng, lat]`: `degrees` across at most, and no more than three tiles of `zoom` (the tiles read stay few at every zoom). */
function around([lng, lat]: [number, number], zoom: number, degrees: number): Bbox {
  const half = Math.min(degrees / 2, (1.5 * 360) / 2 ** zoom);
  return [lng - half, lat - half / 1.5, lng + half, lat + half / 1.5];
}

/**
 * Checks that the archive's tiles (`tiles`) give, at each whole zoom from 0 to two above the
 * archive's last, the groups the page makes of `pins` inline in `boxAt(zoom)`: the same lone pins,
 * the same bubbles (key, count, where they split) at the same places within the tile's grid.
 * Returns the zooms at which there were bubbles, and the first with lone pins.
 */
async function expectSameGroups(tiles: PinArchiveTiles, pins: Pin[], boxAt: (zoom: number) => Bbox, lastZoom: number): Promise<{ bubbleZooms: number[]; loneFrom: number }> {
  const clusters = new PinClusters(pins);
  const places = new Map(pins.map((pin) => [pin.id, pin.lngLat]));
  const inBox = ([w, s, e, n]: Bbox, [lng, lat]: [number, number]) => lng >= w && lng <= e && lat >= s && lat <= n;
  const bubbleZooms: number[] = [];
  let loneFrom = Infinity;
  for (let zoom = 0; zoom <= PIN_ARCHIVE.maxZoom + 2; zoom++) {
    const box = boxAt(zoom);
    // An archive's bubble is known by its id in the grouping (the page's inline ones by their key, which the tiler does not keep).
    const inline = clusters
      .groupsAt(zoom, box)
      .filter((g) => inBox(box, g.kind === 'cluster' ? g.lngLat : places.get(g.id)!))
      .map((g) => (g.kind === 'cluster' ? { ...g, key: `cluster:${g.clusterId}` } : g));
    const tiled = (await tiles.groupsAt(zoom, box)).filter((g) => inBox(box, g.kind === 'cluster' ? g.lngLat : g.pin.lngLat));
    expect(tiled.length, `nothing at zoom ${zoom}`).toBeGreaterThan(0);
    const lone = (list: { kind: string; key: string }[]) => list.filter((g) => g.kind === 'pin').map((g) => g.key).sort();
    expect(lone(tiled), `lone pins at zoom ${zoom}`).toEqual(lone(inline));
    if (lone(tiled).length > 0) loneFrom = Math.min(loneFrom, zoom);
    const bubbles = <T extends { kind: string; key: string }>(list: T[]) => list.filter((g) => g.kind === 'cluster').sort((a, b) => a.key.localeCompare(b.key));
    const inlineBubbles = bubbles(inline) as Extract<(typeof inline)[number], { kind: 'cluster' }>[];
    const tiledBubbles = bubbles(tiled) as Extract<(typeof tiled)[number], { kind: 'cluster' }>[];
    expect(tiledBubbles.map((b) => [b.key, b.count]), `bubbles at zoom ${zoom}`).toEqual(inlineBubbles.map((b) => [b.key, b.count]));
    if (tiledBubbles.length > 0) bubbleZooms.push(zoom);
    tiledBubbles.forEach((bubble, i) => {
      // The tile's grid: 1/8192 of a tile, far less than a pixel.
      const span = 360 / 2 ** zoom / PIN_ARCHIVE.extent;
      expect(Math.abs(bubble.lngLat[0] - inlineBubbles[i]!.lngLat[0])).toBeLessThanOrEqual(span);
      expect(Math.abs(bubble.lngLat[1] - inlineBubbles[i]!.lngLat[1])).toBeLessThanOrEqual(span);
      expect(bubble.expansionZoom, `where a bubble at zoom ${zoom} splits`).toBe(clusters.expansionZoom(Number(bubble.key.slice('cluster:'.length))));
    });
    // Lone pins stand at their own places, within the grid of the tile that holds them (the archive's
    // last zoom's above it), and no finer than a zoom-16 tile's, where the tiler places them.
    expect(tiles.tileZoom(zoom)).toBe(Math.min(zoom, lastZoom));
    const span = 360 / 2 ** Math.min(zoom, lastZoom, PIN_ARCHIVE.lowestLastZoom) / PIN_ARCHIVE.extent;
    for (const group of tiled) {
      if (group.kind !== 'pin') continue;
      const [lng, lat] = places.get(group.pin.id)!;
      expect(Math.abs(group.pin.lngLat[0] - lng), `${group.pin.id} at zoom ${zoom}`).toBeLessThanOrEqual(span);
      expect(Math.abs(group.pin.lngLat[1] - lat), `${group.pin.id} at zoom ${zoom}`).toBeLessThanOrEqual(span);
    }
  }
  return { bubbleZooms, loneFrom };
}

describe('PinArchiveTiles', () => {
  it('gives at every zoom the same bubbles (counts, places, where they split) and lone pins as the page groups the same file, past the archive\'s last zoom too', async () => {
    serve();
    const archive = await openPinArchive(`pmtiles://${HOST}/cities.pmtiles`, {}, `${HOST}/`);
    const { pins } = parsePins(GEOJSON);
    // The cities stand alone long before the grouping's last zoom: the archive was cut at its lowest last zoom.
    expect(archive.source.maxzoom).toBe(PIN_ARCHIVE.lowestLastZoom);
    // The world up to zoom 5, western Europe up to 10, then a few tiles round Paris.
    const boxAt = (zoom: number): Bbox => (zoom <= 5 ? WORLD : zoom <= 10 ? [0, 45, 10, 52] : around([2.3488, 48.8534], zoom, 0.15));
    const seen = await expectSameGroups(new PinArchiveTiles(archive, undefined), pins, boxAt, archive.source.maxzoom);
    expect(Math.max(...seen.bubbleZooms)).toBeLessThan(archive.source.maxzoom);
    // A tile's pin has its name and its look's category; its popup fields are in the pin index.
    const tiles = new PinArchiveTiles(archive, undefined);
    const places = new Map(pins.map((pin) => [pin.id, pin.lngLat]));
    const paris = (await tiles.groupsAt(8, [2, 48, 3, 49])).find((g) => g.kind === 'pin' && g.pin.id === 'paris-fr');
    expect(paris).toMatchObject({ pin: { title: 'Paris', category: 'capital' } });
    expect(await archive.find('paris-fr')).toMatchObject({ pin: { title: 'Paris', url: 'https://www.geonames.org/2988507', category: 'capital', lngLat: places.get('paris-fr') } });
  });

  it('reads the tiles with the token rule of the map (here a header), and a failed tile is warned about and asked for again', async () => {
    let failing = false;
    const requests = serve(() => failing);
    const archive = await openPinArchive(`pmtiles://${HOST}/cities.pmtiles`, {}, `${HOST}/`);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    failing = true;
    const tiles = new PinArchiveTiles(archive, tokenTransform('s3cret', HOST, 'X-Api-Key'));
    expect(await tiles.groupsAt(3, [0, 40, 20, 55])).toEqual([]);
    expect(warn.mock.calls.some(([message]) => /the pin tile 3\/4\/2 of pmtiles:\/\/https:\/\/pins\.example\.org\/cities\.pmtiles could not be read/.test(String(message)))).toBe(true);
    failing = false;
    expect((await tiles.groupsAt(3, [0, 40, 20, 55])).length).toBeGreaterThan(0);
    expect(requests.filter((headers) => headers['x-api-key'] === 's3cret').length).toBeGreaterThan(0);
  });

  it('a passing server error is no fault of the archive: nothing is told to onUnreadable', async () => {
    let failing = false;
    serve(() => failing);
    const archive = await openPinArchive(`pmtiles://${HOST}/busy.pmtiles`, {}, `${HOST}/`);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    failing = true;
    const unreadable = vi.fn();
    expect(await new PinArchiveTiles(archive, undefined, unreadable).groupsAt(3, [0, 40, 20, 55])).toEqual([]);
    expect(unreadable).not.toHaveBeenCalled();
  });

  const tileData = (bytes: Buffer): [number, number] => {
    const at = Number(bytes.readBigUInt64LE(56));
    return [at, at + Number(bytes.readBigUInt64LE(64))];
  };
  for (const fault of [
    { name: 'tiles not gzip though its header says so', reason: 'a tile is not gzip-compressed, though its header says it is', damage: (bytes: Buffer) => void (bytes[98] = 2) },
    { name: 'tiles that are not vector tiles', reason: 'its pin tiles are not vector tiles', damage: (bytes: Buffer) => void bytes.fill(0xff, ...tileData(bytes)) },
  ]) {
    it(`a damaged archive (${fault.name}) is told to onUnreadable with its URL and the reason, once; its tiles are asked for again`, async () => {
      const damaged = Buffer.from(ARCHIVE);
      fault.damage(damaged);
      const requests = serve(() => false, damaged);
      const name = `damaged-${fault.reason.length}.pmtiles`;
      const archive = await openPinArchive(`pmtiles://${HOST}/${name}`, {}, `${HOST}/`);
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      const unreadable = vi.fn();
      const tiles = new PinArchiveTiles(archive, undefined, unreadable);
      expect(await tiles.groupsAt(3, [0, 40, 20, 55])).toEqual([]);
      const asked = requests.length;
      expect(await tiles.groupsAt(3, [0, 40, 20, 55])).toEqual([]);
      expect(requests.length, 'the tiles are asked for again').toBeGreaterThan(asked);
      expect(unreadable.mock.calls).toEqual([[`${HOST}/${name}`, fault.reason]]);
    });
  }
});

describe('PinArchiveTiles over a city', () => {
  const lngLats = cityLngLats([4.835, 45.76]);
  const features = lngLats.map((coordinates, i) => feature(`c${i}`, {}, { geometry: { type: 'Point', coordinates } }));
  let bytes: Buffer;
  beforeAll(async () => {
    bytes = await tileCollection({ type: 'FeatureCollection', features });
  }, 60_000);

  it('gives the same bubbles and lone pins as the page (streets, blocks of flats), at every zoom the grouping has and above', async () => {
    const { archive } = await openServedArchive(bytes, HOST);
    const { pins } = parsePins({ type: 'FeatureCollection', features });
    // Round the biggest block of flats: a bubble at every zoom, streets and lone pins beside it.
    const counts = new Map<string, number>();
    for (const lngLat of lngLats) counts.set(lngLat.join(), (counts.get(lngLat.join()) ?? 0) + 1);
    const block = [...counts].sort((a, b) => b[1] - a[1])[0]![0].split(',').map(Number) as [number, number];
    expect(archive.source.maxzoom, 'bubbles to the grouping\'s last zoom: the archive is not cut').toBe(PIN_ARCHIVE.maxZoom);
    const seen = await expectSameGroups(new PinArchiveTiles(archive, undefined), pins, (zoom) => around(block, zoom, 0.02), archive.source.maxzoom);
    expect(seen.bubbleZooms, 'zooms with bubbles').toEqual(Array.from({ length: CLUSTER_MAX_ZOOM + 1 }, (_, zoom) => zoom));
    expect(seen.loneFrom, 'the first zoom with lone pins').toBeLessThanOrEqual(14);
  });
});

describe('tilesCovering', () => {
  it('covers the box, wraps across the 180° meridian and clamps the poles', () => {
    expect(tilesCovering(1, WORLD)).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ]);
    expect(tilesCovering(2, [170, -10, 190, 10])).toEqual([
      [3, 1],
      [3, 2],
      [0, 1],
      [0, 2],
    ]);
    expect(tilesCovering(0, [-400, -90, 400, 90])).toEqual([[0, 0]]);
  });
});
