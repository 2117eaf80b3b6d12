/**
 * Where each workload's next slow start begins. Slow start (1, 2, 4, …) exists to find out cheaply
 * that creations fail; a workload whose last creations all went through has found out already, and
 * starting it at 1 again on every reconcile made a ReCreate rollout's creations take 7–9 request
 * round trips per wave (each wave's reconcile, and so the rollout, waited for them). So the next
 * slow start begins at the largest batch that last went through in full, and at 1 again after any
 * failure: a workload whose creations start failing sends at most one such batch of doomed requests.
 */
export class SlowStartMemory {
  readonly #sizes = new Map<string, number>();

  /** The first batch size for the workload's next slow start: 1 unless its last one went through in full. */
  initialBatchSize(key: string): number {
    return this.#sizes.get(key) ?? 1;
  }

  /** Remembers how the workload's slow start went: the largest batch when all of it went through, else back to 1. */
  record(key: string, result: { readonly errors: readonly unknown[]; readonly largestBatch: number }): void {
    if (result.errors.length > 0 || result.largestBatch < 1) {
      this.#sizes.delete(key);
      return;
    }
    this.#sizes.set(key, Math.max(result.largestBatch, this.initialBatchSize(key)));
  }

  /** Forgets a workload that is gone. */
  forget(key: string): void {
    this.#sizes.delete(key);
  }
}
