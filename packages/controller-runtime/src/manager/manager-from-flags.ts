import { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';

import type { ManagerFlags } from '../flags/manager-flags.ts';
import type { ManagerOptions } from './manager.ts';

/**
 * The kubeconfig a process runs with: the file given by `--kubeconfig`, else client-node's default
 * order (`$KUBECONFIG`, `~/.kube/config`, then the in-cluster ServiceAccount). Only an app's main calls
 * this: it reads the environment.
 */
export function loadKubeConfig(path: string | undefined): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (path === undefined) {
    kubeConfig.loadFromDefault();
  } else {
    kubeConfig.loadFromFile(path);
  }
  return kubeConfig;
}

/** What a process adds to its flags to make manager options. */
export interface ManagerProcess {
  readonly kubeConfig: KubeConfig;
  readonly logger: Logger;
  readonly userAgent: string;
  /** The Lease name when `--leader-election-id` is not given, e.g. `kruise-ts-cloneset`. */
  readonly defaultLeaseName: string;
}

/** Manager options from the manager flags every kruise-ts process accepts. */
export function managerOptionsFromFlags(flags: ManagerFlags, process: ManagerProcess): ManagerOptions {
  return {
    kubeConfig: process.kubeConfig,
    logger: process.logger,
    userAgent: process.userAgent,
    qps: flags['kube-api-qps'],
    burst: flags['kube-api-burst'],
    namespace: flags.namespace,
    leaderElection: {
      enabled: flags['leader-elect'],
      namespace: flags['leader-election-namespace'],
      name: flags['leader-election-id'] ?? process.defaultLeaseName,
      leaseDurationMs: flags['leader-election-lease-duration'],
      renewDeadlineMs: flags['leader-election-renew-deadline'],
      retryPeriodMs: flags['leader-election-retry-period'],
    },
    metricsAddress: flags['metrics-bind-address'],
    healthProbeAddress: flags['health-probe-bind-address'],
    gracefulShutdownTimeoutMs: flags['graceful-shutdown-timeout'],
    cacheSyncTimeoutMs: flags['cache-sync-timeout'],
  };
}
