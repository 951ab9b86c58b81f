import { z } from './zod.ts';

/**
 * The argument of `updatePins` (the React ref's and the embed handle's): the changes an app
 * already knows, as GeoJSON. Its shape is checked here; each feature is then checked as a pin
 * file's are (`parsePins`).
 */
export interface PinChangesInput {
  /** New pins: GeoJSON Point features with ids the map does not have yet. */
  add?: readonly unknown[] | undefined;
  /** Pins that changed (their place, text or looks): GeoJSON Point features with the ids of pins on the map. */
  update?: readonly unknown[] | undefined;
  /** The ids of pins to take away. */
  remove?: readonly (string | number)[] | undefined;
}

/** The changes once their shape is checked: features to read, and ids as strings. */
export interface PinChangesChecked {
  add: unknown[];
  update: unknown[];
  remove: string[];
}

const features = z.array(z.looseObject({}, { error: 'must be a GeoJSON Feature (an object)' }), { error: 'must be an array of GeoJSON Features' });
const pinId = z.union([z.string().check(z.trim(), z.minLength(1, { error: 'must be a pin id, not blank' })), z.number().check(z.refine(Number.isFinite, { error: 'must be a finite number' }))], {
  error: 'must be a pin id (a string or a number)',
});
const changes = z.strictObject(
  {
    add: z.optional(features),
    update: z.optional(features),
    remove: z.optional(z.array(pinId, { error: 'must be an array of pin ids' })),
  },
  { error: 'must be an object { add, update, remove }' },
);

/** Thrown by `updatePins` for an argument it cannot take: the message names the part and what is wrong. */
export class PinChangesError extends Error {
  override name = 'PinChangesError';
}

/**
 * Checks `updatePins`' argument; throws a `PinChangesError` naming each wrong part, e.g.
 * `updatePins: remove[1] must be a pin id (a string or a number)`.
 */
export function checkPinChanges(input: unknown, caller = 'updatePins'): PinChangesChecked {
  const result = changes.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const path = issue.path.map((step) => (typeof step === 'number' ? `[${step}]` : `.${String(step)}`)).join('');
      if (issue.code === 'unrecognized_keys') return `${issue.keys.map((key) => `${path.slice(1)}${path ? '.' : ''}${key}`).join(', ')} is not a change (add, update or remove)`;
      return `${path.slice(1) || 'the changes'} ${issue.message}`;
    });
    throw new PinChangesError(`${caller ? `${caller}: ` : ''}${problems.join('; ')}`);
  }
  const { add = [], update = [], remove = [] } = result.data;
  return { add, update, remove: remove.map(String) };
}

/** One event of a pin stream (config `pinsStream`), its shape checked: the changes, and what its sender left out. */
export interface PinFeedEvent {
  changes: PinChangesChecked;
  /**
   * What the sender says it left out, as text (`pinmap serve --watch`: the rows of the file that
   * are not pins, `line 7 ("Quay"): latitude 95 is outside -90..90`); undefined when it says
   * nothing, empty when it says nothing is left out.
   */
  skipped?: string[];
}

/**
 * Reads one event of a pin stream (README, "Pins that move"): JSON `{ "add": [features],
 * "update": [features], "remove": [ids], "skipped": [texts] }`, every member optional. Throws a
 * `PinChangesError` naming what is wrong: text that is not JSON, or a part of the wrong shape
 * (`remove[1] must be a pin id (a string or a number)`).
 */
export function checkFeedEvent(data: string): PinFeedEvent {
  let input: unknown;
  try {
    input = JSON.parse(data);
  } catch (error) {
    throw new PinChangesError(`it is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new PinChangesError('it must be a JSON object { add, update, remove }');
  const { skipped, ...rest } = input as Record<string, unknown>;
  if (skipped !== undefined && !(Array.isArray(skipped) && skipped.every((item) => typeof item === 'string'))) throw new PinChangesError('its skipped must be an array of texts');
  const changes = checkPinChanges(rest, '');
  return skipped === undefined ? { changes } : { changes, skipped: skipped as string[] };
}
