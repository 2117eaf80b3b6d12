import type {
  ControllerRevision,
  OwnerReference,
  PersistentVolumeClaim,
  Pod,
  PodTemplateSpec,
  StatefulSet,
} from '@kruise-ts/api';
import type { DeepReadonly, ResourceClient } from '@kruise-ts/controller-runtime';
import type { PodControlContext, PodOwner } from '@kruise-ts/pod-control';
import type { RevisionStore } from '@kruise-ts/revision';

import type { ReplicaRange } from '../ordinals.ts';
import type { StatefulPodSource } from './stateful-pod.ts';

/** Reads and writes of the set itself: a fresh read before adopting, the status. */
export type StatefulSetControl = Pick<ResourceClient<StatefulSet>, 'get' | 'patchStatus'>;

/**
 * What the steps of one reconcile work with: the pod-control capabilities (clients bound to the
 * reconcile's abort signal, recorder, clock, expectations, requeue) plus the revisions and the set.
 */
export interface SyncContext extends PodControlContext {
  readonly revisions: RevisionStore;
  readonly statefulSets: StatefulSetControl;
  readonly options: SyncOptions;
}

/** The controller's options the sync steps read. */
export interface SyncOptions {
  /** `--statefulset-strip-pod-managed-fields`: the in-place spec patch strips the pod's managedFields. */
  readonly stripPodManagedFields: boolean;
}

/** One live ordinal and its pod, when it exists. */
export interface ReplicaSlot {
  readonly ordinal: number;
  readonly pod: DeepReadonly<Pod> | undefined;
}

/** The set being reconciled and what the reconcile read about it. */
export interface SyncState {
  readonly set: DeepReadonly<StatefulSet>;
  readonly key: string;
  readonly owner: PodOwner;
  readonly controllerRef: OwnerReference;
  readonly source: StatefulPodSource;
  readonly range: ReplicaRange;
  /** The live ordinals, ascending. */
  readonly replicas: readonly ReplicaSlot[];
  /** Pods at ordinals out of range or reserved. */
  readonly condemned: readonly { readonly ordinal: number; readonly pod: DeepReadonly<Pod> }[];
  /** Every claimed pod. */
  readonly pods: readonly DeepReadonly<Pod>[];
  /** The claims of the set's templates in its namespace, by name. */
  readonly claims: ReadonlyMap<string, DeepReadonly<PersistentVolumeClaim>>;
  readonly currentRevision: DeepReadonly<ControllerRevision>;
  readonly updateRevision: DeepReadonly<ControllerRevision>;
  readonly revisions: readonly DeepReadonly<ControllerRevision>[];
  readonly currentTemplate: DeepReadonly<PodTemplateSpec>;
  readonly updateTemplate: DeepReadonly<PodTemplateSpec>;
  readonly collisionCount: number;
}

/** The state with newer versions of its pods (by name), as a step wrote them. */
export function withPods(state: SyncState, pods: readonly DeepReadonly<Pod>[]): SyncState {
  const byName = new Map(pods.map((pod) => [pod.metadata?.name ?? '', pod]));
  const fresh = (pod: DeepReadonly<Pod>): DeepReadonly<Pod> => byName.get(pod.metadata?.name ?? '') ?? pod;
  return {
    ...state,
    pods,
    replicas: state.replicas.map(({ ordinal, pod }) => ({ ordinal, pod: pod === undefined ? undefined : fresh(pod) })),
    condemned: state.condemned.map(({ ordinal, pod }) => ({ ordinal, pod: fresh(pod) })),
  };
}

/** A revision's name. */
export function revisionNameOf(revision: DeepReadonly<ControllerRevision>): string {
  return revision.metadata?.name ?? '';
}

/** The rolling update settings the controller reads. */
export interface RollingUpdateSettings {
  readonly partition: number;
  readonly maxUnavailable: number | string;
  readonly podUpdatePolicy: 'ReCreate' | 'InPlaceIfPossible' | 'InPlaceOnly';
  readonly paused: boolean;
  readonly minReadySeconds: number;
  readonly gracePeriodSeconds: number;
  readonly unorderedUpdate:
    | DeepReadonly<NonNullable<NonNullable<StatefulSet['spec']['updateStrategy']['rollingUpdate']>['unorderedUpdate']>>
    | undefined;
}

/** OpenKruise's webhook defaults of a rollingUpdate block. */
const ROLLING_UPDATE_DEFAULTS: RollingUpdateSettings = {
  partition: 0,
  maxUnavailable: 1,
  podUpdatePolicy: 'ReCreate',
  paused: false,
  minReadySeconds: 0,
  gracePeriodSeconds: 0,
  unorderedUpdate: undefined,
};

/**
 * `spec.updateStrategy.rollingUpdate` (its fields defaulted by the schema), or the defaults when the
 * block is absent: the CRD cannot create the block for RollingUpdate sets only, as OpenKruise's webhook does.
 */
export function rollingUpdateOf(set: DeepReadonly<StatefulSet>): RollingUpdateSettings {
  const rolling = set.spec.updateStrategy.rollingUpdate;
  if (rolling === undefined) {
    return ROLLING_UPDATE_DEFAULTS;
  }
  return {
    partition: rolling.partition,
    maxUnavailable: rolling.maxUnavailable,
    podUpdatePolicy: rolling.podUpdatePolicy,
    paused: rolling.paused === true,
    minReadySeconds: rolling.minReadySeconds,
    gracePeriodSeconds: rolling.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0,
    unorderedUpdate: rolling.unorderedUpdate,
  };
}

/** Slot `i` is ordinal `range.start + i`: its pod, or undefined (reserved, or no pod yet). */
export function slotsOf(state: Pick<SyncState, 'range' | 'replicas'>): (DeepReadonly<Pod> | undefined)[] {
  const slots: (DeepReadonly<Pod> | undefined)[] = Array.from({ length: state.range.end - state.range.start });
  for (const { ordinal, pod } of state.replicas) {
    slots[ordinal - state.range.start] = pod;
  }
  return slots;
}
