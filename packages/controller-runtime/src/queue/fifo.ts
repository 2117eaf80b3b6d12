/**
 * A first-in-first-out list with O(1) amortised push and shift. `Array.prototype.shift` is O(n), which
 * matters for a work queue holding tens of thousands of keys after an informer's initial list.
 */
export class Fifo<T> {
  #items: T[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  /** Removes and returns the oldest item; throws when empty (check `length` first). */
  shift(): T {
    if (this.length === 0) {
      throw new RangeError('Fifo.shift: empty');
    }
    // The length check above guarantees the slot holds an item (T itself may include undefined).
    const item = this.#items[this.#head] as T;
    this.#head += 1;
    // Compact once the consumed prefix dominates, so memory stays proportional to the live items.
    if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  clear(): void {
    this.#items = [];
    this.#head = 0;
  }
}
