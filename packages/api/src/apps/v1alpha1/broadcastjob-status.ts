/**
 * BroadcastJobStatus (v1alpha1, §C.3).
 */
import { z } from 'zod';

import { withDescription } from '../../crd/schema-metadata.ts';

const count = (description: string): z.ZodDefault<z.ZodInt32> => withDescription(z.int32(), description).default(0);

/** A job condition (Complete or Failed). */
export const broadcastJobConditionSchema = z.looseObject({
  type: withDescription(z.string(), 'Complete or Failed.'),
  status: withDescription(z.string(), 'True, False or Unknown.'),
  lastProbeTime: withDescription(z.string(), 'When the condition was last checked.').optional(),
  lastTransitionTime: withDescription(z.string(), 'When the status last changed.').optional(),
  reason: withDescription(z.string(), 'Machine-readable reason.').optional(),
  message: withDescription(z.string(), 'Human-readable details.').optional(),
});
/** A job condition as stored. */
export type BroadcastJobCondition = z.output<typeof broadcastJobConditionSchema>;

/** What the controller observed. */
export const broadcastJobStatusSchema = z.looseObject({
  conditions: withDescription(
    z.array(broadcastJobConditionSchema),
    'Complete or Failed once the job is finished (kruise-ts also reports why it cannot progress).',
  ).optional(),
  startTime: withDescription(z.string(), 'When the controller first worked on the job.').optional(),
  completionTime: withDescription(z.string(), 'When the job finished.').optional(),
  active: count('Pods running.'),
  succeeded: count('Pods that succeeded.'),
  failed: count('Pods that failed.'),
  desired: count('Eligible nodes: pods the job wants.'),
  phase: withDescription(z.string(), 'running, paused, completed or failed.').optional(),
});
/** The status as stored. */
export type BroadcastJobStatus = z.output<typeof broadcastJobStatusSchema>;
