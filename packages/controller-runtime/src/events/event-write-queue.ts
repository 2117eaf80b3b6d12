/**
 * The writes of an event recorder: a few at a time, in order per event key (a count increment must
 * follow the create it increments), and at most `maxQueued` waiting. Written one at a time, the
 * 2,500 Events of 100 workloads scaling out took a minute to send after the pods were long created,
 * and kept the process busy when the cluster was idle again; client-go's broadcaster, too, drops
 * events beyond a queue of 1,000 rather than falling ever further behind.
 */
export interface EventWriteQueueOptions {
  /** Writes in flight at once. */
  readonly concurrency: number;
  /** Writes waiting or in flight; beyond it `enqueue` refuses. */
  readonly maxQueued: number;
}

export class EventWriteQueue {
  readonly #options: EventWriteQueueOptions;
  /** The last write of each key, which the key's next write waits for. */
  readonly #tails = new Map<string, Promise<void>>();
  readonly #slotWaiters: (() => void)[] = [];
  #inFlight = 0;
  #queued = 0;

  constructor(options: EventWriteQueueOptions) {
    this.#options = options;
  }

  /** Queues `write` after the key's earlier writes; false (nothing queued) when the queue is full. */
  enqueue(key: string, write: () => Promise<void>): boolean {
    if (this.#queued >= this.#options.maxQueued) {
      return false;
    }
    this.#queued++;
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const tail: Promise<void> = previous
      .then(() => this.#inSlot(write))
      .catch(() => undefined)
      .finally(() => {
        this.#queued--;
        if (this.#tails.get(key) === tail) {
          this.#tails.delete(key);
        }
      });
    this.#tails.set(key, tail);
    return true;
  }

  /** Resolves when every write queued so far has finished. */
  async drained(): Promise<void> {
    await Promise.all([...this.#tails.values()]);
  }

  /** Writes waiting or in flight. */
  get size(): number {
    return this.#queued;
  }

  async #inSlot(write: () => Promise<void>): Promise<void> {
    if (this.#inFlight >= this.#options.concurrency) {
      await new Promise<void>((resolve) => this.#slotWaiters.push(resolve));
    } else {
      this.#inFlight++;
    }
    try {
      await write();
    } finally {
      const next = this.#slotWaiters.shift();
      if (next === undefined) {
        this.#inFlight--;
      } else {
        // The slot passes to the next waiter without being freed in between.
        next();
      }
    }
  }
}
