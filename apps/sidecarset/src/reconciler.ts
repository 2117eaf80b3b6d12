/**
 * The SidecarSet reconcile of this installment: the status over the cached pods, and a report of
 * every pod created without the SidecarSet's sidecars (the pod webhook fails open: when it was down,
 * timed out or was skipped, the pod was admitted as is). Each such pod gets one Warning Event, on
 * itself and on the SidecarSet, and the SidecarSet a MissedInjection condition with the count.
 */
import type { Pod, SidecarSet, SidecarSetStatus } from '@kruise-ts/api';
import { isConflict, isInvalid, isNotFound, objectReference, resourceClient } from '@kruise-ts/controller-runtime';
import type { Client, DeepReadonly, EventReporter, KubeObject, Lister, ReconcileContext, Reconciler, Request, Result } from '@kruise-ts/controller-runtime';
import { POD_WRITE_CONCURRENCY, podResource, removeCondition, setCondition, settleWithConcurrency, updateStatus } from '@kruise-ts/workload';

import { parseSidecarSet, sidecarSetResource } from './sidecarset-resource.ts';
import { calculateStatus } from './status/calculate-status.ts';
import { planUpgrade } from './upgrade/upgrade-plan.ts';
import type { UpgradeCandidate } from './upgrade/upgrade-plan.ts';
import { sidecarUpgradePatch } from './upgrade/upgrade-pod.ts';

/** A write refused because the pod changed since it was read (409, or 422 from the patch's resourceVersion test), or is gone. */
function isConflictOrTestFailure(error: unknown): boolean {
  return isConflict(error) || isInvalid(error) || isNotFound(error);
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
  /** Namespaces the pod webhook never sees: their pods are not reported. */
  readonly excludedNamespaces: ReadonlySet<string>;
  /** Non-empty: only SidecarSets scoped to this namespace are reconciled (the pod cache holds no other). */
  readonly namespace: string;
}

type Conditions = NonNullable<SidecarSetStatus['conditions']>;

export class SidecarSetReconciler implements Reconciler {
  readonly #deps: SidecarSetReconcilerDeps;
  /** Pods already reported, by uid (a restart reports them again once; the condition always tells). */
  readonly #reported = new Set<string>();

  constructor(deps: SidecarSetReconcilerDeps) {
    this.#deps = deps;
  }

  async reconcile(context: ReconcileContext, request: Request): Promise<Result | undefined> {
    const cached = this.#deps.sidecarSets.get('', request.name);
    if (cached === undefined) return undefined;
    const parsed = parseSidecarSet(cached);
    if (parsed.kind === 'invalid') {
      context.logger.error({ message: parsed.message }, 'SidecarSet cannot be read');
      return undefined;
    }
    const set = parsed.object;
    if (this.#deps.namespace !== '' && set.spec.namespace !== this.#deps.namespace) return undefined;
    const { status, missed, candidates } = calculateStatus({
      set,
      pods: this.#deps.pods.list(),
      namespaceLabels: (name) => this.#namespaceLabels(name),
      excludedNamespaces: this.#deps.excludedNamespaces,
    });
    this.#report(set, missed);
    const conditions = this.#conditions(set, missed);
    const next: SidecarSetStatus = { ...status, ...(set.status?.latestRevision === undefined ? {} : { latestRevision: set.status.latestRevision }), ...(conditions.length === 0 ? {} : { conditions }) };
    // The status first, as OpenKruise: it shows what the upgrade starts from.
    await updateStatus(resourceClient(this.#deps.api, sidecarSetResource, context.signal), set, next);
    if (set.spec.updateStrategy.type === 'NotUpdate' || set.spec.updateStrategy.paused === true) return undefined;
    await this.#upgrade(context, set, candidates);
    return undefined;
  }

  /** Upgrades this round's pods in place; a pod changed meanwhile (its resourceVersion test fails) waits for the next round. */
  async #upgrade(context: ReconcileContext, set: DeepReadonly<SidecarSet>, candidates: readonly UpgradeCandidate[]): Promise<void> {
    const plan = planUpgrade(set, candidates);
    if (plan.notUpgradable.length > 0) {
      const message = `${String(plan.notUpgradable.length)} pod(s) cannot be upgraded in place: more than the sidecar images changed; recreate them to get the new sidecars`;
      this.#deps.recorder.warning(objectReference(sidecarSetResource, set), 'NotUpgradablePods', message);
    }
    const pods = resourceClient(this.#deps.api, podResource, context.signal);
    const now = new Date(this.#deps.clock.now());
    const outcomes = await settleWithConcurrency(plan.upgrade, POD_WRITE_CONCURRENCY, async (pod) => {
      const patch = sidecarUpgradePatch(pod, set, now);
      if (patch === undefined) return;
      await pods.patch({ namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' }, { type: 'json', body: patch });
    });
    const failed = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected').map((outcome) => outcome.reason as unknown);
    const real = failed.filter((error) => !isConflictOrTestFailure(error));
    if (real.length > 0) throw real[0] instanceof Error ? real[0] : new Error(String(real[0]));
    if (plan.upgrade.length > 0) context.logger.info({ upgraded: plan.upgrade.length - failed.length, waiting: failed.length }, 'Upgraded sidecars in place');
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
