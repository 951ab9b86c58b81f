import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLUSTER_MAX_ZOOM, CLUSTER_TIERS } from '../config/constants.ts';
import { PIN_ARCHIVE } from '../pins/archive-format.ts';
import { ByteStore } from './byte-store.ts';
import { writePinIndex } from './pin-lookup.ts';
import { Grouper, GroupsInWorker, NOT_ALONE, zoomsOfWorkers, type GroupingWork } from './zoom-groups.ts';

/** `count` pins around Europe, in shared memory as the tiler keeps them; their records' file is `recordsPath`; grouped up to the first zoom from `lowestLastZoom` up without bubbles. */
function work(count: number, recordsPath: string, lowestLastZoom: number = PIN_ARCHIVE.lowestLastZoom): GroupingWork {
  let state = 11;
  const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const coordinates = new Float64Array(new SharedArrayBuffer(count * 16));
  for (let i = 0; i < count; i++) coordinates.set([-10 + random() * 40, 35 + random() * 25], 2 * i);
  const ids = new ByteStore();
  for (let i = 0; i < count; i++) ids.add(`p${i}`);
  ids.trim();
  return {
    coordinates,
    lastZoom: PIN_ARCHIVE.maxZoom,
    lowestLastZoom,
    index: { path: `${recordsPath}.index`, buckets: 1, partPins: 1000, ids: ids.columns(), looks: new Uint16Array(new SharedArrayBuffer(count * 2)), records: { path: recordsPath, lengths: new Uint32Array(new SharedArrayBuffer(count * 4)).fill(2) } },
  };
}

describe('the grouping in a worker thread', () => {
  it('gives every zoom the same groups as the grouping in this thread, and an error in the worker rejects what waits for it, naming it', async () => {
    // Every zoom, though none past 16 or so has bubbles.
    const job = work(3000, '/nonexistent/pinmap-records.jsonl', PIN_ARCHIVE.maxZoom);
    const here = new Grouper(job.coordinates);
    const there = new GroupsInWorker(job);
    try {
      for (let zoom = 0; zoom <= PIN_ARCHIVE.maxZoom; zoom++) {
        const expected = here.at(zoom);
        const got = await there.take(zoom);
        expect(got.bubbles.count, `zoom ${zoom}`).toBe(expected.bubbles.count);
        expect([...got.bubbles.id], `zoom ${zoom}`).toEqual([...expected.bubbles.id]);
        expect([...got.bubbles.points]).toEqual([...expected.bubbles.points]);
        expect([...got.rank]).toEqual([...expected.rank]);
        if (zoom <= 4) expect(got.bubbles.count, `zoom ${zoom} has bubbles`).toBeGreaterThan(0);
        if (zoom > CLUSTER_MAX_ZOOM) expect(got.bubbles.count).toBe(0);
      }
      // The pin index is written there once the last zoom is grouped: its folder is missing.
      await expect(there.indexLength()).rejects.toThrow(/^the grouping stopped: ENOENT: no such file or directory, open '\/nonexistent\/pinmap-records/);
    } finally {
      await there.close();
    }
  }, 60_000);

  it('groups a set of more pins than one range of zooms takes in two workers, each every other range, up to the first zoom without bubbles, and writes the same pin index as one thread with the zooms up to it', async () => {
    const count = CLUSTER_TIERS.fromPins + 2000;
    const folder = mkdtempSync(join(tmpdir(), 'pinmap-zoom-groups-'));
    const job = work(count, join(folder, 'records.jsonl'));
    writeFileSync(job.index.records.path, '[]'.repeat(count));
    expect(zoomsOfWorkers(count, PIN_ARCHIVE.maxZoom, 2)).toEqual([
      [0, 1, 2, 3, 4, 7, 8, 11, 12, 15, 16],
      [5, 6, 9, 10, 13, 14, 17, 18, 19],
    ]);
    const here = new Grouper(job.coordinates);
    const alone = new Uint32Array(count);
    const there = new GroupsInWorker(job);
    try {
      let zoom = 0;
      for (; zoom <= there.lastZoom; zoom++) {
        const expected = here.at(zoom);
        const got = await there.take(zoom);
        expect([...got.bubbles.id], `zoom ${zoom}`).toEqual([...expected.bubbles.id]);
        expect([...got.rank], `zoom ${zoom}`).toEqual([...expected.rank]);
        if (zoom >= PIN_ARCHIVE.lowestLastZoom) expect(got.bubbles.count === 0, `zoom ${zoom} is the last`).toBe(zoom === there.lastZoom);
        for (let i = 0; i < count; i++) if (expected.rank[i] !== NOT_ALONE) alone[i]! |= 1 << zoom;
      }
      // Not below the lowest last zoom, though zoom 13 already has no bubbles; below the last zoom there can be.
      expect(there.lastZoom).toBeGreaterThanOrEqual(PIN_ARCHIVE.lowestLastZoom);
      expect(there.lastZoom).toBeLessThan(PIN_ARCHIVE.maxZoom);
      expect(here.at(zoom).bubbles.count, 'the zoom past the last has no bubbles either').toBe(0);
      const length = await there.indexLength();
      const ids = ByteStore.fromColumns(job.index.ids);
      const expectedPath = join(folder, 'expected.index');
      const expectedLength = writePinIndex(expectedPath, job.index.buckets, { coordinates: job.coordinates, ids: { id: (pin) => ids.text(pin) }, looks: job.index.looks, alone, records: job.index.records }, job.index.partPins);
      expect(length).toBe(expectedLength);
      expect(readFileSync(job.index.path).equals(readFileSync(expectedPath))).toBe(true);
    } finally {
      await there.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);

  it('gives a set of pins grouped in one range of zooms to one worker', () => {
    expect(zoomsOfWorkers(CLUSTER_TIERS.fromPins, PIN_ARCHIVE.maxZoom, 2)).toEqual([Array.from({ length: PIN_ARCHIVE.maxZoom + 1 }, (_, zoom) => zoom)]);
  });

  it('refuses pins that are not in shared memory (the worker would read a copy, or nothing)', () => {
    const job = work(10, '/nonexistent/records');
    expect(() => new GroupsInWorker({ ...job, coordinates: Float64Array.from(job.coordinates) })).toThrow('what the grouping worker reads must be in shared memory');
  });
});
