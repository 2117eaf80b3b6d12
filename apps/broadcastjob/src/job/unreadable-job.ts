/**
 * A BroadcastJob the controller cannot read (its schema refuses the stored object: a CRD of another
 * version, a value CEL could not check), reported as CloneSet reports one: a Warning FailedCreate
 * once per problem and the FailedCreatePod condition (reason InvalidTemplate) naming the fields.
 * Nothing else is written, no pod is created or deleted; the user's next edit reconciles it again.
 */
import type { BroadcastJob, BroadcastJobCondition, BroadcastJobStatus } from '@kruise-ts/api';
import { objectReference } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, EventReporter, ResourceClient } from '@kruise-ts/controller-runtime';
import { updateStatus, warnOnce } from '@kruise-ts/workload';

import { broadcastJobResource } from '../broadcastjob-resource.ts';
import { FAILED_CREATE_POD, INVALID_TEMPLATE, problemConditions } from './job-status.ts';

/** What the report writes with. */
export interface UnreadableReportContext {
  readonly jobs: Pick<ResourceClient<BroadcastJob>, 'patchStatus'>;
  readonly recorder: EventReporter;
  readonly now: number;
}

/** Reports the job (see the file's comment). */
export async function reportUnreadableJob(
  ctx: UnreadableReportContext,
  input: { readonly job: DeepReadonly<BroadcastJob>; readonly message: string },
): Promise<void> {
  const { job, message } = input;
  const problem = { type: FAILED_CREATE_POD, reason: INVALID_TEMPLATE, message, eventReason: 'FailedCreate' };
  warnOnce(ctx.recorder, {
    ref: objectReference(broadcastJobResource, job),
    conditions: job.status?.conditions,
    problem,
  });
  const current = structuredClone(job.status?.conditions ?? []) as BroadcastJobCondition[];
  const conditions = problemConditions(current, { type: FAILED_CREATE_POD, problem, now: ctx.now });
  // A new job has no status yet, and the schema requires its counts: no pods counted, so zeros.
  const status: BroadcastJobStatus = {
    active: 0,
    succeeded: 0,
    failed: 0,
    desired: 0,
    ...(structuredClone(job.status ?? {}) as Partial<BroadcastJobStatus>),
    conditions,
  };
  await updateStatus(ctx.jobs, job, status);
}
