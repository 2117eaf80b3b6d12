/**
 * One replica's side of a sharded app (docs/sharding.md): renews its member Lease, and in rounds
 * woken by the ring's Leases and a tick, lets go of the buckets the ring gives to others and takes
 * the ones it gives to this replica, filling its caches before working on them. Fences itself (the
 * manager then exits) when it cannot renew within the deadline. Every interval is measured on the
 * monotonic `clock`; wall time is only written into Leases, for people and other tools to read.
 */
import type { Logger } from 'pino';

import { isAborted, isAlreadyExists, isConflict, realClock, sleepOn, timeoutOn } from '@kruise-ts/controller-runtime';
import type { Clock, LeaseLike, Runnable } from '@kruise-ts/controller-runtime';

import { SHARD_BUCKETS } from './bucket.ts';
import type { BucketGate } from './bucket-gate.ts';
import { MemberFence } from './member-fence.ts';
import { MemberView } from './member-view.ts';
import type { SeenBucket } from './member-view.ts';
import type { RingLeases } from './ring-leases.ts';
import {
  claimBucketLease,
  deleteMemberLease,
  memberLeaseName,
  readLease,
  releaseHeldBucket,
  renewMemberLease,
} from './shard-leases.ts';
import type { LeaseApi, RingRef } from './shard-leases.ts';
import { decideShardRound } from './shard-round.ts';
import type { Acquisition } from './shard-round.ts';
import { DEFAULT_SHARD_TIMING, shardTimingProblems } from './shard-timing.ts';
import type { ShardTiming } from './shard-timing.ts';

/** What the coordinator tells the metrics. */
export interface ShardObserver {
  members(count: number): void;
  handover(kind: 'acquired' | 'taken_over' | 'released' | 'lost', bucket: number): void;
}

export interface ShardCoordinatorOptions extends RingRef {
  /** The ring's own client: its requests wait for no other part of the process (renewals above all). */
  readonly client: LeaseApi;
  readonly leases: RingLeases;
  readonly gate: BucketGate;
  /** Monotonic time and timers; `realClock` by default. */
  readonly clock?: Clock | undefined;
  readonly identity: string;
  readonly logger: Logger;
  readonly timing?: ShardTiming | undefined;
  readonly observer?: ShardObserver | undefined;
  readonly bucketCount?: number | undefined;
}

/** Expired member Leases stay this long before a member deletes them. */
const MEMBER_GC_AFTER_MS = 60_000;
/** Bucket Lease writes in flight at once when taking many (a first member takes all 64). */
const CLAIM_CONCURRENCY = 8;
/** How long a shutdown waits for reconciles of its buckets before releasing them anyway. */
const SHUTDOWN_DRAIN_MS = 10_000;
/**
 * After a release, the sharded caches relist once no further release came for this long: the released
 * buckets' objects leave memory, and releases of one rebalance share one relist.
 */
const RELIST_AFTER_RELEASE_MS = 2000;
/** A failed renewal is tried again this soon (or at the renew period, if shorter). */
const RENEW_RETRY_MS = 1000;
/** A failed release is tried again after this long. */
const RELEASE_RETRY_MS = 1000;

export class ShardCoordinator implements Runnable {
  readonly needLeaderElection = false;
  readonly #options: ShardCoordinatorOptions;
  readonly #timing: ShardTiming;
  readonly #clock: Clock;
  readonly #view: MemberView;
  readonly #fence: MemberFence;
  readonly #activations: ((buckets: ReadonlySet<number>) => void)[] = [];
  /** Each bucket this member holds, as the copy it last wrote: the only copy a release swaps against. */
  readonly #held = new Map<number, LeaseLike>();
  #self: LeaseLike | undefined;
  #wake: (() => void) | undefined;
  /** A change came while no round was waiting for one: the next wait returns at once. */
  #woken = false;
  #stopLoops: AbortController | undefined;
  #relistTimer: NodeJS.Timeout | undefined;

