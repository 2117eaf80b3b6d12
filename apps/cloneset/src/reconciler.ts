import { CloneSetConditionType, CloneSetEventReason } from '@kruise-ts/api';
import type { CloneSet, CloneSetCondition, ControllerRevision, Node } from '@kruise-ts/api';
import { resourceClient } from '@kruise-ts/controller-runtime';
import type {
  DeepReadonly,
  Lister,
  ReconcileContext,
  Reconciler,
  Request,
  Result,
} from '@kruise-ts/controller-runtime';
import { initializeReadinessGates, podControlContext } from '@kruise-ts/pod-control';
import type { PodControlDeps } from '@kruise-ts/pod-control';
import { controllerRevisionResource, TemplateDecodeError, truncateHistory } from '@kruise-ts/revision';
import type { TemplateValidator } from '@kruise-ts/template-validation';
import {
  asError,
  CACHE_LAG_RETRY_MS,
  errorMessage,
  expectingOwnWrites,
  IN_PLACE_ONLY_NOT_POSSIBLE,
  isBeingDeleted,
  logFailure,
  ownedPodsWait,
  reconcileWorkload,
  setCondition as setWorkloadCondition,
  SlowStartMemory,
  warnOnce,
} from '@kruise-ts/workload';
import type {
  ParsedObject,
  ReportedProblem,
  Synced,
  SyncOutcome as WorkloadSyncOutcome,
  UnusableSpec,
  WaitingForCache,
  WorkloadClients,
  WorkloadCondition,
  WorkloadReconcileSteps,
} from '@kruise-ts/workload';

import { parseCloneSetObject } from './cloneset-parse.ts';
import { cloneSetKey, cloneSetResource } from './cloneset-resource.ts';
import { reviewPodsToDelete, truncatePodsToDelete } from './pods-to-delete.ts';
import type { PodsToDeleteReview } from './pods-to-delete.ts';
import { readState } from './read-state.ts';
import type { ReadCaches, ReadResult } from './read-state.ts';
import type { ActiveRevisions } from './revisions.ts';
import { calculateStatus } from './status/calculate-status.ts';
import { removeCondition, setCondition } from './status/conditions.ts';
import { diffsOf } from './sync/diffs.ts';
import type { PodDiffs } from './sync/diffs.ts';
import { scale } from './sync/scale.ts';
import type { ScaleResult } from './sync/scale.ts';
import { revisionNameOf } from './sync/sync-context.ts';
import type { SyncContext, SyncOptions, SyncState } from './sync/sync-context.ts';
import { update, UpdateError } from './sync/update.ts';
import type { UpdateResult } from './sync/update.ts';
import { templateProblem } from './validation/template-check.ts';

/** What the CloneSet reconciler reads and writes with. */
export interface CloneSetReconcilerDeps extends ReadCaches, PodControlDeps {
  readonly cloneSets: Lister<CloneSet>;
  readonly nodes: Lister<Node>;
  readonly options: SyncOptions;
  /** Dry-runs templates before pods are made from them (the process's shared validator). */
  readonly templateValidator: Pick<TemplateValidator, 'validate'>;
}

type CloneSetStatus = NonNullable<CloneSet['status']>;

/** Reason of the FailedScale condition while the spec or template cannot be used at all. */
export const INVALID_TEMPLATE = 'InvalidTemplate';

/** Reason of the FailedScale condition while podsToDelete names pods that are not ours. */
export const PODS_TO_DELETE_NOT_OWNED = 'PodsToDeleteNotOwned';

/** Reason of the FailedUpdate condition while pods are skipped because their in-place update annotations cannot be read. */
export const INVALID_IN_PLACE_UPDATE_ANNOTATION = 'InvalidInPlaceUpdateAnnotation';

/** The sync steps' outcome: the conditions they leave, and the failure to retry with backoff, if any. */
interface SyncOutcome {
  readonly conditions: CloneSetCondition[];
  readonly failure?: Error;
}

/**
 * A CloneSet the controller cannot act on (a spec this version cannot read, a template Go could not
 * decode or the API server refuses): the FailedScale condition naming the field, and a Warning
 * FailedCreate; no pod is created, deleted or updated.
 */
function unusable(message: string): ReportedProblem {
  const kind = CloneSetConditionType.FailedScale;
  return { type: kind, reason: INVALID_TEMPLATE, message, eventReason: CloneSetEventReason.FailedCreate };
}

