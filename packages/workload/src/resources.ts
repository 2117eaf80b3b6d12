/**
 * Core resources the workload controllers read and write, defined once so that every package and app
 * addresses pods, PVCs and nodes the same way.
 */
import type { Node, PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { defineResource } from '@kruise-ts/controller-runtime';
import type { ResourceType } from '@kruise-ts/controller-runtime';

/** core/v1 pods (namespaced). */
export const podResource: ResourceType<Pod> = defineResource<Pod>({
  group: '',
  version: 'v1',
  plural: 'pods',
  kind: 'Pod',
  namespaced: true,
});

/** core/v1 persistentvolumeclaims (namespaced). */
export const pvcResource: ResourceType<PersistentVolumeClaim> = defineResource<PersistentVolumeClaim>({
  group: '',
  version: 'v1',
  plural: 'persistentvolumeclaims',
  kind: 'PersistentVolumeClaim',
  namespaced: true,
});

/** core/v1 nodes (cluster-scoped), read by the topology spread ranker. */
export const nodeResource: ResourceType<Node> = defineResource<Node>({
  group: '',
  version: 'v1',
  plural: 'nodes',
  kind: 'Node',
  namespaced: false,
});
