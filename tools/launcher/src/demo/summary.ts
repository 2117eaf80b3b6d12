/** The demo's summary: what it measured, as the lines it prints at the end. */
import type { BroadcastJobDemoResult } from './broadcastjob-steps.ts';
import type { StatefulSetDemoResult } from './statefulset-steps.ts';

/** The controllers' API writes, counted when they run in the demo's process. */
export interface ControllerWrites {
  /** Writes to pods (with their subresources) in all. */
  readonly pods: number;
  /** Controller writes to pods during the in-place update, per pod. */
  readonly updatePerPod: number;
  /** Every write by resource and verb: `pods create 5, pods patch 5, ...`. */
  readonly all: string;
}

export interface DemoSummary {
  readonly scaleOutMs: number;
  readonly partitionMs: number;
  readonly finishMs: number;
  readonly podsKept: number;
  readonly pods: number;
  readonly restarts: number;
  /** Undefined when the controllers are the chart's installed apps: their requests are not this process's. */
  readonly writes: ControllerWrites | undefined;
  /** The Advanced StatefulSet next to the CloneSet. */
  readonly statefulSet: StatefulSetDemoResult;
  readonly broadcastJob: BroadcastJobDemoResult;
}

/** What the summary says instead of write counts when the apps run in the chart's pods. */
export const WRITES_NOT_COUNTED = "not counted (the apps run in the chart's pods)";

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

function writeLines(writes: ControllerWrites | undefined): string[] {
  return [
    `  controller writes per pod for the update:  ${writes === undefined ? WRITES_NOT_COUNTED : `${writes.updatePerPod.toFixed(1)} (OpenKruise: 4)`}`,
    `  controller writes to pods in all:          ${writes === undefined ? WRITES_NOT_COUNTED : String(writes.pods)}`,
    `  all controller writes:                     ${writes?.all ?? WRITES_NOT_COUNTED}`,
  ];
}

/** The summary's lines, without the heading. */
export function summaryLines(summary: DemoSummary): string[] {
  const { statefulSet: sts, broadcastJob: job } = summary;
  return [
    `  scale out 0 → ${String(summary.pods)} pods, all available:        ${seconds(summary.scaleOutMs)}`,
    `  in-place update up to the partition:       ${seconds(summary.partitionMs)}`,
    `  the remaining pods after partition 0:      ${seconds(summary.finishMs)}`,
    `  pods kept through the update (same UID):   ${String(summary.podsKept)}/${String(summary.pods)}, container restarts ${String(summary.restarts)}`,
    ...writeLines(summary.writes),
    `  Advanced StatefulSet demo-db: ${String(sts.pods)} pods with a PVC each in ${seconds(sts.createdMs)}, updated in place in ${seconds(sts.updatedMs)}, pods kept ${String(sts.podsKept)}/${String(sts.pods)}, PVCs kept ${String(sts.claimsKept)}/${String(sts.pods)}`,
    `  BroadcastJob ${job.name}: ${String(job.nodes)} nodes, ${String(job.parallelism)} pods at a time, completed in ${seconds(job.completedMs)}, ${String(job.succeeded)} succeeded, ${String(job.failed)} failed`,
  ];
}
