/**
 * The pod-control capabilities of one reconcile, built the same way by every app: the pod and PVC
 * clients bound to the reconcile's abort signal (a timeout or a shutdown cancels every request), the
 * recorder, the clock, the expectations and a fresh requeue collector.
 */
import type { FeatureGates } from '@kruise-ts/app-config';
import type { PersistentVolumeClaim, Pod } from '@kruise-ts/api';
import { resourceClient } from '@kruise-ts/controller-runtime';
import type { EventReporter, Manager, ObjectApi, ReconcileContext } from '@kruise-ts/controller-runtime';
import { controllerExpectations, podResource, pvcResource, RequeueAfter } from '@kruise-ts/workload';
import type { ResourceVersionExpectations, ScaleExpectations } from '@kruise-ts/workload';

import type { PodControlContext, WallClock } from './context.ts';

/** What an app's reconciler holds for the pod operations. */
export interface PodControlDeps {
  /** The API (the manager's client; a FakeClient in unit tests). */
  readonly api: ObjectApi;
  readonly recorder: EventReporter;
  readonly gates: FeatureGates;
  readonly scaleExpectations: ScaleExpectations;
  readonly resourceVersionExpectations: ResourceVersionExpectations;
  /** Wall-clock time; `Date` when absent. */
  readonly clock?: WallClock | undefined;
}

const SYSTEM_CLOCK: WallClock = { now: () => Date.now() };

/** The capabilities of one reconcile. */
export function podControlContext(
  deps: PodControlDeps,
  context: Pick<ReconcileContext, 'signal' | 'logger'>,
): PodControlContext {
  const { signal } = context;
  return {
    signal,
    pods: resourceClient<Pod>(deps.api, podResource, signal),
    claims: resourceClient<PersistentVolumeClaim>(deps.api, pvcResource, signal),
    recorder: deps.recorder,
    clock: deps.clock ?? SYSTEM_CLOCK,
    logger: context.logger,
    gates: deps.gates,
    scaleExpectations: deps.scaleExpectations,
    resourceVersionExpectations: deps.resourceVersionExpectations,
    requeue: new RequeueAfter(),
  };
}

/** What {@link podControlDeps} builds the dependencies from. */
export interface PodControlDepsOptions {
  /** The controller's name: its expectations are registered (and measured) under it. */
  readonly controllerName: string;
  /** The component of its Events, as OpenKruise names it. */
  readonly eventComponent: string;
  readonly gates: FeatureGates;
  /** How long an unsatisfied expectation may block an owner before it is dropped. */
  readonly expectationTimeoutMs: number;
}

/** The pod-control dependencies of a controller registered with `manager`. */
export function podControlDeps(manager: Manager, options: PodControlDepsOptions): PodControlDeps {
  return {
    api: manager.client,
    recorder: manager.eventRecorder(options.eventComponent),
    gates: options.gates,
    ...controllerExpectations(manager, options.controllerName, { timeoutMs: options.expectationTimeoutMs }),
  };
}
