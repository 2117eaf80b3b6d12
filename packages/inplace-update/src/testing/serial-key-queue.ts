/**
 * The smallest work queue the simulator needs: keys de-duplicated while pending, processed one at a
 * time in arrival order, nothing processed after the signal aborts.
 */
export class SerialKeyQueue {
  readonly #pending = new Set<string>();
  readonly #process: (key: string) => Promise<void>;
  readonly #signal: AbortSignal;
  #draining: Promise<void> | undefined;

  constructor(process: (key: string) => Promise<void>, signal: AbortSignal) {
    this.#process = process;
    this.#signal = signal;
  }

  /** Queues the key (once, however often it is added before it is processed). */
  add(key: string): void {
    if (this.#signal.aborted) {
      return;
    }
    this.#pending.add(key);
    this.#draining ??= this.#drain().finally(() => {
      this.#draining = undefined;
    });
  }

  /** Resolves when no key is being processed. */
  async idle(): Promise<void> {
    await this.#draining;
  }

  async #drain(): Promise<void> {
    for (let key = this.#next(); key !== undefined && !this.#signal.aborted; key = this.#next()) {
      await this.#process(key);
    }
  }

  #next(): string | undefined {
    const [key] = this.#pending;
    if (key !== undefined) {
      this.#pending.delete(key);
    }
    return key;
  }
}