/**
 * Reconciles one CloneSet (OpenKruise's `doReconcile`) through the workload skeleton
 * (`reconcileWorkload`: read, report an unusable spec, wait for the cache, sync, write the status).
 * Its own steps: read claimed pods, PVCs and revisions, give new pods their readiness conditions,
 * scale; when scaling changed nothing, refresh pods (in-place updates, lifecycle states) and update
 * them to the target revision; after the status, trim `podsToDelete` and the revision history. A
 * failed step is reported in the status (FailedScale / FailedUpdate) and Events, and then thrown, so
 * that the work queue retries the CloneSet with its per-item exponential backoff.
 */
export class CloneSetReconciler implements Reconciler, WorkloadReconcileSteps<CloneSet, CloneSetStatus> {
  readonly #deps: CloneSetReconcilerDeps;
  readonly #createBatchSizes = new SlowStartMemory();
  readonly clients: WorkloadClients<CloneSet>;
  // A new CloneSet has no status yet, and the schema requires its counts: no pods, so zeros.
  readonly zeroCounts = {
    replicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
    updatedReplicas: 0,
    updatedReadyReplicas: 0,
  };
  readonly observesGeneration = true;

  constructor(deps: CloneSetReconcilerDeps) {
    this.#deps = deps;
    this.clients = { ...deps, resource: cloneSetResource, clock: deps.clock ?? { now: () => Date.now() } };
  }

  reconcile(context: ReconcileContext, request: Request): Promise<Result | undefined> {
    return reconcileWorkload(this, context, request);
  }

  get(request: Request): DeepReadonly<CloneSet> | undefined {
    return this.#deps.cloneSets.get(request.namespace, request.name);
  }

  /** A deleted CloneSet: what was kept for it goes too. */
  forget(key: string): void {
    this.#deps.scaleExpectations.delete(key);
    this.#createBatchSizes.forget(key);
  }

  readonly parse: (cached: DeepReadonly<CloneSet>) => ParsedObject<CloneSet> = parseCloneSetObject;

  unreadable(message: string): ReportedProblem {
    return unusable(message);
  }

  /** CloneSet's conditions carry lastUpdateTime. */
  setProblemCondition(
    conditions: readonly WorkloadCondition[],
    problem: ReportedProblem,
    now: number,
  ): WorkloadCondition[] {
    const { type, reason, message } = problem;
    return setWorkloadCondition(conditions, { type, status: 'True', reason, message }, { now, lastUpdateTime: true });
  }

  /** A template the API server refuses is reported before any pod is made from it. */
  async validate(context: ReconcileContext, cs: DeepReadonly<CloneSet>): Promise<ReportedProblem | undefined> {
    const shape = {
      shortHash: this.#deps.gates.enabled('CloneSetShortHash'),
      reCreateWithoutReadinessGates: this.#deps.options.reCreateWithoutReadinessGates,
    };
    const problem = await templateProblem(cs, {
      validator: this.#deps.templateValidator,
      shape,
      signal: context.signal,
      logger: context.logger,
    });
    return problem === undefined ? undefined : unusable(problem);
  }

  /** Why this reconcile must wait for the cache; undefined when it may go on. */
  waitForCache(_context: ReconcileContext, cs: DeepReadonly<CloneSet>): WaitingForCache | undefined {
    return ownedPodsWait(this.#deps, { key: cloneSetKey(cs), pods: this.#deps.pods, ownerUid: cs.metadata.uid });
  }

  /** Read, the sync steps, then the status whatever they did; a failure is thrown only after the status says it. */
  async sync(context: ReconcileContext, cs: DeepReadonly<CloneSet>): Promise<WorkloadSyncOutcome<CloneSetStatus>> {
    const ctx = this.#context(context);
    const read = await this.#read(ctx, cs);
    if (read.kind !== 'ready') {
      return read;
    }
    const outcome = await this.#sync(ctx, read.state);
    return this.#finish(ctx, { state: read.state, revisions: read.revisions, ...outcome });
  }

  /** The read phase; a template Go could not decode is reported and ends the reconcile before any write. */
  async #read(
    ctx: SyncContext,
    cs: DeepReadonly<CloneSet>,
  ): Promise<Extract<ReadResult, { kind: 'ready' }> | WaitingForCache | UnusableSpec> {
    try {
      const read = await readState(ctx, this.#deps, cs);
      return read.kind === 'ready' ? read : { kind: 'waiting', reason: read.reason, delayMs: CACHE_LAG_RETRY_MS };
    } catch (error) {
      if (error instanceof TemplateDecodeError) {
        const message = `spec.template.${error.message}: the pod template cannot be decoded (OpenKruise could not read it either); no pod is created, deleted or updated until it is fixed`;
        return { kind: 'unusable', problem: unusable(message) };
      }
      throw error;
    }
  }

  /** The capabilities of one reconcile: every API client carries its abort signal. */
  #context(context: ReconcileContext): SyncContext {
    const deps = this.#deps;
    return {
      ...podControlContext(deps, context),
      revisions: resourceClient<ControllerRevision>(deps.api, controllerRevisionResource, context.signal),
      cloneSets: expectingOwnWrites(
        resourceClient(deps.api, cloneSetResource, context.signal),
        deps.resourceVersionExpectations,
      ),
      nodes: deps.nodes,
      options: deps.options,
      createBatchSizes: this.#createBatchSizes,
    };
  }

