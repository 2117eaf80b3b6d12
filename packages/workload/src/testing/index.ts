/**
 * Test helpers for workload controllers' tests. Import only from test files.
 *
 * STOP: this file is the public API of `@kruise-ts/workload/testing`.
 */
export {
  conditionOf,
  imageOf,
  isActive,
  isAvailableNow,
  nameOf,
  podSummary,
  restartsOf,
  revisionOf,
  uidOf,
} from './pod-views.ts';
export {
  fakeWorkloadParts,
  observeScaleActions,
  reconcileObservingScale,
  runFakePods,
  settleReconciles,
} from './fake-kubelet.ts';
export type { FakeWorkloadParts, RunFakePodsOptions, SettleInput } from './fake-kubelet.ts';
