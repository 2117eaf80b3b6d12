/**
 * What a sharded replica holds, as the rest of the process sees it: which buckets it may work on
 * (the controllers' queue asks before each reconcile), which it caches (the sharded informers'
 * selector), and how many reconciles of each bucket are running (a release waits for them).
 */
import type { Admission, Informer, KubeObject, ReconcileGate, ResourceType } from '@kruise-ts/controller-runtime';

import { bucketOf, bucketOfKey, bucketSelector } from './bucket.ts';
import type { LocalBucketState } from './shard-round.ts';

export class BucketGate implements ReconcileGate {
  readonly #bucketCount: number | undefined;
  readonly #states = new Map<number, LocalBucketState>();
  readonly #inFlight = new Map<number, number>();
  readonly #idleWaiters = new Map<number, (() => void)[]>();
  readonly #deferrals: ((key: string) => boolean)[] = [];
  readonly #informers: { readonly informer: Informer<KubeObject>; readonly resource: ResourceType | undefined }[] = [];
  readonly #leaveHandlers: ((bucket: number) => void)[] = [];

  constructor(bucketCount?: number) {
    this.#bucketCount = bucketCount;
  }

  admit(key: string): Admission {
    const bucket = bucketOfKey(key, this.#bucketCount);
    const state = this.#states.get(bucket);
    if (state === 'acquiring') {
      return 'later';
    }
    if (state !== 'active') {
      return 'drop';
    }
    if (this.#deferrals.some((defer) => defer(key))) {
      return 'later';
    }
    this.#inFlight.set(bucket, (this.#inFlight.get(bucket) ?? 0) + 1);
    return 'run';
  }

  finished(key: string): void {
    const bucket = bucketOfKey(key, this.#bucketCount);
    const left = (this.#inFlight.get(bucket) ?? 1) - 1;
    if (left > 0) {
      this.#inFlight.set(bucket, left);
      return;
    }
    this.#inFlight.delete(bucket);
    for (const resolve of this.#idleWaiters.get(bucket) ?? []) {
      resolve();
    }
    this.#idleWaiters.delete(bucket);
  }

  /** Resolves once no reconcile of the bucket runs (at once if none does). */
  whenIdle(bucket: number): Promise<void> {
    if ((this.#inFlight.get(bucket) ?? 0) === 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#idleWaiters.set(bucket, [...(this.#idleWaiters.get(bucket) ?? []), resolve]);
    });
  }

  /** Keeps a held bucket's keys for later while `defer` says so (a workload whose pods are not all labelled yet). */
  addDeferral(defer: (key: string) => boolean): void {
    this.#deferrals.push(defer);
  }

  state(bucket: number): LocalBucketState | undefined {
    return this.#states.get(bucket);
  }

  states(): ReadonlyMap<number, LocalBucketState> {
    return this.#states;
  }

  set(bucket: number, state: LocalBucketState): void {
    this.#states.set(bucket, state);
  }

  delete(bucket: number): void {
    if (this.#states.delete(bucket)) {
      this.#left(bucket);
    }
  }

  /** Drops every bucket at once: this replica fenced itself. */
  clear(): void {
    const held = [...this.#states.keys()];
    this.#states.clear();
    for (const bucket of held) {
      this.#left(bucket);
    }
  }

  /** Calls `handler` with each bucket this replica stops holding (released, lost or fenced), to free what it kept for it. */
  onLeave(handler: (bucket: number) => void): void {
    this.#leaveHandlers.push(handler);
  }

  #left(bucket: number): void {
    for (const handler of this.#leaveHandlers) {
      handler(bucket);
    }
  }

  /** Whether a workload's bucket is one this replica works on now. */
  isActive(namespace: string, name: string): boolean {
    return this.#states.get(bucketOf(namespace, name, this.#bucketCount)) === 'active';
  }

  /**
   * The buckets the sharded caches select: every bucket held, draining ones included, because a
   * reconcile still running on a draining bucket must not see its pods vanish (it could create more).
   */
  cachedBuckets(): number[] {
    return [...this.#states.keys()];
  }

  /** The sharded informers' label selector, read at each of their lists and watches. */
  readonly selector = (): string => bucketSelector(this.cachedBuckets());

  /** Told about every sharded informer, so that taking buckets relists them. */
  register(informer: Informer<KubeObject>, resource?: ResourceType): void {
    this.#informers.push({ informer, resource });
  }

  shardedInformers(): readonly Informer<KubeObject>[] {
    return this.#informers.map(({ informer }) => informer);
  }

  /** The sharded caches of `resource` (the labeller repairs wrong bucket labels it finds there). */
  shardedCachesOf(resource: ResourceType): readonly Informer<KubeObject>[] {
    return this.#informers
      .filter((entry) => entry.resource !== undefined && resourceId(entry.resource) === resourceId(resource))
      .map(({ informer }) => informer);
  }
}

function resourceId(resource: ResourceType): string {
  return `${resource.group}/${resource.plural}`;
}
