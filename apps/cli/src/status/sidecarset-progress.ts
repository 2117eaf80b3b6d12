/**
 * Where a SidecarSet's upgrade stands: its matched pods updated to the latest sidecars, then ready;
 * the partition keeps that many matched pods on the old sidecars.
 */
import { scaledValueFromIntOrPercent } from '@kruise-ts/api';

import { subjectName } from './rollout-progress.ts';
import type { RolloutProgress } from './rollout-progress.ts';
import type { StatusSubject } from './status-subject.ts';

function partitionOf(subject: StatusSubject, matched: number): number {
  const value = subject.spec.updateStrategy?.partition;
  return value === undefined
    ? 0
    : Math.min(matched, Math.max(0, scaledValueFromIntOrPercent({ value, total: matched, roundUp: true })));
}

interface Counts {
  readonly name: string;
  readonly observed: boolean;
  readonly matched: number;
  readonly target: number;
  readonly partition: number;
  readonly updated: number;
  readonly updatedReady: number;
}

function waitingFor(counts: Counts): string | undefined {
  const waiting = `Waiting for ${counts.name} rollout to finish: `;
  if (!counts.observed) {
    return `Waiting for ${counts.name} spec update to be observed...`;
  }
  if (counts.updated < counts.target) {
    return `${waiting}${String(counts.updated)} out of ${String(counts.target)} pods have been updated...`;
  }
  if (counts.updatedReady < counts.target) {
    return `${waiting}${String(counts.updatedReady)} of ${String(counts.target)} updated pods are ready...`;
  }
  return undefined;
}

function countsOf(subject: StatusSubject): Counts {
  const status = subject.status ?? {};
  const matched = status.matchedPods ?? 0;
  const partition = partitionOf(subject, matched);
  return {
    name: subjectName('sidecarset', subject.metadata.name),
    observed: (status.observedGeneration ?? 0) >= (subject.metadata.generation ?? 0),
    matched,
    target: matched - partition,
    partition,
    updated: status.updatedPods ?? 0,
    updatedReady: status.updatedReadyPods ?? 0,
  };
}

export function sidecarSetRolloutProgress(subject: StatusSubject): RolloutProgress {
  const counts = countsOf(subject);
  const { matched, partition } = counts;
  const paused = subject.spec.updateStrategy?.paused === true;
  const mark = partition > 0 ? counts.target : undefined;
  const base = {
    bars: [
      { label: 'updated', value: counts.updated, total: matched, mark },
      { label: 'updated-ready', value: counts.updatedReady, total: matched, mark },
      { label: 'ready', value: subject.status?.readyPods ?? 0, total: matched },
    ],
    notes: [
      ...(paused ? ['paused'] : []),
      ...(partition > 0 ? [`partition ${String(partition)}`] : []),
      `${String(matched)} matched pods`,
    ],
    inFlight: [],
  };
  const waiting = waitingFor(counts);
  if (waiting !== undefined) {
    return { ...base, phase: 'waiting', message: paused ? `${waiting} (paused)` : waiting };
  }
  const done =
    partition > 0
      ? `partitioned roll out complete: ${String(counts.updated)} pods have been updated (partition ${String(partition)})...`
      : `${counts.name} successfully rolled out`;
  return { ...base, phase: 'done', message: done };
}
