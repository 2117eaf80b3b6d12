/**
 * Test helpers of @kruise-ts/inplace-update: a kruise-daemon simulator for kwok clusters. Import only
 * from tests.
 *
 * STOP: this file is the public API of `@kruise-ts/inplace-update/testing`. Explicit named exports only.
 */
export { startContainerMetaReporter } from './container-meta-reporter.ts';
export type { ContainerMetaReporter, ContainerMetaReporterOptions } from './container-meta-reporter.ts';
export { planContainerMeta, simulatedContainerId } from './container-meta-plan.ts';
export type { ContainerMetaAction } from './container-meta-plan.ts';
