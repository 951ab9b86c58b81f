/**
 * The waits of the pin feeds (`pinsRefresh`'s period, `pinsStream`'s reconnection): one function,
 * so a test can give a simulated clock in its place (`src/testing/clock.testing.ts`) and read the
 * figures themselves (1 s, 2 s … 60 s; N s) without waiting them out.
 */

/** Waits `ms`, or until `signal` aborts, whichever comes first; never rejects. */
export type Wait = (ms: number, signal: AbortSignal) => Promise<void>;

/** The real wait: a timer. */
export const waitFor: Wait = (ms, signal) =>
  new Promise((done) => {
    if (signal.aborted) return done();
    const timer = setTimeout(finish, ms);
    function finish() {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      done();
    }
    signal.addEventListener('abort', finish);
  });
