/**
 * StatefulSetUpdateStrategy (v1beta1): RollingUpdate (by ordinal or by priority, in place or by
 * recreation, with a partition counted in pods) or OnDelete.
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';
import { intOrPercentSchema } from '../../meta/int-or-string.ts';
import { inPlaceUpdateStrategySchema } from '../pub/in-place-update.ts';
import { updatePriorityStrategySchema } from '../pub/update-priority.ts';

/** Update strategy types. */
export const StatefulSetUpdateStrategyType = {
  /** Replace pods in order (or by priority) when the template changes. The default. */
  RollingUpdate: 'RollingUpdate',
  /** Never replace pods for a template change; a pod deleted by the user comes back at the new revision. */
  OnDelete: 'OnDelete',
} as const;
/** A StatefulSet update strategy type. */
export type StatefulSetUpdateStrategyType =
  (typeof StatefulSetUpdateStrategyType)[keyof typeof StatefulSetUpdateStrategyType];

/** How a rolling update moves a pod to the new revision. */
export const PodUpdatePolicyType = {
  /** Delete the pod; it is created again at the new revision. The default. */
  ReCreate: 'ReCreate',
  /** In place when only images (and template metadata) changed, else recreate. */
  InPlaceIfPossible: 'InPlaceIfPossible',
  /** Always in place; a change that needs a new pod is refused. */
  InPlaceOnly: 'InPlaceOnly',
} as const;
/** A pod update policy. */
export type PodUpdatePolicyType = (typeof PodUpdatePolicyType)[keyof typeof PodUpdatePolicyType];

/** OpenKruise's MaxMinReadySeconds. */
export const MAX_MIN_READY_SECONDS = 300;

/** RollingUpdate settings; an absent block means these defaults. */
export const rollingUpdateStatefulSetStrategySchema = z.looseObject({
  partition: withDescription(
    z.int32().nonnegative(),
    'Pods to keep at old revisions, counted (not an ordinal): at most replicas - partition pods are updated. Default 0.',
  ).default(0),
  maxUnavailable: intOrPercentSchema({
    path: 'spec.updateStrategy.rollingUpdate.maxUnavailable',
    description:
      'Most pods unavailable during the update: an integer or a percentage of replicas rounded down (at least 1). Other than 1 only with Parallel. Default 1.',
    atMost100Percent: true,
  }).default(1),
  podUpdatePolicy: withDescription(
    z.enum(PodUpdatePolicyType),
    'ReCreate (default), InPlaceIfPossible or InPlaceOnly.',
  ).default(PodUpdatePolicyType.ReCreate),
  paused: withDescription(z.boolean(), 'Stop the rolling update; scaling goes on.').optional(),
  unorderedUpdate: withDescription(
    z.looseObject({
      priorityStrategy: withDescription(updatePriorityStrategySchema, 'Which pods to update first.').optional(),
    }),
    'Update by priority instead of by ordinal (Parallel only).',
  ).optional(),
  inPlaceUpdateStrategy: withDescription(
    inPlaceUpdateStrategySchema,
    'Settings of in-place updates (gracePeriodSeconds).',
  ).optional(),
  minReadySeconds: withDescription(
    z.int32().nonnegative().max(MAX_MIN_READY_SECONDS),
    'Seconds a pod must be ready before it counts as available (0 to 300). Default 0.',
  ).default(0),
});
/** RollingUpdate settings as stored. */
export type RollingUpdateStatefulSetStrategy = z.output<typeof rollingUpdateStatefulSetStrategySchema>;

/** How an Advanced StatefulSet updates its pods. */
export const statefulSetUpdateStrategySchema = withCrdMeta(
  z.looseObject({
    type: withDescription(z.enum(StatefulSetUpdateStrategyType), 'RollingUpdate (default) or OnDelete.').default(
      StatefulSetUpdateStrategyType.RollingUpdate,
    ),
    rollingUpdate: withDescription(
      rollingUpdateStatefulSetStrategySchema,
      'RollingUpdate settings; absent means the defaults. Must be absent with OnDelete.',
    ).optional(),
  }),
  {
    description: 'How pods move to a new revision.',
    validations: [
      {
        rule: "!has(self.type) || self.type != 'OnDelete' || !has(self.rollingUpdate)",
        message: 'spec.updateStrategy.rollingUpdate: only allowed for updateStrategy type RollingUpdate',
        fieldPath: '.rollingUpdate',
        reason: 'FieldValueForbidden',
      },
    ],
  },
);
/** The update strategy as stored. */
export type StatefulSetUpdateStrategy = z.output<typeof statefulSetUpdateStrategySchema>;
