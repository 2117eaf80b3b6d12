/**
 * The SidecarSet reconcile: the status over its pods (from the pod index, not a scan of every pod),
 * the report of every pod created without the SidecarSet's sidecars (the pod webhook fails open: when
 * it was down, timed out or was skipped, the pod was admitted as is; each such pod gets one Warning
 * Event, on itself and on the SidecarSet, and the SidecarSet a MissedInjection condition with the
 * count), and, once the cache shows our last pod writes, the hot-upgrade flips and in-place upgrades.
 */
import type { ControllerRevision, Pod, SidecarSet, SidecarSetStatus } from '@kruise-ts/api';
import { isConflict, isNotFound, objectReference, resourceClient } from '@kruise-ts/controller-runtime';
import type {
  DeepReadonly,
  EventReporter,
  KubeObject,
  Lister,
  ObjectApi,
  ReconcileContext,
  Reconciler,
  Request,
  Result,
} from '@kruise-ts/controller-runtime';
import { controllerRevisionResource } from '@kruise-ts/revision';
import {
  asError,
  CACHE_LAG_RETRY_MS,
  expectingOwnWrites,
  podResource,
  reconcileWorkload,
  removeCondition,
  setCondition,
  staleObject,
} from '@kruise-ts/workload';
import type {
  ParsedObject,
  ReportedProblem,
  ResourceVersionExpectations,
  SyncOutcome,
  WorkloadClients,
  WorkloadReconcileSteps,
} from '@kruise-ts/workload';

import { hashAnnotationsPatch } from './hash/set-hash-annotations.ts';
import { registerLatestRevision } from './revision/register-revision.ts';
import type { RegisteredRevision } from './revision/register-revision.ts';
import { parseSidecarSet, sidecarSetResource } from './sidecarset-resource.ts';
import { describeConflict, yieldingConflicts } from './conflict/sidecarset-conflicts.ts';
import type { SidecarSetConflict } from './conflict/sidecarset-conflicts.ts';
import { ReportMemory } from './report/report-memory.ts';
import { calculateStatus } from './status/calculate-status.ts';
import { syncUpgrades } from './sync/upgrade-step.ts';
import type { UpgradeCandidate } from './upgrade/upgrade-plan.ts';
import { scopedNamespace } from './injection/scoped-namespace.ts';

/** The set as this reconcile knows it: its latest revision and collision count registered. */
function withRevision(set: DeepReadonly<SidecarSet>, registered: RegisteredRevision): DeepReadonly<SidecarSet> {
  return {
    ...set,
    status: { ...set.status, latestRevision: registered.latestRevision, collisionCount: registered.collisionCount },
  } as DeepReadonly<SidecarSet>;
}

function revisionStatus(set: DeepReadonly<SidecarSet>): Pick<SidecarSetStatus, 'latestRevision' | 'collisionCount'> {
  const latest = set.status?.latestRevision;
  const collisions = set.status?.collisionCount;
  return {
    ...(latest === undefined ? {} : { latestRevision: latest }),
    ...(collisions === undefined ? {} : { collisionCount: collisions }),
  };
}

/** The condition type of a SidecarSet that cannot be read, its reason and the Event's reason. */
export const INVALID_SPEC = 'InvalidSpec';

/** The condition of a SidecarSet that yields to an older one. */
export const SIDECARSET_CONFLICT_CONDITION = 'Conflict';
/** Its Event reason. */
export const SIDECARSET_CONFLICT_REASON = 'SidecarSetConflict';

function conflictCondition(current: Conditions, conflicts: readonly SidecarSetConflict[], now: number): Conditions {
  if (conflicts.length === 0) {
    return removeCondition<Conditions[number]>(current, SIDECARSET_CONFLICT_CONDITION);
  }
  const message = conflicts
    .map((conflict) => `${conflict.field} conflicts with SidecarSet ${conflict.with} (${conflict.reason})`)
    .join('; ');
  return setCondition<Conditions[number]>(
    current,
    {
      type: SIDECARSET_CONFLICT_CONDITION,
      status: 'True',
      reason: 'ConflictsWithOlderSidecarSet',
      message: `${message}; new pods that both select get the older SidecarSet's sidecars only`,
    },
    { now },
  );
}

/** The condition and Event reason of pods created without the sidecars. */
export const MISSED_INJECTION = 'MissedInjection';
/** The Event reason on the pod and the SidecarSet. */
export const SIDECAR_INJECTION_MISSED_REASON = 'SidecarInjectionMissed';

