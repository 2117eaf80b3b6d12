import { cloneSetSchema, CloneSetConditionType } from '@kruise-ts/api';
import type { CloneSet, CloneSetCondition, Node } from '@kruise-ts/api';
import { TerminalError, requestKey } from '@kruise-ts/controller-runtime';
import type {
  Client,
  DeepReadonly,
  EventRecorder,
  FeatureGates,
  Lister,
  ReconcileContext,
  Reconciler,
  Request,
  ResourceVersionExpectations,
  Result,
  ScaleExpectations,
} from '@kruise-ts/controller-runtime';
import { isBeingDeleted, laggingOwnedObject, RequeueAfter, SlowStartMemory } from '@kruise-ts/workload';

import { reviewPodsToDelete, truncatePodsToDelete } from './pods-to-delete.ts';
import type { PodsToDeleteReview } from './pods-to-delete.ts';
import { readState } from './read-state.ts';
import type { ReadCaches } from './read-state.ts';
import { initializeReadinessGates } from './readiness.ts';
import { truncateHistory } from './revisions.ts';
import type { ActiveRevisions } from './revisions.ts';
import { calculateStatus } from './status/calculate-status.ts';
import { removeCondition, setCondition } from './status/conditions.ts';
import { updateStatus } from './status/update-status.ts';
import { errorMessage } from './sync/create-pods.ts';
import type { ExpectationDiffs } from './sync/diffs.ts';
import { diffsOf, scale } from './sync/scale.ts';
import type { ScaleResult } from './sync/scale.ts';
import { revisionNameOf } from './sync/sync-context.ts';
import type { SyncContext, SyncState } from './sync/sync-context.ts';
import { update } from './sync/update.ts';

/** What the CloneSet reconciler reads and writes with. */
export interface CloneSetReconcilerDeps extends ReadCaches {
  readonly client: Client;
  readonly recorder: EventRecorder;
  readonly gates: FeatureGates;
  readonly cloneSets: Lister<CloneSet>;
  readonly nodes: Lister<Node>;
  readonly scaleExpectations: ScaleExpectations;
  readonly resourceVersionExpectations: ResourceVersionExpectations;
  readonly scalingExcludePreparingDelete: boolean;
  readonly stripPodManagedFields: boolean;
  readonly reCreateWithoutReadinessGates: boolean;
  readonly now?: (() => number) | undefined;
}

/** Retry soon when the cache lags behind our writes; the informer event usually comes first. */
const CACHE_LAG_RETRY_MS = 1000;

/** Reason of the FailedScale condition while podsToDelete names pods that are not ours. */
export const PODS_TO_DELETE_NOT_OWNED = 'PodsToDeleteNotOwned';

/** Reason of the FailedUpdate condition while InPlaceOnly meets a change that needs new pods. */
export const IN_PLACE_ONLY_NOT_POSSIBLE = 'InPlaceOnlyNotPossible';

/**
 * Reconciles one CloneSet (OpenKruise's `doReconcile`): check scale expectations, read claimed pods,
 * PVCs and revisions, give new pods their readiness conditions, scale; when scaling changed nothing,
 * refresh pods (in-place updates, lifecycle states) and update them to the target revision; then
 * write the status, trim `podsToDelete` and the revision history.
 */
export class CloneSetReconciler implements Reconciler {
  readonly #deps: CloneSetReconcilerDeps;
  readonly #createBatchSizes = new SlowStartMemory();

  constructor(deps: CloneSetReconcilerDeps) {
    this.#deps = deps;
  }

