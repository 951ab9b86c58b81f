import { waitFor, type Wait } from './wait.ts';

/** How a pin file is read again (config `pinsRefresh`, README "Pins that move"). */
export interface PinRefreshOptions {
  /** Config `pinsRefresh`: seconds from the end of one reading to the start of the next. */
  every: number;
  /** Stops the readings (the map destroyed, the option changed). */
  signal: AbortSignal;
  /** One reading (`refreshPinSet` and what follows); what it finds, or a failure, is its own to tell. */
  read(): Promise<unknown>;
  /** The wait between readings: a timer, or a test's simulated clock. */
  wait?: Wait | undefined;
}

/**
 * Reads a pin file again every `every` seconds, each wait starting when the last reading ended
 * (so a slow server is never asked twice at once), until `signal` aborts. A reading that fails
 * does not stop the next. Resolves when stopped.
 */
export async function refreshPins({ every, signal, read, wait = waitFor }: PinRefreshOptions): Promise<void> {
  for (;;) {
    await wait(every * 1000, signal);
    if (signal.aborted) return;
    await read().catch(() => {});
  }
}
