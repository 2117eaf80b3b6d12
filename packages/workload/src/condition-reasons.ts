/** Condition reasons that more than one workload writes, spelled once so that they stay the same. */

/** The update condition (CloneSet's FailedUpdate, StatefulSet's FailedUpdatePod) while InPlaceOnly meets a change that needs new pods. */
export const IN_PLACE_ONLY_NOT_POSSIBLE = 'InPlaceOnlyNotPossible';
