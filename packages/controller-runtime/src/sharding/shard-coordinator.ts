/**
 * One replica's side of a sharded app (docs/sharding.md): renews its member Lease, and in rounds
 * woken by the ring's Leases and a tick, lets go of the buckets the ring gives to others and takes
 * the ones it gives to this replica, filling its caches before working on them. Fences itself (the
 * manager then exits) when it cannot renew within the deadline.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { Logger } from 'pino';

import type { InformerFactory } from '../cache/informer-factory.ts';
import type { Informer } from '../cache/informer.ts';
import { isAlreadyExists, isConflict } from '../client/api-error.ts';
import type { Client } from '../client/client.ts';
import { leaseResource } from '../leader-election/leader-elector.ts';
import type { LeaseLike } from '../leader-election/lease-decision.ts';
import type { Runnable } from '../manager/runnable.ts';
import { isAborted } from '../util/aborted.ts';
import { SHARD_BUCKETS, SHARD_RING_LABEL } from './bucket.ts';
import type { BucketGate } from './bucket-gate.ts';
import { MemberView } from './member-view.ts';
import type { SeenBucket } from './member-view.ts';
import { claimBucketLease, deleteMemberLease, releaseBucketLease, renewMemberLease } from './shard-leases.ts';
import type { RingRef } from './shard-leases.ts';
import { decideShardRound } from './shard-round.ts';
import type { Acquisition } from './shard-round.ts';

export interface ShardTiming {
  readonly leaseDurationMs: number;
  /** A member that has not renewed for this long stops all work; must be below leaseDurationMs. */
  readonly renewDeadlineMs: number;
  readonly renewPeriodMs: number;
}

export const DEFAULT_SHARD_TIMING: ShardTiming = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, renewPeriodMs: 5_000 };

/** What the coordinator tells the metrics. */
export interface ShardObserver {
  members(count: number): void;
  handover(kind: 'acquired' | 'taken_over' | 'released' | 'lost', bucket: number): void;
}

export interface ShardCoordinatorOptions extends RingRef {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly gate: BucketGate;
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

export class ShardCoordinator implements Runnable {
  readonly needLeaderElection = false;
  readonly #options: ShardCoordinatorOptions;
  readonly #timing: ShardTiming;
  readonly #view: MemberView;
  readonly #leases: Informer<LeaseLike>;
  readonly #activations: ((buckets: ReadonlySet<number>) => void)[] = [];
  readonly #held = new Map<number, LeaseLike>();
  #self: LeaseLike | undefined;
  #selfRenewedAt: number | undefined;
  #wake: (() => void) | undefined;
  /** A change came while no round was waiting for one: the next wait returns at once. */
  #woken = false;
  #stopLoops: AbortController | undefined;
  #fenced: Error | undefined;
  #relistTimer: NodeJS.Timeout | undefined;

  constructor(options: ShardCoordinatorOptions) {
    this.#options = options;
    this.#timing = options.timing ?? DEFAULT_SHARD_TIMING;
    if (this.#timing.renewDeadlineMs >= this.#timing.leaseDurationMs) {
      // The safety of a takeover rests on a member stopping before others may count it gone.
      throw new Error(`sharding needs the renew deadline (${String(this.#timing.renewDeadlineMs)} ms) below the Lease duration (${String(this.#timing.leaseDurationMs)} ms)`);
    }
    this.#view = new MemberView(options.ring, this.#timing.leaseDurationMs);
    this.#leases = options.informers.informerFor({ resource: leaseResource, namespace: options.namespace, labelSelector: `${SHARD_RING_LABEL}=${options.ring}` });
    const wake = (): void => {
      this.#poke();
    };
    this.#leases.addEventHandler({ onAdd: wake, onUpdate: wake, onDelete: wake });
  }

  /**
   * Called with the buckets that just became active, before any of their reconciles: forget their
   * expectations and queue their workloads.
   */
  onActivate(handler: (buckets: ReadonlySet<number>) => void): void {
    this.#activations.push(handler);
  }

