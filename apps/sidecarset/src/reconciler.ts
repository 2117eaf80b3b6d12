/**
 * The SidecarSet reconcile of this installment: the status over the cached pods, and a report of
 * every pod created without the SidecarSet's sidecars (the pod webhook fails open: when it was down,
 * timed out or was skipped, the pod was admitted as is). Each such pod gets one Warning Event, on
 * itself and on the SidecarSet, and the SidecarSet a MissedInjection condition with the count.
 */
import type { Pod, SidecarSet, SidecarSetStatus } from '@kruise-ts/api';
import { objectReference, resourceClient } from '@kruise-ts/controller-runtime';
import type { Client, DeepReadonly, EventReporter, KubeObject, Lister, ReconcileContext, Reconciler, Request, Result } from '@kruise-ts/controller-runtime';
import { podResource, removeCondition, setCondition, updateStatus } from '@kruise-ts/workload';

import { parseSidecarSet, sidecarSetResource } from './sidecarset-resource.ts';
import { calculateStatus } from './status/calculate-status.ts';

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
    const { status, missed } = calculateStatus({
      set,
      pods: this.#deps.pods.list(),
      namespaceLabels: (name) => this.#namespaceLabels(name),
      excludedNamespaces: this.#deps.excludedNamespaces,
    });
    this.#report(set, missed);
    const conditions = this.#conditions(set, missed);
    const next: SidecarSetStatus = { ...status, ...(set.status?.latestRevision === undefined ? {} : { latestRevision: set.status.latestRevision }), ...(conditions.length === 0 ? {} : { conditions }) };
    await updateStatus(resourceClient(this.#deps.api, sidecarSetResource, context.signal), set, next);
    return undefined;
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
