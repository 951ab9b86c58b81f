/** A growable typed array. */
export class Growable<T extends Float64Array | Uint32Array | Uint16Array> {
  array: T;
  length = 0;
  constructor(private readonly make: (size: number) => T) {
    this.array = make(1024);
  }
  push(value: number): void {
    if (this.length === this.array.length) {
      const next = this.make(this.array.length * 2);
      next.set(this.array);
      this.array = next;
    }
    this.array[this.length++] = value;
  }
  view(): T {
    return this.array.subarray(0, this.length) as T;
  }
  /** Lets go of the room not used (once nothing more is pushed), in memory of the same kind (shared or not). */
  trim(): void {
    const trimmed = this.make(this.length);
    trimmed.set(this.view());
    this.array = trimmed;
  }
}