  async start(signal: AbortSignal): Promise<void> {
    if (!(await this.#leases.waitForSync(signal))) {
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
    if (this.#fenced !== undefined) {
      throw this.#fenced;
    }
    await this.#leave();
  }

  async #renewLoop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && this.#fenced === undefined) {
      const sent = Date.now();
      try {
        const attempt = AbortSignal.any([signal, AbortSignal.timeout(this.#timing.renewDeadlineMs)]);
        this.#self = await renewMemberLease(this.#options.client, { ...this.#ringRef(), identity: this.#options.identity, leaseDurationMs: this.#timing.leaseDurationMs, current: this.#self, now: sent, signal: attempt });
        const first = this.#selfRenewedAt === undefined;
        this.#selfRenewedAt = sent;
        if (first) {
          this.#poke();
        }
      } catch (error) {
        if (isAborted(signal)) {
          return;
        }
        // A conflict means our copy is stale: read it again next time.
        this.#self = isConflict(error) ? undefined : this.#self;
        this.#options.logger.warn({ err: error, ring: this.#options.ring }, 'Could not renew the shard member Lease');
        this.#checkDeadline();
      }
      await sleep(this.#timing.renewPeriodMs, undefined, { signal }).catch(() => undefined);
    }
  }

  async #roundLoop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && this.#fenced === undefined) {
      try {
        await this.#round(signal);
      } catch (error) {
        if (isAborted(signal)) {
          return;
        }
        this.#options.logger.warn({ err: error, ring: this.#options.ring }, 'Shard round failed; retrying at the next one');
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
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.#wake = done;
    });
  }

  async #round(signal: AbortSignal): Promise<void> {
    const now = Date.now();
    const snapshot = this.#view.observe(this.#leases.lister().list() as LeaseLike[], now);
    const round = decideShardRound({
      identity: this.#options.identity,
      now,
      selfRenewedAt: this.#selfRenewedAt,
      renewDeadlineMs: this.#timing.renewDeadlineMs,
      memberGcAfterMs: MEMBER_GC_AFTER_MS,
      bucketCount: this.#bucketCount(),
      members: snapshot.members,
      buckets: snapshot.buckets,
      local: this.#options.gate.states(),
      written: new Map([...this.#held].map(([bucket, lease]) => [bucket, lease.metadata?.resourceVersion ?? ''])),
    });
    if (round.fence) {
      this.#fence();
      return;
    }
    this.#options.observer?.members(round.live.length);
    this.#stopLost(round.lost, snapshot.buckets);
    for (const bucket of round.release) {
      this.#options.gate.set(bucket, 'draining');
      void this.#release(bucket, signal);
    }
    const acquired = await this.#claim(round.acquire, snapshot.buckets, signal);
    if (acquired.length > 0) {
      void this.#activate(acquired, signal);
    }
    await this.#collect(round.collect, signal);
  }

  #stopLost(lost: readonly number[], seen: ReadonlyMap<number, SeenBucket>): void {
    for (const bucket of lost) {
      this.#options.logger.error({ ring: this.#options.ring, bucket, holder: seen.get(bucket)?.holder }, 'A bucket this replica held is held by another replica; stopped working on it');
      this.#options.gate.delete(bucket);
      this.#held.delete(bucket);
      this.#options.observer?.handover('lost', bucket);
    }
  }

  /** Deletes member Leases expired long ago (crashed replicas'), on condition of the version seen. */
  async #collect(leaseNames: readonly string[], signal: AbortSignal): Promise<void> {
    for (const leaseName of leaseNames) {
      const lease = this.#leases.lister().get(this.#options.namespace, leaseName);
      if (lease !== undefined) {
        await deleteMemberLease(this.#options.client, { lease, signal }).catch((error: unknown) => {
          this.#options.logger.debug({ err: error, lease: leaseName }, 'Could not delete an expired member Lease');
        });
      }
    }
  }

