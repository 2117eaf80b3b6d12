import { APPS_KRUISE_IO_GROUP, CLONESET_KIND, CLONESET_PLURAL, V1ALPHA1 } from '@kruise-ts/api';
import type { CloneSet } from '@kruise-ts/api';
import { defineResource } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

/**
 * CloneSets as the informer caches them. No `parse` here: the apiserver already enforced the CRD
 * schema, and a parse error inside an informer would stop the whole cache; the reconciler parses each
 * object it works on instead (see `parseCloneSetObject`).
 */
export const cloneSetResource = defineResource<CloneSet>({
  group: APPS_KRUISE_IO_GROUP,
  version: V1ALPHA1,
  plural: CLONESET_PLURAL,
  kind: CLONESET_KIND,
  namespaced: true,
});

/** A CloneSet read from the cache. */
export type CachedCloneSet = DeepReadonly<CloneSet>;

/** The queue and expectations key of a CloneSet: `namespace/name`. */
export function cloneSetKey(cs: {
  readonly metadata?: { readonly namespace?: string | undefined; readonly name?: string | undefined };
}): string {
  return `${cs.metadata?.namespace ?? ''}/${cs.metadata?.name ?? ''}`;
}
