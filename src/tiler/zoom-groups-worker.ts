import { parentPort, workerData } from 'node:worker_threads';
import { Grouper, transferablesOf } from './zoom-groups.ts';

/** The grouping's worker thread (see `GroupsInWorker`): answers each zoom it is asked for with that zoom's groups. */
const grouper = new Grouper((workerData as { coordinates: Float64Array }).coordinates);
parentPort!.on('message', (zoom: number) => {
  const groups = grouper.at(zoom);
  parentPort!.postMessage({ zoom, groups }, transferablesOf(groups));
});
