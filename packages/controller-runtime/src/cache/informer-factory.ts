import { compileFieldFilter, PROTOBUF_KINDS } from '@kruise-ts/kube-protobuf';
import type { FieldFilter } from '@kruise-ts/kube-protobuf';
import type { Logger } from 'pino';

import type { Reader } from '../client/client.ts';
import type { KubeObject } from '../client/kube-object.ts';
import type { ResourceType } from '../client/resource-type.ts';
import type { Transport } from '../client/transport.ts';
import { Informer, stripManagedFields } from './informer.ts';
import { apiListWatcher } from './list-watcher.ts';
import type { WatchScope } from './list-watcher.ts';
import type { IndexFunc } from './store.ts';

export interface InformerRequest<T extends KubeObject> extends WatchScope<T> {
  readonly indexers?: Readonly<Record<string, IndexFunc<T>>> | undefined;
  /**
   * Caches only the objects of the buckets this replica holds, when the process is sharded
   * (docs/sharding.md): for objects a controller creates with its owner's bucket label. Ignored
   * when it is not.
   */
  readonly sharded?: boolean | undefined;
}

/** What a cache transform drops whole, for {@link InformerFactory.setTransform}. */
export interface CacheTransformOptions {
  /**
   * The fields the transform drops (a field filter of the resource's kind, `compileFieldFilter`):
   * a protobuf answer is decoded without them. The transform must drop them itself all the same
   * (`applyFieldFilter`, a walk without a copy on an object decoded with the filter), since an object
   * read as JSON reaches it whole: the factory does not filter it first, which would cost the JSON
   * path a copy and the protobuf path a second walk.
   */
  readonly fieldFilter?: FieldFilter | undefined;
}

/** The buckets a sharded replica caches: their selector, and who relists the sharded informers when they change. */
export interface ShardedCache {
  readonly selector: () => string;
  register(informer: Informer<KubeObject>, resource: ResourceType): void;
}

export interface InformerFactoryOptions {
  readonly client: Reader & { readonly transport: Transport };
  readonly logger: Logger;
  /** Restricts every namespaced informer to this namespace (a `--namespace` flag); all namespaces when empty. */
  readonly namespace?: string | undefined;
  /** Applied to every object before caching; drops managedFields by default. */
  readonly transform?: (<T extends KubeObject>(object: T) => T) | undefined;
  readonly freeze?: boolean | undefined;
  readonly pageSize?: number | undefined;
  /** Told about every list and watch event of every informer (see `InformerOptions.onActivity`). */
  readonly onActivity?: (() => void) | undefined;
  /** Set when the process is sharded: informers requested `sharded` select on its buckets. */
  readonly shard?: ShardedCache | undefined;
}

/**
 * One informer per resource and scope, shared by every controller that asks for it, so that a pod
 * cache exists once per process however many controllers read pods.
 */
export class InformerFactory {
  readonly #options: InformerFactoryOptions;
  readonly #informers = new Map<string, Informer<KubeObject>>();
  readonly #transforms = new Map<string, (object: KubeObject) => KubeObject>();
  readonly #fieldFilters = new Map<string, FieldFilter>();
  readonly #running = new Set<unknown>();
  #signal: AbortSignal | undefined;

  constructor(options: InformerFactoryOptions) {
    this.#options = options;
  }

