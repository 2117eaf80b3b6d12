import type {
  CloneSet,
  ControllerRevision,
  Node,
  OwnerReference,
  PersistentVolumeClaim,
  Pod,
  PodTemplateSpec,
} from '@kruise-ts/api';
import type { DeepReadonly, Lister, ObjectReference, ResourceClient } from '@kruise-ts/controller-runtime';
import type { PodControlContext, PodOwner } from '@kruise-ts/pod-control';
import type { RevisionStore } from '@kruise-ts/revision';
import type { SlowStartMemory } from '@kruise-ts/workload';

import type { ResolvedStrategy } from '../strategy-values.ts';

export type { ClaimControl, PodControl, WallClock } from '@kruise-ts/pod-control';
export type { RevisionStore } from '@kruise-ts/revision';
/** Reads and writes of the CloneSet itself: a fresh read before adopting, the podsToDelete patch, the status. */
export type CloneSetControl = Pick<ResourceClient<CloneSet>, 'get' | 'patch' | 'patchStatus'>;

/** The controller flags the sync steps read. */
export interface SyncOptions {
  /** `--cloneset-scaling-exclude-preparing-delete`: count PreparingDelete pods as gone when scaling. */
  readonly scalingExcludePreparingDelete: boolean;
  /** `--cloneset-strip-pod-managed-fields`: the in-place spec patch strips the pod's managedFields. */
  readonly stripPodManagedFields: boolean;
  /** `--cloneset-recreate-without-readiness-gates`: ReCreate CloneSets' pods get no readiness gate. */
  readonly reCreateWithoutReadinessGates: boolean;
}

/**
 * What the steps of one reconcile work with, as narrow capabilities: the API clients are bound to
 * the reconcile's abort signal (a timeout or a shutdown cancels every request), and each step takes
 * the `Pick` of this it needs, so that unit tests drive it with in-memory fakes (a FakeClient behind
 * the resource clients, a FakeEventRecorder, a fixed clock).
 */
export interface SyncContext extends PodControlContext {
  readonly revisions: RevisionStore;
  readonly cloneSets: CloneSetControl;
  readonly nodes: Lister<Node>;
  readonly options: SyncOptions;
  /** Where each CloneSet's next slow start of pod creations begins. */
  readonly createBatchSizes: SlowStartMemory;
}

/** The CloneSet being reconciled and what the reconcile has read about it. */
export interface SyncState {
  readonly cs: DeepReadonly<CloneSet>;
  /** `namespace/name`. */
  readonly key: string;
  /** Where Events about the CloneSet go. */
  readonly ref: ObjectReference;
  readonly controllerRef: OwnerReference;
  /** The CloneSet as the pod operations see it (key, Event target, name, lifecycle hooks). */
  readonly owner: PodOwner;
  readonly strategy: ResolvedStrategy;
  /** Active, claimed pods (PreparingDelete ones included). */
  readonly pods: readonly DeepReadonly<Pod>[];
  /** Owned PVCs that are not being deleted. */
  readonly pvcs: readonly DeepReadonly<PersistentVolumeClaim>[];
  readonly currentRevision: DeepReadonly<ControllerRevision>;
  readonly updateRevision: DeepReadonly<ControllerRevision>;
  /** Every revision of the CloneSet, oldest first (to find the revision a pod is at). */
  readonly revisions: readonly DeepReadonly<ControllerRevision>[];
  readonly currentTemplate: DeepReadonly<PodTemplateSpec>;
  readonly updateTemplate: DeepReadonly<PodTemplateSpec>;
}

/** A revision's name. */
export function revisionNameOf(revision: DeepReadonly<ControllerRevision>): string {
  return revision.metadata?.name ?? '';
}
