import type { CloneSet, ControllerRevision, Node, OwnerReference, PersistentVolumeClaim, Pod, PodTemplateSpec } from '@kruise-ts/api';
import type {
  Client,
  DeepReadonly,
  EventRecorder,
  FeatureGates,
  Lister,
  ObjectReference,
  ResourceVersionExpectations,
  ScaleExpectations,
} from '@kruise-ts/controller-runtime';
import type { RequeueAfter, SlowStartMemory } from '@kruise-ts/workload';
import type { Logger } from 'pino';

import type { ResolvedStrategy } from '../strategy-values.ts';

/** What every step of one reconcile shares: clients, caches, expectations and the clock. */
export interface SyncContext {
  readonly client: Client;
  readonly recorder: EventRecorder;
  readonly logger: Logger;
  readonly gates: FeatureGates;
  readonly scaleExpectations: ScaleExpectations;
  readonly resourceVersionExpectations: ResourceVersionExpectations;
  readonly nodes: Lister<Node>;
  readonly requeue: RequeueAfter;
  /** Milliseconds since the epoch; a function so tests can pin it. */
  readonly now: () => number;
  /** `--cloneset-scaling-exclude-preparing-delete`: count PreparingDelete pods as gone when scaling. */
  readonly scalingExcludePreparingDelete: boolean;
  /** `--cloneset-strip-pod-managed-fields`: the in-place spec patch strips the pod's managedFields. */
  readonly stripPodManagedFields: boolean;
  /** `--cloneset-recreate-without-readiness-gates`: ReCreate CloneSets' pods get no readiness gate. */
  readonly reCreateWithoutReadinessGates: boolean;
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
