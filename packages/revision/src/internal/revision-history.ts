/**
 * Pure decisions over a workload's revision history: ordering, the next revision number, equality with
 * a candidate, which revision becomes the update revision, which is current, and which to delete.
 * Functions are generic over the revision type so that read-only objects from a cache stay read-only.
 */
import { marshalGoJson } from './go-json.ts';
import { isPodAtRevision } from './pod-revision-labels.ts';
import type { PodLike } from './pod-revision-labels.ts';

/** What these functions read of a ControllerRevision. */
export interface RevisionLike {
  readonly metadata?:
    { readonly name?: string | undefined; readonly creationTimestamp?: string | undefined } | undefined;
  readonly revision: number;
  readonly data?: unknown;
}

/** OpenKruise's default `revisionHistoryLimit`. */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/**
 * Sorts by revision number, ties by older creationTimestamp, then by name (history.SortControllerRevisions);
 * returns a new array.
 */
export function sortRevisions<R extends RevisionLike>(revisions: readonly R[]): R[] {
  return [...revisions].sort(compareRevisions);
}

function compareRevisions(a: RevisionLike, b: RevisionLike): number {
  if (a.revision !== b.revision) {
    return a.revision - b.revision;
  }
  const created = creationMs(a) - creationMs(b);
  if (created !== 0) {
    return created;
  }
  const [left, right] = [a.metadata?.name ?? '', b.metadata?.name ?? ''];
  return left < right ? -1 : left > right ? 1 : 0;
}

/** A missing timestamp is Go's zero time, older than any real one. */
function creationMs(revision: RevisionLike): number {
  const text = revision.metadata?.creationTimestamp;
  const ms = text === undefined ? Number.NaN : Date.parse(text);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/** One more than the highest revision number, or 1 for an empty history. */
export function nextRevisionNumber(revisions: readonly RevisionLike[]): number {
  return revisions.reduce((highest, revision) => Math.max(highest, revision.revision), 0) + 1;
}

/**
 * True when the revision's data, serialised as Go serialises it, is the candidate's raw data. Stored
 * data is Go-marshalled, so this is OpenKruise's byte equality (history.EqualRevision).
 */
export function equalRevision(existing: RevisionLike, candidateRaw: string): boolean {
  return existing.data !== undefined && existing.data !== null && marshalGoJson(existing.data) === candidateRaw;
}

/** What to do to get an update revision for a candidate (see {@link planUpdateRevision}). */
export type UpdateRevisionPlan<R extends RevisionLike> =
  | { readonly kind: 'existing-latest'; readonly revision: R }
  | { readonly kind: 'reuse-older'; readonly revision: R; readonly nextRevision: number }
  | { readonly kind: 'create'; readonly nextRevision: number };

/** Inputs of {@link planUpdateRevision}. */
export interface PlanUpdateRevisionOptions<R extends RevisionLike> {
  readonly revisions: readonly R[];
  /** The candidate's raw data (`revisionData(template)`). */
  readonly candidate: string;
}

/**
 * Chooses the update revision as OpenKruise's getActiveRevisions does: the latest revision when it
 * equals the candidate (nothing to write); else the newest older equal revision, to be renumbered as the
 * next revision (a rollback); else a new revision with the next number.
 */
export function planUpdateRevision<R extends RevisionLike>(
  options: PlanUpdateRevisionOptions<R>,
): UpdateRevisionPlan<R> {
  const sorted = sortRevisions(options.revisions);
  const latest = sorted.at(-1);
  if (latest !== undefined && equalRevision(latest, options.candidate)) {
    return { kind: 'existing-latest', revision: latest };
  }
  const nextRevision = nextRevisionNumber(sorted);
  const older = sorted.findLast((revision) => equalRevision(revision, options.candidate));
  return older === undefined
    ? { kind: 'create', nextRevision }
    : { kind: 'reuse-older', revision: older, nextRevision };
}

/** Inputs of {@link currentRevisionFor}. */
export interface CurrentRevisionOptions<R extends RevisionLike> {
  readonly revisions: readonly R[];
  /** `status.currentRevision` of the workload (a revision name), if any. */
  readonly statusCurrentRevision: string | undefined;
  readonly updateRevision: R;
}

/** The revision named by status.currentRevision, or the update revision when there is none (a new history). */
export function currentRevisionFor<R extends RevisionLike>(options: CurrentRevisionOptions<R>): R {
  const name = options.statusCurrentRevision;
  return (
    options.revisions.find((revision) => name !== undefined && revision.metadata?.name === name) ??
    options.updateRevision
  );
}

/** Inputs of {@link liveRevisionNames}. */
export interface LiveRevisionOptions {
  readonly revisions: readonly RevisionLike[];
  readonly currentRevision: string;
  readonly updateRevision: string;
  /** The workload's active pods. */
  readonly pods: readonly PodLike[];
}

/** The revisions truncation must keep: current, update, and every one some pod is at. */
export function liveRevisionNames(options: LiveRevisionOptions): Set<string> {
  const live = new Set([options.currentRevision, options.updateRevision]);
  for (const revision of options.revisions) {
    const name = revision.metadata?.name ?? '';
    if (options.pods.some((pod) => isPodAtRevision(pod, name))) {
      live.add(name);
    }
  }
  return live;
}

/** Inputs of {@link revisionsToTruncate}. */
export interface TruncateOptions<R extends RevisionLike> {
  readonly revisions: readonly R[];
  /** Names of live revisions (see {@link liveRevisionNames}); never deleted. */
  readonly live: ReadonlySet<string>;
  /** `revisionHistoryLimit`; undefined means 10. */
  readonly limit: number | undefined;
}

/**
 * The non-live revisions to delete, oldest first, so that exactly `limit` non-live ones remain
 * (truncateHistory). Example: 14 revisions, 2 live, limit 10 → the 2 oldest non-live ones.
 */
export function revisionsToTruncate<R extends RevisionLike>(options: TruncateOptions<R>): R[] {
  const history = sortRevisions(options.revisions).filter(
    (revision) => !options.live.has(revision.metadata?.name ?? ''),
  );
  const limit = Math.max(0, options.limit ?? DEFAULT_REVISION_HISTORY_LIMIT);
  return history.slice(0, Math.max(0, history.length - limit));
}
