/** Reading pods the way a user (or kubectl) would judge them: the shared test helpers. */
export {
  conditionOf,
  imageOf,
  isActive,
  isAvailableNow,
  nameOf,
  restartsOf,
  revisionOf,
  uidOf,
} from '@kruise-ts/workload/testing';
