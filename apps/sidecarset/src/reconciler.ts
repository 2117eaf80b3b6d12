/**
 * The SidecarSet reconcile of this installment: the status over the cached pods, and a report of
 * every pod created without the SidecarSet's sidecars (the pod webhook fails open: when it was down,
 * timed out or was skipped, the pod was admitted as is). Each such pod gets one Warning Event, on
 * itself and on the SidecarSet, and the SidecarSet a MissedInjection condition with the count.
 */
import type { ControllerRevision, Pod, SidecarSet, SidecarSetStatus } from '@kruise-ts/api';
import { isConflict, isInvalid, isNotFound, keyOf, objectReference, resourceClient } from '@kruise-ts/controller-runtime';
import type { Client, DeepReadonly, EventReporter, JsonPatchOperation, KubeObject, Lister, ReconcileContext, Reconciler, Request, Result } from '@kruise-ts/controller-runtime';
import { controllerRevisionResource } from '@kruise-ts/revision';
import { POD_WRITE_CONCURRENCY, podResource, removeCondition, setCondition, settleWithConcurrency, updateStatus } from '@kruise-ts/workload';

import { hashAnnotationsPatch } from './hash/set-hash-annotations.ts';
import { registerLatestRevision } from './revision/register-revision.ts';
import type { RegisteredRevision } from './revision/register-revision.ts';
import { parseSidecarSet, sidecarSetResource } from './sidecarset-resource.ts';
import { describeConflict, yieldingConflicts } from './conflict/sidecarset-conflicts.ts';
import type { SidecarSetConflict } from './conflict/sidecarset-conflicts.ts';
import { flipPatch } from './hotupgrade/flip.ts';
import { calculateStatus } from './status/calculate-status.ts';
import { planUpgrade } from './upgrade/upgrade-plan.ts';
import type { UpgradeCandidate } from './upgrade/upgrade-plan.ts';
import { upgradableCondition, upgradableConditionPatch } from './upgrade/upgradable-condition.ts';
import { sidecarUpgradePatch } from './upgrade/upgrade-pod.ts';
import { scopedNamespace } from './injection/scoped-namespace.ts';

/** A write refused because the pod changed since it was read (409, or 422 from the patch's resourceVersion test), or is gone. */
function isConflictOrTestFailure(error: unknown): boolean {
  return isConflict(error) || isInvalid(error) || isNotFound(error);
}

/** The set as this reconcile knows it: its latest revision and collision count registered. */
function withRevision(set: DeepReadonly<SidecarSet>, registered: RegisteredRevision): DeepReadonly<SidecarSet> {
  return { ...set, status: { ...set.status, latestRevision: registered.latestRevision, collisionCount: registered.collisionCount } } as DeepReadonly<SidecarSet>;
}

function revisionStatus(set: DeepReadonly<SidecarSet>): Pick<SidecarSetStatus, 'latestRevision' | 'collisionCount'> {
  const latest = set.status?.latestRevision;
  const collisions = set.status?.collisionCount;
  return { ...(latest === undefined ? {} : { latestRevision: latest }), ...(collisions === undefined ? {} : { collisionCount: collisions }) };
}

/** The condition of a SidecarSet that yields to an older one. */
export const SIDECARSET_CONFLICT_CONDITION = 'Conflict';
/** Its Event reason. */
export const SIDECARSET_CONFLICT_REASON = 'SidecarSetConflict';

function conflictCondition(current: Conditions, conflicts: readonly SidecarSetConflict[], now: number): Conditions {
  if (conflicts.length === 0) return removeCondition<Conditions[number]>(current, SIDECARSET_CONFLICT_CONDITION);
  const message = conflicts.map((conflict) => `${conflict.field} conflicts with SidecarSet ${conflict.with} (${conflict.reason})`).join('; ');
  return setCondition<Conditions[number]>(current, { type: SIDECARSET_CONFLICT_CONDITION, status: 'True', reason: 'ConflictsWithOlderSidecarSet', message: `${message}; new pods that both select get the older SidecarSet's sidecars only` }, { now });
}

/** A batch of pod patches: what to patch, and what to report. */
interface PatchReport {
  /** The pod's patch, or undefined to leave it alone. */
  readonly patchOf: (pod: DeepReadonly<Pod>) => JsonPatchOperation[] | undefined;
  readonly onPatched?: (pod: DeepReadonly<Pod>) => void;
  readonly onFailed?: (pod: DeepReadonly<Pod>, error: Error) => void;
}

/** The condition and Event reason of pods created without the sidecars. */
export const MISSED_INJECTION = 'MissedInjection';
/** The Event reason on the pod and the SidecarSet. */
export const SIDECAR_INJECTION_MISSED_REASON = 'SidecarInjectionMissed';

