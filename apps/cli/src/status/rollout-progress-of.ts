/** The progress of any of the four kinds, from what `rollout status` read. */
import type { Kind } from '../resources/kinds.ts';
import { broadcastJobProgress } from './broadcastjob-progress.ts';
import { replicaRolloutProgress } from './replica-progress.ts';
import type { PodInFlight, RolloutProgress } from './rollout-progress.ts';
import { sidecarSetRolloutProgress } from './sidecarset-progress.ts';
import type { StatusSubject } from './status-subject.ts';

export function rolloutProgressOf(
  kind: Kind,
  subject: StatusSubject,
  inFlight: readonly PodInFlight[],
): RolloutProgress {
  if (kind.id === 'sidecarset') {
    return sidecarSetRolloutProgress(subject);
  }
  return kind.id === 'broadcastjob' ? broadcastJobProgress(subject) : replicaRolloutProgress(kind, subject, inFlight);
}

/** Kinds whose pods are listed for the in-flight line: those with a label selector in their status. */
export function listsPods(kind: Kind): boolean {
  return kind.id === 'cloneset' || kind.id === 'advanced-statefulset';
}
