/**
 * The set's status from its pods (OpenKruise's `computeReplicaStatus` and `updateStatus`, siblings
 * spec §A.3): counts over in-range and condemned pods, the claims' fit per template, and the current
 * revision moving to the update revision once a RollingUpdate has every pod updated and ready.
 */
import type { PersistentVolumeClaim, Pod, StatefulSet, StatefulSetCondition, StatefulSetStatus } from '@kruise-ts/api';
import { labelSelectorToString } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { claimName, isClaimCompatible, isClaimReady } from '@kruise-ts/pvc-instance';
import { isPodAtRevision } from '@kruise-ts/revision';
import { isBeingDeleted, isPodRunningAndReady } from '@kruise-ts/workload';

import { podOrdinal } from '../ordinals.ts';
import { isAvailable, isCreated } from '../pod-health.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** What the status is computed from. */
export interface StatusInput {
  readonly set: DeepReadonly<StatefulSet>;
  /** In-range and condemned pods. */
  readonly pods: readonly ReadonlyPod[];
  readonly claims: ReadonlyMap<string, DeepReadonly<PersistentVolumeClaim>>;
  readonly currentRevision: string;
  readonly updateRevision: string;
  readonly collisionCount: number;
  readonly minReadySeconds: number;
  readonly conditions: readonly StatefulSetCondition[];
  readonly now: number;
}

interface Counts {
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
  updatedReadyReplicas: number;
  updatedAvailableReplicas: number;
}

function count(input: StatusInput): Counts {
  const counts: Counts = {
    replicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
    currentReplicas: 0,
    updatedReplicas: 0,
    updatedReadyReplicas: 0,
    updatedAvailableReplicas: 0,
  };
  const options = { minReadySeconds: input.minReadySeconds, now: input.now };
  for (const pod of input.pods.filter(isCreated)) {
    const updated = isPodAtRevision(pod, input.updateRevision);
    const ready = isPodRunningAndReady(pod);
    const available = ready && isAvailable(pod, options);
    counts.replicas++;
    counts.readyReplicas += Number(ready);
    counts.availableReplicas += Number(available);
    counts.updatedReadyReplicas += Number(ready && updated);
    counts.updatedAvailableReplicas += Number(available && updated);
    if (!isBeingDeleted(pod)) {
      counts.currentReplicas += Number(isPodAtRevision(pod, input.currentRevision));
      counts.updatedReplicas += Number(updated);
    }
  }
  return counts;
}

/** One entry per volumeClaimTemplate: how many pods' claims fit it, and are resized. */
function volumeClaims(input: StatusInput): NonNullable<StatefulSetStatus['volumeClaims']> {
  const setName = input.set.metadata.name ?? '';
  return (input.set.spec.volumeClaimTemplates ?? []).map((template) => {
    const name = template.metadata?.name ?? '';
    let compatibleReplicas = 0;
    let compatibleReadyReplicas = 0;
    for (const pod of input.pods) {
      const ordinal = podOrdinal(setName, pod.metadata?.name ?? '');
      const claim = ordinal === undefined ? undefined : input.claims.get(claimName(name, setName, String(ordinal)));
      if (claim === undefined || isBeingDeleted(claim) || !isClaimCompatible(claim, template)) {
        continue;
      }
      compatibleReplicas++;
      compatibleReadyReplicas += Number(isClaimReady(claim, template));
    }
    return { volumeClaimName: name, compatibleReplicas, compatibleReadyReplicas };
  });
}

/** The status to write. */
export function calculateStatus(input: StatusInput): StatefulSetStatus {
  const counts = count(input);
  const rollingDone =
    input.set.spec.updateStrategy.type === 'RollingUpdate' &&
    counts.updatedReplicas === counts.replicas &&
    counts.readyReplicas === counts.replicas;
  const claims = volumeClaims(input);
  const conditions = [...input.conditions].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
  return {
    observedGeneration: input.set.metadata.generation,
    ...counts,
    ...(rollingDone ? { currentReplicas: counts.updatedReplicas } : {}),
    currentRevision: rollingDone ? input.updateRevision : input.currentRevision,
    updateRevision: input.updateRevision,
    collisionCount: input.collisionCount,
    labelSelector: labelSelectorToString(input.set.spec.selector),
    ...(claims.length === 0 ? {} : { volumeClaims: claims }),
    ...(conditions.length === 0 ? {} : { conditions }),
  };
}
