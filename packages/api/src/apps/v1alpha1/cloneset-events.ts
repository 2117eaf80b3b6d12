/**
 * Reasons of the Events the CloneSet controller records on a CloneSet, as OpenKruise names them, so
 * `kubectl describe` and alerting rules read the same with either implementation.
 */

/** Event reasons of the CloneSet controller. */
export const CloneSetEventReason = {
  /** Normal: a pod was created. */
  SuccessfulCreate: 'SuccessfulCreate',
  /** Warning: creating a pod or PVC failed (including a pod template the API server rejects). */
  FailedCreate: 'FailedCreate',
  /** Normal: a pod was deleted. */
  SuccessfulDelete: 'SuccessfulDelete',
  /** Warning: deleting or cleaning up a pod or PVC failed. */
  FailedDelete: 'FailedDelete',
  /** Warning: handing a PVC over to its pod failed. */
  FailedUpdate: 'FailedUpdate',
  /** Warning: scale-up was limited by scaleStrategy.maxUnavailable. */
  ScaleUpLimited: 'ScaleUpLimited',
  /** Normal: a pod was updated in place. */
  SuccessfulUpdatePodInPlace: 'SuccessfulUpdatePodInPlace',
  /** Warning: an in-place update failed. */
  FailedUpdatePodInPlace: 'FailedUpdatePodInPlace',
  /** Normal: a pod was marked for deletion to be recreated at the new revision. */
  SuccessfulUpdatePodReCreate: 'SuccessfulUpdatePodReCreate',
  /** Warning: marking a pod for recreation failed. */
  FailedUpdatePodReCreate: 'FailedUpdatePodReCreate',
  /** Normal: an ImagePullJob was created for image pre-download. */
  CreatedImagePullJob: 'CreatedImagePullJob',
  /** Normal (sic, as upstream): creating an ImagePullJob failed. */
  FailedCreateImagePullJob: 'FailedCreateImagePullJob',
} as const;
/** A CloneSet event reason. */
export type CloneSetEventReason = (typeof CloneSetEventReason)[keyof typeof CloneSetEventReason];
