/**
 * Reasons of the Events the Advanced StatefulSet controller records, as OpenKruise names them.
 */
export const StatefulSetEventReason = {
  SuccessfulCreate: 'SuccessfulCreate',
  FailedCreate: 'FailedCreate',
  SuccessfulUpdate: 'SuccessfulUpdate',
  FailedUpdate: 'FailedUpdate',
  SuccessfulDelete: 'SuccessfulDelete',
  FailedDelete: 'FailedDelete',
  /** Warning: a Failed or Succeeded pod is deleted to be created again (upstream's RecreatingFailedPod). */
  RecreatingFailedPod: 'RecreatingFailedPod',
  SuccessfulUpdatePodInPlace: 'SuccessfulUpdatePodInPlace',
  FailedUpdatePodInPlace: 'FailedUpdatePodInPlace',
  /** Warning (kruise-ts): the spec cannot be carried out as written. */
  InvalidSpec: 'InvalidSpec',
} as const;
/** A StatefulSet event reason. */
export type StatefulSetEventReason = (typeof StatefulSetEventReason)[keyof typeof StatefulSetEventReason];
