import { visibleMask } from '../filter.ts';
import type { Pin } from '../types.ts';

/**
 * The places the pin index knows a set's pins by, kept across updates by id (README, "Pins that
 * move"): a pin keeps its slot while it stays in the set, a pin that leaves frees its slot, and a
 * new pin takes the lowest free slot (or one after the last). So a pin added or removed moves no
 * other pin's slot, and a bubble's key (the lowest slot among its pins, `GroupIndex` `keys`) stays
 * the same as long as its pins do. The index groups the pins in the slots' order; a free slot is
 * grouped as a hidden pin (`visible`).
 */
export class PinSlots {
  /** The pin in each slot; undefined: a free slot. Replaced, never changed, by an update (`pins`). */
  private slots: (Pin | undefined)[] = [];
  private readonly slotOf = new Map<string, number>();
  /** The free slots, lowest last (taken from the end). */
  private free: number[] = [];

  constructor(list: readonly Pin[]) {
    this.update(list);
  }

  /** The pin in each slot, as they are now: an update leaves this array as it is and makes another. */
  get pins(): readonly (Pin | undefined)[] {
    return this.slots;
  }

  /** The slot of the pin with this id; -1 when the set has no such pin. */
  slot(id: string): number {
    return this.slotOf.get(id) ?? -1;
  }

  /** How many slots there are, free ones included. */
  get size(): number {
    return this.slots.length;
  }

  /**
   * Takes the set's newer list (its pins known by id): pins still there keep their slots and take
   * their new values, pins gone free theirs, new pins take free slots, lowest first.
   */
  update(list: readonly Pin[]): void {
    this.slots = this.slots.slice();
    const kept = new Set<string>();
    for (const pin of list) kept.add(pin.id);
    const freed: number[] = [];
    for (const [id, slot] of this.slotOf) {
      if (kept.has(id)) continue;
      this.slotOf.delete(id);
      this.slots[slot] = undefined;
      freed.push(slot);
    }
    if (freed.length > 0) this.free = [...this.free, ...freed].sort((a, b) => b - a);
    for (const pin of list) {
      let slot = this.slotOf.get(pin.id);
      if (slot === undefined) {
        slot = this.free.pop() ?? this.slots.length;
        this.slotOf.set(pin.id, slot);
      }
      this.slots[slot] = pin;
    }
    // Free slots at the end are given back.
    while (this.slots.length > 0 && this.slots[this.slots.length - 1] === undefined) this.slots.pop();
    if (this.free.length > 0 && this.free[0]! >= this.slots.length) this.free = this.free.filter((slot) => slot < this.slots.length);
  }

  /** Each slot's longitude and latitude, flat (0, 0 for a free slot: never grouped, see `visible`). */
  lngLats(): Float64Array {
    const lngLats = new Float64Array(2 * this.slots.length);
    this.slots.forEach((pin, slot) => {
      if (!pin) return;
      lngLats[2 * slot] = pin.lngLat[0];
      lngLats[2 * slot + 1] = pin.lngLat[1];
    });
    return lngLats;
  }

  /** 1 for each slot whose pin shows (its category not `hidden`), 0 for the others and free slots; undefined when every slot shows. */
  visible(hidden: ReadonlySet<string>): Uint8Array | undefined {
    return visibleMask(this.slots, hidden);
  }
}
