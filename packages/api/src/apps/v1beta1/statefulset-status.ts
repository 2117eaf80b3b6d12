/**
 * StatefulSetStatus (v1beta1) and its conditions.
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';
import { ConditionStatus } from '../v1alpha1/cloneset-status.ts';

/** Condition types of an Advanced StatefulSet (status True while the failure lasts). */
export const StatefulSetConditionType = {
  /** Creating a pod failed. */
  FailedCreatePod: 'FailedCreatePod',
  /** Updating (or deleting for update) a pod failed. */
  FailedUpdatePod: 'FailedUpdatePod',
  /** kruise-ts: the spec cannot be carried out as written (a field named in the message). */
  InvalidSpec: 'InvalidSpec',
} as const;
/** A StatefulSet condition type. */
export type StatefulSetConditionType = (typeof StatefulSetConditionType)[keyof typeof StatefulSetConditionType];

const timestamp = withCrdMeta(z.string(), { format: 'date-time' });

/** One condition (apps/v1 StatefulSetCondition's shape). */
export const statefulSetConditionSchema = z.looseObject({
  type: withDescription(z.string(), 'Condition type: FailedCreatePod, FailedUpdatePod or InvalidSpec.'),
  status: withDescription(z.enum(ConditionStatus), 'True, False or Unknown.'),
  lastTransitionTime: withDescription(timestamp, 'When the status last changed.').optional(),
  reason: withDescription(z.string(), 'Machine-readable reason of the last transition.').optional(),
  message: withDescription(z.string(), 'Human-readable details.').optional(),
});
/** A StatefulSet condition. */
export type StatefulSetCondition = z.infer<typeof statefulSetConditionSchema>;

const count = (description: string): z.ZodInt32 => withDescription(z.int32(), description);

/** How the pods' claims of one volumeClaimTemplate fit it. */
export const volumeClaimStatusSchema = z.looseObject({
  volumeClaimName: withDescription(z.string(), 'The volumeClaimTemplate name.'),
  compatibleReplicas: count(
    "Pods whose claim has the template's storage class, access modes and at least its storage request.",
  ),
  compatibleReadyReplicas: count('Of those, pods whose volume already has the requested capacity.'),
});

/** The observed state of an Advanced StatefulSet. */
export const statefulSetStatusSchema = withCrdMeta(
  z.looseObject({
    observedGeneration: withDescription(z.int(), 'The metadata.generation the controller last acted on.').optional(),
    replicas: count('Pods created by the set (with a phase).'),
    readyReplicas: count('Pods running and ready.'),
    availableReplicas: count('Pods ready for at least minReadySeconds with lifecycle state Normal.'),
    currentReplicas: count('Pods at currentRevision.').optional(),
    updatedReplicas: count('Pods at updateRevision.').optional(),
    updatedReadyReplicas: count('Pods at updateRevision that are ready.').optional(),
    updatedAvailableReplicas: count('Pods at updateRevision that are available.').optional(),
    currentRevision: withDescription(z.string(), 'The revision the pods [0, currentReplicas) are at.').optional(),
    updateRevision: withDescription(z.string(), 'The revision of the current template.').optional(),
    collisionCount: count('Revision hash collisions seen; part of the next revision name.').optional(),
    conditions: withCrdMeta(z.array(statefulSetConditionSchema), {
      description: 'Latest observations; at most one per type.',
      listType: 'map',
      listMapKeys: ['type'],
    }).optional(),
    labelSelector: withDescription(
      z.string(),
      'spec.selector in string form, for the scale subresource and the HPA.',
    ).optional(),
    volumeClaims: withDescription(
      z.array(volumeClaimStatusSchema),
      'How the claims of each volumeClaimTemplate fit it.',
    ).optional(),
  }),
  { description: 'Observed state of the StatefulSet.' },
);
/** The status of an Advanced StatefulSet. */
export type StatefulSetStatus = z.infer<typeof statefulSetStatusSchema>;

/** The status fields v1beta1 has and v1alpha1 lacks. */
export const STATEFULSET_V1BETA1_ONLY_STATUS_FIELDS = [
  'updatedReadyReplicas',
  'updatedAvailableReplicas',
  'volumeClaims',
] as const;

/** The v1alpha1 status, as the CRD serves it. */
export const statefulSetV1alpha1StatusSchema = withCrdMeta(
  statefulSetStatusSchema.omit({ updatedReadyReplicas: true, updatedAvailableReplicas: true, volumeClaims: true }),
  {
    description: 'Observed state of the StatefulSet.',
  },
);
