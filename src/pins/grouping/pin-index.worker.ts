/// <reference lib="webworker" />
import { createIndexCore, type IndexRequest } from './index-core.ts';

/** The pin index's worker: clusters a large pin set off the main thread (see `PinIndex`). */
const answer = createIndexCore();
const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = ({ data }: MessageEvent<IndexRequest>) => {
  const { reply, transfer } = answer(data);
  scope.postMessage(reply, transfer);
};
