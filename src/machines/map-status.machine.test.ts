import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { mapStatusMachine } from './map-status.machine.ts';

function start() {
  const actor = createActor(mapStatusMachine);
  const retryLoad = vi.fn();
  actor.on('map.retryRequested', retryLoad);
  actor.start();
  return { actor, retryLoad };
}

describe('map status machine', () => {
  it('starts loading and becomes idle when the map has drawn everything', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe('loading');
    actor.send({ type: 'map.idle' });
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('goes back to loading while the map moves or fetches, and to idle after', () => {
    const { actor } = start();
    actor.send({ type: 'map.idle' });
    actor.send({ type: 'map.busy' });
    expect(actor.getSnapshot().value).toBe('loading');
    actor.send({ type: 'map.idle' });
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('records a failure from any state and stays in error when the map later reports idle', () => {
    const { actor } = start();
    actor.send({ type: 'map.failed', failure: { message: 'Failed to initialize WebGL', retryable: false } });
    expect(actor.getSnapshot().value).toBe('error');
    expect(actor.getSnapshot().context.failure?.message).toBe('Failed to initialize WebGL');
    actor.send({ type: 'map.idle' });
    expect(actor.getSnapshot().value).toBe('error');
  });

  it('asks the engine to retry a retryable failure and clears it', () => {
    const { actor, retryLoad } = start();
    actor.send({ type: 'map.failed', failure: { message: 'style 404', retryable: true } });
    expect(actor.getSnapshot().can({ type: 'map.retry' })).toBe(true);
    actor.send({ type: 'map.retry' });
    expect(retryLoad).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.failure).toBeUndefined();
  });

  it('does not offer a retry for a failure that cannot be retried', () => {
    const { actor, retryLoad } = start();
    actor.send({ type: 'map.failed', failure: { message: 'Failed to initialize WebGL', retryable: false } });
    expect(actor.getSnapshot().can({ type: 'map.retry' })).toBe(false);
    actor.send({ type: 'map.retry' });
    expect(retryLoad).not.toHaveBeenCalled();
    expect(actor.getSnapshot().value).toBe('error');
  });

  it('starts over, without the old failure, when a new map is created', () => {
    const { actor } = start();
    actor.send({ type: 'map.failed', failure: { message: 'Failed to initialize WebGL', retryable: false } });
    actor.send({ type: 'map.created' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.failure).toBeUndefined();
  });
});
