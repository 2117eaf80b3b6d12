/**
 * Test helpers for integration tests against the local control plane. Import only from test files.
 *
 * STOP: this file is the public API of `@kruise-ts/local-cluster/testing`.
 */
export { waitFor } from '../internal/wait-for.ts';
export type { WaitForOptions } from '../internal/wait-for.ts';
export { createTestNamespace, testKubeConfig } from './test-namespace.ts';
export type { TestNamespace } from './test-namespace.ts';
export { applyCrdFiles } from '../internal/crds.ts';
export { toolBinary } from './tool-binary.ts';
export { buildGoProgram, runGoProgram } from './go-program.ts';
export type { GoProgramSpec } from './go-program.ts';
export { withStartedInNamespace } from './with-controller.ts';
export type { Stoppable } from './with-controller.ts';
export { kwokLogOf } from './kwok-log.ts';
export { createFakeNodes, TEST_NODE_TAINT, TEST_NODE_TOLERATION } from './fake-nodes.ts';
export type { CreateFakeNodesOptions, FakeNodes } from './fake-nodes.ts';
export { forbidPods } from './pod-quota.ts';
export { startWatchHoldingProxy } from './watch-holding-proxy.ts';
export type { WatchHoldingProxy } from './watch-holding-proxy.ts';
export { createCertificateAuthority, createServingCertificate } from '../internal/pki.ts';
export type { CertificateAuthority, ServingCertificate, ServingCertificateRequest } from '../internal/pki.ts';