  /** Why this reconcile must wait for the cache, as the result to return; undefined when it may go on. */
  #waitForCache(context: ReconcileContext, key: string, cs: DeepReadonly<CloneSet>): Result | undefined {
    const deps = this.#deps;
    const expectations = deps.scaleExpectations.satisfied(key);
    if (!expectations.satisfied) {
      context.logger.debug({ pending: expectations.pending }, 'Waiting for the cache to show our creations and deletions');
      return { requeueAfterMs: expectations.remainingMs };
    }
    // Cheap first: while our own pod writes are not in the cache yet, every watch event of them would
    // otherwise start a full read of all the CloneSet's pods only to find one stale (O(pods) per event).
    const lagging = laggingOwnedObject(deps.resourceVersionExpectations, deps.pods, cs.metadata.uid);
    if (lagging !== undefined) {
      context.logger.debug({ pod: lagging }, 'Waiting for the cache to show our last write');
      return { requeueAfterMs: CACHE_LAG_RETRY_MS };
    }
    return undefined;
  }

  async reconcile(context: ReconcileContext, request: Request): Promise<Result | undefined> {
    const deps = this.#deps;
    const key = requestKey(request);
    const cached = deps.cloneSets.get(request.namespace, request.name);
    if (cached === undefined) {
      deps.scaleExpectations.delete(key);
      this.#createBatchSizes.forget(key);
      return undefined;
    }
    const cs = parseCloneSet(cached);
    const waiting = this.#waitForCache(context, key, cs);
    if (waiting !== undefined) {
      return waiting;
    }
    const ctx = this.#context(context);
    const read = await readState(ctx, deps, cs);
    if (read.kind === 'waiting') {
      context.logger.debug({ reason: read.reason }, 'Waiting for the cache');
      return { requeueAfterMs: CACHE_LAG_RETRY_MS };
    }
    const conditions = await this.#sync(ctx, read.state);
    await this.#finish(ctx, { state: read.state, revisions: read.revisions, conditions });
    return ctx.requeue.delayMs === undefined ? undefined : { requeueAfterMs: ctx.requeue.delayMs };
  }

  #context(context: ReconcileContext): SyncContext {
    const deps = this.#deps;
    return {
      client: deps.client,
      recorder: deps.recorder,
      logger: context.logger,
      gates: deps.gates,
      scaleExpectations: deps.scaleExpectations,
      resourceVersionExpectations: deps.resourceVersionExpectations,
      nodes: deps.nodes,
      requeue: new RequeueAfter(),
      now: deps.now ?? Date.now,
      scalingExcludePreparingDelete: deps.scalingExcludePreparingDelete,
      stripPodManagedFields: deps.stripPodManagedFields,
      reCreateWithoutReadinessGates: deps.reCreateWithoutReadinessGates,
      createBatchSizes: this.#createBatchSizes,
    };
  }

  /** The sync steps; returns the conditions they leave (FailedScale / FailedUpdate on an error). */
  async #sync(ctx: SyncContext, state: SyncState): Promise<CloneSetCondition[]> {
    let conditions = [...(state.cs.status?.conditions ?? [])];
    if (isBeingDeleted(state.cs)) {
      return conditions;
    }
    let scaled: ScaleResult;
    let initialized: boolean;
    try {
      initialized = await initializeReadinessGates(ctx, state.pods);
      scaled = await scale(ctx, state);
    } catch (error) {
      ctx.logger.error({ err: error }, 'Scaling failed');
      ctx.requeue.push(1000);
      return setCondition(conditions, { type: CloneSetConditionType.FailedScale, status: 'True', message: errorMessage(error) }, ctx.now());
    }
    // A scale that went through clears an error of an earlier one (OpenKruise's sticks forever).
    const failedScale = conditions.find((c) => c.type === CloneSetConditionType.FailedScale);
    if (failedScale !== undefined && failedScale.reason !== PODS_TO_DELETE_NOT_OWNED) {
      conditions = removeCondition(conditions, CloneSetConditionType.FailedScale);
    }
    return this.#updateAfterScale(ctx, state, { scaled, initialized, conditions });
  }

  /**
   * After readiness gates were initialized, updating waits for the next reconcile: the refresh would
   * otherwise judge those pods by the snapshot without their new conditions and write (with a stale
   * resourceVersion) what is already there. So it does after a scale-in (as OpenKruise always does).
   * After pods were created it goes on: OpenKruise updates only in the next reconcile, but during a
   * ReCreate rollout nearly every reconcile creates the replacements of the pods the last one
   * deleted, so deletions came every other reconcile and half the budget stood idle. The new pods are
   * known (the create responses) and unavailable, so the update counts them, as the next reconcile would.
   */
  async #updateAfterScale(ctx: SyncContext, state: SyncState, input: { scaled: ScaleResult; initialized: boolean; conditions: CloneSetCondition[] }): Promise<CloneSetCondition[]> {
    const { scaled, conditions } = input;
    if (input.initialized) {
      return conditions;
    }
    if (!scaled.changed) {
      return this.#update(ctx, state, { diffs: scaled.diffs, conditions });
    }
    if (scaled.created === undefined) {
      return conditions;
    }
    const grown: SyncState = { ...state, pods: [...state.pods, ...scaled.created] };
    return this.#update(ctx, grown, { diffs: diffsOf(ctx, grown), conditions });
  }

  async #update(ctx: SyncContext, state: SyncState, input: { diffs: ExpectationDiffs; conditions: CloneSetCondition[] }): Promise<CloneSetCondition[]> {
    try {
      const result = await update(ctx, state, input.diffs);
      const [blocked] = result.blocked;
      if (blocked !== undefined) {
        return setCondition(input.conditions, { type: CloneSetConditionType.FailedUpdate, status: 'True', reason: IN_PLACE_ONLY_NOT_POSSIBLE, message: blocked }, ctx.now());
      }
      return result.changed || input.diffs.updateNum === 0 ? removeCondition(input.conditions, CloneSetConditionType.FailedUpdate) : input.conditions;
    } catch (error) {
      ctx.logger.error({ err: error }, 'Updating failed');
      ctx.requeue.push(1000);
      return setCondition(input.conditions, { type: CloneSetConditionType.FailedUpdate, status: 'True', message: errorMessage(error) }, ctx.now());
    }
  }

  async #finish(ctx: SyncContext, input: { state: SyncState; revisions: ActiveRevisions; conditions: CloneSetCondition[] }): Promise<void> {
    const { state, revisions } = input;
    const review = await reviewPodsToDelete(ctx, state);
    const result = calculateStatus({
      cs: state.cs,
      pods: state.pods,
      updateRevision: revisionNameOf(revisions.updateRevision),
      currentRevision: revisionNameOf(revisions.currentRevision),
      collisionCount: revisions.collisionCount,
      partition: state.strategy.partition,
      conditions: podsToDeleteCondition(input.conditions, review, ctx.now()),
      now: ctx.now(),
    });
    if (result.checkAgainInMs !== undefined) {
      ctx.requeue.push(result.checkAgainInMs, 'progress deadline');
    }
    await updateStatus(ctx.client, state.cs, result.status);
    await truncatePodsToDelete(ctx, state, review.gone);
    await truncateHistory({ client: ctx.client, cs: state.cs, active: revisions, pods: state.pods }).catch((error: unknown) => {
      ctx.logger.warn({ err: error }, 'Could not truncate the revision history');
    });
    this.#requeueForMinReady(ctx, state, result.status);
  }

  /** With minReadySeconds, ready pods turn available later without any event: come back then. */
  #requeueForMinReady(ctx: SyncContext, state: SyncState, status: { readyReplicas: number; availableReplicas: number }): void {
    const minReadySeconds = state.cs.spec.minReadySeconds ?? 0;
    if (minReadySeconds > 0 && status.availableReplicas !== status.readyReplicas) {
      ctx.requeue.push(minReadySeconds * 1000, 'minReadySeconds');
    }
  }
}

