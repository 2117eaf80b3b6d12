/**
 * A BroadcastJob's pods as the controller counts them (§C.4 step 8): succeeded, failed (phase Failed,
 * or an OnFailure pod whose containers restarted more than `failurePolicy.restartLimit` times),
 * active, or being deleted (not counted).
 */
import type { BroadcastJob, Pod } from '@kruise-ts/api';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

type ReadonlyPod = DeepReadonly<Pod>;

/** How a pod counts. */
export type JobPodState = 'active' | 'succeeded' | 'failed' | 'deleting';

/** Restarts of every container and init container (OpenKruise's getPodRestartCount). */
export function podRestartCount(pod: ReadonlyPod): number {
  const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
  return statuses.reduce((sum, status) => sum + status.restartCount, 0);
}

/** How the pod counts for its job. */
export function jobPodState(job: DeepReadonly<BroadcastJob>, pod: ReadonlyPod): JobPodState {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded') {
    return 'succeeded';
  }
  if (phase === 'Failed') {
    return 'failed';
  }
  if (pod.metadata?.deletionTimestamp !== undefined) {
    return 'deleting';
  }
  if (
    job.spec.template.spec?.restartPolicy === 'OnFailure' &&
    podRestartCount(pod) > job.spec.failurePolicy.restartLimit
  ) {
    return 'failed';
  }
  return 'active';
}

/** Whether the pod still runs (the Kubernetes sense: not finished, not being deleted). */
export function isPodRunning(pod: ReadonlyPod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && pod.metadata?.deletionTimestamp === undefined;
}

/** The counts of the status. */
export interface JobPodCounts {
  readonly active: number;
  readonly succeeded: number;
  readonly failed: number;
}

/** Counts the pods by state. */
export function countJobPods(job: DeepReadonly<BroadcastJob>, pods: readonly ReadonlyPod[]): JobPodCounts {
  const counts = { active: 0, succeeded: 0, failed: 0 };
  for (const pod of pods) {
    const state = jobPodState(job, pod);
    if (state !== 'deleting') {
      counts[state] += 1;
    }
  }
  return counts;
}
