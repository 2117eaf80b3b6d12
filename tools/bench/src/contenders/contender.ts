/**
 * A contender: something that serves the benchmark's workloads. Ours (the all-in-one launcher, or one
 * process per app), any external command that serves `apps.kruise.io` workloads, or the native
 * Deployment or StatefulSet controller of kube-controller-manager as the baseline (which serves the
 * native kinds: see workloadKindFor).
 */
import type { KubeConfig } from '@kubernetes/client-node';

import type { AuditEvent } from '../collect/index.ts';
import type { ContenderInfo } from '../result.ts';

/** What a contender gets to start with. */
export interface ContenderContext {
  /** A kubeconfig of the contender's own identity (a cluster-admin ServiceAccount), so the audit log tells its requests apart. */
  readonly kubeconfigPath: string;
  /** The identity's username, `system:serviceaccount:<ns>:<name>`. */
  readonly username: string;
  /** The client rate limit every contender is given. */
  readonly qps: number;
  readonly burst: number;
  /** A free port for the contender's /metrics (one per process: `metricsPorts[i]`). */
  readonly metricsPorts: readonly number[];
  /** The kube-controller-manager of the run's cluster (for the native baseline). */
  readonly controllerManagerPid: number;
  /** Where the contender's output goes. */
  readonly logFile: string;
  /** Flags the scenario gives our processes on top of the usual ones (sidecarset-scale: SidecarSet and its local webhook configuration). */
  readonly extraArgs: readonly string[];
}

/** A started contender. */
export interface RunningContender {
  readonly info: ContenderInfo;
  /** Root of the process tree whose memory and CPU are measured. */
  readonly pid: number;
  /** /metrics endpoints to scrape (Node.js and controller-runtime names); empty when it has none. */
  readonly metricsUrls: readonly string[];
  /** Which audit events are the contender's requests. */
  readonly select: (event: AuditEvent) => boolean;
  /** Whether its Node.js processes run a full GC on SIGUSR2 (ours, with measure/gc-on-signal.ts). */
  readonly collectsGarbageOnSignal: boolean;
  /**
   * A readiness URL known only once it started (ports it picked itself); a `--contender-ready` URL
   * comes first. A 2xx answer counts.
   */
  readonly readyUrl?: string;
  /** Stops what `start` started (nothing for the native baseline). */
  stop(): Promise<void>;
}

export interface Contender {
  readonly name: string;
  readonly kind: ContenderInfo['kind'];
  /** How many metrics ports it needs. */
  readonly processes: number;
  /**
   * `--contender-ready`: a URL that answers 2xx once the started contender is ready, with the
   * command's placeholders (`{metricsPort}`, ...), expanded when it starts. Without it, its /metrics
   * endpoints answering at all is what counts (see run/readiness.ts).
   */
  readonly readyUrl?: string;
  /**
   * The CRD files (absolute paths) its cluster gets before it starts; ours (the repository's crds/)
   * when absent. Another implementation brings its own, as its installation would.
   */
  readonly crdFiles?: readonly string[];
  /** What its installation writes to the cluster besides the CRDs (webhook configurations, its namespace), as the admin, before it starts. */
  readonly setUpCluster?: (admin: KubeConfig) => Promise<void>;
  /** The name of its pod mutating webhook in its configuration (kube-apiserver's admission metrics' `name`), when not ours. */
  readonly podWebhookName?: string;
  start(context: ContenderContext): Promise<RunningContender>;
}
