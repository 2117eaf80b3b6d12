/**
 * Reconciles one Advanced StatefulSet (OpenKruise's `syncStatefulSet`): read the revisions and pods,
 * give new pods their readiness conditions, refresh in-place updates and lifecycle states, scale
 * (create missing ordinals, delete condemned ones), roll out the update revision, then write the
 * status and truncate the history. A failed step is reported in the status (FailedCreatePod /
 * FailedUpdatePod) and an Event, then thrown so that the work queue retries with its backoff. A
 * template the API server refuses (checked by a dry run when the webhook was skipped) is reported
 * before any pod is made from it.
 */
import { StatefulSetConditionType, StatefulSetEventReason } from '@kruise-ts/api';
import type { ControllerRevision, StatefulSet, StatefulSetCondition } from '@kruise-ts/api';
import { resourceClient } from '@kruise-ts/controller-runtime';
import type {
  DeepReadonly,
  Lister,
  ReconcileContext,
  Reconciler,
  Request,
  Result,
} from '@kruise-ts/controller-runtime';
import { initializeReadinessGates, podControlContext, RefreshError, refreshPods } from '@kruise-ts/pod-control';
import type { PodControlDeps, RefreshResult } from '@kruise-ts/pod-control';
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
  removeCondition,
  setCondition,
  warnOnce,
} from '@kruise-ts/workload';
import type {
  ParsedObject,
  ReportedProblem,
  Synced,
  SyncOutcome as WorkloadSyncOutcome,
  WaitingForCache,
  WorkloadClients,
  WorkloadReconcileSteps,
} from '@kruise-ts/workload';

import { readState } from './read-state.ts';
import type { ReadCaches, ReadResult } from './read-state.ts';
import { calculateStatus } from './status/calculate-status.ts';
import { parseStatefulSet, statefulSetKey, statefulSetResource } from './statefulset-resource.ts';
import { scale } from './sync/scale.ts';
import { revisionNameOf, rollingUpdateOf, withPods } from './sync/sync-context.ts';
import type { SyncContext, SyncOptions, SyncState } from './sync/sync-context.ts';
import { rollingUpdate } from './sync/update.ts';
import { templateProblem } from './validation/template-check.ts';
import { podShapeOf } from './validation/validation-target.ts';

/** What the reconciler reads and writes with. */
export interface StatefulSetReconcilerDeps extends ReadCaches, PodControlDeps {
  readonly statefulSets: Lister<StatefulSet>;
  readonly options: SyncOptions;
  /** Dry-runs templates before pods are made from them (the process's shared validator). */
  readonly templateValidator: Pick<TemplateValidator, 'validate'>;
}

/**
 * The rolling update runs only after a scale step that changed nothing and did not stop (OpenKruise
 * runs it in the same round; waiting one round lets it judge the pods as the API server has them),
 * and never for OnDelete or while paused.
 */
function updateMayRun(state: SyncState, scaled: { readonly changed: boolean; readonly stop: boolean }): boolean {
  return (
    !scaled.changed &&
    !scaled.stop &&
    state.set.spec.updateStrategy.type !== 'OnDelete' &&
    !rollingUpdateOf(state.set).paused
  );
}

/** Reason of the InvalidSpec condition (and its Event). */
export const INVALID_SPEC = 'InvalidSpec';
/** Reason of the FailedCreatePod condition while the API server refuses the template. */
export const INVALID_TEMPLATE = 'InvalidTemplate';

function invalidSpec(message: string): ReportedProblem {
  return {
    type: StatefulSetConditionType.InvalidSpec,
    reason: INVALID_SPEC,
    message,
    eventReason: StatefulSetEventReason.InvalidSpec,
  };
}

/**
 * A template the API server refuses is a pod creation that would fail: OpenKruise's Event reason
 * and condition for that (FailedCreate, FailedCreatePod), which the next successful scale clears.
 */
function invalidTemplate(message: string): ReportedProblem {
  return {
    type: StatefulSetConditionType.FailedCreatePod,
    reason: INVALID_TEMPLATE,
    message,
    eventReason: StatefulSetEventReason.FailedCreate,
  };
}

type Conditions = StatefulSetCondition[];
type StatefulSetStatus = NonNullable<StatefulSet['status']>;

