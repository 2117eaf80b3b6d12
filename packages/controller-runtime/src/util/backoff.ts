/** Options of a jittered exponential backoff. */
export interface BackoffOptions {
  readonly initialMs: number;
  readonly maxMs: number;
  readonly factor?: number;
  /** Each delay is stretched by up to this fraction at random, so that many clients do not retry in step. */
  readonly jitter?: number;
  readonly random?: () => number;
}

/**
 * Exponential backoff with jitter, as client-go's reflector uses between failed list/watch attempts.
 * Example with initial 800 ms, factor 2, max 30 s and no jitter: 800, 1600, 3200, ... 25600, 30000,
 * 30000 ms; `reset()` starts again at 800 ms after a healthy period.
 */
export class Backoff {
  readonly #options: Required<BackoffOptions>;
  #next: number;

  constructor(options: BackoffOptions) {
    this.#options = { factor: 2, jitter: 0.5, random: Math.random, ...options };
    this.#next = options.initialMs;
  }

  /** The delay before the next attempt (ms); each call grows the following one. */
  next(): number {
    const { maxMs, factor, jitter, random } = this.#options;
    const base = Math.min(this.#next, maxMs);
    this.#next = Math.min(base * factor, maxMs);
    return Math.round(base * (1 + jitter * random()));
  }

  reset(): void {
    this.#next = this.#options.initialMs;
  }
}
