import type { Clock, TimerHandle } from '../util/clock.ts';

interface Waiting<K> {
  readonly item: K;
  readyAt: number;
  /** Creation order; breaks ties between equal `readyAt` so that delayed items stay FIFO. */
  readonly seq: number;
  index: number;
}

/** Options of `DelayedAdds`. */
export interface DelayedAddsOptions<K> {
  readonly clock: Clock;
  /** Called once per item when its time has come. */
  readonly onReady: (item: K) => void;
}

/**
 * The waiting room of the delaying queue (client-go `delaying_queue.go`): items with the time they
 * become ready, at most one entry per item (a second `schedule` only ever moves it earlier), in a
 * binary min-heap. A single clock timer is armed for the earliest entry, so thousands of pending
 * requeues cost one timer, not thousands.
 */
export class DelayedAdds<K> {
  readonly #clock: Clock;
  readonly #onReady: (item: K) => void;
  readonly #heap: Waiting<K>[] = [];
  readonly #byItem = new Map<K, Waiting<K>>();
  #seq = 0;
  #timer: TimerHandle | undefined;
  #timerAt: number | undefined;

  constructor(options: DelayedAddsOptions<K>) {
    this.#clock = options.clock;
    this.#onReady = options.onReady;
  }

  /** How many items are waiting. */
  get size(): number {
    return this.#heap.length;
  }

  /** Makes `item` ready at `readyAt` (ms), unless it is already due at that time or earlier. */
  schedule(item: K, readyAt: number): void {
    const existing = this.#byItem.get(item);
    if (existing === undefined) {
      const entry: Waiting<K> = { item, readyAt, seq: this.#seq++, index: this.#heap.length };
      this.#heap.push(entry);
      this.#byItem.set(item, entry);
      this.#siftUp(entry.index);
    } else if (readyAt < existing.readyAt) {
      existing.readyAt = readyAt;
      this.#siftUp(existing.index);
    }
    this.#arm();
  }

  /** Forgets every waiting item and cancels the timer. */
  clear(): void {
    this.#heap.length = 0;
    this.#byItem.clear();
    this.#disarm();
  }

  #arm(): void {
    const head = this.#heap[0];
    if (head === undefined) {
      this.#disarm();
      return;
    }
    if (this.#timerAt === head.readyAt) {
      return;
    }
    this.#disarm();
    this.#timerAt = head.readyAt;
    this.#timer = this.#clock.setTimeout(() => {
      this.#fire();
    }, head.readyAt - this.#clock.now());
  }

  #disarm(): void {
    if (this.#timer !== undefined) {
      this.#clock.clearTimeout(this.#timer);
    }
    this.#timer = undefined;
    this.#timerAt = undefined;
  }

  #fire(): void {
    this.#timer = undefined;
    this.#timerAt = undefined;
    const now = this.#clock.now();
    for (let head = this.#heap[0]; head !== undefined && head.readyAt <= now; head = this.#heap[0]) {
      this.#pop();
      this.#onReady(head.item);
    }
    // A real timer may fire a little early; re-arming covers that as well as the next entry.
    this.#arm();
  }

  #pop(): void {
    const last = this.#heap.pop();
    const head = this.#heap[0];
    if (last === undefined) {
      return;
    }
    if (head === undefined) {
      this.#byItem.delete(last.item);
      return;
    }
    this.#byItem.delete(head.item);
    last.index = 0;
    this.#heap[0] = last;
    this.#siftDown(0);
  }

  #siftUp(start: number): void {
    let index = start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.#swapIfBefore(index, parent)) {
        return;
      }
      index = parent;
    }
  }

  #siftDown(start: number): void {
    let index = start;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      const smallest = right < this.#heap.length && this.#before(right, left) ? right : left;
      if (smallest >= this.#heap.length || !this.#swapIfBefore(smallest, index)) {
        return;
      }
      index = smallest;
    }
  }

  /** Swaps the entries at `child` and `parent` when `child` must come first; reports whether it did. */
  #swapIfBefore(child: number, parent: number): boolean {
    const a = this.#heap[child];
    const b = this.#heap[parent];
    if (a === undefined || b === undefined || !isBefore(a, b)) {
      return false;
    }
    this.#heap[child] = b;
    this.#heap[parent] = a;
    b.index = child;
    a.index = parent;
    return true;
  }

  #before(i: number, j: number): boolean {
    const a = this.#heap[i];
    const b = this.#heap[j];
    return a !== undefined && b !== undefined && isBefore(a, b);
  }
}

function isBefore<K>(a: Waiting<K>, b: Waiting<K>): boolean {
  return a.readyAt < b.readyAt || (a.readyAt === b.readyAt && a.seq < b.seq);
}