/** What the reconciler reads and writes with. */
export interface SidecarSetReconcilerDeps {
  readonly api: ObjectApi;
  readonly recorder: EventReporter;
  readonly clock: { now(): number };
  readonly sidecarSets: Lister<SidecarSet>;
  /** The pods of each SidecarSet (`SidecarSetPodIndex`): a reconcile reads its own, not every pod. */
  readonly podIndex: { podsOf(name: string): Promise<DeepReadonly<Pod>[]> };
  /** The resourceVersions our writes (to pods and SidecarSets) returned, until the cache shows them. */
  readonly resourceVersionExpectations: ResourceVersionExpectations;
  readonly namespaces: Lister<KubeObject>;
  /** ControllerRevisions of the revision namespace labelled with a SidecarSet name. */
  readonly revisions: Lister<ControllerRevision>;
  /** Where the SidecarSets' revisions live (the controllers' namespace; OpenKruise's kruise-system). */
  readonly revisionNamespace: string;
  /** Namespaces the pod webhook never sees: their pods are not reported. */
  readonly excludedNamespaces: ReadonlySet<string>;
  /** Non-empty: only SidecarSets scoped to this namespace are reconciled (the pod cache holds no other). */
  readonly namespace: string;
  /** False with PodWebhook=false: no pod is injected, so none is reported as created without its sidecars. */
  readonly reportMissed?: boolean | undefined;
  /** What was reported with Events (a test passes its own to look at it). */
  readonly reportMemory?: ReportMemory | undefined;
}

type Conditions = NonNullable<SidecarSetStatus['conditions']>;

/**
 * Reconciles one SidecarSet through the workload skeleton (`reconcileWorkload`: read, report an
 * unreadable spec, sync, write the status); the upgrades follow the status write.
 */
export class SidecarSetReconciler implements Reconciler, WorkloadReconcileSteps<SidecarSet, SidecarSetStatus> {
  readonly #deps: SidecarSetReconcilerDeps;
  /** Pods and conflicts already reported with Events. */
  readonly #reported: ReportMemory;

  readonly clients: WorkloadClients<SidecarSet>;
  // A new SidecarSet has no status yet, and the schema requires its counts.
  readonly zeroCounts = { matchedPods: 0, updatedPods: 0, readyPods: 0 };
  readonly observesGeneration = true;

  constructor(deps: SidecarSetReconcilerDeps) {
    this.#deps = deps;
    this.clients = { ...deps, resource: sidecarSetResource };
    this.#reported = deps.reportMemory ?? new ReportMemory();
  }

  reconcile(context: ReconcileContext, request: Request): Promise<Result | undefined> {
    return reconcileWorkload(this, context, request);
  }

  /** The cached SidecarSet, if it exists and is in this manager's scope. */
  get(request: Request): DeepReadonly<SidecarSet> | undefined {
    const cached = this.#deps.sidecarSets.get('', request.name);
    return cached !== undefined && this.#inScope(cached) ? cached : undefined;
  }

  /** Gone, or not this manager's: what was reported of it goes too. */
  forget(name: string): void {
    this.#reported.forget(name);
  }

  readonly parse: (cached: DeepReadonly<SidecarSet>) => ParsedObject<SidecarSet> = parseSidecarSet;

  unreadable(why: string): ReportedProblem {
    const message = `the SidecarSet cannot be read: ${why}; its pods are neither counted nor upgraded until it is fixed`;
    return { type: INVALID_SPEC, reason: INVALID_SPEC, message, eventReason: INVALID_SPEC };
  }

