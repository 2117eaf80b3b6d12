/**
 * CloneSetUpdateStrategy (v1alpha1): how pods move to a new revision, with the defaults of OpenKruise's
 * mutating webhook expressed as CRD defaults.
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';
import { intOrPercentSchema } from '../../meta/int-or-string.ts';
import { inPlaceUpdateStrategySchema } from '../pub/in-place-update.ts';
import { updatePriorityStrategySchema } from '../pub/update-priority.ts';
import { updateScatterStrategySchema } from './update-scatter-strategy.ts';

/** Update types of a v1alpha1 CloneSet. */
export const CloneSetUpdateStrategyType = {
  /** Delete old pods (and their PVCs) and create new ones. The default. */
  ReCreate: 'ReCreate',
  /** Update in place when only in-place-updatable fields changed, else recreate. */
  InPlaceIfPossible: 'InPlaceIfPossible',
  /** Always update in place. */
  InPlaceOnly: 'InPlaceOnly',
  /**
   * Never update; pods are replaced only when users delete them. Part of the type, but rejected in
   * v1alpha1 objects (as by OpenKruise's v1alpha1 webhook); it belongs to v1beta1, not served yet.
   */
  OnDelete: 'OnDelete',
} as const;
/** A CloneSet update type. */
export type CloneSetUpdateStrategyType = (typeof CloneSetUpdateStrategyType)[keyof typeof CloneSetUpdateStrategyType];

/** OpenKruise's default of `updateStrategy.maxUnavailable` (DefaultCloneSetMaxUnavailable). */
export const DEFAULT_CLONESET_MAX_UNAVAILABLE = '20%';

/** How a CloneSet updates its pods. */
export const cloneSetUpdateStrategySchema = z.looseObject({
  type: withCrdMeta(z.enum(CloneSetUpdateStrategyType), {
    description: 'ReCreate (default), InPlaceIfPossible or InPlaceOnly.',
    validations: [
      {
        rule: "self != 'OnDelete'",
        message:
          "spec.updateStrategy.type: must be 'ReCreate', 'InPlaceIfPossible' or 'InPlaceOnly'; OnDelete is not supported in apps.kruise.io/v1alpha1",
      },
    ],
  }).default(CloneSetUpdateStrategyType.ReCreate),
  partition: intOrPercentSchema({
    path: 'spec.updateStrategy.partition',
    description:
      'Pods to keep at old revisions: an integer or a percentage of replicas rounded up (at most 100%). Default 0.',
    atMost100Percent: true,
  }).default(0),
  maxUnavailable: intOrPercentSchema({
    path: 'spec.updateStrategy.maxUnavailable',
    description:
      'Most pods that may be unavailable during an update or a specified delete: an integer or a percentage of replicas (at most 100%), rounded up, or down when maxSurge > 0. Default 20%.',
    atMost100Percent: true,
  }).default(DEFAULT_CLONESET_MAX_UNAVAILABLE),
  maxSurge: intOrPercentSchema({
    path: 'spec.updateStrategy.maxSurge',
    description:
      'Most pods above replicas during an update or a specified delete: an integer or a percentage of replicas rounded up. Default 0.',
  }).default(0),
  paused: withDescription(z.boolean(), 'Stop updating pods; scaling goes on.').optional(),
  priorityStrategy: withDescription(
    updatePriorityStrategySchema,
    'Which pods to update first: by weight or by a label value order.',
  ).optional(),
  scatterStrategy: updateScatterStrategySchema.optional(),
  inPlaceUpdateStrategy: withDescription(inPlaceUpdateStrategySchema, 'Settings of in-place updates.').optional(),
});
/** The update strategy as stored (defaults applied). */
export type CloneSetUpdateStrategy = z.output<typeof cloneSetUpdateStrategySchema>;