/**
 * Sets FailedScale (reason PodsToDeleteNotOwned) while `podsToDelete` names pods that are not ours,
 * and clears it once the list is fixed; other FailedScale reasons are left to the sync step.
 */
function podsToDeleteCondition(conditions: CloneSetCondition[], review: PodsToDeleteReview, now: number): CloneSetCondition[] {
  if (review.foreign.length > 0) {
    const message = `spec.scaleStrategy.podsToDelete: ${review.foreign.join(', ')} ${review.foreign.length === 1 ? 'is' : 'are'} not controlled by this CloneSet and will not be deleted`;
    return setCondition(conditions, { type: CloneSetConditionType.FailedScale, status: 'True', reason: PODS_TO_DELETE_NOT_OWNED, message }, now);
  }
  const failed = conditions.find((c) => c.type === CloneSetConditionType.FailedScale);
  return failed?.reason === PODS_TO_DELETE_NOT_OWNED ? removeCondition(conditions, CloneSetConditionType.FailedScale) : conditions;
}

/**
 * Validates a cached CloneSet with the API schema (applying its defaults). The apiserver enforced the
 * CRD already, so a failure means an object this version cannot handle: not worth retrying.
 */
/** Parsed (defaulted) CloneSets per cached object: a cached object never changes, and a rollout reconciles it thousands of times. */
const parsedCloneSets = new WeakMap<DeepReadonly<CloneSet>, DeepReadonly<CloneSet>>();

function parseCloneSet(cached: DeepReadonly<CloneSet>): DeepReadonly<CloneSet> {
  const known = parsedCloneSets.get(cached);
  if (known !== undefined) {
    return known;
  }
  const parsed = cloneSetSchema.safeParse(cached);
  if (!parsed.success) {
    throw new TerminalError(`invalid CloneSet ${cached.metadata.namespace ?? ''}/${cached.metadata.name ?? ''}: ${parsed.error.message}`);
  }
  parsedCloneSets.set(cached, parsed.data);
  return parsed.data;
}