  /**
   * Sets what one resource's informers keep of each object (controller-runtime's cache
   * `ByObject.Transform`), after managedFields are dropped: a controller that reads a few fields of
   * many objects caches only those. Every controller of the process shares the cache, so the
   * transform must keep what any of them reads; registering the same function again is allowed, a
   * different one, or one after the resource's informer exists, throws. `options.fieldFilter`: the
   * fields the transform drops whole, which a protobuf read then does not decode.
   */
  setTransform<T extends KubeObject>(
    resource: ResourceType<T>,
    transform: (object: T) => T,
    options: CacheTransformOptions = {},
  ): void {
    const key = resourceKey(resource);
    const registered = this.#transforms.get(key);
    if (registered === (transform as unknown as (object: KubeObject) => KubeObject)) {
      if (this.#fieldFilters.get(key) !== options.fieldFilter) {
        throw new Error(`a different field filter is already set for ${key}`);
      }
      return;
    }
    if (registered !== undefined) {
      throw new Error(`a different cache transform is already set for ${key}`);
    }
    if ([...this.#informers.keys()].some((scope) => scope.startsWith(`${key}|`))) {
      throw new Error(`the cache transform for ${key} must be set before its first informer is requested`);
    }
    if (options.fieldFilter !== undefined && options.fieldFilter.kind !== resource.kind) {
      throw new Error(`the field filter of ${key} is for ${options.fieldFilter.kind}, not ${resource.kind}`);
    }
    this.#transforms.set(key, transform as unknown as (object: KubeObject) => KubeObject);
    if (options.fieldFilter !== undefined) {
      this.#fieldFilters.set(key, options.fieldFilter);
    }
  }

  /** The shared informer for a scope, created on first request (and started if the factory runs). */
  informerFor<T extends KubeObject>(request: InformerRequest<T>): Informer<T> {
    const scope = { ...this.#scoped(request), fieldFilter: this.#fieldFilterFor(request.resource) };
    const key = scopeKey(scope);
    let informer = this.#informers.get(key) as Informer<T> | undefined;
    if (informer === undefined) {
      informer = new Informer<T>({
        listWatcher: apiListWatcher(this.#options.client, scope),
        description: key,
        logger: this.#options.logger,
        transform: this.#transformFor(scope.resource),
        freeze: this.#options.freeze,
        pageSize: this.#options.pageSize,
        onActivity: this.#options.onActivity,
      });
      this.#informers.set(key, informer as unknown as Informer<KubeObject>);
      if (scope.dynamicLabelSelector !== undefined) {
        this.#options.shard?.register(informer as unknown as Informer<KubeObject>, scope.resource);
      }
      this.#run(informer);
    }
    if (request.indexers !== undefined) {
      informer.addIndexers(request.indexers);
    }
    return informer;
  }

  /** Starts every informer, and any requested later, until the signal aborts. */
  start(signal: AbortSignal): void {
    this.#signal = signal;
    for (const informer of this.#informers.values()) {
      this.#run(informer);
    }
  }

  /** True when every informer has synced. */
  hasSynced(): boolean {
    return [...this.#informers.values()].every((informer) => informer.hasSynced());
  }

  /** Waits until every informer has synced; throws after the timeout, naming the ones still syncing. */
  async waitForCacheSync(signal: AbortSignal, timeoutMs: number): Promise<void> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const both = AbortSignal.any([signal, timeout]);
    const results = await Promise.all([...this.#informers.values()].map((informer) => informer.waitForSync(both)));
    if (results.includes(false) && !signal.aborted) {
      const pending = [...this.#informers.entries()]
        .filter(([, informer]) => !informer.hasSynced())
        .map(([key]) => key);
      throw new Error(`caches did not sync within ${String(timeoutMs)}ms: ${pending.join(', ')}`);
    }
  }

  #transformFor<T extends KubeObject>(resource: ResourceType<T>): (object: T) => T {
    const base = this.#options.transform ?? stripManagedFields;
    const own = this.#transforms.get(resourceKey(resource));
    if (own === undefined) {
      return base;
    }
    return (object: T) => own(base(object)) as T;
  }

  /**
   * What a protobuf read of the resource leaves out: the registered filter, or else (with the default
   * transform, which drops them) the managedFields of a kind the protobuf tables cover.
   */
  #fieldFilterFor(resource: ResourceType): FieldFilter | undefined {
    const registered = this.#fieldFilters.get(resourceKey(resource));
    if (registered !== undefined || this.#options.transform !== undefined) {
      return registered;
    }
    return managedFieldsFilter(resource);
  }

  #run(informer: { run(signal: AbortSignal): Promise<void> }): void {
    const signal = this.#signal;
    if (signal !== undefined && !this.#running.has(informer)) {
      this.#running.add(informer);
      void informer.run(signal);
    }
  }

  #scoped<T extends KubeObject>(request: InformerRequest<T>): InformerRequest<T> {
    const namespace = request.resource.namespaced ? (request.namespace ?? this.#options.namespace) : undefined;
    const shard = request.sharded === true ? this.#options.shard : undefined;
    return { ...request, namespace: namespace === '' ? undefined : namespace, dynamicLabelSelector: shard?.selector };
  }
}

const MANAGED_FIELDS_FILTERS = new Map<string, FieldFilter>();

/** A filter of the kind's managedFields (compiled once per kind), or undefined for a kind not read in protobuf. */
function managedFieldsFilter(resource: ResourceType): FieldFilter | undefined {
  const apiVersion = resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
  if (!PROTOBUF_KINDS.some(([version, kind]) => version === apiVersion && kind === resource.kind)) {
    return undefined;
  }
  const key = `${apiVersion}/${resource.kind}`;
  let filter = MANAGED_FIELDS_FILTERS.get(key);
  if (filter === undefined) {
    filter = compileFieldFilter(key, ['metadata.managedFields']);
    MANAGED_FIELDS_FILTERS.set(key, filter);
  }
  return filter;
}

function resourceKey(resource: Pick<ResourceType, 'group' | 'version' | 'plural'>): string {
  return `${resource.group === '' ? 'core' : resource.group}/${resource.version}/${resource.plural}`;
}

function scopeKey(scope: WatchScope<KubeObject>): string {
  return [
    resourceKey(scope.resource),
    scope.namespace ?? '*',
    scope.labelSelector ?? '',
    scope.fieldSelector ?? '',
    scope.dynamicLabelSelector === undefined ? '' : 'sharded',
  ].join('|');
}
