/**
 * Reasons of the Events the pod operations record on the workload: OpenKruise's, the same for
 * CloneSet and Advanced StatefulSet, so `kubectl describe` and alerting rules read the same.
 */
export const PodEventReason = {
  /** Normal: a pod was created. */
  SuccessfulCreate: 'SuccessfulCreate',
  /** Warning: creating a pod or PVC failed (including a pod template the API server rejects). */
  FailedCreate: 'FailedCreate',
  /** Normal: a pod was deleted. */
  SuccessfulDelete: 'SuccessfulDelete',
  /** Warning: deleting a pod or PVC failed. */
  FailedDelete: 'FailedDelete',
  /** Normal: a pod was updated in place. */
  SuccessfulUpdatePodInPlace: 'SuccessfulUpdatePodInPlace',
  /** Warning: an in-place update failed or is impossible under InPlaceOnly. */
  FailedUpdatePodInPlace: 'FailedUpdatePodInPlace',
} as const;
/** A pod operation's event reason. */
export type PodEventReason = (typeof PodEventReason)[keyof typeof PodEventReason];
