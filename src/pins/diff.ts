import type { Pin, SkippedFeature } from './types.ts';

/**
 * Pins that move (README, "Pins that move"): a new pin set compared with the one on the map by
 * pin id, so the map checks, regroups and redraws only what changed, and keeps its camera, its
 * open popup and its focus. Pins without an id never become pins (`parsePins` skips them), so a
 * set's pins can always be matched.
 */

/** What changed from one pin set to the next, by pin id. */
export interface PinDiff {
  /** Pins of the new set whose id the old one did not have, in the new set's order. */
  added: Pin[];
  /** Ids of the old set's pins that the new one does not have, in the old set's order. */
  removed: string[];
  /** Pins of the new set whose id the old one had with other content (place, text, looks), in the new set's order. */
  changed: Pin[];
  /** The ids of `changed` whose place changed (and perhaps more), each with its old place: they glide from there. */
  moved: Map<string, [number, number]>;
  /** The ids of `changed` whose looks, title or category changed: their markers are drawn afresh. */
  redrawn: Set<string>;
  /** The ids of `changed` whose popup text (title, description, link, fields) changed: an open popup shows the new one. */
  retold: Set<string>;
}

/** Whether a diff has nothing in it: the same pins, in the same places, with the same content. */
export function isEmptyDiff(diff: PinDiff): boolean {
  return diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0;
}

/** Compares two pin lists by id (see `PinDiff`); costs one pass over each. */
export function diffPins(previous: readonly Pin[], next: readonly Pin[]): PinDiff {
  const before = new Map<string, Pin>();
  for (const pin of previous) before.set(pin.id, pin);
  const diff: PinDiff = { added: [], removed: [], changed: [], moved: new Map(), redrawn: new Set(), retold: new Set() };
  const kept = new Set<string>();
  for (const pin of next) {
    const old = before.get(pin.id);
    if (!old) {
      diff.added.push(pin);
      continue;
    }
    kept.add(pin.id);
    if (old === pin) continue;
    const moved = !sameLngLat(old.lngLat, pin.lngLat);
    const redrawn = !sameLooks(old, pin);
    const retold = old.title !== pin.title || !sameContent(old, pin);
    if (!moved && !redrawn && !retold) continue;
    diff.changed.push(pin);
    if (moved) diff.moved.set(pin.id, old.lngLat);
    if (redrawn) diff.redrawn.add(pin.id);
    if (retold) diff.retold.add(pin.id);
  }
  for (const pin of previous) if (!kept.has(pin.id)) diff.removed.push(pin.id);
  return diff;
}

/** The changes an app already knows (`updatePins`): pins to add, pins to update (by their id), ids to remove. */
export interface PinChanges {
  add?: readonly Pin[];
  update?: readonly Pin[];
  remove?: readonly string[];
}

/**
 * Applies known changes to a pin list: removed ids leave, updated pins take their old one's place
 * in the order, added pins come last. Returns the new list, and what of the changes could not be
 * applied: an `add` of an id the list has, an `update` or a `remove` of an id it has not (each
 * named, for a console warning); those parts are left out and the rest applies.
 */
export function applyPinChanges(list: readonly Pin[], changes: PinChanges): { list: Pin[]; problems: string[] } {
  const problems: string[] = [];
  const at = new Map<string, number>();
  list.forEach((pin, i) => at.set(pin.id, i));
  const next: (Pin | undefined)[] = list.slice();
  for (const id of changes.remove ?? []) {
    const i = at.get(id);
    if (i === undefined || next[i] === undefined) {
      problems.push(`remove: there is no pin "${id}" to remove`);
      continue;
    }
    next[i] = undefined;
  }
  for (const pin of changes.update ?? []) {
    const i = at.get(pin.id);
    if (i === undefined || next[i] === undefined) {
      problems.push(`update: there is no pin "${pin.id}" to update (add it instead)`);
      continue;
    }
    next[i] = pin;
  }
  const result = next.filter((pin): pin is Pin => pin !== undefined);
  const ids = new Set(result.map((pin) => pin.id));
  for (const pin of changes.add ?? []) {
    if (ids.has(pin.id)) {
      problems.push(`add: there is a pin "${pin.id}" already (update it instead)`);
      continue;
    }
    ids.add(pin.id);
    result.push(pin);
  }
  return { list: result, problems };
}

function sameLngLat(a: readonly [number, number], b: readonly [number, number]): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

/** What a pin's marker shows: its looks (options), title (its name) and category. */
function sameLooks(a: Pin, b: Pin): boolean {
  return a.title === b.title && a.category === b.category && sameValue(a.options, b.options);
}

/** What its popup, the list and the search show besides. */
function sameContent(a: Pin, b: Pin): boolean {
  return a.description === b.description && a.url === b.url && sameValue(a.fields, b.fields) && sameValue(a.popupFields, b.popupFields);
}

/** Deep equality of plain data (objects, arrays, primitives), as pin files hold. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.prototype.hasOwnProperty.call(b, key) && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/**
 * The notice for a set that updates the one on the map while some of its features have no id
 * (they are skipped, as in any set): the set's own notice (`pinNotice`), saying that a pin needs
 * an id to be updated. Undefined when every feature had an id: the set's notice stands.
 */
export function updateNotice(notice: string | undefined, skipped: readonly SkippedFeature[]): string | undefined {
  const withoutId = skipped.filter((feature) => feature.id === undefined).length;
  if (notice === undefined || withoutId === 0) return undefined;
  return `${notice}: ${withoutId.toLocaleString('en-US')} ${withoutId === 1 ? 'has' : 'have'} no id, and a pin needs an id to be updated`;
}