  /** The sync steps; returns the conditions they leave (FailedScale / FailedUpdate on an error) and the error. */
  async #sync(ctx: SyncContext, state: SyncState): Promise<SyncOutcome> {
    let conditions = [...(state.cs.status?.conditions ?? [])];
    if (isBeingDeleted(state.cs)) {
      return { conditions };
    }
    let scaled: ScaleResult;
    let initialized: boolean;
    try {
      initialized = await initializeReadinessGates(ctx, state.pods);
      scaled = await scale(ctx, state);
    } catch (error) {
      logFailure(ctx, error, 'Scaling failed');
      const message = errorMessage(error);
      return {
        conditions: setCondition(
          conditions,
          { type: CloneSetConditionType.FailedScale, status: 'True', message },
          ctx.clock.now(),
        ),
        failure: asError(error),
      };
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
  async #updateAfterScale(
    ctx: SyncContext,
    state: SyncState,
    input: { scaled: ScaleResult; initialized: boolean; conditions: CloneSetCondition[] },
  ): Promise<SyncOutcome> {
    const { conditions } = input;
    const updating = input.initialized ? undefined : updateInput(ctx, state, input.scaled);
    if (updating === undefined) {
      return { conditions };
    }
    let result: UpdateResult;
    try {
      result = await update(ctx, updating.state, updating.diffs);
    } catch (error) {
      logFailure(ctx, error, 'Updating failed');
      if (error instanceof UpdateError) {
        this.#warnSkipped(ctx, updating.state, error.result);
      }
      return {
        conditions: setCondition(
          conditions,
          { type: CloneSetConditionType.FailedUpdate, status: 'True', message: errorMessage(error) },
          ctx.clock.now(),
        ),
        failure: asError(error),
      };
    }
    return { conditions: this.#conditionsAfterUpdate(ctx, { ...updating, result, conditions }) };
  }

  /** FailedUpdate set while InPlaceOnly is blocked or pods are skipped, cleared once the update went through. */
  #conditionsAfterUpdate(
    ctx: SyncContext,
    input: { state: SyncState; diffs: PodDiffs; result: UpdateResult; conditions: CloneSetCondition[] },
  ): CloneSetCondition[] {
    const { result, conditions } = input;
    const [blocked] = result.blocked;
    if (blocked !== undefined) {
      return setCondition(
        conditions,
        {
          type: CloneSetConditionType.FailedUpdate,
          status: 'True',
          reason: IN_PLACE_ONLY_NOT_POSSIBLE,
          message: blocked,
        },
        ctx.clock.now(),
      );
    }
    const skipped = this.#warnSkipped(ctx, input.state, result);
    if (skipped !== undefined) {
      return setCondition(
        conditions,
        { type: skipped.type, status: 'True', reason: skipped.reason, message: skipped.message },
        ctx.clock.now(),
      );
    }
    return result.changed || input.diffs.updateNum === 0
      ? removeCondition(conditions, CloneSetConditionType.FailedUpdate)
      : conditions;
  }

