/**
 * Writes a lifecycle transition: first the KruisePodReady condition (when markPodNotReady applies),
 * then the state label and timestamp, as OpenKruise's `UpdatePodLifecycle` orders them so that the
 * pod is out of endpoints before anyone sees the new state.
 */
import type { LifecycleState, Pod } from '@kruise-ts/api';
import { isConflict } from '@kruise-ts/controller-runtime';
import type { Client, DeepReadonly } from '@kruise-ts/controller-runtime';
import { podResource } from '@kruise-ts/workload';

import { rawLifecycleState } from './hooks.ts';
import type { Hook } from './hooks.ts';
import { kruisePodReadyChangeFor, kruisePodReadyConditionUpdate } from './kruise-pod-ready.ts';
import type { KruisePodReadyChange, PodCondition } from './kruise-pod-ready.ts';
import { lifecycleStatePatch } from './state-patch.ts';

type ReadonlyPod = DeepReadonly<Pod>;

/** The API calls the writer needs. */
export type LifecyclePodClient = Pick<Client, 'get' | 'patch' | 'patchStatus'>;

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

function podKey(pod: ReadonlyPod): { namespace: string; name: string } {
  return { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' };
}

/** The conditions of `next` that differ from the pod's (strategic merge by type sends only those). */
function changedConditions(pod: ReadonlyPod, next: readonly PodCondition[]): PodCondition[] {
  const before = new Map((pod.status?.conditions ?? []).map((condition) => [condition.type, JSON.stringify(condition)]));
  return next.filter((condition) => before.get(condition.type) !== JSON.stringify(condition));
}

interface ReadinessWrite {
  readonly client: LifecyclePodClient;
  readonly change: KruisePodReadyChange;
  readonly now: number;
}

/**
 * Patches pods/status with the changed conditions. The patch carries the pod's resourceVersion, so a
 * stale read fails with Conflict instead of dropping another actor's message; on Conflict the pod is
 * read again and the change recomputed.
 */
async function writeKruisePodReady(write: ReadinessWrite, pod: ReadonlyPod, attempt = 0): Promise<ReadonlyPod> {
  const conditions = kruisePodReadyConditionUpdate(pod, { ...write.change, now: write.now });
  if (conditions === undefined) {
    return pod;
  }
  const resourceVersion = pod.metadata?.resourceVersion;
  const body = { ...(resourceVersion === undefined ? {} : { metadata: { resourceVersion } }), status: { conditions: changedConditions(pod, conditions) } };
  try {
    return await write.client.patchStatus(podResource, podKey(pod), { type: 'strategic', body });
  } catch (error) {
    if (!isConflict(error) || attempt >= STATUS_CONFLICT_RETRIES) {
      throw error;
    }
    return writeKruisePodReady(write, await write.client.get(podResource, podKey(pod)), attempt + 1);
  }
}

/**
 * Moves the pod to `state` and returns the pod as last written. With markPodNotReady, the state's
 * KruisePodReady change (see `kruisePodReadyChangeFor`) is written first, even when the pod is
 * already in `state` (so a retried transition still drains the pod). The label patch is skipped when
 * the pod already is in `state`; when nothing at all was written the input pod itself is returned,
 * so `result !== pod` tells the caller to expect a new resourceVersion.
 */
export async function setLifecycleState(options: SetLifecycleStateOptions): Promise<ReadonlyPod> {
  const change = options.markPodNotReady ? kruisePodReadyChangeFor(options.state) : undefined;
  const pod = change === undefined ? options.pod : await writeKruisePodReady({ client: options.client, change, now: options.now }, options.pod);
  if (rawLifecycleState(pod) === options.state) {
    return pod;
  }
  const body = lifecycleStatePatch({ state: options.state, now: options.now, reapplyHook: options.reapplyHook });
  return options.client.patch(podResource, podKey(pod), { type: 'strategic', body });
}
