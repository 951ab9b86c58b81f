import type { IdRegistry } from '../pins/data.ts';
import { ByteStore, type ByteStoreColumns } from './byte-store.ts';
import { Growable } from './growable.ts';

/**
 * The pins' ids as UTF-8 bytes (a `ByteStore`), and the `IdRegistry` the checker finds
 * duplicates with: an open-addressing hash table of pin numbers. A pin's number is its place in
 * the order ids were registered (the order of the pins).
 */
export class IdStore implements IdRegistry {
  private readonly store = new ByteStore();
  private hashOf = new Growable((n) => new Uint32Array(n));
  private featureOf = new Growable((n) => new Float64Array(n));
  /** Pin number + 1 at each slot, 0 for an empty slot. */
  private table = new Uint32Array(1 << 16);

  get count(): number {
    return this.store.count;
  }

  get(id: string): number | undefined {
    const bytes = Buffer.from(id, 'utf8');
    const mask = this.table.length - 1;
    for (let slot = hashBytes(bytes) & mask; ; slot = (slot + 1) & mask) {
      const pin = this.table[slot]!;
      if (pin === 0) return undefined;
      if (this.bytes(pin - 1).equals(bytes)) return this.featureOf.array[pin - 1];
    }
  }

  set(id: string, index: number): void {
    const bytes = Buffer.from(id, 'utf8');
    this.store.addBytes(bytes);
    this.hashOf.push(hashBytes(bytes));
    this.featureOf.push(index);
    if (this.count * 2 > this.table.length) this.grow();
    else this.place(this.count - 1);
  }

  /** Pin `pin`'s id as UTF-8 bytes (a view into the store). */
  bytes(pin: number): Buffer {
    return this.store.bytes(pin);
  }

  /** The ids' memory, shared (see `ByteStore.columns`). */
  columns(): ByteStoreColumns {
    return this.store.columns();
  }

  /** Pin `pin`'s id. */
  id(pin: number): string {
    return this.store.text(pin);
  }

  /** The duplicates are known: the table and what it is made from go, the ids stay. */
  dropTable(): void {
    this.table = new Uint32Array(0);
    this.hashOf = new Growable((n) => new Uint32Array(n));
    this.featureOf = new Growable((n) => new Float64Array(n));
    this.store.trim();
  }

  private place(pin: number): void {
    const mask = this.table.length - 1;
    let slot = this.hashOf.array[pin]! & mask;
    while (this.table[slot] !== 0) slot = (slot + 1) & mask;
    this.table[slot] = pin + 1;
  }

  private grow(): void {
    this.table = new Uint32Array(this.table.length * 2);
    for (let pin = 0; pin < this.count; pin++) this.place(pin);
  }
}

/** FNV-1a of a few bytes: where an id goes in `IdStore`'s table. */
function hashBytes(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}
