import type { KubeObject } from '../client/kube-object.ts';
import type { DeepReadonly } from '../util/deep-readonly.ts';
import { matchesLabelSelector } from '../util/label-selector.ts';
import type { LabelSelector } from '../util/label-selector.ts';
import { NAMESPACE_INDEX } from './store.ts';
import type { Store } from './store.ts';

export interface ListerListOptions {
  readonly namespace?: string | undefined;
  readonly labelSelector?: LabelSelector | undefined;
}

/** Reads an informer's cache. Everything it returns is shared and read-only. */
export interface Lister<T> {
  get(namespace: string, name: string): DeepReadonly<T> | undefined;
  getByKey(key: string): DeepReadonly<T> | undefined;
  list(options?: ListerListOptions): DeepReadonly<T>[];
  byIndex(indexName: string, value: string): DeepReadonly<T>[];
}

/** A lister over a store. */
export function createLister<T extends KubeObject>(store: Store<T>): Lister<T> {
  const readonly = (objects: T[]): DeepReadonly<T>[] => objects as DeepReadonly<T>[];
  return {
    get: (namespace, name) =>
      store.get(namespace === '' ? name : `${namespace}/${name}`) as DeepReadonly<T> | undefined,
    getByKey: (key) => store.get(key) as DeepReadonly<T> | undefined,
    list: (options = {}) => {
      const candidates =
        options.namespace === undefined ? [...store.values()] : store.byIndex(NAMESPACE_INDEX, options.namespace);
      const { labelSelector } = options;
      return readonly(
        labelSelector === undefined
          ? candidates
          : candidates.filter((o) => matchesLabelSelector(labelSelector, o.metadata?.labels)),
      );
    },
    byIndex: (indexName, value) => readonly(store.byIndex(indexName, value)),
  };
}
