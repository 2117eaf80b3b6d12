/**
 * BroadcastJobSpec (v1alpha1, §C.2): the pod template run once on each eligible node, how many run at
 * once, when the job is done, and what a failed pod does to it. OpenKruise's defaults are the
 * schema's; its webhook rules are CEL rules here.
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';
import { intOrPercentSchema } from '../../meta/int-or-string.ts';
import { jobPodTemplateSchema } from '../pub/workload-pod-template.ts';
import {
  BROADCASTJOB_CONTROLLER_UID_LABEL,
  BROADCASTJOB_DEFAULT_PARALLELISM,
  BROADCASTJOB_NAME_LABEL,
} from './broadcastjob-names.ts';

/** When the job is finished. */
export const CompletionPolicyType = { Always: 'Always', Never: 'Never' } as const;
/** What a failed pod does to the job. */
export const FailurePolicyType = { FailFast: 'FailFast', Continue: 'Continue', Pause: 'Pause' } as const;

const completionPolicySchema = withCrdMeta(
  z.looseObject({
    type: withDescription(
      z.enum(CompletionPolicyType),
      'Always (default): done once every eligible node ran its pod. Never: keeps running pods on nodes that join.',
    ).default('Always'),
    activeDeadlineSeconds: withDescription(
      z.int().positive(),
      'Always only: the job fails once it has run this long since status.startTime.',
    ).optional(),
    ttlSecondsAfterFinished: withDescription(
      z.int32().nonnegative(),
      'Always only: the finished job (and its pods) is deleted this long after completionTime.',
    ).optional(),
  }),
  {
    description: 'When the job is finished.',
    validations: [
      {
        rule: "self.type != 'Never' || !has(self.ttlSecondsAfterFinished)",
        message:
          'spec.completionPolicy.ttlSecondsAfterFinished: ttlSecondsAfterFinished is not allowed with completionPolicy Never',
        fieldPath: '.ttlSecondsAfterFinished',
        reason: 'FieldValueForbidden',
      },
      {
        rule: "self.type != 'Never' || !has(self.activeDeadlineSeconds)",
        message:
          'spec.completionPolicy.activeDeadlineSeconds: activeDeadlineSeconds is not allowed with completionPolicy Never',
        fieldPath: '.activeDeadlineSeconds',
        reason: 'FieldValueForbidden',
      },
    ],
  },
);

const failurePolicySchema = z.looseObject({
  type: withDescription(
    z.enum(FailurePolicyType),
    'FailFast (default): a failed pod fails the job. Continue: the job goes on. Pause: the job pauses.',
  ).default('FailFast'),
  restartLimit: withDescription(
    z.int32().nonnegative(),
    'OnFailure pods: a pod whose containers restarted more often than this counts as failed.',
  ).default(0),
});

/** The desired state of a BroadcastJob. */
export const broadcastJobSpecSchema = z.looseObject({
  parallelism: intOrPercentSchema({
    path: 'spec.parallelism',
    description: 'Most pods running at once: a number or a percentage of the desired nodes (rounded up). Default: all.',
  }).default(BROADCASTJOB_DEFAULT_PARALLELISM),
  template: jobPodTemplateSchema(
    { lower: 'broadcastjob', kind: 'BroadcastJob' },
    { reservedLabels: [BROADCASTJOB_NAME_LABEL, BROADCASTJOB_CONTROLLER_UID_LABEL] },
  ),
  completionPolicy: withDescription(completionPolicySchema, 'When the job is finished.').prefault({}),
  paused: withDescription(z.boolean(), 'Stops creating pods (running ones go on).').default(false),
  failurePolicy: withDescription(failurePolicySchema, 'What a failed pod does to the job.').prefault({}),
});
/** The spec as stored (defaults applied). */
export type BroadcastJobSpec = z.output<typeof broadcastJobSpecSchema>;
/** The spec as users write it. */
export type BroadcastJobSpecInput = z.input<typeof broadcastJobSpecSchema>;
