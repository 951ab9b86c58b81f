import type { InspectionEvent, Observer } from 'xstate';

/** Receives every machine's inspection events; set only in development with `?inspect`. */
export type Inspector = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

let current: Inspector | undefined;

/**
 * Connects every machine created from now on to `inspector` (the Stately browser inspector).
 * The app entry calls this in development builds when the address has `?inspect`.
 */
export function setInspector(inspector: Inspector | undefined): void {
  current = inspector;
}

/** Actor options for `useActorRef`: the inspector when one is set, else nothing. */
export function inspectOptions(): { inspect?: Inspector } {
  return current ? { inspect: current } : {};
}