  /**
   * Pods skipped for unreadable in-place update annotations: a Warning Event naming them whenever
   * that changes; returns the problem for the FailedUpdate condition. They are not retried on a
   * timer: only an edit of the pod (an informer event) can fix them.
   */
  #warnSkipped(ctx: SyncContext, state: SyncState, result: UpdateResult): ReportedProblem | undefined {
    if (result.skipped.length === 0) {
      return undefined;
    }
    const details = result.skipped.map((pod) => `pod ${pod.name}: ${pod.reason}`).join('; ');
    const message = `${details}; skipped (not updated) until the annotation is fixed or removed, the other pods are updated`;
    const problem: ReportedProblem = {
      type: CloneSetConditionType.FailedUpdate,
      reason: INVALID_IN_PLACE_UPDATE_ANNOTATION,
      message,
      eventReason: CloneSetEventReason.FailedUpdatePodInPlace,
    };
    warnOnce(ctx.recorder, { ref: state.ref, conditions: state.cs.status?.conditions, problem });
    return problem;
  }

  /** The status, and what follows its write: `podsToDelete` trimmed, the revision history truncated. */
  async #finish(
    ctx: SyncContext,
    input: SyncOutcome & { state: SyncState; revisions: ActiveRevisions },
  ): Promise<Synced<CloneSetStatus>> {
    const { state, revisions } = input;
    const review = await reviewPodsToDelete(ctx, state);
    const result = calculateStatus({
      cs: state.cs,
      pods: state.pods,
      updateRevision: revisionNameOf(revisions.updateRevision),
      currentRevision: revisionNameOf(revisions.currentRevision),
      collisionCount: revisions.collisionCount,
      partition: state.strategy.partition,
      conditions: podsToDeleteCondition(input.conditions, review, ctx.clock.now()),
      now: ctx.clock.now(),
    });
    if (result.checkAgainInMs !== undefined) {
      ctx.requeue.push(result.checkAgainInMs, 'progress deadline');
    }
    this.#requeueForMinReady(ctx, state, result.status);
    const afterStatus = async (): Promise<Result> => {
      await truncatePodsToDelete(ctx, state, review.gone);
      await truncateHistory({
        store: ctx.revisions,
        active: revisions,
        pods: state.pods,
        limit: state.cs.spec.revisionHistoryLimit,
      }).catch((error: unknown) => {
        ctx.logger.warn({ err: error }, 'Could not truncate the revision history');
      });
      return ctx.requeue.toResult();
    };
    return { kind: 'synced', status: result.status, failure: input.failure, afterStatus };
  }

  /** With minReadySeconds, ready pods turn available later without any event: come back then. */
  #requeueForMinReady(
    ctx: SyncContext,
    state: SyncState,
    status: { readyReplicas: number; availableReplicas: number },
  ): void {
    const minReadySeconds = state.cs.spec.minReadySeconds ?? 0;
    if (minReadySeconds > 0 && status.availableReplicas !== status.readyReplicas) {
      ctx.requeue.push(minReadySeconds * 1000, 'minReadySeconds');
    }
  }
}

/**
 * The pods and diffs the update step goes on with after the scale step (see `#updateAfterScale`): the
 * snapshot when scaling changed nothing, the snapshot and the pods just created after a scale-out;
 * undefined when the update waits for the next reconcile.
 */
function updateInput(
  ctx: SyncContext,
  state: SyncState,
  scaled: ScaleResult,
): { state: SyncState; diffs: PodDiffs } | undefined {
  if (!scaled.changed) {
    return { state, diffs: scaled.diffs };
  }
  if (scaled.created === undefined) {
    return undefined;
  }
  const grown: SyncState = { ...state, pods: [...state.pods, ...scaled.created] };
  return { state: grown, diffs: diffsOf(ctx, grown, 'update') };
}

/**
 * Sets FailedScale (reason PodsToDeleteNotOwned) while `podsToDelete` names pods that are not ours,
 * and clears it once the list is fixed; other FailedScale reasons are left to the sync step.
 */
function podsToDeleteCondition(
  conditions: CloneSetCondition[],
  review: PodsToDeleteReview,
  now: number,
): CloneSetCondition[] {
  if (review.foreign.length > 0) {
    const message = `spec.scaleStrategy.podsToDelete: ${review.foreign.join(', ')} ${review.foreign.length === 1 ? 'is' : 'are'} not controlled by this CloneSet and will not be deleted`;
    return setCondition(
      conditions,
      { type: CloneSetConditionType.FailedScale, status: 'True', reason: PODS_TO_DELETE_NOT_OWNED, message },
      now,
    );
  }
  const failed = conditions.find((c) => c.type === CloneSetConditionType.FailedScale);
  return failed?.reason === PODS_TO_DELETE_NOT_OWNED
    ? removeCondition(conditions, CloneSetConditionType.FailedScale)
    : conditions;
}