/** What the reconciler reads and writes with. */
export interface SidecarSetReconcilerDeps {
  readonly api: Client;
  readonly recorder: EventReporter;
  readonly clock: { now(): number };
  readonly sidecarSets: Lister<SidecarSet>;
  readonly pods: Lister<Pod>;
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
}

type Conditions = NonNullable<SidecarSetStatus['conditions']>;

export class SidecarSetReconciler implements Reconciler {
  readonly #deps: SidecarSetReconcilerDeps;
  /** Pods already reported, by uid (a restart reports them again once; the condition always tells). */
  readonly #reported = new Set<string>();
  /** The conflicts last reported per SidecarSet name. */
  readonly #conflictsReported = new Map<string, string>();

  constructor(deps: SidecarSetReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(context: ReconcileContext, request: Request): Promise<Result | undefined> {
    const cachedSet = this.#readSet(context, request.name);
    if (cachedSet === undefined) return undefined;
    const hashWrite = await this.#writeHashAnnotations(context, cachedSet);
    if (hashWrite === 'stale') return undefined;
    const revision = await this.#registerRevision(context, cachedSet);
    const set = revision.registered === undefined ? cachedSet : withRevision(cachedSet, revision.registered);
    const { status, missed, candidates } = calculateStatus({
      set,
      pods: this.#deps.pods.list(),
      namespaceLabels: (name) => this.#namespaceLabels(name),
      excludedNamespaces: this.#deps.excludedNamespaces,
    });
    const next: SidecarSetStatus = { ...status, ...revisionStatus(set), ...this.#reportedConditions(set, missed) };
    // The status first, as OpenKruise: it shows what the upgrade starts from.
    if (!(await this.#writeStatus(context, cachedSet, next))) return undefined;
    if (set.spec.updateStrategy.type !== 'NotUpdate' && set.spec.updateStrategy.paused !== true) {
      await this.#hotUpgradeThenUpgrade(context, set, candidates);
    }
    // A revision that could not be written is retried with the queue's backoff; status and upgrades went on meanwhile.
    // So is a hash annotation write that failed (RBAC): the rest of the reconcile does not depend on it.
    const deferred = revision.error ?? (hashWrite === 'written' ? undefined : hashWrite);
    if (deferred !== undefined) throw deferred;
    return undefined;
  }

  /** Reports missed pods and conflicts (Events), and the status conditions that say so. */
  #reportedConditions(set: DeepReadonly<SidecarSet>, missed: readonly DeepReadonly<Pod>[]): Pick<SidecarSetStatus, 'conditions'> {
    const conflicts = yieldingConflicts(set, this.#allSets());
    const reported = this.#reportable(missed, conflicts);
    this.#report(set, reported);
    this.#reportConflicts(set, conflicts);
    const conditions = conflictCondition(this.#conditions(set, reported), conflicts, this.#deps.clock.now());
    return conditions.length === 0 ? {} : { conditions };
  }

  /**
   * The missed pods to report: none when the SidecarSet yields to an older one (the webhook skips it on
   * purpose) or when nothing injects (PodWebhook=false).
   */
  #reportable(missed: readonly DeepReadonly<Pod>[], conflicts: readonly SidecarSetConflict[]): readonly DeepReadonly<Pod>[] {
    return conflicts.length === 0 && this.#deps.reportMissed !== false ? missed : [];
  }

  /** The cached SidecarSet this reconcile is for, if it exists, can be read and is in this manager's scope. */
  #readSet(context: ReconcileContext, name: string): DeepReadonly<SidecarSet> | undefined {
    const cached = this.#deps.sidecarSets.get('', name);
    if (cached === undefined) return undefined;
    const parsed = parseSidecarSet(cached);
    if (parsed.kind === 'invalid') {
      context.logger.error({ message: parsed.message }, 'SidecarSet cannot be read');
      return undefined;
    }
    const set = parsed.object;
    return this.#deps.namespace !== '' && scopedNamespace(set.spec) !== this.#deps.namespace ? undefined : set;
  }

  /**
   * Puts both hashes on the SidecarSet when they differ (one metadata patch). `stale` when it changed or
   * was deleted meanwhile (its own event brings the next reconcile); another failure is returned, for the
   * queue's backoff once the rest of the reconcile is done.
   */
  async #writeHashAnnotations(context: ReconcileContext, set: DeepReadonly<SidecarSet>): Promise<'written' | 'stale' | Error> {
    const patch = hashAnnotationsPatch(set);
    if (patch === undefined) return 'written';
    try {
      await resourceClient(this.#deps.api, sidecarSetResource, context.signal).patch({ name: set.metadata.name ?? '' }, { type: 'merge', body: patch });
      return 'written';
    } catch (error) {
      if (isConflict(error) || isNotFound(error)) return 'stale';
      context.logger.error({ err: error }, 'Cannot write the hash annotations of the SidecarSet');
      return error instanceof Error ? error : new Error(String(error));
    }
  }

  /** Writes the status; false when the SidecarSet was deleted meanwhile (its delete event ends the work). */
  async #writeStatus(context: ReconcileContext, set: DeepReadonly<SidecarSet>, next: SidecarSetStatus): Promise<boolean> {
    try {
      await updateStatus(resourceClient(this.#deps.api, sidecarSetResource, context.signal), set, next);
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /** The latest revision; a failure (RBAC, a missing namespace) is reported, and the reconcile goes on without it. */
  async #registerRevision(context: ReconcileContext, set: DeepReadonly<SidecarSet>): Promise<{ registered?: RegisteredRevision; error?: Error }> {
    try {
      const registered = await registerLatestRevision({
        store: resourceClient(this.#deps.api, controllerRevisionResource, context.signal),
        set,
        namespace: this.#deps.revisionNamespace,
        revisions: this.#deps.revisions.list({ namespace: this.#deps.revisionNamespace }),
        pods: () => this.#deps.pods.list(),
      });
      if (registered.overLimit > 0) {
        context.logger.info({ overLimit: registered.overLimit }, 'Revisions beyond revisionHistoryLimit are kept: pods or the injection strategy still use them');
      }
      return { registered };
    } catch (error) {
      const cause = error instanceof Error ? error : new Error(String(error));
      context.logger.error({ err: cause, namespace: this.#deps.revisionNamespace }, 'Cannot register the latest revision');
      return { error: cause };
    }
  }

  /**
   * Hot upgrades waiting for their flip go first (§B.8.5): while any pod is flipped, no other pod
   * starts an upgrade this round (its pod events bring the next round).
   */
  async #hotUpgradeThenUpgrade(context: ReconcileContext, set: DeepReadonly<SidecarSet>, candidates: readonly UpgradeCandidate[]): Promise<void> {
    const flipped = await this.#patchPods(context, candidates.map((candidate) => candidate.pod), {
      patchOf: (pod) => flipPatch(pod, set),
      onPatched: (pod) => {
        this.#deps.recorder.normal(objectReference(podResource, pod), 'ResetContainerSucceed', `reset the old sidecar containers of SidecarSet ${set.metadata.name ?? ''} to the hot upgrade empty image`);
      },
      onFailed: (pod, error) => {
        this.#deps.recorder.warning(objectReference(podResource, pod), 'ResetContainerFailed', `cannot reset the old sidecar containers of SidecarSet ${set.metadata.name ?? ''}: ${error.message}`);
      },
    });
    if (flipped > 0) {
      context.logger.info({ flipped }, 'Flipped hot-upgrade containers');
      return;
    }
    await this.#upgrade(context, set, candidates);
  }

  /** Upgrades this round's pods in place; a pod changed meanwhile (its resourceVersion test fails) waits for the next round. */
  async #upgrade(context: ReconcileContext, set: DeepReadonly<SidecarSet>, candidates: readonly UpgradeCandidate[]): Promise<void> {
    const plan = planUpgrade(set, candidates);
    if (plan.notUpgradable.length > 0) {
      const message = `${String(plan.notUpgradable.length)} pod(s) cannot be upgraded in place: more than the sidecar images changed; recreate them to get the new sidecars`;
      this.#deps.recorder.warning(objectReference(sidecarSetResource, set), 'NotUpgradablePods', message);
    }
    const now = new Date(this.#deps.clock.now());
    const patched: DeepReadonly<Pod>[] = [];
    const upgraded = await this.#patchPods(context, plan.upgrade, {
      patchOf: (pod) => sidecarUpgradePatch(pod, set, now),
      onPatched: (pod) => {
        patched.push(pod);
      },
    });
    if (plan.upgrade.length > 0) context.logger.info({ upgraded, waiting: plan.upgrade.length - upgraded }, 'Upgraded sidecars in place');
    await this.#writeUpgradable(context, set, [...plan.notUpgradable.map((pod) => ({ pod, upgradable: false })), ...patched.map((pod) => ({ pod, upgradable: true }))]);
  }

  /**
   * The pods' SidecarSetUpgradable condition, through their status subresource as OpenKruise writes
   * it: false for pods this SidecarSet cannot upgrade in place, true for those it just upgraded; no
   * write when the cached pod already says so. A pod gone meanwhile is skipped.
   */
  async #writeUpgradable(context: ReconcileContext, set: DeepReadonly<SidecarSet>, pods: readonly { readonly pod: DeepReadonly<Pod>; readonly upgradable: boolean }[]): Promise<void> {
    const client = resourceClient(this.#deps.api, podResource, context.signal);
    const now = new Date(this.#deps.clock.now());
    const work = pods.flatMap(({ pod, upgradable }) => {
      const condition = upgradableCondition(pod, { name: set.metadata.name ?? '', upgradable }, now);
      return condition === undefined ? [] : [{ pod, condition }];
    });
    const outcomes = await settleWithConcurrency(work, POD_WRITE_CONCURRENCY, async ({ pod, condition }) => {
      await client.patchStatus(keyOf(pod), { type: 'strategic', body: upgradableConditionPatch(condition) });
    });
    const failed = outcomes.flatMap((outcome) => (outcome.status === 'rejected' && !isNotFound(outcome.reason) ? [outcome.reason as unknown] : []));
    if (failed.length > 0) throw failed[0] instanceof Error ? failed[0] : new Error(String(failed[0]));
  }

  /**
   * Patches pods concurrently; returns how many were patched. A pod that changed since it was read or
   * is gone waits for the next round; any other failure is thrown after all patches settled.
   */
  async #patchPods(context: ReconcileContext, pods: readonly DeepReadonly<Pod>[], report: PatchReport): Promise<number> {
    const client = resourceClient(this.#deps.api, podResource, context.signal);
    const work = pods.flatMap((pod) => {
      const patch = report.patchOf(pod);
      return patch === undefined ? [] : [{ pod, patch }];
    });
    const outcomes = await settleWithConcurrency(work, POD_WRITE_CONCURRENCY, async ({ pod, patch }) => {
      try {
        await client.patch({ namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' }, { type: 'json', body: patch });
        report.onPatched?.(pod);
      } catch (error) {
        if (!isConflictOrTestFailure(error)) report.onFailed?.(pod, error instanceof Error ? error : new Error(String(error)));
        throw error;
      }
    });
    const failed = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected').map((outcome) => outcome.reason as unknown);
    const real = failed.filter((error) => !isConflictOrTestFailure(error));
    if (real.length > 0) throw real[0] instanceof Error ? real[0] : new Error(String(real[0]));
    return work.length - failed.length;
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
    if (this.#conflictsReported.get(name) === message) return;
    this.#conflictsReported.set(name, message);
    if (message !== '') this.#deps.recorder.warning(objectReference(sidecarSetResource, set), SIDECARSET_CONFLICT_REASON, `${message}; new pods get the older SidecarSet's sidecars only`);
  }

  #namespaceLabels(name: string): Readonly<Record<string, string>> | undefined {
    const namespace = this.#deps.namespaces.get('', name);
    return namespace === undefined ? undefined : (namespace.metadata?.labels ?? {});
  }

  #report(set: DeepReadonly<SidecarSet>, missed: readonly DeepReadonly<Pod>[]): void {
    for (const pod of missed) {
      const uid = pod.metadata?.uid ?? '';
      if (this.#reported.has(uid)) continue;
      this.#reported.add(uid);
      const pod_ = `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
      const message = `pod ${pod_} was created without the sidecars of SidecarSet ${set.metadata.name ?? ''} (the pod webhook was unavailable, timed out or skipped it); recreate the pod to inject them`;
      this.#deps.recorder.warning(objectReference(podResource, pod), SIDECAR_INJECTION_MISSED_REASON, message);
      this.#deps.recorder.warning(objectReference(sidecarSetResource, set), SIDECAR_INJECTION_MISSED_REASON, message);
    }
  }

  #conditions(set: DeepReadonly<SidecarSet>, missed: readonly DeepReadonly<Pod>[]): Conditions {
    const current = [...(set.status?.conditions ?? [])] as Conditions;
    if (missed.length === 0) return removeCondition<Conditions[number]>(current, MISSED_INJECTION);
    const shown = missed.slice(0, 10).map((pod) => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`);
    const more = missed.length > shown.length ? ` and ${String(missed.length - shown.length)} more` : '';
    const message = `${String(missed.length)} pod(s) created without the sidecars (pod webhook unavailable, timed out or skipped): ${shown.join(', ')}${more}`;
    return setCondition<Conditions[number]>(current, { type: MISSED_INJECTION, status: 'True', reason: 'PodsCreatedWithoutSidecars', message }, { now: this.#deps.clock.now() });
  }
}
