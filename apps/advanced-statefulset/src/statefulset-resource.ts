import { APPS_KRUISE_IO_GROUP, STATEFULSET_KIND, STATEFULSET_PLURAL, statefulSetSchema, V1BETA1 } from '@kruise-ts/api';
import type { StatefulSet } from '@kruise-ts/api';
import { defineResource } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { cachedParser } from '@kruise-ts/workload';
import type { ParsedObject } from '@kruise-ts/workload';

/**
 * Advanced StatefulSets as the informer caches them. No `parse` here: a parse error inside an
 * informer would stop the whole cache; the reconciler parses each object it works on instead.
 */
export const statefulSetResource = defineResource<StatefulSet>({
  group: APPS_KRUISE_IO_GROUP,
  version: V1BETA1,
  plural: STATEFULSET_PLURAL,
  kind: STATEFULSET_KIND,
  namespaced: true,
});

/** The queue and expectations key of a set: `namespace/name`. */
export function statefulSetKey(set: {
  readonly metadata?: { readonly namespace?: string | undefined; readonly name?: string | undefined };
}): string {
  return `${set.metadata?.namespace ?? ''}/${set.metadata?.name ?? ''}`;
}

/** A cached set, defaulted by the API schema, or why it cannot be read. */
export const parseStatefulSet: (cached: DeepReadonly<StatefulSet>) => ParsedObject<StatefulSet> =
  cachedParser<StatefulSet>(statefulSetSchema, 'StatefulSet');
