import { CLONESET_INSTANCE_ID_LABEL } from '@kruise-ts/api';
import type { PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { createPods as createOwnedPods } from '@kruise-ts/pod-control';
import { newClaimsForInstance } from '@kruise-ts/pvc-instance';

import { newPod } from './pod-factory.ts';
import { revisionNameOf } from './sync-context.ts';
import type { SyncContext, SyncState } from './sync-context.ts';

export { CreatePodsError } from '@kruise-ts/pod-control';

export interface CreatePodsRequest {
  readonly expectedCreations: number;
  /** How many of them at the current (old) revision; the rest at the update revision. */
  readonly expectedCurrentCreations: number;
  /** Instance ids, sorted; the first ones go to current-revision pods. */
  readonly instanceIds: readonly string[];
}

/** The pods to create, current-revision ones first (OpenKruise's `NewVersionedPods`). */
export function buildPods(ctx: SyncContext, state: SyncState, request: CreatePodsRequest): Pod[] {
  const currentCount = Math.min(request.expectedCurrentCreations, request.expectedCreations);
  const now = new Date(ctx.clock.now());
  return request.instanceIds.slice(0, request.expectedCreations).map((instanceId, index) => {
    const current = index < currentCount;
    return newPod({
      cs: state.cs,
      controllerRef: state.controllerRef,
      template: current ? state.currentTemplate : state.updateTemplate,
      revisionName: revisionNameOf(current ? state.currentRevision : state.updateRevision),
      instanceId,
      shortHash: ctx.gates.enabled('CloneSetShortHash'),
      reCreateWithoutReadinessGates: ctx.options.reCreateWithoutReadinessGates,
      now,
    });
  });
}

/** The claims of the pod's instance that do not exist yet. */
function missingClaims(state: SyncState, pod: Pod): PersistentVolumeClaim[] {
  const existing = new Set(state.pvcs.map((pvc) => pvc.metadata?.name));
  return newClaimsForInstance({
    owner: {
      name: state.cs.metadata.name ?? '',
      namespace: state.cs.metadata.namespace ?? '',
      controllerRef: state.controllerRef,
    },
    volumeClaimTemplates: state.cs.spec.volumeClaimTemplates ?? [],
    instanceId: pod.metadata?.labels?.[CLONESET_INSTANCE_ID_LABEL] ?? '',
    selectorLabels: state.cs.spec.selector.matchLabels ?? {},
  }).filter((claim) => !existing.has(claim.metadata?.name));
}

/**
 * Creates the pods with their instances' missing PVCs (the pod-control package's slow-start
 * creation), each slow start beginning where the CloneSet's last one that all went through got to.
 */
export function createPods(ctx: SyncContext, state: SyncState, pods: readonly Pod[]): Promise<DeepReadonly<Pod>[]> {
  return createOwnedPods(ctx, state.owner, {
    pods,
    claimsFor: (pod) => missingClaims(state, pod),
    batchSizes: ctx.createBatchSizes,
  });
}
