/**
 * When a shard member must stop: `renewDeadline` after it sent the last renewal of its member Lease
 * that succeeded, on the monotonic clock. The fence is a timer armed at each successful renewal, not
 * a check made in rounds, and every write the process sends asks it first (`assertMayWrite`), so a
 * write that waited in the rate limiter, or ran behind a blocked event loop, is refused once the
 * deadline passed even before the timer fired. Fencing is final: the process exits and comes back as
 * a new member (docs/sharding.md, "Fencing").
 */
import type { Clock, TimerHandle } from '@kruise-ts/controller-runtime';

/** The reason of every write refused after the fence, and of the coordinator's exit. */
export class FencedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FencedError';
  }
}

export class MemberFence {
  readonly #clock: Clock;
  readonly #renewDeadlineMs: number;
  readonly #onFence: (error: FencedError) => void;
  readonly #describe: string;
  #sentAt: number | undefined;
  #timer: TimerHandle | undefined;
  #fenced: FencedError | undefined;

  constructor(input: {
    clock: Clock;
    renewDeadlineMs: number;
    describe: string;
    onFence: (error: FencedError) => void;
  }) {
    this.#clock = input.clock;
    this.#renewDeadlineMs = input.renewDeadlineMs;
    this.#describe = input.describe;
    this.#onFence = input.onFence;
  }

  /** When the last successful renewal was sent (monotonic), undefined before the first. */
  get renewedAt(): number | undefined {
    return this.#sentAt;
  }

  get fenced(): FencedError | undefined {
    return this.#fenced;
  }

  /**
   * A renewal sent at `sentAt` succeeded: the deadline moves to `sentAt + renewDeadline`. The send
   * time, not the answer's arrival, because others count the Lease's age from when they see the
   * write, which is never before it was sent.
   */
  renewed(sentAt: number): void {
    if (this.#fenced !== undefined || (this.#sentAt !== undefined && sentAt <= this.#sentAt)) {
      return;
    }
    if (this.#clock.now() >= sentAt + this.#renewDeadlineMs) {
      this.fence();
      return;
    }
    this.#sentAt = sentAt;
    if (this.#timer !== undefined) {
      this.#clock.clearTimeout(this.#timer);
    }
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#check();
      },
      sentAt + this.#renewDeadlineMs - this.#clock.now(),
    );
  }

  /** Throws FencedError (fencing first if the deadline passed): no write may leave once it did. */
  assertMayWrite(): void {
    this.#check();
    if (this.#fenced !== undefined) {
      throw this.#fenced;
    }
  }

  /** Stops for good. */
  fence(): void {
    if (this.#fenced !== undefined) {
      return;
    }
    if (this.#timer !== undefined) {
      this.#clock.clearTimeout(this.#timer);
    }
    this.#fenced = new FencedError(
      `${this.#describe}: the member Lease was not renewed within ${String(this.#renewDeadlineMs)} ms of sending the last renewal; stopped all work so that other replicas may take the buckets`,
    );
    this.#onFence(this.#fenced);
  }

  #check(): void {
    if (
      this.#sentAt !== undefined &&
      this.#fenced === undefined &&
      this.#clock.now() >= this.#sentAt + this.#renewDeadlineMs
    ) {
      this.fence();
    }
  }
}