/** The sync steps' outcome: the conditions they leave, the state they leave (pods as written), and the failure to retry with backoff, if any. */
interface SyncOutcome {
  readonly conditions: Conditions;
  readonly state?: SyncState;
  readonly failure?: Error;
}

/**
 * Reconciles one set through the workload skeleton (`reconcileWorkload`: read, report an unusable
 * spec, wait for the cache, sync, write the status); its own steps are the read of revisions, pods and
 * claims, and the sync (see the file's comment).
 */
export class StatefulSetReconciler implements Reconciler, WorkloadReconcileSteps<StatefulSet, StatefulSetStatus> {
  readonly #deps: StatefulSetReconcilerDeps;
  readonly clients: WorkloadClients<StatefulSet>;
  // A new set has no status yet, and the schema requires its counts: no pods, so zeros.
  readonly zeroCounts = { replicas: 0, readyReplicas: 0, availableReplicas: 0 };
  readonly observesGeneration = true;

  constructor(deps: StatefulSetReconcilerDeps) {
    this.#deps = deps;
    this.clients = { ...deps, resource: statefulSetResource, clock: deps.clock ?? { now: () => Date.now() } };
  }

  reconcile(context: ReconcileContext, request: Request): Promise<Result | undefined> {
    return reconcileWorkload(this, context, request);
  }

  get(request: Request): DeepReadonly<StatefulSet> | undefined {
    return this.#deps.statefulSets.get(request.namespace, request.name);
  }

  /** A deleted set: its expectations go with it (its pods and revisions go by garbage collection). */
  forget(key: string): void {
    this.#deps.scaleExpectations.delete(key);
  }

  readonly parse: (cached: DeepReadonly<StatefulSet>) => ParsedObject<StatefulSet> = parseStatefulSet;

  unreadable(message: string): ReportedProblem {
    return invalidSpec(message);
  }

