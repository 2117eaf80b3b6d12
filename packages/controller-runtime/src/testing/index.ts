/**
 * Test helpers for code built on `@kruise-ts/controller-runtime`. Import only from test files.
 *
 * STOP: this file is the public API of `@kruise-ts/controller-runtime/testing`.
 */
export { FakeClock } from './fake-clock.ts';
export { FakeClient } from './fake-client.ts';
export type { FakeAction, Reactor, ReactorMatch } from './fake-client.ts';
export { fakeApiError, podQuotaExceeded } from './fake-api-error.ts';
export type { FakeApiErrorOptions } from './fake-api-error.ts';
export { FakeEventRecorder } from './fake-event-recorder.ts';
export type { RecordedFakeEvent } from './fake-event-recorder.ts';
export { fakeLister } from './fake-lister.ts';
export { storeLister } from './store-lister.ts';
export { fakeReconcileFixture } from './fake-reconcile.ts';
export type { FakeReconcileFixture, FakeReconcileOptions, FakeReconcileParts } from './fake-reconcile.ts';
export { applyJsonPatch, JsonPatchError } from './json-patch.ts';
export { applyMergePatch } from '../util/merge-patch.ts';
export { applyStrategicMergePatch } from './strategic-merge-patch.ts';
export { observeObjects, RequestLog, testClient } from './live-cluster.ts';
export type { ObjectObserver, SentRequest } from './live-cluster.ts';
export { replicaCountsReached, startTestManager, waitForObject } from './test-manager.ts';
export { MemoryApi } from './memory-api.ts';
export type { ReplicatedObject, TestManager, TestManagerOptions, WaitFor } from './test-manager.ts';
export { pick, seededRandom } from './seeded-random.ts';
export { unreachableKubeConfig } from './unreachable-kube-config.ts';
export { apiRefusal } from './api-refusal.ts';
export type { Random } from './seeded-random.ts';
