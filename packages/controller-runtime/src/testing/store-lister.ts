/**
 * The store and lister an informer keeps, filled by hand: for measurements that want the informer's
 * own lookup costs (namespace index, label filtering, no copies) without an API server.
 */
import { createLister } from '../cache/lister.ts';
import type { Lister } from '../cache/lister.ts';
import { Store } from '../cache/store.ts';
import type { KubeObject } from '../client/kube-object.ts';

/** A store indexed by namespace, as an informer's, and its lister. */
export function storeLister<T extends KubeObject>(): { readonly store: Store<T>; readonly lister: Lister<T> } {
  const store = new Store<T>();
  return { store, lister: createLister(store) };
}
