import type { ObjectList, Reader } from '../client/client.ts';
import type { KubeObject } from '../client/kube-object.ts';
import type { ResourceType } from '../client/resource-type.ts';
import type { Transport } from '../client/transport.ts';
import { watchResource } from '../client/watch.ts';
import type { WatchEvent } from '../client/watch.ts';

/** The two calls an informer makes; an interface so that the reflector logic can be unit-tested. */
export interface ListWatcher<T> {
  list(options: { limit: number; continue?: string | undefined; signal: AbortSignal }): Promise<ObjectList<T>>;
  watch(options: { resourceVersion: string; timeoutSeconds: number; signal: AbortSignal }): AsyncIterable<WatchEvent<T>>;
}

/** What an informer watches: a resource, optionally one namespace, optionally server-side selectors. */
export interface WatchScope<T extends KubeObject> {
  readonly resource: ResourceType<T>;
  readonly namespace?: string | undefined;
  readonly labelSelector?: string | undefined;
  readonly fieldSelector?: string | undefined;
}

/** Lists and watches a scope through the API. */
export function apiListWatcher<T extends KubeObject>(reader: Reader & { readonly transport: Transport }, scope: WatchScope<T>): ListWatcher<T> {
  const selectors = { namespace: scope.namespace, labelSelector: scope.labelSelector, fieldSelector: scope.fieldSelector };
  return {
    list: (options) => reader.list(scope.resource, { ...selectors, ...options }),
    watch: (options) => watchResource(reader.transport, scope.resource, { ...selectors, ...options }),
  };
}
