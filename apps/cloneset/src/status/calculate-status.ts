import type { CloneSet, CloneSetCondition, CloneSetStatus, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { labelSelectorToString } from '@kruise-ts/controller-runtime';
import { isPodAtRevision } from '@kruise-ts/revision';
import { isPodUpdateReady, isWorkloadPodAvailable } from '@kruise-ts/workload';

import { progressingCondition } from './progressing.ts';

export interface StatusInput {
  readonly cs: DeepReadonly<CloneSet>;
  /** Active, claimed pods. */
  readonly pods: readonly DeepReadonly<Pod>[];
  readonly updateRevision: string;
  readonly currentRevision: string;
  readonly collisionCount: number;
  /** The resolved partition (pods to keep at old revisions). */
  readonly partition: number;
  /** Conditions as the reconcile left them (FailedScale etc.), before Progressing is evaluated. */
  readonly conditions: readonly CloneSetCondition[];
  readonly now: number;
}

export interface StatusResult {
  readonly status: CloneSetStatus;
  /** When the Progressing deadline needs another look (ms from now). */
  readonly checkAgainInMs: number | undefined;
}

interface Counters {
  readyReplicas: number;
  availableReplicas: number;
  updatedReplicas: number;
  updatedReadyReplicas: number;
  updatedAvailableReplicas: number;
}

function count(input: StatusInput): Counters {
  const minReady = { minReadySeconds: input.cs.spec.minReadySeconds ?? 0, now: input.now };
  const noMinReady = { minReadySeconds: 0, now: input.now };
  const counters: Counters = {
    readyReplicas: 0,
    availableReplicas: 0,
    updatedReplicas: 0,
    updatedReadyReplicas: 0,
    updatedAvailableReplicas: 0,
  };
  for (const pod of input.pods) {
    const ready = isPodUpdateReady(pod, noMinReady);
    const available = isWorkloadPodAvailable(pod, minReady);
    const updated = isPodAtRevision(pod, input.updateRevision);
    counters.readyReplicas += Number(ready);
    counters.availableReplicas += Number(available);
    counters.updatedReplicas += Number(updated);
    counters.updatedReadyReplicas += Number(updated && ready);
    counters.updatedAvailableReplicas += Number(updated && available);
  }
  return counters;
}

/**
 * The CloneSet's status from its pods (OpenKruise's `calculateStatus`): counters over active claimed
 * pods, currentRevision moving to updateRevision once every pod is updated, expectedUpdatedReplicas =
 * replicas − partition, labelSelector for the scale subresource, and the Progressing condition.
 */
export function calculateStatus(input: StatusInput): StatusResult {
  const counters = count(input);
  const replicas = input.pods.length;
  const allUpdated = counters.updatedReplicas === replicas && replicas === input.cs.spec.replicas;
  const status: CloneSetStatus = {
    observedGeneration: input.cs.metadata.generation,
    replicas,
    ...counters,
    expectedUpdatedReplicas: input.cs.spec.replicas - input.partition,
    updateRevision: input.updateRevision,
    currentRevision: allUpdated ? input.updateRevision : input.currentRevision,
    collisionCount: input.collisionCount,
    labelSelector: labelSelectorToString(input.cs.spec.selector),
  };
  const progressing = progressingCondition({ cs: input.cs, status, conditions: input.conditions, now: input.now });
  const conditions = progressing.conditions.sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
  return {
    status: conditions.length === 0 ? status : { ...status, conditions },
    checkAgainInMs: progressing.checkAgainInMs,
  };
}
