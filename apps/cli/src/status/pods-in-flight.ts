/**
 * The pods a rollout is working on right now: the object's own pods that are going away, being
 * updated in place, not yet started or not ready. The terminal view names them under the bars.
 */
import type { FlightPod } from './status-subject.ts';
import type { PodInFlight } from './rollout-progress.ts';

const conditionIs = (pod: FlightPod, type: string, status: string): boolean =>
  pod.status?.conditions?.some((condition) => condition.type === type && condition.status === status) === true;

function stateOf(pod: FlightPod): string | undefined {
  if (pod.metadata.deletionTimestamp !== undefined) {
    return 'terminating';
  }
  // OpenKruise's readiness gate: False from the in-place update's start until its containers restarted.
  if (conditionIs(pod, 'InPlaceUpdateReady', 'False')) {
    return 'updating in place';
  }
  if (pod.status?.phase === 'Pending' || pod.status?.phase === undefined) {
    return 'pending';
  }
  if (!conditionIs(pod, 'Ready', 'True')) {
    return 'not ready';
  }
  return undefined;
}

/** The pods controlled by `ownerUid` that are in flight, by name. */
export function podsInFlight(pods: readonly FlightPod[], ownerUid: string): PodInFlight[] {
  return pods
    .filter(
      (pod) =>
        pod.metadata.ownerReferences?.some((owner) => owner.controller === true && owner.uid === ownerUid) === true,
    )
    .flatMap((pod) => {
      const state = stateOf(pod);
      return state === undefined ? [] : [{ name: pod.metadata.name, state }];
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
