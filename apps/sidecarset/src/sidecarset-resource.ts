import { APPS_KRUISE_IO_GROUP, SIDECARSET_KIND, SIDECARSET_PLURAL, sidecarSetSchema, V1ALPHA1 } from '@kruise-ts/api';
import type { SidecarSet } from '@kruise-ts/api';
import { defineResource } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, KubeObject } from '@kruise-ts/controller-runtime';
import { cachedParser } from '@kruise-ts/workload';
import type { ParsedObject } from '@kruise-ts/workload';

/**
 * SidecarSets (cluster-scoped) as the informer caches them. No `parse` here: a parse error inside an
 * informer would stop the whole cache; the reconciler and the webhook parse each one they use.
 */
export const sidecarSetResource = defineResource<SidecarSet>({
  group: APPS_KRUISE_IO_GROUP,
  version: V1ALPHA1,
  plural: SIDECARSET_PLURAL,
  kind: SIDECARSET_KIND,
  namespaced: false,
});

/** Namespaces, for namespaceSelector. */
export const namespaceResource = defineResource<KubeObject>({
  group: '',
  version: 'v1',
  plural: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
});

/** A cached SidecarSet, defaulted by the API schema, or why it cannot be read. */
export const parseSidecarSet: (cached: DeepReadonly<SidecarSet>) => ParsedObject<SidecarSet> = cachedParser<SidecarSet>(
  sidecarSetSchema,
  'SidecarSet',
);
