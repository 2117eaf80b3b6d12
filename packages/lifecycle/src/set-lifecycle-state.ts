/**
 * Writes a lifecycle transition: the state label and timestamp, together with the KruisePodReady
 * condition when markPodNotReady applies (OpenKruise's `UpdatePodLifecycle` writes the condition
 * first and the label second, so that the pod is out of endpoints before anyone sees the new state;
 * one pods/status write gives the same guarantee).
 */
import type { LifecycleState, Pod } from '@kruise-ts/api';
import { isConflict, keyOf } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, ResourceClient } from '@kruise-ts/controller-runtime';

import { rawLifecycleState } from './hooks.ts';
import type { Hook } from './hooks.ts';
import { kruisePodReadyChangeFor, kruisePodReadyConditionUpdate } from './kruise-pod-ready.ts';
import type { KruisePodReadyChange, PodCondition } from './kruise-pod-ready.ts';
import { lifecycleStatePatch } from './state-patch.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** The API calls the writer needs on pods (the caller's client carries the reconcile's abort signal). */
export type LifecyclePodClient = Pick<ResourceClient<Pod>, 'get' | 'patch' | 'patchStatus'>;

/** Options of {@link setLifecycleState}. */
export interface SetLifecycleStateOptions {
  readonly client: LifecyclePodClient;
  readonly pod: ReadonlyPod;
  readonly state: LifecycleState;
  /** Apply the KruisePodReady change of `state` (the hook's markPodNotReady). */
  readonly markPodNotReady: boolean;
  /** Current time in ms since the epoch. */
  readonly now: number;
  /** Put this hook's labels and finalizers back in the same patch (Updated → PreparingUpdate). */
  readonly reapplyHook?: Hook | undefined;
}

/** Conflicts retried when the status write races with the kubelet or another controller. */
const STATUS_CONFLICT_RETRIES = 5;

/** The conditions of `next` that differ from the pod's (strategic merge by type sends only those). */
function changedConditions(pod: ReadonlyPod, next: readonly PodCondition[]): PodCondition[] {
  const before = new Map(
    (pod.status?.conditions ?? []).map((condition) => [condition.type, JSON.stringify(condition)]),
  );
  return next.filter((condition) => before.get(condition.type) !== JSON.stringify(condition));
}

interface CombinedWrite {
  readonly client: LifecyclePodClient;
  readonly change: KruisePodReadyChange;
  readonly options: SetLifecycleStateOptions;
}

/**
 * One strategic-merge patch of pods/status carrying the KruisePodReady condition and, when the state
 * changes, the state label, timestamp and re-applied hook. The pods/status subresource accepts
 * metadata labels, annotations and finalizers (only spec, deletionTimestamp and ownerReferences are
 * reset), so the pod leaves the endpoints in the same write that announces the new state: one write
 * where OpenKruise makes two, and no moment where one is visible without the other. The patch carries
 * the pod's resourceVersion, so a stale read fails with Conflict instead of dropping another actor's
 * message; on Conflict the pod is read again and the change recomputed.
 */
async function writeCombined(write: CombinedWrite, pod: ReadonlyPod, attempt = 0): Promise<ReadonlyPod> {
  const { options } = write;
  const conditions = kruisePodReadyConditionUpdate(pod, { ...write.change, now: options.now });
  const changesState = rawLifecycleState(pod) !== options.state;
  if (conditions === undefined) {
    // No KruisePodReady gate on this pod: only the label, if anything.
    return changesState ? writeLabel(write.client, pod, options) : pod;
  }
  const resourceVersion = pod.metadata?.resourceVersion;
  const metadata = changesState
    ? lifecycleStatePatch({ state: options.state, now: options.now, reapplyHook: options.reapplyHook }).metadata
    : {};
  const body = {
    metadata: { ...metadata, ...(resourceVersion === undefined ? {} : { resourceVersion }) },
    status: { conditions: changedConditions(pod, conditions) },
  };
  try {
    return await write.client.patchStatus(keyOf(pod), { type: 'strategic', body });
  } catch (error) {
    if (!isConflict(error) || attempt >= STATUS_CONFLICT_RETRIES) {
      throw error;
    }
    return writeCombined(write, await write.client.get(keyOf(pod)), attempt + 1);
  }
}

/**
 * Moves the pod to `state` and returns the pod as last written. With markPodNotReady, the state's
 * KruisePodReady change (see `kruisePodReadyChangeFor`) goes into the same pods/status write as the
 * state label, and is applied even when the pod is already in `state` (so a retried transition still
 * drains the pod). Without it, only the label patch is written, and only when the state changes. When
 * nothing at all was written the input pod itself is returned, so `result !== pod` tells the caller
 * to expect a new resourceVersion.
 */
export async function setLifecycleState(options: SetLifecycleStateOptions): Promise<ReadonlyPod> {
  const change = options.markPodNotReady ? kruisePodReadyChangeFor(options.state) : undefined;
  if (change !== undefined) {
    return writeCombined({ client: options.client, change, options }, options.pod);
  }
  return rawLifecycleState(options.pod) === options.state
    ? options.pod
    : writeLabel(options.client, options.pod, options);
}

function writeLabel(
  client: LifecyclePodClient,
  pod: ReadonlyPod,
  options: SetLifecycleStateOptions,
): Promise<ReadonlyPod> {
  const body = lifecycleStatePatch({ state: options.state, now: options.now, reapplyHook: options.reapplyHook });
  return client.patch(keyOf(pod), { type: 'strategic', body });
}
