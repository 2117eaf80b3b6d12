/** Writes the desired EndpointSlices (endpoint-slices.ts) and deletes the ones no longer wanted. */
import type { DiscoveryV1Api, V1EndpointSlice, V1Service } from '@kubernetes/client-node';

import { isNotFound } from './api-errors.ts';
import {
  desiredSlices,
  ENDPOINT_SLICE_MANAGER,
  MANAGED_BY_LABEL,
  sameSlice,
  SLICE_NODE_LABEL,
} from './endpoint-slices.ts';
import type { EndpointPod } from './endpoint-slices.ts';

function ignoreNotFound(error: unknown): void {
  if (!isNotFound(error)) {
    throw error;
  }
}

function keyOf(slice: V1EndpointSlice): string {
  return `${slice.metadata?.namespace ?? ''}/${slice.metadata?.name ?? ''}`;
}

/** Deletes an unwanted slice or replaces one that says something else; `wanted` is this sync's own object. */
async function reconcileExisting(
  discovery: DiscoveryV1Api,
  slice: V1EndpointSlice,
  wanted: V1EndpointSlice | undefined,
): Promise<void> {
  const namespace = slice.metadata?.namespace ?? '';
  const name = slice.metadata?.name ?? '';
  if (wanted === undefined) {
    await discovery.deleteNamespacedEndpointSlice({ namespace, name }).catch(ignoreNotFound);
    return;
  }
  if (sameSlice(slice, wanted) || wanted.metadata === undefined) {
    return;
  }
  wanted.metadata.resourceVersion = slice.metadata?.resourceVersion ?? '';
  await discovery.replaceNamespacedEndpointSlice({ namespace, name, body: wanted });
}

export interface EndpointSliceSync {
  readonly discovery: DiscoveryV1Api;
  /** The kubelet's node: only its slices are listed (and deleted when unwanted). */
  readonly nodeName: string;
  readonly services: readonly V1Service[];
  readonly pods: readonly EndpointPod[];
}

export async function syncEndpointSlices(sync: EndpointSliceSync): Promise<void> {
  const { discovery } = sync;
  const desired = desiredSlices(sync.services, sync.pods);
  const existing = await discovery.listEndpointSliceForAllNamespaces({
    labelSelector: `${MANAGED_BY_LABEL}=${ENDPOINT_SLICE_MANAGER},${SLICE_NODE_LABEL}=${sync.nodeName}`,
  });
  const seen = new Set<string>();
  for (const slice of existing.items) {
    seen.add(keyOf(slice));
    await reconcileExisting(discovery, slice, desired.get(keyOf(slice)));
  }
  for (const [key, slice] of desired) {
    if (!seen.has(key)) {
      await discovery.createNamespacedEndpointSlice({ namespace: slice.metadata?.namespace ?? '', body: slice });
    }
  }
}
