import { parentPort, workerData } from 'node:worker_threads';
import { ByteStore } from './byte-store.ts';
import { writePinIndex } from './pin-lookup.ts';
import { Grouper, NOT_ALONE, transferablesOf, type GroupingMessage, type GroupingWork } from './zoom-groups.ts';

/**
 * The grouping's worker thread (see `GroupsInWorker`): answers each zoom it is asked for with that
 * zoom's groups, and after the last zoom writes the pin index and answers with its length.
 */
const { coordinates, categoryOf, lastZoom, index } = workerData as GroupingWork;
const grouper = new Grouper(coordinates, categoryOf);
/** Bit z: the pin stands alone at zoom z. */
const alone = new Uint16Array(coordinates.length / 2);
const post = (message: GroupingMessage, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(message, transfer);

parentPort!.on('message', (zoom: number) => {
  const groups = grouper.at(zoom);
  const bit = 1 << zoom;
  for (let i = 0; i < alone.length; i++) if (groups.rank[i] !== NOT_ALONE) alone[i]! |= bit;
  post({ zoom, groups }, transferablesOf(groups));
  if (zoom === lastZoom) {
    const ids = ByteStore.fromColumns(index.ids);
    post({ indexLength: writePinIndex(index.path, index.buckets, { coordinates, ids: { id: (pin) => ids.text(pin) }, looks: index.looks, alone, records: index.records }, index.partPins) });
  }
});
