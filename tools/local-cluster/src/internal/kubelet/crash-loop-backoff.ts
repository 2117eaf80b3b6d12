/**
 * The kubelet's restart back-off for a container that exited: the first restart at once, then 10 s
 * doubling up to 5 minutes; a container that ran for twice the cap without exiting starts over.
 */
export interface CrashLoopBackoffOptions {
  readonly initialMs: number;
  readonly maxMs: number;
}

export const KUBELET_CRASH_LOOP_BACKOFF: CrashLoopBackoffOptions = { initialMs: 10_000, maxMs: 300_000 };

export class CrashLoopBackoff {
  readonly #options: CrashLoopBackoffOptions;
  #current = 0;
  #lastExitAt: number | undefined;

  constructor(options: CrashLoopBackoffOptions) {
    this.#options = options;
  }

  /** The delay before restarting a container that exited at `exitedAt`, having started at `startedAt`. */
  next(startedAt: number, exitedAt: number): number {
    const ranMs = exitedAt - startedAt;
    if (this.#lastExitAt === undefined || ranMs >= 2 * this.#options.maxMs) {
      this.#current = 0;
    }
    const delay = this.#current;
    this.#current = this.#current === 0 ? this.#options.initialMs : Math.min(this.#current * 2, this.#options.maxMs);
    this.#lastExitAt = exitedAt;
    return delay;
  }
}
