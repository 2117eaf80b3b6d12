import type { CloneSet, ControllerRevision, Node, OwnerReference, PersistentVolumeClaim, Pod, PodTemplateSpec } from '@kruise-ts/api';
import type {
  DeepReadonly,
  EventReporter,
  FeatureGates,
  Lister,
  ObjectReference,
  ResourceClient,
  ResourceVersionExpectations,
  ScaleExpectations,
} from '@kruise-ts/controller-runtime';
import type { RequeueAfter, SlowStartMemory } from '@kruise-ts/workload';
import type { Logger } from 'pino';

import type { ResolvedStrategy } from '../strategy-values.ts';

/** Writes to pods: creations, patches of pods, pods/status and pods/resize, deletions, re-reads after a Conflict. */
export type PodControl = ResourceClient<Pod>;
/** Writes to the CloneSet's PVCs. */
export type ClaimControl = Pick<ResourceClient<PersistentVolumeClaim>, 'create' | 'patch' | 'delete'>;
/** The CloneSet's ControllerRevisions: created, renumbered, adopted, deleted. */
export type RevisionStore = Pick<ResourceClient<ControllerRevision>, 'get' | 'create' | 'patch' | 'delete'>;
/** Reads and writes of the CloneSet itself: a fresh read before adopting, the podsToDelete patch, the status. */
export type CloneSetControl = Pick<ResourceClient<CloneSet>, 'get' | 'patch' | 'patchStatus'>;

/** Wall-clock time in ms since the epoch: timestamps written to the API, availability, deadlines. */
export interface WallClock {
  now(): number;
}

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
export interface SyncContext {
  /** The reconcile's abort signal (already inside every client): a step checks it before reporting a failure it caused. */
  readonly signal: AbortSignal;
  readonly pods: PodControl;
  readonly claims: ClaimControl;
  readonly revisions: RevisionStore;
  readonly cloneSets: CloneSetControl;
  readonly recorder: EventReporter;
  readonly clock: WallClock;
  readonly logger: Logger;
  readonly gates: FeatureGates;
  readonly scaleExpectations: ScaleExpectations;
  readonly resourceVersionExpectations: ResourceVersionExpectations;
  readonly nodes: Lister<Node>;
  /** The shortest "come back in N ms" any step asked for. */
  readonly requeue: RequeueAfter;
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
