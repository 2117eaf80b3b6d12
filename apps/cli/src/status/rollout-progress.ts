/**
 * One look at a rollout, whatever the kind: where it stands (waiting, done, failed), kubectl's sentence
 * for it, and the counts the terminal view draws as bars.
 */

export type RolloutPhase = 'waiting' | 'done' | 'failed';

export interface ProgressBar {
  /** `updated`, `updated-ready`, `available`, ... */
  readonly label: string;
  readonly value: number;
  readonly total: number;
  /** Where the partition stops the update: the count this bar reaches when the rollout is done. */
  readonly mark?: number | undefined;
}

export interface PodInFlight {
  readonly name: string;
  /** `terminating`, `updating in place`, `pending`, `not ready`. */
  readonly state: string;
}

export interface RolloutProgress {
  readonly phase: RolloutPhase;
  /** kubectl's line: `Waiting for ... rollout to finish: ...`, `... successfully rolled out`, or the failure. */
  readonly message: string;
  readonly bars: readonly ProgressBar[];
  /** Short facts shown beside the object's name: `paused`, `partition 3`, `revision web-5f6b7`. */
  readonly notes: readonly string[];
  readonly inFlight: readonly PodInFlight[];
}

/** `cloneset "web"`, as kubectl's rollout status names the object in its sentences. */
export function subjectName(singular: string, name: string): string {
  return `${singular} ${JSON.stringify(name)}`;
}
