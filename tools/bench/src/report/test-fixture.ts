/**
 * A small result file for the report tests (imported by tests only): a reference that finished, a
 * native baseline that timed out without /metrics (nor a ready time), and an external contender whose
 * name needs escaping in Markdown and XML (and without idle figures, as in an older result).
 */
import type { BenchResult, ContenderResult, LatencySummary, RequestCount, StatusSample } from '../result.ts';

const MIB = 1024 ** 2;
const NO_LATENCY: LatencySummary = { count: 0, p50Seconds: 0, p99Seconds: 0, maxSeconds: 0 };

/** A rollout of `replicas` pods over `seconds`: updated leads available by one step. */
export function rolloutSeries(replicas: number, seconds: number, steps: number): StatusSample[] {
  return Array.from({ length: steps + 1 }, (_, step) => {
    const t = (seconds * step) / steps;
    const updated = Math.min(replicas, Math.round((replicas * (step + 1)) / steps));
    const available = Math.round((replicas * step) / steps);
    return { t, replicas, updated, ready: available, available };
  });
}

/** `count` request kinds of `get` on `resource-<i>` with descending counts 100, 90, ... (at least 1). */
function manyCounts(count: number): RequestCount[] {
  return Array.from({ length: count }, (_, index) => ({
    verb: 'get',
    resource: `resource-${String(index).padStart(2, '0')}`,
    count: Math.max(1, 100 - index * 10),
  }));
}

const reference: ContenderResult = {
  contender: { name: 'kruise-ts', kind: 'kruise-ts', command: 'node tools/launcher/src/cli.ts' },
  workloadKind: 'CloneSet',
  completed: true,
  wallSeconds: 12.3,
  pods: 1000,
  requests: {
    byVerbAndResource: [
      { verb: 'create', resource: 'pods', count: 1000 },
      { verb: 'delete', resource: 'pods', count: 1000 },
      { verb: 'update', resource: 'clonesets/status', count: 10 },
    ],
    total: 2010,
    writes: 2010,
    writesPerPod: 2.01,
    podWritesPerPod: 2,
    mutatingLatency: { count: 2010, p50Seconds: 0.003, p99Seconds: 0.012, maxSeconds: 0.05 },
    readLatency: NO_LATENCY,
  },
  process: { peakRssBytes: 150 * MIB, cpuSeconds: 8.5, sampleIntervalMs: 500 },
  metrics: {
    peakHeapUsedBytes: 80 * MIB,
    eventLoopDelayP99Seconds: 0.0042,
    reconcileP50Seconds: 0.002,
    reconcileP99Seconds: 0.02,
    reconciles: 1500,
  },
  readySeconds: 3.2,
  idleCpuCores: 0.012,
  idleWindowSeconds: 10,
  rssBytesPer1000Pods: 120 * MIB,
  rssBasis: { after: 'preparation', pods: 1000 },
  series: rolloutSeries(1000, 12.3, 10),
};

const native: ContenderResult = {
  contender: { name: 'native-deployment', kind: 'native', command: 'kube-controller-manager' },
  workloadKind: 'Deployment',
  completed: false,
  error: 'timed out\nafter 600 s',
  wallSeconds: 600,
  pods: 1000,
  requests: {
    byVerbAndResource: manyCounts(14),
    total: 4020,
    writes: 4020,
    writesPerPod: 4.02,
    podWritesPerPod: 3.5,
    mutatingLatency: NO_LATENCY,
    readLatency: NO_LATENCY,
  },
  process: { peakRssBytes: 300 * MIB, cpuSeconds: 17, sampleIntervalMs: 500 },
  metrics: {},
  idleCpuCores: 0.018,
  idleWindowSeconds: 10,
  rssBytesPer1000Pods: 240 * MIB,
  rssBasis: { after: 'preparation', pods: 1000 },
  series: rolloutSeries(1000, 600, 5),
};

const external: ContenderResult = {
  contender: { name: 'other|ctl <x&y>', kind: 'external', command: 'other-ctl --kubeconfig {kubeconfig}' },
  workloadKind: 'CloneSet',
  completed: true,
  wallSeconds: 6.15,
  pods: 1000,
  requests: {
    byVerbAndResource: [],
    total: 0,
    writes: 0,
    writesPerPod: 0,
    podWritesPerPod: 0,
    mutatingLatency: NO_LATENCY,
    readLatency: NO_LATENCY,
  },
  process: { peakRssBytes: 75 * MIB, cpuSeconds: 4.25, sampleIntervalMs: 500 },
  metrics: { peakHeapUsedBytes: 40 * MIB },
  readySeconds: 12.5,
  series: [],
};

/** The result as written before every scenario had ready and idle figures. */
export function withoutIdleFigures(result: ContenderResult): ContenderResult {
  const older: { -readonly [K in keyof ContenderResult]: ContenderResult[K] } = { ...result };
  delete older.readySeconds;
  delete older.idleCpuCores;
  delete older.idleWindowSeconds;
  delete older.rssBytesPer1000Pods;
  delete older.rssBasis;
  return older;
}

/** Three contenders of a `recreate` run of 1,000 pods. */
export const FIXTURE: BenchResult = {
  schemaVersion: 1,
  startedAt: '2025-01-02T03:04:05.000Z',
  command: 'npm run bench -- --scenario recreate --pods 1000',
  settings: {
    scenario: 'recreate',
    pods: 1000,
    nodes: 10,
    podsPerNode: 110,
    kubelet: { podStartDelayMs: 500, containerUpdateDelayMs: 200, podDeleteDelayMs: 1000, podParallelism: 32 },
    clientQps: 50,
    clientBurst: 100,
    schedulerQps: 0,
    maxUnavailable: '20%',
    kubernetesVersion: 'v1.33.1',
    freshClusterPerContender: true,
    timeoutSeconds: 600,
  },
  machine: {
    cpus: 2,
    cpuModel: 'AMD EPYC 7B13',
    memoryBytes: 8 * 1024 ** 3,
    nodeVersion: 'v24.21.0',
    platform: 'linux',
  },
  results: [reference, native, external],
};
