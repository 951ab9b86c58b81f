import type { Wait } from '../map/wait.ts';

/**
 * A simulated clock for the pin feeds' waits (`src/map/wait.ts`): each wait is taken at once and
 * moves `now` on by its length, so a test reads the waits asked for, and when each request came
 * in simulated time, without waiting them out. Only tests import this file.
 */
export interface SimulatedClock {
  /** Simulated milliseconds since the clock was made. */
  now: number;
  /** Every wait asked for, in ms, in order (an aborted one is not counted). */
  waits: number[];
  /** Pass as the code's `wait`. */
  wait: Wait;
}

export function simulatedClock(): SimulatedClock {
  const clock: SimulatedClock = {
    now: 0,
    waits: [],
    wait: (ms, signal) => {
      if (!signal.aborted) {
        clock.waits.push(ms);
        clock.now += ms;
      }
      return Promise.resolve();
    },
  };
  return clock;
}