  constructor(options: ShardCoordinatorOptions) {
    this.#options = options;
    this.#timing = options.timing ?? DEFAULT_SHARD_TIMING;
    const problems = shardTimingProblems(this.#timing);
    if (problems.length > 0) {
      // The safety of a takeover rests on a member stopping before others may count it gone.
      throw new Error(`sharding cannot keep a bucket's owner unique with this timing: ${problems.join('; ')}`);
    }
    this.#clock = options.clock ?? realClock;
    this.#view = new MemberView(options.ring, this.#timing.leaseDurationMs);
    this.#fence = new MemberFence({
      clock: this.#clock,
      renewDeadlineMs: this.#timing.renewDeadlineMs,
      describe: `shard ring ${options.ring}`,
      onFence: (error) => {
        options.gate.clear();
        this.#held.clear();
        options.logger.error({ ring: options.ring }, error.message);
        this.#stopLoops?.abort();
      },
    });
    options.leases.onChange(() => {
      this.#poke();
    });
  }

  /**
   * Throws once this member is fenced (or past its deadline, which fences it): the process's writes
   * ask this right before they are sent, so none leaves after the fence.
   */
  assertMayWrite(): void {
    this.#fence.assertMayWrite();
  }

  /**
   * Called with the buckets that just became active, before any of their reconciles: forget what was
   * expected of their owners and queue their workloads.
   */
  onActivate(handler: (buckets: ReadonlySet<number>) => void): void {
    this.#activations.push(handler);
  }

  async start(signal: AbortSignal): Promise<void> {
    if (!(await this.#options.leases.waitForSync(signal))) {
      return;
    }
    this.#options.logger.info({ ring: this.#options.ring, identity: this.#options.identity }, 'Joining the shard ring');
    const stop = new AbortController();
    this.#stopLoops = stop;
    const work = AbortSignal.any([signal, stop.signal]);
    const loops = Promise.all([this.#renewLoop(work), this.#roundLoop(work)]);
    await loops.finally(() => {
      stop.abort();
    });
    if (this.#fence.fenced !== undefined) {
      throw this.#fence.fenced;
    }
    await this.#leave();
  }

  async #renewLoop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && this.#fence.fenced === undefined) {
      const renewed = await this.#renewOnce(signal);
      await sleepOn(
        this.#clock,
        renewed ? this.#timing.renewPeriodMs : Math.min(RENEW_RETRY_MS, this.#timing.renewPeriodMs),
        signal,
      );
    }
  }

  /** One renewal, bounded by what is left of the deadline (the fence fires then anyway). */
  async #renewOnce(signal: AbortSignal): Promise<boolean> {
    const sent = this.#clock.now();
    const renewedAt = this.#fence.renewedAt;
    const timeout = timeoutOn(
      this.#clock,
      renewedAt === undefined ? this.#timing.renewDeadlineMs : renewedAt + this.#timing.renewDeadlineMs - sent,
    );
    try {
      const attempt = AbortSignal.any([signal, timeout.signal]);
      this.#self = await renewMemberLease(this.#options.client, {
        ...this.#ringRef(),
        identity: this.#options.identity,
        leaseDurationMs: this.#timing.leaseDurationMs,
        current: this.#self,
        now: Date.now(),
        signal: attempt,
      });
      const first = this.#fence.renewedAt === undefined;
      this.#fence.renewed(sent);
      if (first) {
        this.#poke();
      }
      return true;
    } catch (error) {
      if (!isAborted(signal)) {
        // A conflict means our copy is stale: read it again next time.
        this.#self = isConflict(error) ? undefined : this.#self;
        this.#options.logger.warn({ err: error, ring: this.#options.ring }, 'Could not renew the shard member Lease');
      }
      return false;
    } finally {
      timeout.cancel();
    }
  }

  async #roundLoop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && this.#fence.fenced === undefined) {
      try {
        await this.#round(signal);
      } catch (error) {
        if (isAborted(signal)) {
          return;
        }
        this.#options.logger.warn(
          { err: error, ring: this.#options.ring },
          'Shard round failed; retrying at the next one',
        );
      }
      await this.#sleepUntilWoken(signal, this.#timing.renewPeriodMs);
    }
  }

  /** Wakes the round loop, or makes its next wait return at once when it is in a round. */
  #poke(): void {
    if (this.#wake === undefined) {
      this.#woken = true;
    } else {
      this.#wake();
    }
  }

  #sleepUntilWoken(signal: AbortSignal, ms: number): Promise<void> {
    if (this.#woken) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        this.#clock.clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.#wake = undefined;
        resolve();
      };
      const timer = this.#clock.setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.#wake = done;
    });
  }

  async #round(signal: AbortSignal): Promise<void> {
    const now = this.#clock.now();
    const snapshot = this.#view.observe(this.#options.leases.list(), now);
    const round = decideShardRound({
      identity: this.#options.identity,
      now,
      selfRenewedAt: this.#fence.renewedAt,
      renewDeadlineMs: this.#timing.renewDeadlineMs,
      memberGcAfterMs: MEMBER_GC_AFTER_MS,
      bucketCount: this.#bucketCount(),
      members: snapshot.members,
      buckets: snapshot.buckets,
      local: this.#options.gate.states(),
      written: new Map([...this.#held].map(([bucket, lease]) => [bucket, lease.metadata?.resourceVersion ?? ''])),
    });
    if (round.fence) {
      this.#fence.fence();
      return;
    }
    this.#options.observer?.members(round.live.length);
    this.#stopLost(round.lost, snapshot.buckets);
    for (const bucket of round.release) {
      this.#options.gate.set(bucket, 'draining');
      void this.#release(bucket, signal);
    }
    const acquired = await this.#claim(await this.#confirmTakeovers(round.acquire, signal), snapshot.buckets, signal);
    if (acquired.length > 0) {
      void this.#activate(acquired, signal);
    }
    await this.#collect(round.collect, signal);
  }

  #stopLost(lost: readonly number[], seen: ReadonlyMap<number, SeenBucket>): void {
    for (const bucket of lost) {
      this.#options.logger.error(
        { ring: this.#options.ring, bucket, holder: seen.get(bucket)?.holder },
        'A bucket this replica held is held by another replica; stopped working on it',
      );
      this.#options.gate.delete(bucket);
      this.#held.delete(bucket);
      this.#options.observer?.handover('lost', bucket);
    }
  }

  /** Deletes member Leases expired long ago (crashed replicas'), on condition of the version seen. */
  async #collect(leaseNames: readonly string[], signal: AbortSignal): Promise<void> {
    for (const leaseName of leaseNames) {
      const lease = this.#options.leases.get(leaseName);
      if (lease !== undefined) {
        await deleteMemberLease(this.#options.client, { lease, signal }).catch((error: unknown) => {
          this.#options.logger.debug({ err: error, lease: leaseName }, 'Could not delete an expired member Lease');
        });
      }
    }
  }

  /**
   * Keeps the takeovers whose holder's member Lease, read from the API server now, still shows the
   * renewal this member saw a whole Lease duration ago (or is gone): the cache's view alone is not
   * enough, since a watch can stall without breaking and make every other member look expired.
   */
  async #confirmTakeovers(acquisitions: readonly Acquisition[], signal: AbortSignal): Promise<Acquisition[]> {
    const holders = new Map<string, boolean>();
    const confirmed: Acquisition[] = [];
    for (const acquisition of acquisitions) {
      const holder = acquisition.lease?.holder ?? '';
      if (acquisition.takeover && !holders.has(holder)) {
        holders.set(holder, await this.#holderExpired(holder, signal));
      }
      if (!acquisition.takeover || holders.get(holder) === true) {
        confirmed.push(acquisition);
      }
    }
    return confirmed;
  }

  async #holderExpired(holder: string, signal: AbortSignal): Promise<boolean> {
    const name = memberLeaseName(this.#options.ring, holder);
    const live = await readLease(this.#options.client, { namespace: this.#options.namespace, name, signal });
    const expired = this.#view.confirmExpired(name, live, this.#clock.now());
    if (!expired) {
      this.#options.logger.info(
        { ring: this.#options.ring, holder },
        'A member that looked expired renewed its Lease on the API server; not taking its buckets',
      );
    }
    return expired;
  }

  /** Writes this replica as holder of each bucket to take, a few at a time; returns those it got. */
  async #claim(
    acquisitions: readonly Acquisition[],
    seen: ReadonlyMap<number, SeenBucket>,
    signal: AbortSignal,
  ): Promise<number[]> {
    const got: number[] = [];
    for (let i = 0; i < acquisitions.length; i += CLAIM_CONCURRENCY) {
      const batch = acquisitions.slice(i, i + CLAIM_CONCURRENCY);
      await Promise.all(
        batch.map(async (acquisition) => {
          try {
            const lease = await claimBucketLease(this.#options.client, {
              ...this.#ringRef(),
              identity: this.#options.identity,
              bucket: acquisition.bucket,
              leaseDurationMs: this.#timing.leaseDurationMs,
              lease: seen.get(acquisition.bucket)?.lease,
              now: Date.now(),
              signal,
            });
            if (this.#fence.fenced !== undefined) {
              return;
            }
            this.#held.set(acquisition.bucket, lease);
            this.#options.gate.set(acquisition.bucket, 'acquiring');
            this.#options.observer?.handover(acquisition.takeover ? 'taken_over' : 'acquired', acquisition.bucket);
            got.push(acquisition.bucket);
          } catch (error) {
            if (!isAborted(signal)) {
              // Another member got there first: expected when several decide on stale views at once.
              const raced = isConflict(error) || isAlreadyExists(error);
              this.#options.logger[raced ? 'debug' : 'warn'](
                { err: error, bucket: acquisition.bucket },
                'Could not take a bucket; trying again next round',
              );
            }
          }
        }),
      );
    }
    return got.sort((a, b) => a - b);
  }

  /** Fills the caches with the buckets' objects, then lets their workloads be reconciled. */
  async #activate(buckets: readonly number[], signal: AbortSignal): Promise<void> {
    const { gate } = this.#options;
    const relisted = Promise.all(gate.shardedInformers().map((informer) => informer.relist()));
    const aborted = new Promise<void>((resolve) => {
      signal.addEventListener(
        'abort',
        () => {
          resolve();
        },
        { once: true },
      );
    });
    await Promise.race([relisted, aborted]);
    if (signal.aborted) {
      return;
    }
    const ready = new Set(buckets.filter((bucket) => gate.state(bucket) === 'acquiring'));
    for (const bucket of ready) {
      gate.set(bucket, 'active');
    }
    this.#options.logger.info({ ring: this.#options.ring, buckets: [...ready] }, 'Took buckets');
    for (const handler of this.#activations) {
      handler(ready);
    }
  }

  /** Waits for the bucket's reconciles to end, then empties its Lease's holder (by compare-and-swap on the copy this member wrote). */
  async #release(bucket: number, signal: AbortSignal): Promise<void> {
    await this.#options.gate.whenIdle(bucket);
    const lease = this.#held.get(bucket);
    if (lease === undefined || this.#options.gate.state(bucket) !== 'draining' || signal.aborted) {
      return;
    }
    const outcome = await releaseHeldBucket(this.#options.client, {
      lease,
      identity: this.#options.identity,
      now: Date.now(),
      signal,
    }).catch((error: unknown) => ({ kind: 'retry' as const, lease, error }));
    if (outcome.kind === 'retry') {
      await this.#retryRelease(bucket, outcome, signal);
      return;
    }
    this.#held.delete(bucket);
    this.#options.gate.delete(bucket);
    this.#options.observer?.handover(outcome.kind, bucket);
    if (outcome.kind === 'lost') {
      this.#options.logger.error(
        { ring: this.#options.ring, bucket, holder: outcome.holder },
        'A bucket this replica was releasing is held by another replica; wrote nothing',
      );
      return;
    }
    this.#options.logger.info({ ring: this.#options.ring, bucket }, 'Released a bucket');
    this.#relistSoon(signal);
  }

  async #retryRelease(
    bucket: number,
    outcome: { readonly lease: LeaseLike; readonly error: unknown },
    signal: AbortSignal,
  ): Promise<void> {
    if (this.#options.gate.state(bucket) !== 'draining') {
      // A round found it lost meanwhile (or the member fenced): nothing of it is ours to release.
      return;
    }
    this.#held.set(bucket, outcome.lease);
    if (!isAborted(signal)) {
      this.#options.logger.warn({ err: outcome.error, bucket }, 'Could not release a bucket; retrying');
    }
    await sleepOn(this.#clock, RELEASE_RETRY_MS, signal);
    if (!signal.aborted) {
      void this.#release(bucket, signal);
    }
  }

  /** Drops released buckets' objects from the caches, once the releases of a rebalance are done. */
  #relistSoon(signal: AbortSignal): void {
    clearTimeout(this.#relistTimer);
    this.#relistTimer = setTimeout(() => {
      if (!signal.aborted) {
        void Promise.all(this.#options.gate.shardedInformers().map((informer) => informer.relist()));
      }
    }, RELIST_AFTER_RELEASE_MS);
    this.#relistTimer.unref();
  }

  /** On shutdown: drains and releases every bucket, then deletes the member Lease, so others take over at once. */
  async #leave(): Promise<void> {
    const { gate } = this.#options;
    const held = [...gate.states().keys()];
    for (const bucket of held) {
      gate.set(bucket, 'draining');
    }
    const drained = new AbortController();
    await Promise.race([
      Promise.all(held.map((bucket) => gate.whenIdle(bucket))),
      sleepOn(this.#clock, SHUTDOWN_DRAIN_MS, drained.signal),
    ]);
    drained.abort();
    const signal = AbortSignal.timeout(5000);
    // Never by a copy read from the cache: one that lags could empty a Lease another member took meanwhile.
    await Promise.all(
      [...this.#held.values()].map((lease) =>
        releaseHeldBucket(this.#options.client, {
          lease,
          identity: this.#options.identity,
          now: Date.now(),
          signal,
        }).catch(() => undefined),
      ),
    );
    gate.clear();
    this.#held.clear();
    if (this.#self !== undefined) {
      await deleteMemberLease(this.#options.client, { lease: this.#self, signal }).catch(() => undefined);
    }
    this.#options.logger.info({ ring: this.#options.ring, released: held.length }, 'Left the shard ring');
  }

  #ringRef(): RingRef {
    return { ring: this.#options.ring, namespace: this.#options.namespace };
  }

  #bucketCount(): number {
    return this.#options.bucketCount ?? SHARD_BUCKETS;
  }
}