  /** A template the API server refuses is reported before any pod is made from it. */
  async validate(context: ReconcileContext, set: DeepReadonly<StatefulSet>): Promise<ReportedProblem | undefined> {
    const problem = await templateProblem(set, {
      validator: this.#deps.templateValidator,
      shape: podShapeOf(this.#deps.gates),
      signal: context.signal,
      logger: context.logger,
    });
    return problem === undefined ? undefined : invalidTemplate(problem);
  }

  waitForCache(_context: ReconcileContext, set: DeepReadonly<StatefulSet>): WaitingForCache | undefined {
    return ownedPodsWait(this.#deps, { key: statefulSetKey(set), pods: this.#deps.pods, ownerUid: set.metadata.uid });
  }

  /** Read, sync (or only report an unusable spec), then the status whatever happened; a failure is thrown after it. */
  async sync(
    context: ReconcileContext,
    set: DeepReadonly<StatefulSet>,
  ): Promise<WorkloadSyncOutcome<StatefulSetStatus>> {
    const ctx = this.#context(context);
    const read = await this.#read(ctx, set);
    if (read.kind === 'waiting') {
      return { kind: 'waiting', reason: read.reason, delayMs: CACHE_LAG_RETRY_MS };
    }
    if (read.kind === 'undecodable') {
      return { kind: 'unusable', problem: read.problem };
    }
    const outcome: SyncOutcome =
      read.kind === 'unusable'
        ? {
            conditions: this.#invalid(ctx, read.state, {
              conditions: [...(set.status?.conditions ?? [])],
              message: read.message,
            }),
          }
        : await this.#sync(ctx, read.state);
    return this.#finish(ctx, {
      state: outcome.state ?? read.state,
      conditions: outcome.conditions,
      failure: outcome.failure,
    });
  }

  /** The read phase; a template Go could not decode is reported and ends the reconcile before any write. */
  async #read(
    ctx: SyncContext,
    set: DeepReadonly<StatefulSet>,
  ): Promise<ReadResult | { readonly kind: 'undecodable'; readonly problem: ReportedProblem }> {
    try {
      return await readState(ctx, this.#deps, set);
    } catch (error) {
      if (error instanceof TemplateDecodeError) {
        const message = `spec.template.${error.message}: the pod template cannot be decoded (OpenKruise could not read it either); no pod is created, deleted or updated until it is fixed`;
        return { kind: 'undecodable', problem: invalidSpec(message) };
      }
      throw error;
    }
  }

  #context(context: ReconcileContext): SyncContext {
    const { api } = this.#deps;
    return {
      ...podControlContext(this.#deps, context),
      revisions: resourceClient<ControllerRevision>(api, controllerRevisionResource, context.signal),
      statefulSets: expectingOwnWrites(
        resourceClient(api, statefulSetResource, context.signal),
        this.#deps.resourceVersionExpectations,
      ),
      options: this.#deps.options,
    };
  }

  /** The InvalidSpec condition and its Event (once per change). */
  #invalid(
    ctx: SyncContext,
    state: SyncState,
    input: { readonly conditions: Conditions; readonly message: string },
  ): Conditions {
    const problem = invalidSpec(input.message);
    // The Event goes out when the stored condition does not say this yet.
    warnOnce(ctx.recorder, { ref: state.owner.ref, conditions: state.set.status?.conditions, problem });
    return setCondition(
      input.conditions,
      { type: problem.type, status: 'True', reason: problem.reason, message: problem.message },
      { now: ctx.clock.now() },
    );
  }

  /** The sync steps; returns the conditions they leave and the failure to retry, if any. */
  async #sync(ctx: SyncContext, read: SyncState): Promise<SyncOutcome> {
    let conditions = removeCondition([...(read.set.status?.conditions ?? [])], StatefulSetConditionType.InvalidSpec);
    conditions = this.#specWarnings(ctx, read, conditions);
    if (isBeingDeleted(read.set)) {
      return { conditions };
    }
    // New pods' readiness conditions first: the scale step judges them next time, as written.
    if (await initializeReadinessGates(ctx, read.pods)) {
      return { conditions };
    }
    const refreshed = await this.#refresh(ctx, read, conditions);
    if (refreshed.failure !== undefined) {
      return refreshed;
    }
    const { state } = refreshed;
    try {
      const scaled = await scale(ctx, state);
      conditions = removeCondition(conditions, StatefulSetConditionType.FailedCreatePod);
      if (!updateMayRun(state, scaled)) {
        return { conditions, state };
      }
    } catch (error) {
      logFailure(ctx, error, 'Scaling failed');
      return {
        conditions: setCondition(
          conditions,
          { type: StatefulSetConditionType.FailedCreatePod, status: 'True', message: errorMessage(error) },
          { now: ctx.clock.now() },
        ),
        state,
        failure: asError(error),
      };
    }
    return { ...(await this.#update(ctx, state, conditions)), state };
  }

  /**
   * In-place updates and lifecycle states moved along; the state with the pods as written.
   * OpenKruise ends the round when the refresh wrote anything; with hundreds of pods in flight some
   * pod always finishes, so the update step would wait until a whole wave drained (the rollout moved
   * in waves of seconds at 1,000 pods). The refresh never makes a pod available that the kubelet has
   * not, so scaling and updating go on with the pods as the API server returned them, as CloneSet does.
   */
  async #refresh(
    ctx: SyncContext,
    read: SyncState,
    conditions: Conditions,
  ): Promise<SyncOutcome & { readonly state: SyncState }> {
    let refreshed: RefreshResult;
    try {
      refreshed = await refreshPods(ctx, {
        owner: read.owner,
        pods: read.pods,
        updateRevision: revisionNameOf(read.updateRevision),
        podTemplateHashLabel: false,
      });
    } catch (error) {
      // A failed write of the pods' update: reported as such, the status written with the pods as
      // the refresh left them, and retried with the queue's backoff.
      logFailure(ctx, error, 'Refreshing pods failed');
      const state = error instanceof RefreshError ? withPods(read, error.result.pods) : read;
      return {
        conditions: setCondition(
          conditions,
          { type: StatefulSetConditionType.FailedUpdatePod, status: 'True', message: errorMessage(error) },
          { now: ctx.clock.now() },
        ),
        state,
        failure: asError(error),
      };
    }
    for (const skipped of refreshed.skipped) {
      ctx.recorder.warning(
        read.owner.ref,
        StatefulSetEventReason.FailedUpdatePodInPlace,
        `pod ${skipped.name}: ${skipped.reason}; skipped until the annotation is fixed or removed`,
      );
    }
    return { conditions, state: refreshed.written === 0 ? read : withPods(read, refreshed.pods) };
  }

  async #update(ctx: SyncContext, state: SyncState, conditions: Conditions): Promise<SyncOutcome> {
    try {
      const updated = await rollingUpdate(ctx, state);
      if (updated.blocked !== undefined) {
        return {
          conditions: setCondition(
            conditions,
            {
              type: StatefulSetConditionType.FailedUpdatePod,
              status: 'True',
              reason: IN_PLACE_ONLY_NOT_POSSIBLE,
              message: updated.blocked,
            },
            { now: ctx.clock.now() },
          ),
        };
      }
      return { conditions: removeCondition(conditions, StatefulSetConditionType.FailedUpdatePod) };
    } catch (error) {
      logFailure(ctx, error, 'Updating failed');
      return {
        conditions: setCondition(
          conditions,
          { type: StatefulSetConditionType.FailedUpdatePod, status: 'True', message: errorMessage(error) },
          { now: ctx.clock.now() },
        ),
        failure: asError(error),
      };
    }
  }

  /**
   * Specs the CRD accepted that cannot do what they say: a partition above replicas (no pod is
   * updated), an in-place policy without the InPlaceUpdateReady gate (stored before the CRD rule).
   * Reported as InvalidSpec; the reconcile goes on.
   */
  #specWarnings(ctx: SyncContext, state: SyncState, conditions: Conditions): Conditions {
    const rolling = rollingUpdateOf(state.set);
    const gates = state.set.spec.template.spec?.readinessGates ?? [];
    if (rolling.partition > state.set.spec.replicas) {
      return this.#invalid(ctx, state, {
        conditions,
        message: `spec.updateStrategy.rollingUpdate.partition: ${String(rolling.partition)} is above replicas ${String(state.set.spec.replicas)}: no pod is updated`,
      });
    }
    if (rolling.podUpdatePolicy !== 'ReCreate' && !gates.some((gate) => gate.conditionType === 'InPlaceUpdateReady')) {
      return this.#invalid(ctx, state, {
        conditions,
        message: `spec.template.spec.readinessGates: ${rolling.podUpdatePolicy} needs the InPlaceUpdateReady readiness gate; pods without it are recreated (InPlaceIfPossible) or restarted in Service endpoints (InPlaceOnly)`,
      });
    }
    return conditions;
  }

  /** The status, and the history truncated once it is written. */
  #finish(
    ctx: SyncContext,
    input: { readonly state: SyncState; readonly conditions: Conditions; readonly failure: Error | undefined },
  ): Synced<StatefulSetStatus> {
    const { state } = input;
    const status = calculateStatus({
      set: state.set,
      pods: [
        ...state.replicas.flatMap((slot) => (slot.pod === undefined ? [] : [slot.pod])),
        ...state.condemned.map((entry) => entry.pod),
      ],
      claims: state.claims,
      currentRevision: revisionNameOf(state.currentRevision),
      updateRevision: revisionNameOf(state.updateRevision),
      collisionCount: state.collisionCount,
      minReadySeconds: rollingUpdateOf(state.set).minReadySeconds,
      conditions: input.conditions,
      now: ctx.clock.now(),
    });
    const minReadySeconds = rollingUpdateOf(state.set).minReadySeconds;
    if (minReadySeconds > 0 && status.availableReplicas !== status.readyReplicas) {
      ctx.requeue.push(minReadySeconds * 1000, 'minReadySeconds');
    }
    const afterStatus = async (): Promise<Result> => {
      await truncateHistory({
        store: ctx.revisions,
        active: {
          currentRevision: state.currentRevision,
          updateRevision: state.updateRevision,
          collisionCount: state.collisionCount,
          revisions: state.revisions,
        },
        pods: state.pods,
        limit: state.set.spec.revisionHistoryLimit,
      }).catch((error: unknown) => {
        ctx.logger.warn({ err: error }, 'Could not truncate the revision history');
      });
      return ctx.requeue.toResult();
    };
    return { kind: 'synced', status, failure: input.failure, afterStatus };
  }
}
