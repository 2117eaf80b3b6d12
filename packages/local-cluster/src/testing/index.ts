/**
 * Test helpers for integration tests against the local control plane. Import only from test files.
 *
 * STOP: this file is the public API of `@kruise-ts/local-cluster/testing`.
 */
export { waitFor } from './wait-for.ts';
export type { WaitForOptions } from './wait-for.ts';
export { createTestNamespace, testKubeConfig } from './test-namespace.ts';
export type { TestNamespace } from './test-namespace.ts';
export { applyCrdFiles } from './crds.ts';
