import type { Logger } from 'pino';

import type { KubeConfigLike } from '../client/cluster-config.ts';
import { needsClientNode } from '../client/kubeconfig-files.ts';
import {
  defaultKubeConfigSource,
  inClusterContext,
  readCurrentContext,
  StaticKubeConfig,
} from '../client/kubeconfig-loader.ts';

import type { ManagerFlags } from '../flags/manager-flags.ts';
import type { ManagerOptions } from './manager.ts';

/**
 * The kubeconfig a process runs with: the file given by `--kubeconfig`, else kubectl's order
 * (`$KUBECONFIG`, `~/.kube/config`, then the in-cluster ServiceAccount). A context with a token, a
 * token file, a client certificate or a username is read here; for exec plugins, auth providers,
 * proxies and merged files @kubernetes/client-node is loaded (only then: it is heavy). Only an app's
 * main calls this: it reads the environment.
 */
export async function loadKubeConfig(
  file: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<KubeConfigLike> {
  const source = file === undefined ? defaultKubeConfigSource(env) : { files: [file] };
  const inCluster = source === 'in-cluster' ? inClusterContext(env) : undefined;
  if (inCluster !== undefined) {
    return new StaticKubeConfig(inCluster);
  }
  const single = typeof source === 'object' && source.files.length === 1 ? source.files[0] : undefined;
  const context = single === undefined ? undefined : readCurrentContext(single);
  if (context !== undefined && !needsClientNode(context)) {
    return new StaticKubeConfig(context);
  }
  return loadWithClientNode(source);
}

/** client-node's KubeConfig of the source's files, else of its own defaults (client-node is heavy: only here). */
async function loadWithClientNode(source: ReturnType<typeof defaultKubeConfigSource>): Promise<KubeConfigLike> {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kubeConfig = new KubeConfig();
  if (typeof source !== 'object') {
    kubeConfig.loadFromDefault();
    return kubeConfig;
  }
  // The files of `env` (client-node's loadFromDefault would read process.env's KUBECONFIG), merged
  // as kubectl merges them: the first file that names a current context decides it.
  for (const name of source.files) {
    const next = new KubeConfig();
    next.loadFromFile(name);
    kubeConfig.mergeConfig(next, Boolean(kubeConfig.getCurrentContext()));
  }
  return kubeConfig;
}

/** What a process adds to its flags to make manager options. */
export interface ManagerProcess {
  readonly kubeConfig: KubeConfigLike;
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
    apiContentType: flags['api-content-type'],
    namespace: flags.namespace,
    leaderElection: {
      enabled: flags['leader-elect'],
      namespace: leaderElectionNamespace(flags),
      name: flags['leader-election-id'] ?? process.defaultLeaseName,
      leaseDurationMs: flags['leader-election-lease-duration'],
      renewDeadlineMs: flags['leader-election-renew-deadline'],
      retryPeriodMs: flags['leader-election-retry-period'],
    },
    metricsAddress: flags['metrics-bind-address'],
    healthProbeAddress: flags['health-probe-bind-address'],
    gracefulShutdownTimeoutMs: flags['graceful-shutdown-timeout'],
    cacheSyncTimeoutMs: flags['cache-sync-timeout'],
    rateLimiter: {
      baseDelayMs: flags['rate-limiter-base-delay'],
      maxDelayMs: flags['rate-limiter-max-delay'],
      qps: flags['rate-limiter-qps'],
      burst: flags['rate-limiter-bucket-size'],
    },
  };
}

/** Where the leader Lease (and a sharded ring's Leases) live: the flag, else `default`, as for any namespaced object without one. */
export function leaderElectionNamespace(flags: Pick<ManagerFlags, 'leader-election-namespace'>): string {
  return flags['leader-election-namespace'] ?? 'default';
}
