/**
 * @kruise-ts/local-cluster: a real Kubernetes control plane on 127.0.0.1, built from Go modules.
 *
 * STOP: this file is the package's public API. Everything else is under `internal/` and may change.
 */
export { startLocalCluster, stopLocalCluster, localClusterStatus } from './internal/cluster.ts';
export type { LocalCluster, ClusterLocator, LocalClusterStatus } from './internal/cluster.ts';
export { defaultCacheRoot } from './internal/options.ts';
export type { LocalClusterOptions, ComponentName } from './internal/options.ts';
export { ensureTools } from './internal/go-build.ts';
export type { BuiltTool, EnsureToolsOptions } from './internal/go-build.ts';
export type { ProgressTerminal } from './internal/build-progress.ts';
export { defaultToolSpecs, KUBERNETES_VERSION, ETCD_VERSION, KWOK_VERSION, HELM_VERSION } from './internal/versions.ts';
export type { GoToolSpec } from './internal/versions.ts';
export { LocalClusterError } from './internal/errors.ts';
export type { FailureDetails } from './internal/errors.ts';
export { createCertificateAuthority, createServingCertificate } from './internal/pki.ts';
export type { CertificateAuthority, ServingCertificate, ServingCertificateRequest } from './internal/pki.ts';
export { ZONE_LABEL, REGION_LABEL } from './internal/nodes.ts';
export {
  SIMULATED_JOB_POD_ANNOTATIONS,
  DEFAULT_JOB_RUN_MS,
  DEFAULT_RESTART_BACKOFF_MS,
  simulatedJobRunAnnotations,
} from './internal/kwok-job-stages.ts';
export type { SimulatedJobRun } from './internal/kwok-job-stages.ts';
export type { ComponentRecord, ClusterState } from './internal/state.ts';
export { applyCrdFiles } from './internal/crds.ts';
export { serviceAccountKubeConfig } from './internal/service-account-kubeconfig.ts';
export type { ServiceAccountKubeConfig } from './internal/service-account-kubeconfig.ts';
export { freeLoopbackPort } from './internal/ports.ts';
export { startProcessKubelet } from './internal/kubelet/process-kubelet.ts';
export type {
  ContainerLogReference,
  HostPortReference,
  ProcessKubelet,
  ProcessKubeletOptions,
} from './internal/kubelet/process-kubelet.ts';
export { repositoryImage, imageRepository, parseDockerfileRuntime } from './internal/kubelet/image-mapping.ts';
export type { ImageMapping, DockerfileRuntime } from './internal/kubelet/image-mapping.ts';
export {
  PROCESS_NODE_NAME,
  PROCESS_NODE_LABEL,
  processNodePlacement,
  machineAddress,
} from './internal/kubelet/process-node.ts';
export type { ProcessNodePlacement } from './internal/kubelet/process-node.ts';
export { KUBELET_CRASH_LOOP_BACKOFF } from './internal/kubelet/crash-loop-backoff.ts';
export type { CrashLoopBackoffOptions } from './internal/kubelet/crash-loop-backoff.ts';