  /** Writes this replica as holder of each bucket to take, a few at a time; returns those it got. */
  async #claim(acquisitions: readonly Acquisition[], seen: ReadonlyMap<number, SeenBucket>, signal: AbortSignal): Promise<number[]> {
    const got: number[] = [];
    for (let i = 0; i < acquisitions.length; i += CLAIM_CONCURRENCY) {
      const batch = acquisitions.slice(i, i + CLAIM_CONCURRENCY);
      await Promise.all(batch.map(async (acquisition) => {
        try {
          const lease = await claimBucketLease(this.#options.client, { ...this.#ringRef(), identity: this.#options.identity, bucket: acquisition.bucket, leaseDurationMs: this.#timing.leaseDurationMs, lease: seen.get(acquisition.bucket)?.lease, now: Date.now(), signal });
          this.#held.set(acquisition.bucket, lease);
          this.#options.gate.set(acquisition.bucket, 'acquiring');
          this.#options.observer?.handover(acquisition.takeover ? 'taken_over' : 'acquired', acquisition.bucket);
          got.push(acquisition.bucket);
        } catch (error) {
          if (!isAborted(signal)) {
            // Another member got there first: expected when several decide on stale views at once.
            const raced = isConflict(error) || isAlreadyExists(error);
            this.#options.logger[raced ? 'debug' : 'warn']({ err: error, bucket: acquisition.bucket }, 'Could not take a bucket; trying again next round');
          }
        }
      }));
    }
    return got.sort((a, b) => a - b);
  }

  /** Fills the caches with the buckets' objects, then lets their workloads be reconciled. */
  async #activate(buckets: readonly number[], signal: AbortSignal): Promise<void> {
    const { gate } = this.#options;
    const relisted = Promise.all(gate.shardedInformers().map((informer) => informer.relist()));
    const aborted = new Promise<void>((resolve) => {
      signal.addEventListener('abort', () => {
        resolve();
      }, { once: true });
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

  /** Waits for the bucket's reconciles to end, then empties its Lease's holder. */
  async #release(bucket: number, signal: AbortSignal): Promise<void> {
    await this.#options.gate.whenIdle(bucket);
    const lease = this.#held.get(bucket);
    if (lease === undefined || this.#options.gate.state(bucket) !== 'draining') {
      return;
    }
    try {
      await releaseBucketLease(this.#options.client, { lease, now: Date.now(), signal });
      this.#held.delete(bucket);
      this.#options.gate.delete(bucket);
      this.#options.observer?.handover('released', bucket);
      this.#options.logger.info({ ring: this.#options.ring, bucket }, 'Released a bucket');
      this.#relistSoon(signal);
    } catch (error) {
      // Stay draining: the next round sees the Lease again and either retries or finds it lost.
      this.#held.set(bucket, (this.#leases.lister().get(this.#options.namespace, lease.metadata?.name ?? '') as LeaseLike | undefined) ?? lease);
      this.#options.logger.warn({ err: error, bucket }, 'Could not release a bucket; retrying');
      await sleep(1000, undefined, { signal }).catch(() => undefined);
      if (!signal.aborted) {
        void this.#release(bucket, signal);
      }
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

  #checkDeadline(): void {
    if (this.#selfRenewedAt !== undefined && Date.now() - this.#selfRenewedAt >= this.#timing.renewDeadlineMs) {
      this.#fence();
    }
  }

  #fence(): void {
    if (this.#fenced !== undefined) {
      return;
    }
    this.#options.gate.clear();
    this.#held.clear();
    this.#fenced = new Error(`shard ring ${this.#options.ring}: the member Lease was not renewed within ${String(this.#timing.renewDeadlineMs)} ms; stopped all work so that other replicas may take the buckets`);
    this.#options.logger.error({ ring: this.#options.ring }, this.#fenced.message);
    this.#stopLoops?.abort();
  }

  /** On shutdown: drains and releases every bucket, then deletes the member Lease, so others take over at once. */
  async #leave(): Promise<void> {
    const { gate } = this.#options;
    const held = [...gate.states().keys()];
    for (const bucket of held) {
      gate.set(bucket, 'draining');
    }
    await Promise.race([Promise.all(held.map((bucket) => gate.whenIdle(bucket))), sleep(SHUTDOWN_DRAIN_MS, undefined, { ref: false })]);
    const signal = AbortSignal.timeout(5000);
    await Promise.all([...this.#held.values()].map((lease) => releaseBucketLease(this.#options.client, { lease, now: Date.now(), signal }).catch(() => undefined)));
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
