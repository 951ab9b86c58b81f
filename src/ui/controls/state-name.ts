import type { StateValue } from 'xstate';

/** A machine's state as one dotted name for `data-state`: `idle`, `compact.expanded`. */
export function stateName(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.entries(value)
    .map(([parent, child]) => (child === undefined ? parent : `${parent}.${stateName(child)}`))
    .join(' ');
}
