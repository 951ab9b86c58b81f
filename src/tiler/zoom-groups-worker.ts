import { parentPort, workerData } from 'node:worker_threads';
import { ByteStore } from './byte-store.ts';
import { writePinIndex } from './pin-lookup.ts';
import { Grouper, transferablesOf, type GroupingMessage, type GroupingRequest, type WorkerData } from './zoom-groups.ts';

/**
 * A grouping worker thread (see `GroupsInWorker`): answers each of its zooms it is asked for with
 * that zoom's groups, building each of its ranges of zooms as soon as it is done with the one
 * before, up to the archive's last zoom as known so far; asked to, writes the pin index and
 * answers with its length.
 */
const { coordinates, categoryOf, zooms, finestFrom, index, lastZoomNow } = workerData as WorkerData;
const grouper = new Grouper(coordinates, categoryOf);
const post = (message: GroupingMessage, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(message, transfer);

grouper.prepare(zooms[0]!);
// The first range of zooms holds few bubbles, so its worker builds its next range beside it at once
// (while the tiler sorts the pins and writes the search index) rather than once it has been read.
const secondRange = zooms.find((zoom, k) => k > 0 && zoom !== zooms[k - 1]! + 1);
if (zooms[0] === 0 && secondRange !== undefined && secondRange < finestFrom) grouper.prepare(secondRange);
parentPort!.on('message', (request: GroupingRequest) => {
  if (typeof request !== 'number') {
    const ids = ByteStore.fromColumns(index.ids);
    post({ indexLength: writePinIndex(index.path, index.buckets, { coordinates, ids: { id: (pin) => ids.text(pin) }, looks: index.looks, alone: request.alone, records: index.records }, index.partPins) });
    return;
  }
  // Past the archive's last zoom (found once this was asked for): not grouped, nor answered.
  if (request > Atomics.load(lastZoomNow, 0)) return;
  const groups = grouper.at(request);
  post({ zoom: request, groups }, transferablesOf(groups));
  // The next of its zooms in another range (not the next zoom): that range is built now, unless it is the finest (see `GroupsInWorker`).
  const next = zooms[zooms.indexOf(request) + 1];
  if (next !== undefined && next !== request + 1 && next < finestFrom && next <= Atomics.load(lastZoomNow, 0)) grouper.prepare(next);
});
