/**
 * A sharded manager's share of the work (docs/sharding.md): the bucket gate its sharded caches and
 * controllers consult, the coordinator that takes and gives buckets, and the labeller of objects made
 * before sharding. When a bucket is taken, each sharded controller queues its workloads, and whoever
 * listens is told which owners were taken.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';

import { apiListWatcher, createClient, objectKey } from '@kruise-ts/controller-runtime';
import type {
  Controller,
  KubeObject,
  ManagerSharding,
  OwnersTakenListener,
  ShardedOwners,
  ShardingHost,
} from '@kruise-ts/controller-runtime';

import { bucketOfKey } from './bucket.ts';
import { BucketGate } from './bucket-gate.ts';
import { BucketLabeller } from './bucket-labeller.ts';
import type { LabelledKind } from './bucket-labeller.ts';
import { ShardCoordinator } from './shard-coordinator.ts';
import { ringLeasesFrom } from './ring-leases.ts';
import type { ShardTiming } from './shard-timing.ts';
import { registerShardMetrics } from './shard-metrics.ts';

/** Shares sharded controllers' work among the app's replicas (docs/sharding.md) instead of one leader doing it all. */
export interface ShardingOptions {
  /** The ring's name: the app's Lease name (`kruise-ts-cloneset`); member and bucket Leases are named after it. */
  readonly ring: string;
  /** Where the ring's Leases live (the release namespace). */
  readonly namespace: string;
  /** Unique per process; `<hostname>_<uuid>` by default. */
  readonly identity?: string | undefined;
  readonly timing?: ShardTiming | undefined;
  /** Bucket labels added per second at most to objects made before sharding (default 20). */
  readonly labelQps?: number | undefined;
}

/**
 * The ring's own rate limit: a replica's renewal must never wait behind its reconciles' and the
 * labeller's writes, or a busy replica would fence itself. A member writes about one Lease per renew
 * period, and one per bucket when taking many at once.
 */
const RING_QPS = { qps: 20, burst: 64 } as const;

/** What the sharding does once attached to its manager. */
interface Attached {
  readonly coordinator: ShardCoordinator;
  readonly labeller: BucketLabeller;
}

/**
 * The sharding of one manager: made from the options before the manager, which attaches it once its
 * client and caches exist (`new Manager({ ..., sharding: new ManagerShards(options) })`).
 */
export class ManagerShards implements ManagerSharding {
  readonly identity: string;
  readonly gate = new BucketGate();
  readonly #options: ShardingOptions;
  #attached: Attached | undefined;

  constructor(options: ShardingOptions) {
    this.#options = options;
    this.identity = options.identity ?? `${os.hostname()}_${randomUUID()}`;
  }

  attach(host: ShardingHost): void {
    if (this.#attached !== undefined) {
      throw new Error('this sharding is attached to a manager already');
    }
    const { client, logger } = host;
    const { gate } = this;
    const options = this.#options;
    const labeller = new BucketLabeller({
      client,
      listWatcher: (scope) => apiListWatcher(client, scope),
      gate,
      logger: logger.child({ component: 'bucket-labeller' }),
      namespace: host.namespace,
      qps: options.labelQps ?? 20,
    });
    const coordinator = new ShardCoordinator({
      client: createClient(client.transport.withOwnRateLimit(RING_QPS)),
      leases: ringLeasesFrom(host.informers, { ring: options.ring, namespace: options.namespace }),
      gate,
      ring: options.ring,
      namespace: options.namespace,
      identity: this.identity,
      logger: logger.child({ component: 'shard-coordinator' }),
      timing: options.timing,
      observer: registerShardMetrics(host.registry, { ring: options.ring, gate, unlabelled: () => labeller.pending() }),
    });
    client.transport.guardWrites(() => {
      coordinator.assertMayWrite();
    });
    host.add(coordinator);
    host.add(labeller);
    this.#attached = { coordinator, labeller };
  }

  /**
   * Labels the objects of a kind made before sharding with their owner's bucket, and holds back their
   * owners' reconciles until they are (docs/sharding.md).
   */
  labelKind<T extends KubeObject>(kind: LabelledKind<T>): void {
    this.#attachedOrThrow().labeller.add(kind);
  }

  onOwnersTaken(listener: OwnersTakenListener): void {
    this.#attachedOrThrow().coordinator.onActivate((buckets) => {
      listener((key) => buckets.has(bucketOfKey(key)));
    });
  }

  /** Lets `controller` reconcile the objects of `own` in the buckets this replica takes. */
  shardController(controller: Controller, own: ShardedOwners): void {
    this.#attachedOrThrow().coordinator.onActivate((buckets) => {
      const taken = (key: string): boolean => buckets.has(bucketOfKey(key));
      for (const object of own.lister().list()) {
        const key = objectKey(object);
        if (taken(key)) {
          controller.queue.add(key);
        }
      }
    });
  }

  #attachedOrThrow(): Attached {
    if (this.#attached === undefined) {
      throw new Error('this sharding is not attached to a manager: give it as the `sharding` of a Manager first');
    }
    return this.#attached;
  }
}
