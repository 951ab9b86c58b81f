import { assign, emit, setup } from 'xstate';

/**
 * The map's life as embedders and tests see it, mirrored on the map root as `data-map-state`:
 * `loading` until the map has drawn everything it was asked to, `idle` once it has, `error` when
 * it cannot go on (WebGL cannot start, the style cannot be loaded). A retryable error offers a
 * retry, which the machine announces as an emitted `map.retryRequested` event for the map engine
 * to act on, so this definition knows nothing of MapLibre.
 */
export type MapFailure = {
  /** What the user reads. */
  message: string;
  /** Whether trying again can help (a style that failed to load) or not (no WebGL). */
  retryable: boolean;
};

export type MapStatusEvent =
  | { type: 'map.created' }
  | { type: 'map.busy' }
  | { type: 'map.idle' }
  | { type: 'map.failed'; failure: MapFailure }
  | { type: 'map.retry' };

export const mapStatusMachine = setup({
  types: {
    context: {} as { failure: MapFailure | undefined },
    events: {} as MapStatusEvent,
    emitted: {} as { type: 'map.retryRequested' },
  },
  actions: {
    /** Asks the map engine to load its style again. */
    retryLoad: emit({ type: 'map.retryRequested' as const }),
    recordFailure: assign({
      failure: ({ event }) => (event.type === 'map.failed' ? event.failure : undefined),
    }),
    clearFailure: assign({ failure: undefined }),
  },
  guards: {
    isRetryable: ({ context }) => context.failure?.retryable === true,
  },
}).createMachine({
  id: 'mapStatus',
  initial: 'loading',
  context: { failure: undefined },
  on: {
    'map.created': { target: '.loading', actions: 'clearFailure' },
    'map.failed': { target: '.error', actions: 'recordFailure' },
  },
  states: {
    loading: {
      on: { 'map.idle': 'idle' },
    },
    idle: {
      on: { 'map.busy': 'loading' },
    },
    error: {
      on: {
        'map.retry': { guard: 'isRetryable', target: 'loading', actions: ['clearFailure', 'retryLoad'] },
      },
    },
  },
});

/** The map's status, as on its root's `data-map-state`: drawing (`loading`), done (`idle`) or failed (`error`). */
export type MapStatus = 'loading' | 'idle' | 'error';
