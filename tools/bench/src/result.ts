/**
 * What a benchmark run records: the JSON result file has exactly this shape (`schemaVersion` 1), and
 * the Markdown table and the SVG plot are rendered from it alone.
 */

/**
 * The scenarios: CloneSets (the native Deployment baseline is a contender of `recreate`), Advanced
 * StatefulSets (the native StatefulSet baseline is a contender of both `asts-` scenarios), a
 * CloneSet's scale-out without and with a SidecarSet injecting its pods (`sidecarset-scale`), and a
 * BroadcastJob's pod on every node run to completion (`bcj-nodes`; the native DaemonSet's pod on
 * every node is the baseline).
 */
export const SCENARIO_NAMES = [
  'scale',
  'inplace',
  'recreate',
  'steady',
  'asts-inplace',
  'asts-recreate',
  'sidecarset-scale',
  'bcj-nodes',
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

/** One point of the rollout curve: the workload's status (summed over workloads) at `t` seconds after the change. */
export interface StatusSample {
  readonly t: number;
  readonly replicas: number;
  readonly updated: number;
  readonly ready: number;
  readonly available: number;
}

/** Requests of one verb on one resource (`pods`, `pods/status`, `clonesets`, ...), as the API server's audit log saw them. */
export interface RequestCount {
  readonly verb: string;
  readonly resource: string;
  readonly count: number;
}

/** Server-side latency (audit requestReceived → responseComplete) of the contender's requests. */
export interface LatencySummary {
  readonly count: number;
  readonly p50Seconds: number;
  readonly p99Seconds: number;
  readonly maxSeconds: number;
}

/** The contender's requests during the measured window. */
export interface RequestStats {
  /** Every request by verb and resource, sorted by count (descending), then verb and resource. */
  readonly byVerbAndResource: readonly RequestCount[];
  readonly total: number;
  /** create, update, patch, delete and deletecollection. */
  readonly writes: number;
  /** `writes / pods`, where pods is the scenario's count of pods created or updated. */
  readonly writesPerPod: number;
  /** Only the writes to pods and their subresources, per pod (without the workload's own status writes and Events). */
  readonly podWritesPerPod: number;
  /** Latency of the mutating requests (Kubernetes' API call SLO: p99 ≤ 1 s). */
  readonly mutatingLatency: LatencySummary;
  /** Latency of get and list (read-only) requests. */
  readonly readLatency: LatencySummary;
}

/** The contender's process (or process tree) while it ran. */
export interface ProcessStats {
  /** Highest sum of resident memory over the process tree, sampled every `sampleIntervalMs`. */
  readonly peakRssBytes: number;
  /** User + system CPU seconds during the measured window. */
  readonly cpuSeconds: number;
  /** How often /proc was sampled. */
  readonly sampleIntervalMs: number;
}

/** What the contender's /metrics told (Node.js and controller-runtime metric names); absent when it has no such metric. */
export interface ControllerMetrics {
  /** Highest `nodejs_heap_size_used_bytes` seen. */
  readonly peakHeapUsedBytes?: number;
  /** Highest `nodejs_eventloop_lag_p99_seconds` seen. */
  readonly eventLoopDelayP99Seconds?: number;
  /** From the `controller_runtime_reconcile_time_seconds` histogram's increase during the window. */
  readonly reconcileP50Seconds?: number;
  readonly reconcileP99Seconds?: number;
  readonly reconciles?: number;
}

/** A contender as the run knew it. */
export interface ContenderInfo {
  readonly name: string;
  /** `kruise-ts` (one process), `kruise-ts-per-app`, `native` (kube-controller-manager's Deployment or StatefulSet controller) or `external`. */
  readonly kind: 'kruise-ts' | 'kruise-ts-per-app' | 'native' | 'external' | 'openkruise';
  /** The command line that ran it (for `native`: the kube-controller-manager of the local control plane). */
  readonly command: string;
}

/** One contender's run of one scenario. */
export interface ContenderResult {
  readonly contender: ContenderInfo;
  /** The kind the contender served: `CloneSet`, `AdvancedStatefulSet` or `BroadcastJob`, for the native baseline `Deployment`, `StatefulSet` or `DaemonSet`. */
  readonly workloadKind:
    'CloneSet' | 'Deployment' | 'AdvancedStatefulSet' | 'StatefulSet' | 'BroadcastJob' | 'DaemonSet';
  /** Whether the run reached "done" before the timeout; figures of an unfinished run are still recorded. */
  readonly completed: boolean;
  /** Why it failed, when it did. */
  readonly error?: string;
  /** Seconds from the change to "done": every pod updated and available, status settled. */
  readonly wallSeconds: number;
  /** Pods the scenario created or updated (the denominator of writes per pod). */
  readonly pods: number;
  readonly requests: RequestStats;
  readonly process: ProcessStats;
  readonly metrics: ControllerMetrics;
  /**
   * The wait, after the preparation settled, until no pod had been written for `quietMs` (the
   * simulated kubelets' tail of the preparation), so that the change starts from the same state in
   * every run. Absent in results written before it existed.
   */
  readonly quietBeforeChange?: QuietBeforeChange;
  /**
   * Seconds from spawning the contender's process until it was ready: its `--contender-ready` URL answered
   * 2xx, or else every /metrics endpoint it serves answered HTTP at all (the preparation waits for
   * it, so a slow start is not counted against the preparation). The phases of one contender share
   * it (one process). Absent when nothing tells readiness (the native baseline, which runs with the
   * cluster; an external command with neither a ready URL nor `{metricsPort}`) and in older results.
   */
  readonly readySeconds?: number;
  /**
   * CPU cores (CPU seconds per second) of the contender's process tree while nothing changed: over
   * `idleWindowSeconds`, once the preparation had settled and its pod writes had stopped. In the
   * scenarios that start from 0 pods that is an idle controller with an empty cache; in `steady` it
   * is the idle phase's `steady.idleCpuCoresUsed`. Absent in older results.
   */
  readonly idleCpuCores?: number;
  readonly idleWindowSeconds?: number;
  /**
   * Resident memory of the contender's process tree per 1,000 pods in its cache. Read at the end of
   * the idle window and divided by the pods the preparation created; in the scenarios that start
   * from 0 pods (`scale`, `sidecarset-scale`, `bcj-nodes`) read instead at the END of the change,
   * once settled, and divided by the pods of the change, so it includes whatever the change left
   * behind (garbage not yet collected too). `rssBasis` says which. Absent in older results.
   */
  readonly rssBytesPer1000Pods?: number;
  readonly rssBasis?: RssBasis;
  /**
   * CPU seconds each control-plane process of this contender's cluster used in the measured window
   * (kube-apiserver, etcd, kwok, kube-scheduler, kube-controller-manager). Absent in older results.
   */
  readonly controlPlaneCpuSeconds?: Readonly<Record<string, number>>;
  /** With `--apiserver-profile-seconds`: the kube-apiserver CPU profile (pprof) of this contender's window. */
  readonly apiserverProfile?: string;
  /** What the simulator and the API server's watch cache went through in the window. Absent in older results. */
  readonly simulator?: SimulatorHealth;
  /** Only for `steady`: figures of the idle and churn phases. */
  readonly steady?: SteadyStateStats;
  /**
   * Which of the scenario's measured phases this is, when it has several (`sidecarset-scale`: `no
   * SidecarSet`, then `SidecarSet`): the phases of one contender run one after the other on the same
   * control plane and with the same contender process, and each is a result of its own (its name is
   * the contender's with the phase after it).
   */
  readonly phase?: string;
  /** Only for `sidecarset-scale`: how the pods of the phase were admitted. */
  readonly injection?: InjectionStats;
  /** Only for `bcj-nodes`: the pods on the nodes, as a pod watch saw them. */
  readonly perNode?: PerNodeStats;
  readonly series: readonly StatusSample[];
}

/**
 * The run's noise, not the contender's work: when kwok's pod watch is closed for falling behind, it
 * watches again from resourceVersion 0 and replays stages from old snapshots, whose status patches
 * the API server rejects; that waste varies from run to run (docs/benchmarks.md).
 */
export interface SimulatorHealth {
  /** Watches the API server closed because the watcher fell behind, by watcher, most first. */
  readonly watchClosures: readonly WatchClosureCount[];
  /** The simulated kubelets' (kwok's) requests that failed, by verb, resource and code, most first. */
  readonly kubeletFailedRequests: readonly FailedRequestCount[];
}

/** Closures of one watcher ("Forcing <resource> watcher close due to unresponsiveness" in kube-apiserver's log). */
export interface WatchClosureCount {
  readonly resource: string;
  readonly labelSelector: string;
  readonly fieldSelector: string;
  readonly count: number;
}

/** Failed requests of one kind. */
export interface FailedRequestCount {
  readonly verb: string;
  readonly resource: string;
  readonly code: number;
  readonly count: number;
}

/** When `rssBytesPer1000Pods` was read, and the pods it divides by. */
export interface RssBasis {
  /** `preparation`: at the end of the idle window after it; `change`: once the change settled (the scenario starts from 0 pods). */
  readonly after: 'preparation' | 'change';
  readonly pods: number;
}

/** How the run waited for quiet before the change. */
export interface QuietBeforeChange {
  readonly quietMs: number;
  /** False when the wait gave up (after `timeoutSeconds`) and the change started anyway. */
  readonly quiet: boolean;
  readonly waitedSeconds: number;
  /** Pod writes (anybody's) seen in the audit log while waiting. */
  readonly podWritesSeen: number;
}

/** A histogram's increase over the measured window: observations ≤ `le` seconds (the last bound is +Inf, JSON `null`). */
export interface WindowHistogram {
  readonly count: number;
  readonly p50Seconds?: number;
  readonly p99Seconds?: number;
  /** The cumulative buckets (PromQL's `histogram_quantile` interpolates within them: read p99 against their bounds). */
  readonly buckets: readonly { readonly le: number; readonly count: number }[];
}

/** `sidecarset-scale`: the pods of a phase and the pod webhook's latency, from three sides. */
export interface InjectionStats {
  /** Whether a SidecarSet selected the workload's pods in this phase. */
  readonly sidecarSet: boolean;
  /** The workload's pods at the end of the phase with the SidecarSet's container, and without it. */
  readonly podsWithSidecar: number;
  readonly podsWithoutSidecar: number;
  /** The contender's `controller_runtime_webhook_latency_seconds{webhook="/mutate-pod"}` (its server's time per request). */
  readonly webhookLatency: WindowHistogram;
  /**
   * kube-apiserver's `apiserver_admission_webhook_admission_duration_seconds{name=<the pod webhook>}`:
   * the call as the API server saw it (connection, TLS, the request and the answer). Absent when it could not be read.
   */
  readonly apiServerAdmission?: WindowHistogram;
  /** The same for the reference webhook (a no-op in a process of its own, called for the same pods): what any webhook costs here. */
  readonly referenceAdmission?: WindowHistogram;
  /** The contender's pod creates in the audit log (received → response complete), the webhook call included. */
  readonly podCreateLatency: LatencySummary;
}

/**
 * `bcj-nodes`: the one pod per node of a BroadcastJob or DaemonSet, seen through a watch of the
 * benchmark's namespace (times in seconds after the change, like `wallSeconds`).
 */
export interface PerNodeStats {
  /** Fake nodes of the cluster: the pods wanted, one on each. */
  readonly nodes: number;
  /** Distinct pods seen in the window. */
  readonly podsCreated: number;
  /** Pods seen running and ready (or already ended, which they can only do after running). */
  readonly podsStarted: number;
  /** When the last node's pod was first seen running and ready; absent when not every node got one. */
  readonly allRunningSeconds?: number;
  /** Pods seen Succeeded (a DaemonSet's never end). */
  readonly podsSucceeded: number;
  /** When the last node's pod was seen Succeeded; absent unless every node's did. */
  readonly allSucceededSeconds?: number;
  /** Nodes that got more than one pod. */
  readonly nodesWithSeveralPods: number;
}

/** A control-plane process with nothing to do: CPU per second over an idle window, and its RSS at the end. */
export interface ComponentIdleFigures {
  readonly cpuCores: number;
  readonly rssBytes: number;
}

/** The steady-state scenario's own figures. */
export interface SteadyStateStats {
  readonly workloads: number;
  readonly podsPerWorkload: number;
  /** CPU seconds per second while nothing changed (after every workload was ready). */
  readonly idleCpuCoresUsed: number;
  readonly idleSeconds: number;
  /** Heap used per 1,000 pods in the contender's cache (peakHeapUsedBytes / cached pods * 1000). */
  readonly heapBytesPer1000Pods?: number;
  /**
   * Whether the heap was read right after a full garbage collection in every Node.js process of the
   * contender (ours, on SIGUSR2); otherwise it includes whatever garbage was not collected yet.
   */
  readonly heapAfterFullGc: boolean;
  /** RSS per 1,000 cached pods. */
  readonly rssBytesPer1000Pods: number;
  /** Each control-plane process over the same idle window (absent in older results). */
  readonly controlPlane?: Readonly<Record<string, ComponentIdleFigures>>;
  /** Pods deleted to simulate churn. */
  readonly churnedPods: number;
  /** Seconds from the churn to every workload ready again. */
  readonly convergeSeconds: number;
}

/** Settings every contender of the run shared. */
export interface RunSettings {
  readonly scenario: ScenarioName;
  /** Pods per workload run (for `steady`: workloads × podsPerWorkload). */
  readonly pods: number;
  readonly nodes: number;
  readonly podsPerNode: number;
  /** Simulated kubelet delays, and how many pod status writes the simulation makes at once. */
  readonly kubelet: {
    readonly podStartDelayMs: number;
    readonly containerUpdateDelayMs: number;
    readonly podDeleteDelayMs: number;
    readonly podParallelism: number;
  };
  /**
   * Client-side rate limit given to every contender (and to the native kube-controller-manager); 0:
   * none, the API server's Priority and Fairness alone (controller-runtime's default since v0.15).
   */
  readonly clientQps: number;
  readonly clientBurst: number;
  /**
   * kube-scheduler's client rate limit; 0: none. kube-scheduler makes one bind request per pod, and
   * at its usual 100 QPS it, not the contender, would decide how fast pods are replaced.
   */
  readonly schedulerQps: number;
  readonly maxUnavailable: string;
  readonly kubernetesVersion: string;
  /** A fresh control plane per contender (same flags), so no contender inherits another's objects. */
  readonly freshClusterPerContender: true;
  readonly timeoutSeconds: number;
  /** `--apiserver-profile-seconds`: a kube-apiserver CPU profile of the window's first seconds (absent: none). */
  readonly apiserverProfileSeconds?: number;
  /** `bcj-nodes`: how long each job pod runs (the simulated kubelet's `sim.kruise-ts.io/run-ms`). */
  readonly jobRunMs?: number;
}

/** The machine the run used. */
export interface MachineInfo {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryBytes: number;
  readonly nodeVersion: string;
  readonly platform: string;
}

/** The JSON result file. */
export interface BenchResult {
  readonly schemaVersion: 1;
  /** ISO 8601 time the run started. */
  readonly startedAt: string;
  /** The command line that produced this result (`npm run bench -- ...`). */
  readonly command: string;
  readonly settings: RunSettings;
  readonly machine: MachineInfo;
  /** One per contender, in the order they ran; the first one is the reference for ratios. */
  readonly results: readonly ContenderResult[];
}
