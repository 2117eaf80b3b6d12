/**
 * A SidecarSet the controller cannot read (its cached object fails the API schema: written by a newer
 * or older version, or by hand past the CRD's validation) is reported as CloneSet and Advanced
 * StatefulSet report theirs: a Warning Event once per new message and the `InvalidSpec` condition,
 * with `observedGeneration` moved to its generation so tools see the controller looked at it. Nothing
 * else is written, no pod is touched, and it is not retried until it changes.
 */
import type { SidecarSet, SidecarSetStatus } from '@kruise-ts/api';
import { objectReference, TerminalError } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, EventReporter, ResourceClient } from '@kruise-ts/controller-runtime';
import { setCondition, updateStatus, warnOnce } from '@kruise-ts/workload';
import type { ReportedProblem } from '@kruise-ts/workload';

import { sidecarSetResource } from '../sidecarset-resource.ts';

/** The condition type, its reason and the Event's reason. */
export const INVALID_SPEC = 'InvalidSpec';

type Conditions = NonNullable<SidecarSetStatus['conditions']>;

/** What the report writes with. */
export interface InvalidSpecContext {
  readonly sets: Pick<ResourceClient<SidecarSet>, 'patchStatus'>;
  readonly recorder: EventReporter;
  readonly clock: { now(): number };
}

/** Reports the unreadable SidecarSet and ends the reconcile with a TerminalError (its next edit reconciles it again). */
export async function reportInvalidSpec(
  ctx: InvalidSpecContext,
  cached: DeepReadonly<SidecarSet>,
  why: string,
): Promise<never> {
  const message = `the SidecarSet cannot be read: ${why}; its pods are neither counted nor upgraded until it is fixed`;
  const problem: ReportedProblem = { type: INVALID_SPEC, reason: INVALID_SPEC, message, eventReason: INVALID_SPEC };
  const current = (cached.status?.conditions ?? []) as Conditions;
  warnOnce(ctx.recorder, { ref: objectReference(sidecarSetResource, cached), conditions: current, problem });
  const conditions = setCondition<Conditions[number]>(
    current,
    { type: INVALID_SPEC, status: 'True', reason: INVALID_SPEC, message },
    { now: ctx.clock.now() },
  );
  // A new SidecarSet has no status yet, and the schema requires its counts.
  const counts = { matchedPods: 0, updatedPods: 0, readyPods: 0 };
  const generation = cached.metadata.generation;
  const status = {
    ...counts,
    ...cached.status,
    ...(generation === undefined ? {} : { observedGeneration: generation }),
    conditions,
  } as SidecarSetStatus;
  await updateStatus(ctx.sets, cached, status);
  throw new TerminalError(message);
}
