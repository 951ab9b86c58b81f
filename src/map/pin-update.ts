import { diffPins, isEmptyDiff, type PinDiff } from '../pins/diff.ts';
import { isShown } from '../pins/filter.ts';
import type { Pin, PinSet } from '../pins/types.ts';
import type { PinGlides } from './pin-glide.ts';
import type { PinSetState } from './pin-layer.ts';

/**
 * Pins that move (README, "Pins that move"): the steps of `PinLayer.updatePins` that both views'
 * pin layers take alike, around what each does to its own markers or sources.
 */

/** What an update asks of a pin layer's popup: to close, to show a pin's new text, to follow a gliding pin. */
interface FollowingPopup {
  close(): void;
  refresh(pin: Pin): void;
  moveTo(at: [number, number]): void;
}

/**
 * A set drawn another way than the last (pre-tiled, another mode): drawn afresh by `redraw`, and
 * the popup that was open (`openId`) opened again where its pin is, if the pin is still there and shown.
 */
export async function redrawKeepingPopup(
  state: PinSetState,
  openId: string | undefined,
  redraw: () => Promise<void>,
  find: (id: string) => Pin | undefined,
  reopen: (pin: Pin) => void,
): Promise<void> {
  await redraw();
  const pin = openId === undefined ? undefined : find(openId);
  if (pin && isShown(pin, state.hidden)) reopen(pin);
}

/**
 * Takes the newer set into `state` and says what changed, with how long this update's glides
 * last; undefined when nothing did. `beforeChange` runs first when something changed (a fanned
 * group folds before its pins move).
 */
export function takeUpdate(state: PinSetState, set: PinSet, glides: PinGlides, beforeChange: () => void): { diff: PinDiff; duration: number } | undefined {
  const diff = diffPins(state.list, set.pins);
  state.update(set);
  if (isEmptyDiff(diff)) return undefined;
  beforeChange();
  return { diff, duration: glides.lengthNow() };
}

/**
 * After the layer has taken a diff: removed pins stop gliding; the open popup closes if its pin
 * left or is hidden, else shows its pin's new text; each moved pin glides to its new place, with
 * `step` told each place on the way and the popup following an open pin.
 */
export function followUpdate(
  state: PinSetState,
  { diff, duration }: { diff: PinDiff; duration: number },
  glides: PinGlides,
  popup: FollowingPopup,
  openId: () => string | undefined,
  step: (id: string, at: [number, number]) => void,
): void {
  for (const id of diff.removed) glides.stop(id);
  const opened = openId();
  const open = opened === undefined ? undefined : state.byId.get(opened);
  if (opened !== undefined && (!open || !isShown(open, state.hidden))) popup.close();
  else if (open && diff.retold.has(open.id)) popup.refresh(open);
  for (const [id, from] of diff.moved) {
    const to = state.byId.get(id)?.lngLat;
    if (!to) continue;
    glides.move(id, from, to, duration, (at) => {
      step(id, at);
      if (openId() === id) popup.moveTo(at);
    });
  }
}
