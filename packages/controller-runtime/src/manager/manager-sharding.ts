/**
 * The gate by which a manager shares its sharded controllers' work with the other replicas of an app
 * (docs/sharding.md). The runtime knows only this interface; the ring of Leases, the buckets and the
 * labeller of objects made before sharding are plugged in (@kruise-ts/sharding).
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';

import type { InformerFactory, ShardedCache } from '../cache/informer-factory.ts';
import type { Client } from '../client/client.ts';
import type { KubeObject } from '../client/kube-object.ts';
import type { Controller } from '../controller/controller.ts';
import type { ReconcileGate } from '../controller/reconcile-gate.ts';
import type { DeepReadonly } from '../util/deep-readonly.ts';
import type { Runnable } from './runnable.ts';

/** What a manager lends its sharding, once its client and caches exist. */
export interface ShardingHost {
  readonly client: Client;
  readonly informers: InformerFactory;
  readonly logger: Logger;
  readonly registry: Registry;
  /** The one namespace the manager caches, if any. */
  readonly namespace: string | undefined;
  /** Runs a runnable with the manager's (on every replica: sharding needs no leader). */
  add(runnable: Runnable): void;
}

/** Told, with a test of owner keys, that this replica took the buckets of the owners it matches. */
export type OwnersTakenListener = (taken: (ownerKey: string) => boolean) => void;

/** A sharded controller's own objects: an informer of any kind, read through its lister. */
export interface ShardedOwners {
  lister(): { list(): readonly DeepReadonly<KubeObject>[] };
}

/** A manager's share of the work among the app's replicas. */
export interface ManagerSharding {
  /** The replica's name on the ring; its user agent names it too. */
  readonly identity: string;
  /** Asked by sharded controllers before each reconcile; selects what sharded informers cache. */
  readonly gate: ReconcileGate & ShardedCache;
  /** Called once by the manager's constructor. */
  attach(host: ShardingHost): void;
  /** Lets `controller` reconcile the objects of `owners` in the buckets this replica takes. */
  shardController(controller: Controller, owners: ShardedOwners): void;
  onOwnersTaken(listener: OwnersTakenListener): void;
}
