/**
 * CloneSetStatus and its conditions (v1alpha1).
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';

/** Condition types of a CloneSet. */
export const CloneSetConditionType = {
  /** The controller failed to create or delete pods or PVCs. */
  FailedScale: 'FailedScale',
  /** The controller failed to update pods. */
  FailedUpdate: 'FailedUpdate',
  /** Progress of a rollout, tracked when spec.progressDeadlineSeconds is set. */
  Progressing: 'Progressing',
} as const;
/** A CloneSet condition type. */
export type CloneSetConditionType = (typeof CloneSetConditionType)[keyof typeof CloneSetConditionType];

/** Reasons of the Progressing condition. */
export const CloneSetConditionReason = {
  /** False: no progress within progressDeadlineSeconds. */
  ProgressDeadlineExceeded: 'ProgressDeadlineExceeded',
  /** True: the update is paused. */
  CloneSetPaused: 'CloneSetPaused',
  /** True: a rollout is in progress. */
  CloneSetUpdated: 'CloneSetUpdated',
  /** True: the pods the partition allows are updated and available. */
  ProgressPartitionAvailable: 'ProgressPartitionAvailable',
  /** True: all pods are updated and available. */
  CloneSetAvailable: 'CloneSetAvailable',
} as const;
/** A reason of the Progressing condition. */
export type CloneSetConditionReason = (typeof CloneSetConditionReason)[keyof typeof CloneSetConditionReason];

/** Status of a condition. */
export const ConditionStatus = { True: 'True', False: 'False', Unknown: 'Unknown' } as const;
/** A condition status. */
export type ConditionStatus = (typeof ConditionStatus)[keyof typeof ConditionStatus];

const timestamp = withCrdMeta(z.string(), { format: 'date-time' });

/** One CloneSet condition. */
export const cloneSetConditionSchema = z.looseObject({
  type: withDescription(z.string(), 'Condition type: FailedScale, FailedUpdate or Progressing.'),
  status: withDescription(z.enum(ConditionStatus), 'True, False or Unknown.'),
  lastUpdateTime: withDescription(timestamp, 'When the condition was last updated.').optional(),
  lastTransitionTime: withDescription(timestamp, 'When the status last changed.').optional(),
  reason: withDescription(z.string(), 'Machine-readable reason of the last transition.').optional(),
  message: withDescription(z.string(), 'Human-readable details.').optional(),
});
/** A CloneSet condition. */
export type CloneSetCondition = z.infer<typeof cloneSetConditionSchema>;

const count = (description: string): z.ZodInt32 => withDescription(z.int32(), description);

/** The observed state of a CloneSet, written by the controller through the status subresource. */
export const cloneSetStatusSchema = withCrdMeta(
  z.looseObject({
    observedGeneration: withDescription(z.int(), 'The metadata.generation the controller last acted on.').optional(),
    replicas: count('Active pods owned by the CloneSet.'),
    readyReplicas: count('Pods that are ready (including the InPlaceUpdateReady condition).'),
    availableReplicas: count('Pods ready for at least minReadySeconds with lifecycle state Normal.'),
    updatedReplicas: count('Pods at updateRevision.'),
    updatedReadyReplicas: count('Pods at updateRevision that are ready.'),
    updatedAvailableReplicas: count('Pods at updateRevision that are available.').optional(),
    expectedUpdatedReplicas: count(
      'Pods that should be at updateRevision: replicas minus the resolved partition.',
    ).optional(),
    updateRevision: withDescription(z.string(), 'Name of the ControllerRevision of the current template.').optional(),
    currentRevision: withDescription(z.string(), 'Name of the ControllerRevision all pods were last at.').optional(),
    collisionCount: count('Revision hash collisions seen; part of the next revision name.').optional(),
    conditions: withCrdMeta(z.array(cloneSetConditionSchema), {
      description: 'Latest observations of the CloneSet; at most one per type.',
      listType: 'map',
      listMapKeys: ['type'],
    }).optional(),
    labelSelector: withDescription(
      z.string(),
      'spec.selector in string form, for the scale subresource and the HPA.',
    ).optional(),
  }),
  { description: 'Observed state of the CloneSet.' },
);
/** The status of a CloneSet. */
export type CloneSetStatus = z.infer<typeof cloneSetStatusSchema>;
