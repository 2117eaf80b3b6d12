/**
 * A sharded manager's share of the work (docs/sharding.md): the bucket gate its sharded caches and
 * controllers consult, the coordinator that takes and gives buckets, and the labeller of objects made
 * before sharding. When a bucket is taken, each sharded controller queues its workloads, and whoever
 * listens is told which owners were taken.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';

import type { Logger } from 'pino';
import type { Registry } from 'prom-client';

import type { InformerFactory } from '../cache/informer-factory.ts';
import { apiListWatcher } from '../cache/list-watcher.ts';
import { createClient } from '../client/client.ts';
import type { Client } from '../client/client.ts';
import { objectKey } from '../client/kube-object.ts';
import type { KubeObject } from '../client/kube-object.ts';
import type { Controller } from '../controller/controller.ts';
import { bucketOfKey } from '../sharding/bucket.ts';
import type { BucketGate } from '../sharding/bucket-gate.ts';
import { BucketLabeller } from '../sharding/bucket-labeller.ts';
import type { LabelledKind } from '../sharding/bucket-labeller.ts';
import { ShardCoordinator } from '../sharding/shard-coordinator.ts';
import { ringLeasesFrom } from '../sharding/ring-leases.ts';
import type { ShardTiming } from '../sharding/shard-timing.ts';
import { registerShardMetrics } from '../sharding/shard-metrics.ts';
import type { DeepReadonly } from '../util/deep-readonly.ts';
import type { Runnable } from './runnable.ts';

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

/** Told, with a test of owner keys, that this replica took the buckets of the owners it matches. */
export type OwnersTakenListener = (taken: (ownerKey: string) => boolean) => void;

/** A sharded controller's own objects: an informer of any kind, read through its lister. */
export interface ShardedOwners {
  lister(): { list(): readonly DeepReadonly<KubeObject>[] };
}

export class ManagerShards {
  readonly gate: BucketGate;
  readonly #coordinator: ShardCoordinator;
  readonly #labeller: BucketLabeller;

  constructor(input: {
    options: ShardingOptions;
    gate: BucketGate;
    client: Client;
    informers: InformerFactory;
    logger: Logger;
    registry: Registry;
    namespace: string | undefined;
    add: (runnable: Runnable) => void;
  }) {
    const { options, gate, client, logger } = input;
    this.gate = gate;
    this.#labeller = new BucketLabeller({
      client,
      listWatcher: (scope) => apiListWatcher(client, scope),
      gate,
      logger: logger.child({ component: 'bucket-labeller' }),
      namespace: input.namespace,
      qps: options.labelQps ?? 20,
    });
    const labeller = this.#labeller;
    const ring = { ring: options.ring, namespace: options.namespace };
    this.#coordinator = new ShardCoordinator({
      client: createClient(client.transport.withOwnRateLimit(RING_QPS)),
      leases: ringLeasesFrom(input.informers, ring),
      gate,
      ring: options.ring,
      namespace: options.namespace,
      identity: options.identity ?? `${os.hostname()}_${randomUUID()}`,
      logger: logger.child({ component: 'shard-coordinator' }),
      timing: options.timing,
      observer: registerShardMetrics(input.registry, {
        ring: options.ring,
        gate,
        unlabelled: () => labeller.pending(),
      }),
    });
    const coordinator = this.#coordinator;
    client.transport.guardWrites(() => {
      coordinator.assertMayWrite();
    });
    input.add(this.#coordinator);
    input.add(this.#labeller);
  }

  labelKind<T extends KubeObject>(kind: LabelledKind<T>): void {
    this.#labeller.add(kind);
  }

  onOwnersTaken(listener: OwnersTakenListener): void {
    this.#coordinator.onActivate((buckets) => {
      listener((key) => buckets.has(bucketOfKey(key)));
    });
  }

  /** Lets `controller` reconcile the objects of `own` in the buckets this replica takes. */
  shardController(controller: Controller, own: ShardedOwners): void {
    this.#coordinator.onActivate((buckets) => {
      const taken = (key: string): boolean => buckets.has(bucketOfKey(key));
      for (const object of own.lister().list()) {
        const key = objectKey(object);
        if (taken(key)) {
          controller.queue.add(key);
        }
      }
    });
  }
}
