/**
 * Everything one reconcile of a set needs, read from the caches: its revisions (claimed, the update
 * revision ensured), its claimed pods split into live ordinals and condemned ones, and its claims.
 */
import type { FeatureGates } from '@kruise-ts/app-config';
import type { PersistentVolumeClaim, Pod, StatefulSet } from '@kruise-ts/api';
import { keyOf, objectReference } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { activeRevisions, templateFromRevision } from '@kruise-ts/revision';
import type { ActiveRevisions } from '@kruise-ts/revision';
import {
  claimCandidates,
  claimObjects,
  claimOwnerOf,
  freshOwnerCheck,
  newControllerRef,
  staleObject,
} from '@kruise-ts/workload';
import type { WorkloadReadCaches } from '@kruise-ts/workload';

import { inRange, liveOrdinals, parseReserveOrdinals, podOrdinal, replicaRange } from './ordinals.ts';
import { reserveCondemnsEveryPod } from './reserve-guard.ts';
import { statefulSetKey, statefulSetResource } from './statefulset-resource.ts';
import type { SyncContext, SyncState } from './sync/sync-context.ts';

/** The caches the read phase takes its objects from. */
export type ReadCaches = WorkloadReadCaches;

/** The state of one set, why the reconcile must wait, or a spec it cannot carry out. */
export type ReadResult =
  | { readonly kind: 'ready'; readonly state: SyncState }
  | { readonly kind: 'waiting'; readonly reason: string }
  | { readonly kind: 'unusable'; readonly message: string; readonly state: SyncState };

/** The claims in the set's namespace named after its templates, by name. */
function claimsOf(
  caches: ReadCaches,
  set: DeepReadonly<StatefulSet>,
): Map<string, DeepReadonly<PersistentVolumeClaim>> {
  const prefixes = (set.spec.volumeClaimTemplates ?? []).map(
    (template) => `${template.metadata?.name ?? ''}-${set.metadata.name ?? ''}-`,
  );
  const claims = new Map<string, DeepReadonly<PersistentVolumeClaim>>();
  if (prefixes.length === 0) {
    return claims;
  }
  for (const claim of caches.pvcs.list({ namespace: set.metadata.namespace ?? '' })) {
    const name = claim.metadata?.name ?? '';
    if (prefixes.some((prefix) => name.startsWith(prefix))) {
      claims.set(name, claim);
    }
  }
  return claims;
}

/** The first ordinal a set runs: `spec.ordinals.start` with gate StatefulSetStartOrdinal, else 0. */
function startOrdinal(gates: FeatureGates, set: DeepReadonly<StatefulSet>): number {
  return gates.enabled('StatefulSetStartOrdinal') ? (set.spec.ordinals?.start ?? 0) : 0;
}

/**
 * Reads the set's state. A `reserveOrdinals` entry that cannot be read, or a list that would condemn
 * every pod the set has (when the list, not a moved `ordinals.start`, is what condemns them), makes
 * the state unusable: OpenKruise then reserves nothing (or deletes every pod), which deletes pods
 * because of a typo; the reconciler reports it and leaves the pods alone.
 */
export async function readState(
  ctx: SyncContext,
  caches: ReadCaches,
  set: DeepReadonly<StatefulSet>,
): Promise<ReadResult> {
  const owner = claimOwnerOf(set);
  const canAdopt = freshOwnerCheck(() => ctx.statefulSets.get(keyOf(set)), owner.uid);
  const revisions = await activeRevisions({
    store: ctx.revisions,
    cache: caches.revisions,
    owner,
    selector: set.spec.selector,
    template: set.spec.template,
    annotations: set.metadata.annotations ?? {},
    collisionCount: set.status?.collisionCount ?? 0,
    statusCurrentRevision: set.status?.currentRevision,
    canAdopt,
  });
  const setName = set.metadata.name ?? '';
  const candidates = claimCandidates(caches.pods, owner, set.spec.selector).filter(
    (pod) => podOrdinal(setName, pod.metadata?.name ?? '') !== undefined,
  );
  const pods = await claimObjects({
    owner,
    selector: set.spec.selector,
    objects: candidates,
    kind: 'pod',
    patch: (pod, patch) => ctx.pods.patch(keyOf(pod), patch),
    canAdopt,
  });
  const stale = staleObject(ctx.resourceVersionExpectations, [revisions.updateRevision, ...pods]);
  if (stale !== undefined) {
    return { kind: 'waiting', reason: `the cache has not caught up with our last write to ${stale}` };
  }
  const reserve = parseReserveOrdinals(set.spec.reserveOrdinals);
  const state = buildState(ctx, { caches, set, pods, revisions, reserve });
  const problem = unusableReserve(state, reserve);
  return problem === undefined ? { kind: 'ready', state } : { kind: 'unusable', state, message: problem };
}

