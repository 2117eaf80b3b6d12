/**
 * What a workload's sync step hands back to the reconcile skeleton: one type for every app, so that the
 * skeleton, not each app, decides what follows (write the status, retry, report, wait).
 */
import type { Result } from '@kruise-ts/controller-runtime';

import type { ReportedProblem } from './reported-problem.ts';

/** The sync ran: the status to write, what follows the write, and the failure to retry with backoff. */
export interface Synced<S> {
  readonly kind: 'synced';
  /** The status the sync computed; written when it differs from the cached one. None: nothing to write. */
  readonly status?: S | undefined;
  /** The reconcile's result when all went well (a requeue after minReadySeconds, a deadline, a TTL). */
  readonly result?: Result | undefined;
  /**
   * Thrown once the status says what failed, so that the work queue retries with its per-item backoff
   * instead of a fixed delay (OpenKruise returns the error after `updateStatus` as well).
   */
  readonly failure?: Error | undefined;
  /** Writes that come after the status (history truncation, upgrades); their result joins the reconcile's. */
  readonly afterStatus?: (() => Promise<Result | undefined>) | undefined;
}

/** The cache does not show what the sync must read yet (our own last writes): look again after `delayMs`. */
export interface WaitingForCache {
  readonly kind: 'waiting';
  readonly reason: string;
  readonly delayMs: number;
}

/** The spec cannot be acted on (a template nothing can decode or the API server refuses): report and stop. */
export interface UnusableSpec {
  readonly kind: 'unusable';
  readonly problem: ReportedProblem;
}

/** The outcome of a sync step. */
export type SyncOutcome<S> = Synced<S> | WaitingForCache | UnusableSpec;

/** The shorter of two requeue delays (none counts as no delay). */
export function sooner(a: Result | undefined, b: Result | undefined): Result | undefined {
  const delays = [a?.requeueAfterMs, b?.requeueAfterMs].filter((delay): delay is number => delay !== undefined);
  return delays.length === 0 ? (a ?? b) : { requeueAfterMs: Math.min(...delays) };
}
