/**
 * One call per app to register what the workload controllers' caches keep of pods and nodes: the
 * transform and the field filter it drops by, together (a protobuf read then skips those fields, and
 * both paths give the same cached object; see cache-transforms.ts).
 */
import type { InformerFactory } from '@kruise-ts/controller-runtime';

import {
  NODE_CACHE_FIELD_FILTER,
  POD_CACHE_FIELD_FILTER,
  trimNodeForCache,
  trimPodForCache,
} from './cache-transforms.ts';
import { nodeResource, podResource } from './resources.ts';

type Informers = Pick<InformerFactory, 'setTransform'>;

/** Caches pods as {@link trimPodForCache} keeps them (every app with a pod informer; before requesting it). */
export function trimCachedPods(informers: Informers): void {
  informers.setTransform(podResource, trimPodForCache, { fieldFilter: POD_CACHE_FIELD_FILTER });
}

/** Caches nodes as {@link trimNodeForCache} keeps them (before requesting the node informer). */
export function trimCachedNodes(informers: Informers): void {
  informers.setTransform(nodeResource, trimNodeForCache, { fieldFilter: NODE_CACHE_FIELD_FILTER });
}