  /** The status over its pods; the upgrades follow its write (as OpenKruise: it shows what they start from). */
  async sync(context: ReconcileContext, cachedSet: DeepReadonly<SidecarSet>): Promise<SyncOutcome<SidecarSetStatus>> {
    const hashWrite = await this.#writeHashAnnotations(context, cachedSet);
    if (hashWrite === 'stale') {
      return { kind: 'synced' };
    }
    const pods = await this.#deps.podIndex.podsOf(cachedSet.metadata.name ?? '');
    const revision = await this.#registerRevision(context, cachedSet, pods);
    const set = revision.registered === undefined ? cachedSet : withRevision(cachedSet, revision.registered);
    const { status, missed, candidates } = calculateStatus({
      set,
      pods,
      namespaceLabels: (name) => this.#namespaceLabels(name),
      excludedNamespaces: this.#deps.excludedNamespaces,
    });
    const next: SidecarSetStatus = { ...status, ...revisionStatus(set), ...this.#reportedConditions(set, missed) };
    return {
      kind: 'synced',
      status: next,
      afterStatus: () => this.#upgrade(context, set, { pods, candidates }),
      // A revision that could not be written is retried with the queue's backoff; status and upgrades went on meanwhile.
      // So is a hash annotation write that failed (RBAC): the rest of the reconcile does not depend on it.
      failure: revision.error ?? (hashWrite === 'written' ? undefined : hashWrite),
    };
  }

  /**
   * Flips and upgrades, unless the strategy holds them or the cache has not shown our last write to
   * one of the SidecarSet's pods: that round waits (OpenKruise's ResourceVersionExpectations), as a
   * round planned from a pod as it was before our patch would pick it again and count it available.
   */
  async #upgrade(
    context: ReconcileContext,
    set: DeepReadonly<SidecarSet>,
    input: { readonly pods: readonly DeepReadonly<Pod>[]; readonly candidates: readonly UpgradeCandidate[] },
  ): Promise<Result | undefined> {
    if (set.spec.updateStrategy.type === 'NotUpdate' || set.spec.updateStrategy.paused === true) {
      return undefined;
    }
    const lagging = staleObject(this.#deps.resourceVersionExpectations, input.pods);
    if (lagging !== undefined) {
      context.logger.debug({ pod: lagging }, 'Waiting for the cache to show our last write to a pod before upgrading');
      return { requeueAfterMs: CACHE_LAG_RETRY_MS };
    }
    const ctx = {
      pods: resourceClient(this.#deps.api, podResource, context.signal),
      recorder: this.#deps.recorder,
      clock: this.#deps.clock,
      logger: context.logger,
      resourceVersionExpectations: this.#deps.resourceVersionExpectations,
    };
    await syncUpgrades(ctx, set, input.candidates);
    return undefined;
  }

  /** Reports missed pods and conflicts (Events), and the status conditions that say so. */
  #reportedConditions(
    set: DeepReadonly<SidecarSet>,
    missed: readonly DeepReadonly<Pod>[],
  ): Pick<SidecarSetStatus, 'conditions'> {
    const conflicts = yieldingConflicts(set, this.#allSets());
    const reported = this.#reportable(missed, conflicts);
    this.#report(set, { missed, reported });
    this.#reportConflicts(set, conflicts);
    const conditions = conflictCondition(
      removeCondition<Conditions[number]>(this.#conditions(set, reported), INVALID_SPEC),
      conflicts,
      this.#deps.clock.now(),
    );
    return conditions.length === 0 ? {} : { conditions };
  }

  /**
   * The missed pods to report: none when the SidecarSet yields to an older one (the webhook skips it on
   * purpose) or when nothing injects (PodWebhook=false).
   */
  #reportable(
    missed: readonly DeepReadonly<Pod>[],
    conflicts: readonly SidecarSetConflict[],
  ): readonly DeepReadonly<Pod>[] {
    return conflicts.length === 0 && this.#deps.reportMissed !== false ? missed : [];
  }

  /** A manager restricted to a namespace takes only the SidecarSets scoped to it (read from the object as cached: it may not parse). */
  #inScope(cached: DeepReadonly<SidecarSet>): boolean {
    if (this.#deps.namespace === '') {
      return true;
    }
    const spec = cached.spec as DeepReadonly<SidecarSet['spec']> | undefined;
    return spec !== undefined && scopedNamespace(spec) === this.#deps.namespace;
  }

  /**
   * Puts both hashes on the SidecarSet when they differ (one metadata patch). `stale` when it changed or
   * was deleted meanwhile (its own event brings the next reconcile); another failure is returned, for the
   * queue's backoff once the rest of the reconcile is done.
   */
  async #writeHashAnnotations(
    context: ReconcileContext,
    set: DeepReadonly<SidecarSet>,
  ): Promise<'written' | 'stale' | Error> {
    const patch = hashAnnotationsPatch(set);
    if (patch === undefined) {
      return 'written';
    }
    try {
      const sets = expectingOwnWrites(
        resourceClient(this.#deps.api, sidecarSetResource, context.signal),
        this.#deps.resourceVersionExpectations,
      );
      await sets.patch({ name: set.metadata.name ?? '' }, { type: 'merge', body: patch });
      return 'written';
    } catch (error) {
      if (isConflict(error) || isNotFound(error)) {
        return 'stale';
      }
      context.logger.error({ err: error }, 'Cannot write the hash annotations of the SidecarSet');
      return asError(error);
    }
  }

  /** The latest revision; a failure (RBAC, a missing namespace) is reported, and the reconcile goes on without it. */
  async #registerRevision(
    context: ReconcileContext,
    set: DeepReadonly<SidecarSet>,
    pods: readonly DeepReadonly<Pod>[],
  ): Promise<{ registered?: RegisteredRevision; error?: Error }> {
    try {
      const registered = await registerLatestRevision({
        store: resourceClient(this.#deps.api, controllerRevisionResource, context.signal),
        set,
        namespace: this.#deps.revisionNamespace,
        revisions: this.#deps.revisions.list({ namespace: this.#deps.revisionNamespace }),
        // The SidecarSet's pods: a pod records a revision of it only once injected with it.
        pods: () => pods,
      });
      if (registered.overLimit > 0) {
        context.logger.info(
          { overLimit: registered.overLimit },
          'Revisions beyond revisionHistoryLimit are kept: pods or the injection strategy still use them',
        );
      }
      return { registered };
    } catch (error) {
      const cause = asError(error);
      context.logger.error(
        { err: cause, namespace: this.#deps.revisionNamespace },
        'Cannot register the latest revision',
      );
      return { error: cause };
    }
  }

  /** Every readable SidecarSet of the cache. */
  #allSets(): DeepReadonly<SidecarSet>[] {
    return this.#deps.sidecarSets.list().flatMap((cached) => {
      const parsed = parseSidecarSet(cached);
      return parsed.kind === 'invalid' ? [] : [parsed.object];
    });
  }

  /** One Warning per new set of conflicts (a restart reports them again once; the condition always tells). */
  #reportConflicts(set: DeepReadonly<SidecarSet>, conflicts: readonly SidecarSetConflict[]): void {
    const name = set.metadata.name ?? '';
    const message = conflicts.map((conflict) => describeConflict(name, conflict)).join('; ');
    if (this.#reported.conflictsChanged(name, message) && message !== '') {
      this.#deps.recorder.warning(
        objectReference(sidecarSetResource, set),
        SIDECARSET_CONFLICT_REASON,
        `${message}; new pods get the older SidecarSet's sidecars only`,
      );
    }
  }

  #namespaceLabels(name: string): Readonly<Record<string, string>> | undefined {
    const namespace = this.#deps.namespaces.get('', name);
    return namespace === undefined ? undefined : (namespace.metadata?.labels ?? {});
  }

  /** One Warning per pod newly missed, on the pod and on the SidecarSet; pods no longer missed are forgotten. */
  #report(
    set: DeepReadonly<SidecarSet>,
    pods: { readonly missed: readonly DeepReadonly<Pod>[]; readonly reported: readonly DeepReadonly<Pod>[] },
  ): void {
    const uidOf = (pod: DeepReadonly<Pod>): string => pod.metadata?.uid ?? '';
    const fresh = new Set(
      this.#reported.newlyMissed(set.metadata.name ?? '', {
        missed: pods.missed.map(uidOf),
        reportable: pods.reported.map(uidOf),
      }),
    );
    for (const pod of pods.reported) {
      if (!fresh.has(uidOf(pod))) {
        continue;
      }
      const pod_ = `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
      const message = `pod ${pod_} was created without the sidecars of SidecarSet ${set.metadata.name ?? ''} (the pod webhook was unavailable, timed out or skipped it); recreate the pod to inject them`;
      this.#deps.recorder.warning(objectReference(podResource, pod), SIDECAR_INJECTION_MISSED_REASON, message);
      this.#deps.recorder.warning(objectReference(sidecarSetResource, set), SIDECAR_INJECTION_MISSED_REASON, message);
    }
  }

  #conditions(set: DeepReadonly<SidecarSet>, missed: readonly DeepReadonly<Pod>[]): Conditions {
    const current = [...(set.status?.conditions ?? [])] as Conditions;
    if (missed.length === 0) {
      return removeCondition<Conditions[number]>(current, MISSED_INJECTION);
    }
    const shown = missed.slice(0, 10).map((pod) => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`);
    const more = missed.length > shown.length ? ` and ${String(missed.length - shown.length)} more` : '';
    const message = `${String(missed.length)} pod(s) created without the sidecars (pod webhook unavailable, timed out or skipped): ${shown.join(', ')}${more}`;
    return setCondition<Conditions[number]>(
      current,
      { type: MISSED_INJECTION, status: 'True', reason: 'PodsCreatedWithoutSidecars', message },
      { now: this.#deps.clock.now() },
    );
  }
}
