/**
 * Where a CloneSet's or an Advanced StatefulSet's rollout stands, in the order kubectl checks a
 * Deployment's (and kruise-tools a CloneSet's): the spec observed, the new pods created, then ready,
 * then (without a partition) the old ones gone and every pod available.
 */
import { scaledValueFromIntOrPercent } from '@kruise-ts/api';

import type { Kind } from '../resources/kinds.ts';
import { subjectName } from './rollout-progress.ts';
import type { PodInFlight, ProgressBar, RolloutProgress } from './rollout-progress.ts';
import { failureOf } from './status-conditions.ts';
import type { StatusSubject } from './status-subject.ts';

interface Counts {
  readonly name: string;
  readonly replicas: number;
  /** Pods the partition lets the update reach. */
  readonly target: number;
  readonly partition: number;
  readonly observed: boolean;
  readonly current: number;
  readonly updated: number;
  readonly updatedReady: number;
  readonly available: number;
}

/** The partition as a pod count: CloneSet's may be a percentage (rounded up, as OpenKruise does). */
function partitionOf(kind: Kind, subject: StatusSubject, replicas: number): number {
  const strategy = subject.spec.updateStrategy;
  const value = kind.id === 'advanced-statefulset' ? strategy?.rollingUpdate?.partition : strategy?.partition;
  if (value === undefined) {
    return 0;
  }
  return Math.min(replicas, Math.max(0, scaledValueFromIntOrPercent({ value, total: replicas, roundUp: true })));
}

function isPaused(kind: Kind, subject: StatusSubject): boolean {
  const strategy = subject.spec.updateStrategy;
  return (kind.id === 'advanced-statefulset' ? strategy?.rollingUpdate?.paused : strategy?.paused) === true;
}

function countsOf(kind: Kind, subject: StatusSubject): Counts {
  const status = subject.status ?? {};
  const replicas = subject.spec.replicas ?? 1;
  const partition = partitionOf(kind, subject, replicas);
  return {
    name: subjectName(kind.singular, subject.metadata.name),
    replicas,
    target: replicas - partition,
    partition,
    observed: (status.observedGeneration ?? 0) >= (subject.metadata.generation ?? 0),
    current: status.replicas ?? 0,
    updated: status.updatedReplicas ?? 0,
    updatedReady: status.updatedReadyReplicas ?? 0,
    available: status.availableReplicas ?? 0,
  };
}

/** kubectl's sentence while waiting; undefined once the rollout is complete. */
function waitingFor(counts: Counts): string | undefined {
  const waiting = `Waiting for ${counts.name} rollout to finish: `;
  if (!counts.observed) {
    return `Waiting for ${counts.name} spec update to be observed...`;
  }
  if (counts.updated < counts.target) {
    return `${waiting}${String(counts.updated)} out of ${String(counts.target)} new replicas have been updated...`;
  }
  if (counts.updatedReady < counts.target) {
    return `${waiting}${String(counts.updatedReady)} of ${String(counts.target)} updated replicas are ready...`;
  }
  if (counts.partition > 0) {
    return undefined;
  }
  if (counts.current > counts.updated) {
    return `${waiting}${String(counts.current - counts.updated)} old replicas are pending termination...`;
  }
  if (counts.available < counts.replicas) {
    return `${waiting}${String(counts.available)} of ${String(counts.replicas)} updated replicas are available...`;
  }
  return undefined;
}

function doneMessage(counts: Counts): string {
  return counts.partition > 0
    ? `partitioned roll out complete: ${String(counts.updated)} new pods have been updated (partition ${String(counts.partition)})...`
    : `${counts.name} successfully rolled out`;
}

function barsOf(counts: Counts): ProgressBar[] {
  const mark = counts.partition > 0 ? counts.target : undefined;
  return [
    { label: 'updated', value: counts.updated, total: counts.replicas, mark },
    { label: 'updated-ready', value: counts.updatedReady, total: counts.replicas, mark },
    { label: 'available', value: counts.available, total: counts.replicas },
  ];
}

function notesOf(kind: Kind, subject: StatusSubject, counts: Counts): string[] {
  const revision = subject.status?.updateRevision;
  return [
    ...(isPaused(kind, subject) ? ['paused'] : []),
    ...(counts.partition > 0 ? [`partition ${String(counts.partition)}`] : []),
    ...(revision === undefined ? [] : [`revision ${revision}`]),
  ];
}

export function replicaRolloutProgress(
  kind: Kind,
  subject: StatusSubject,
  inFlight: readonly PodInFlight[],
): RolloutProgress {
  const counts = countsOf(kind, subject);
  const base = { bars: barsOf(counts), notes: notesOf(kind, subject, counts), inFlight };
  // A condition of an older generation may be about a template since fixed.
  const failure = counts.observed ? failureOf(subject.status?.conditions) : undefined;
  if (failure !== undefined) {
    return { ...base, phase: 'failed', message: `${counts.name} ${failure}` };
  }
  const waiting = waitingFor(counts);
  if (waiting !== undefined) {
    return { ...base, phase: 'waiting', message: isPaused(kind, subject) ? `${waiting} (paused)` : waiting };
  }
  return { ...base, phase: 'done', message: doneMessage(counts) };
}
