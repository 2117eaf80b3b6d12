import type { FieldFilter } from '@kruise-ts/kube-protobuf';

import type { ObjectList, Reader } from '../client/client.ts';
import type { KubeObject } from '../client/kube-object.ts';
import type { ResourceType } from '../client/resource-type.ts';
import type { Transport } from '../client/transport.ts';
import { watchResource } from '../client/watch.ts';
import type { WatchEvent } from '../client/watch.ts';

/** The two calls an informer makes; an interface so that the reflector logic can be unit-tested. */
export interface ListWatcher<T> {
  list(options: { limit: number; continue?: string | undefined; signal: AbortSignal }): Promise<ObjectList<T>>;
  watch(options: {
    resourceVersion: string;
    timeoutSeconds: number;
    signal: AbortSignal;
  }): AsyncIterable<WatchEvent<T>>;
}

/** What an informer watches: a resource, optionally one namespace, optionally server-side selectors. */
export interface WatchScope<T extends KubeObject> {
  readonly resource: ResourceType<T>;
  readonly namespace?: string | undefined;
  readonly labelSelector?: string | undefined;
  readonly fieldSelector?: string | undefined;
  /**
   * A label selector read at every list and watch and joined to `labelSelector`: a sharded cache's
   * buckets, which change while the informer runs (the informer relists when they do).
   */
  readonly dynamicLabelSelector?: (() => string) | undefined;
  /** What the cache drops of each object: a protobuf answer is decoded without it. */
  readonly fieldFilter?: FieldFilter | undefined;
}

/** Lists and watches a scope through the API. */
export function apiListWatcher<T extends KubeObject>(
  reader: Reader & { readonly transport: Transport },
  scope: WatchScope<T>,
): ListWatcher<T> {
  const selectors = (): {
    namespace: string | undefined;
    labelSelector: string | undefined;
    fieldSelector: string | undefined;
    fieldFilter: FieldFilter | undefined;
  } => ({
    namespace: scope.namespace,
    labelSelector: joinSelectors(scope.labelSelector, scope.dynamicLabelSelector?.()),
    fieldSelector: scope.fieldSelector,
    fieldFilter: scope.fieldFilter,
  });
  return {
    list: (options) => reader.list(scope.resource, { ...selectors(), ...options }),
    watch: (options) => watchResource(reader.transport, scope.resource, { ...selectors(), ...options }),
  };
}

/** Two label selectors that must both match, as one (the API server ANDs comma-separated requirements). */
export function joinSelectors(first: string | undefined, second: string | undefined): string | undefined {
  const parts = [first, second].filter((part): part is string => part !== undefined && part !== '');
  return parts.length === 0 ? undefined : parts.join(',');
}