interface StateParts {
  readonly caches: ReadCaches;
  readonly set: DeepReadonly<StatefulSet>;
  readonly pods: readonly DeepReadonly<Pod>[];
  readonly revisions: ActiveRevisions;
  readonly reserve: ReturnType<typeof parseReserveOrdinals>;
}

function buildState(ctx: Pick<SyncContext, 'gates'>, parts: StateParts): SyncState {
  const { set, pods, revisions } = parts;
  const setName = set.metadata.name ?? '';
  const owner = claimOwnerOf(set);
  const range = replicaRange({
    replicas: set.spec.replicas,
    start: startOrdinal(ctx.gates, set),
    reserved: parts.reserve.reserved,
  });
  const byOrdinal = new Map(pods.map((pod) => [podOrdinal(setName, pod.metadata?.name ?? '') ?? -1, pod]));
  const controllerRef = newControllerRef(owner);
  const key = statefulSetKey(set);
  return {
    set,
    key,
    owner: { key, ref: objectReference(statefulSetResource, set), name: setName, lifecycle: set.spec.lifecycle },
    controllerRef,
    source: {
      setName,
      namespace: set.metadata.namespace ?? '',
      serviceName: set.spec.serviceName ?? '',
      controllerRef,
      volumeClaimTemplates: set.spec.volumeClaimTemplates ?? [],
      lifecycle: set.spec.lifecycle,
      podIndexLabel: ctx.gates.enabled('PodIndexLabel'),
    },
    range,
    replicas: liveOrdinals(range).map((ordinal) => ({ ordinal, pod: byOrdinal.get(ordinal) })),
    condemned: [...byOrdinal.entries()]
      .filter(([ordinal]) => !inRange(range, ordinal))
      .map(([ordinal, pod]) => ({ ordinal, pod })),
    pods,
    claims: claimsOf(parts.caches, set),
    currentRevision: revisions.currentRevision,
    updateRevision: revisions.updateRevision,
    revisions: revisions.revisions,
    currentTemplate: templateFromRevision(revisions.currentRevision),
    updateTemplate: templateFromRevision(revisions.updateRevision),
    collisionCount: revisions.collisionCount,
  };
}

/** Why the reserve list cannot be carried out, if it cannot. */
function unusableReserve(state: SyncState, reserve: ReturnType<typeof parseReserveOrdinals>): string | undefined {
  if (reserve.kind === 'invalid') {
    return `spec.reserveOrdinals: ${reserve.entry} is neither a non-negative integer nor a range "start-end" with start <= end; no pod is created or deleted until it is fixed`;
  }
  const podOrdinals = [
    ...state.replicas.flatMap((slot) => (slot.pod === undefined ? [] : [slot.ordinal])),
    ...state.condemned.map((entry) => entry.ordinal),
  ];
  if (
    reserveCondemnsEveryPod({
      replicas: state.set.spec.replicas,
      start: state.range.start,
      reserved: reserve.reserved,
      podOrdinals,
    })
  ) {
    return `spec.reserveOrdinals: every pod of the set (${String(podOrdinals.length)}) would be deleted at once; no pod is created or deleted until the list leaves some in place (or scale to 0 first)`;
  }
  return undefined;
}
