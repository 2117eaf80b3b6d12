/**
 * What the benchmark measures without a cluster: the API server's audit log (requests, writes per
 * pod, server-side latency), its log's watch closures with the simulated kubelets' failed requests
 * (the run's noise), and a contender's /metrics exposition (heap, event-loop delay, reconcile-time
 * histograms).
 *
 * Named exports only, so the package's public surface stays explicit.
 */

// Audit log.
export {
  auditPolicyYaml,
  byUserAgentSuffix,
  byUsername,
  createAuditAggregator,
  isPodResource,
  isWriteVerb,
  parseAuditEvent,
  readAuditLog,
  resourceName,
} from './audit-log.ts';
export type { AuditAggregator, AuditEvent, AuditSelector, ReadAuditLogOptions } from './audit-log.ts';
export { timestampMicros } from './audit-time.ts';
export { podWriteTime, waitForQuietPods } from './quiet-period.ts';
export {
  isSimulatedKubelet,
  parseWatchClosure,
  readSimulatorFailures,
  readSimulatorHealth,
  readWatchClosures,
} from './simulator-health.ts';
export { logLines } from './log-lines.ts';
export type { LogRange } from './log-lines.ts';
export type { QuietPeriodOptions, QuietPeriodOutcome } from './quiet-period.ts';
export { createLatencyRecorder, nearestRank } from './latency-recorder.ts';
export type { LatencyRecorder } from './latency-recorder.ts';

// Prometheus text exposition.
export {
  counterSum,
  gaugeMax,
  histogramBuckets,
  histogramQuantile,
  parsePrometheusText,
  parseSampleValue,
  subtractBuckets,
} from './prometheus-text.ts';
export type { HistogramBucket, MetricSample } from './prometheus-text.ts';
