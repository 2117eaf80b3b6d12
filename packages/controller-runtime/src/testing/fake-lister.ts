/** A `Lister` over a list of objects, as an informer serves its cache: read-only, indexed, by namespace. */
import { matchesLabelSelector } from '../util/label-selector.ts';
import type { Lister, ListerListOptions } from '../cache/lister.ts';
import type { IndexFunc } from '../cache/store.ts';
import type { KubeObject } from '../client/kube-object.ts';
import { deepFreeze } from '../util/deep-readonly.ts';
import type { DeepReadonly } from '../util/deep-readonly.ts';

/**
 * A lister reading `objects()` at every call (so that it follows a FakeClient's writes, as a cache
 * follows the API server), with the given indexers. Objects come deep-frozen, as a test manager's
 * cache hands them out, so that code mutating a cached object fails loudly.
 */
export function fakeLister<T extends KubeObject>(
  objects: () => readonly T[],
  indexers: Readonly<Record<string, IndexFunc<KubeObject>>> = {},
): Lister<T> {
  const all = (): DeepReadonly<T>[] => objects().map((object) => deepFreeze(object));
  const keyOf = (object: DeepReadonly<T>): string => {
    const namespace = object.metadata?.namespace ?? '';
    return namespace === '' ? (object.metadata?.name ?? '') : `${namespace}/${object.metadata?.name ?? ''}`;
  };
  return {
    get: (namespace, name) =>
      all().find((object) => (object.metadata?.namespace ?? '') === namespace && object.metadata?.name === name),
    getByKey: (key) => all().find((object) => keyOf(object) === key),
    list: (options: ListerListOptions = {}) =>
      all().filter(
        (object) =>
          (options.namespace === undefined || object.metadata?.namespace === options.namespace) &&
          (options.labelSelector === undefined || matchesLabelSelector(options.labelSelector, object.metadata?.labels)),
      ),
    byIndex: (indexName, value) => {
      const index = indexers[indexName];
      if (index === undefined) {
        throw new Error(`fakeLister: no indexer ${JSON.stringify(indexName)}`);
      }
      return all().filter((object) => index(object as KubeObject).includes(value));
    },
  };
}
