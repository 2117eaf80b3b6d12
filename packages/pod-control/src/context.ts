/**
 * The narrow capabilities the pod operations take: each operation's `Pick` of {@link PodControlContext}.
 * An app's sync context is a superset, so an app passes its own; unit tests pass in-memory fakes
 * (a FakeClient behind the resource clients, a FakeEventRecorder, a fixed clock).
 */
import type { FeatureGates } from '@kruise-ts/app-config';
import type { Lifecycle, PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import type { DeepReadonly, EventReporter, ObjectReference, ResourceClient } from '@kruise-ts/controller-runtime';
import type { RequeueAfter, ResourceVersionExpectations, ScaleExpectations } from '@kruise-ts/workload';
import type { Logger } from 'pino';

/** Writes to pods: creations, patches of pods, pods/status and pods/resize, deletions, re-reads after a Conflict. */
export type PodControl = ResourceClient<Pod>;
/** Writes to a workload's PVCs. */
export type ClaimControl = Pick<ResourceClient<PersistentVolumeClaim>, 'create' | 'patch' | 'delete'>;

/** Wall-clock time in ms since the epoch: timestamps written to the API, availability, deadlines. */
export interface WallClock {
  now(): number;
}

/** Everything the pod operations may use; each takes only what it needs. */
export interface PodControlContext {
  /** The reconcile's abort signal (already inside every client): a failure it caused is not reported. */
  readonly signal: AbortSignal;
  readonly pods: PodControl;
  readonly claims: ClaimControl;
  readonly recorder: EventReporter;
  readonly clock: WallClock;
  readonly logger: Logger;
  readonly gates: FeatureGates;
  readonly scaleExpectations: ScaleExpectations;
  readonly resourceVersionExpectations: ResourceVersionExpectations;
  /** The shortest "come back in N ms" any step asked for. */
  readonly requeue: RequeueAfter;
}

/** The workload whose pods are operated on. */
export interface PodOwner {
  /** `namespace/name`: the key of its scale expectations. */
  readonly key: string;
  /** Where Events about it go. */
  readonly ref: ObjectReference;
  /** Its name, the prefix of its pods' names. */
  readonly name: string;
  /** `spec.lifecycle`: the hooks that hold its pods before deletion and in-place updates. */
  readonly lifecycle: DeepReadonly<Lifecycle> | undefined;
}
