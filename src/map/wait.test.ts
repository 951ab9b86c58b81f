import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from './wait.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('waitFor', () => {
  it('ends after the time asked, not before, on a simulated clock', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let ended = false;
    const waiting = waitFor(60_000, new AbortController().signal).then(() => (ended = true));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(ended).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends at once when its signal aborts, its timer cleared', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stop = new AbortController();
    const waiting = waitFor(60_000, stop.signal);
    expect(vi.getTimerCount()).toBe(1);
    stop.abort();
    await waiting;
    expect(vi.getTimerCount()).toBe(0);
    await waitFor(60_000, stop.signal);
    expect(vi.getTimerCount()).toBe(0);
  });
});
