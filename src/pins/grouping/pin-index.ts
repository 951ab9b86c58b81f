import { createIndexCore, type IndexReply, type IndexRequest } from './index-core.ts';

/** A worker for a `PinIndex`: it can be started ahead, while the pins are still being read. */
export function startIndexWorker(): Worker {
  return new Worker(new URL('./pin-index.worker.ts', import.meta.url), { type: 'module', name: 'Pinmap pin index' });
}

type Ask = IndexRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;
type Answer<T extends string> = Extract<IndexReply, { type: T }>;

/** What shows at one whole zoom within a box: see `IndexReply`. */
export type PinGroups = Answer<'groups'>;

/**
 * The grouping of a large pin set, made in a worker of its own so that clustering 100k pins
 * neither blocks the page nor waits for the basemap: it starts as soon as the pins are read, and
 * the map is given only the bubbles and pins of the area in view. Only coordinates go to the
 * worker (one Float64Array); pins are known by their index. Where no worker can start (a policy
 * that forbids it, a worker file that fails to load) the same index runs on the page.
 */
export class PinIndex {
  private worker: Worker | undefined;
  private local: ReturnType<typeof createIndexCore> | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { request: IndexRequest; settle: (reply: IndexReply) => void }>();
  /** What loads the index on the page if the worker fails: the pins, with the latest filter. */
  private load: Extract<IndexRequest, { type: 'load' }>;
  private destroyed = false;
  /** Resolves once the index has the pins and the groups around the zoom it was given (other zooms are grouped when first asked for). */
  readonly ready: Promise<void>;

  /**
   * `lngLats`: each pin's longitude and latitude, in the pin set's order; `zoom`: the map's, whose
   * groups are made with the index (it is `ready` once they are); `worker`: one started ahead
   * (`startIndexWorker`), or a new one is started.
   */
  constructor(lngLats: Float64Array, zoom?: number, worker?: Worker, visible?: Uint8Array) {
    try {
      this.worker = worker ?? startIndexWorker();
      this.worker.onmessage = ({ data }: MessageEvent<IndexReply>) => this.settle(data);
      // The worker could not start or failed: the pins are grouped here instead.
      this.worker.onerror = (event) => {
        event.preventDefault();
        this.runLocally();
      };
    } catch {
      this.worker = undefined;
    }
    this.load = { id: this.nextId++, type: 'load', lngLats, ...(zoom === undefined ? {} : { zoom }), ...(visible ? { visible } : {}) };
    this.ready = this.send(this.load).then(() => {});
    // Destroyed before it was ready: whoever awaits `ready` hears it; nobody else has to.
    this.ready.catch(() => {});
    if (!this.worker) this.runLocally();
  }

  /**
   * Takes a newer set's pins (an update by id: their coordinates in its order, and which show)
   * and groups them afresh, the zoom range of `zoom` at once. Questions asked from now on are
   * answered from the new pins.
   */
  reload(lngLats: Float64Array, zoom?: number, visible?: Uint8Array): Promise<void> {
    this.load = { id: this.nextId++, type: 'load', lngLats, ...(zoom === undefined ? {} : { zoom }), ...(visible ? { visible } : {}) };
    return this.send(this.load).then(() => {});
  }

  /** The bubbles and lone pins at a whole `zoom` within `bbox` ([west, south, east, north]). */
  groups(bbox: [number, number, number, number], zoom: number): Promise<PinGroups> {
    return this.ask({ type: 'groups', bbox, zoom }) as Promise<PinGroups>;
  }

  /**
   * Groups the pins again with only those `visible` marks (1 per shown pin, by its index in the
   * set; none: every pin), the zoom range of `zoom` at once. Later questions get the new groups.
   */
  filter(visible: Uint8Array | undefined, zoom?: number): Promise<void> {
    const { visible: _, ...load } = this.load;
    this.load = visible ? { ...load, visible } : load;
    return this.ask({ type: 'filter', ...(visible ? { visible } : {}), ...(zoom === undefined ? {} : { zoom }) }).then(() => {});
  }

  /** The zoom at which a bubble splits. */
  expansionZoom(clusterId: number): Promise<number> {
    return (this.ask({ type: 'expansionZoom', clusterId }) as Promise<Answer<'expansionZoom'>>).then((reply) => reply.zoom);
  }

  /** A bubble's pins (their indexes in the set), in the set's order: `limit` of them (none: all) from `offset` on, and how many it has. */
  leaves(clusterId: number, offset?: number, limit?: number): Promise<{ pins: Uint32Array; total: number }> {
    return (this.ask({ type: 'leaves', clusterId, ...(offset === undefined ? {} : { offset }), ...(limit === undefined ? {} : { limit }) }) as Promise<Answer<'leaves'>>).then(({ pins, total }) => ({ pins, total }));
  }

  /** The first whole zoom, from `fromZoom` up, at which the pin (its index in the set) stands alone: see `PinGrouping.revealZoom`. */
  revealZoom(pin: number, fromZoom: number): Promise<number> {
    return (this.ask({ type: 'revealZoom', pin, fromZoom }) as Promise<Answer<'revealZoom'>>).then((reply) => reply.zoom);
  }

  /**
   * Groups now the ranges of zooms that `zooms` are in, so that a view there soon is answered at
   * once; resolves with how many ranges are grouped.
   */
  prepare(zooms: number[]): Promise<number> {
    return (this.ask({ type: 'prepare', zooms }) as Promise<Answer<'prepare'>>).then((reply) => reply.grouped);
  }

  destroy(): void {
    this.destroyed = true;
    this.worker?.terminate();
    this.worker = undefined;
    this.local = undefined;
    for (const { settle, request } of this.pending.values()) settle({ id: request.id, error: 'the pin index was destroyed' });
  }

  private ask(question: Ask): Promise<IndexReply> {
    return this.send({ ...question, id: this.nextId++ } as IndexRequest);
  }

  private send(request: IndexRequest): Promise<IndexReply> {
    if (this.destroyed) return Promise.reject(new Error('the pin index was destroyed'));
    return new Promise<IndexReply>((resolve, reject) => {
      this.pending.set(request.id, {
        request,
        settle: (reply) => ('error' in reply ? reject(new Error(`Pinmap pin index: ${reply.error}`)) : resolve(reply)),
      });
      if (this.worker) this.worker.postMessage(request);
      else if (this.local) this.answerLocally(request);
    });
  }

  private settle(reply: IndexReply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    waiting.settle(reply);
  }

  /** From now on the index is on the page: loads it and answers what the worker had not. */
  private runLocally(): void {
    if (this.destroyed || this.local) return;
    this.worker?.terminate();
    this.worker = undefined;
    this.local = createIndexCore();
    const waiting = [...this.pending.values()].map((entry) => entry.request);
    if (!waiting.some((request) => request.type === 'load')) waiting.unshift(this.load);
    for (const request of waiting.sort((a, b) => a.id - b.id)) this.answerLocally(request);
  }

  private answerLocally(request: IndexRequest): void {
    const local = this.local;
    // As a worker would: later, never inside the caller's own call.
    setTimeout(() => {
      if (local && local === this.local) this.settle(local(request).reply);
    }, 0);
  }
}
