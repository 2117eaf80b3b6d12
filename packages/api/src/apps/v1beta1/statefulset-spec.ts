/**
 * StatefulSetSpec (v1beta1) with the defaults of OpenKruise's mutating webhook as CRD defaults and the
 * rules of its validating webhook as CEL.
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';
import { intOrPercentSchema, intOrStringSchema } from '../../meta/int-or-string.ts';
import { celSelectorIsNotEmpty, labelSelectorSchema } from '../../meta/label-selector.ts';
import { LIFECYCLE_STATE_LABEL, lifecycleSchema } from '../pub/lifecycle.ts';
import { volumeClaimTemplateSchema, workloadPodTemplateSchema } from '../pub/workload-pod-template.ts';
import {
  CONTROLLER_REVISION_HASH_LABEL,
  POD_INDEX_LABEL,
  SPECIFIED_DELETE_LABEL,
  STATEFULSET_POD_NAME_LABEL,
} from '../well-known-labels.ts';
import { statefulSetSpecRules } from './statefulset-spec-rules.ts';
import { statefulSetUpdateStrategySchema } from './statefulset-update-strategy.ts';

/** How pods are created and deleted. */
export const PodManagementPolicyType = {
  /** One pod at a time, in ordinal order, each after the previous is Ready; deleted in reverse. The default. */
  OrderedReady: 'OrderedReady',
  /** All at once (within scaleStrategy.maxUnavailable). */
  Parallel: 'Parallel',
} as const;
/** A pod management policy. */
export type PodManagementPolicyType = (typeof PodManagementPolicyType)[keyof typeof PodManagementPolicyType];

/** What happens to the PVCs of a deleted set or of scaled-in pods. */
export const PersistentVolumeClaimRetentionPolicyType = { Retain: 'Retain', Delete: 'Delete' } as const;
/** A retention policy value. */
export type PersistentVolumeClaimRetentionPolicyType =
  (typeof PersistentVolumeClaimRetentionPolicyType)[keyof typeof PersistentVolumeClaimRetentionPolicyType];

const retention = (description: string) =>
  withDescription(z.enum(PersistentVolumeClaimRetentionPolicyType), description).default(
    PersistentVolumeClaimRetentionPolicyType.Retain,
  );

const selectorSchema = withCrdMeta(labelSelectorSchema, {
  description:
    'Label query over the pods of this StatefulSet; must not be empty, must match the template labels and cannot change.',
  validations: [
    {
      rule: celSelectorIsNotEmpty('self'),
      message: 'spec.selector: empty selector is invalid for statefulset',
      reason: 'FieldValueRequired',
    },
    { rule: 'self == oldSelf', message: 'spec.selector: field is immutable', reason: 'FieldValueForbidden' },
  ],
});

/** Most reserveOrdinals entries: far above real use, low enough for the API server's CEL cost budget. */
export const MAX_RESERVE_ORDINALS = 1000;

/**
 * A reserveOrdinals entry: an ordinal, or an inclusive range "a-b". Its form (a non-negative integer,
 * "a-b" with a ≤ b) is left to the controller (an Event and the InvalidSpec condition naming the
 * entry): any CEL rule on the items of a list of int-or-string values exceeds the API server's cost
 * budget (tried on v1.34: 31x over even for `type(self) != int || self >= 0`), since such a value
 * cannot carry a maxLength.
 */
const reserveOrdinalSchema = withDescription(intOrStringSchema, 'An ordinal to skip, or an inclusive range "a-b".');

const v1beta1Fields = z.looseObject({
  replicas: withDescription(z.int32().nonnegative(), 'Desired number of pods. Default 1.').default(1),
  selector: selectorSchema,
  template: workloadPodTemplateSchema(
    { lower: 'statefulset', kind: 'StatefulSet' },
    {
      reservedLabels: [
        CONTROLLER_REVISION_HASH_LABEL,
        STATEFULSET_POD_NAME_LABEL,
        POD_INDEX_LABEL,
        LIFECYCLE_STATE_LABEL,
        SPECIFIED_DELETE_LABEL,
      ],
    },
  ),
  volumeClaimTemplates: withDescription(
    z.array(volumeClaimTemplateSchema),
    'PVC templates: each pod gets the claims <template>-<set>-<ordinal>, kept when the pod goes (see persistentVolumeClaimRetentionPolicy).',
  ).optional(),
  serviceName: withDescription(
    z.string(),
    "The headless Service that gives the pods their DNS names (the pods' subdomain). Cannot change.",
  ).optional(),
  podManagementPolicy: withDescription(
    z.enum(PodManagementPolicyType),
    'OrderedReady (default) or Parallel. Cannot change.',
  ).default(PodManagementPolicyType.OrderedReady),
  // prefault: an absent updateStrategy becomes {} and then gets its fields' defaults.
  updateStrategy: withDescription(statefulSetUpdateStrategySchema, 'How pods are updated to a new revision.').prefault(
    {},
  ),
  revisionHistoryLimit: withDescription(
    z.int32().nonnegative(),
    'Old ControllerRevisions to keep. Default 10.',
  ).default(10),
  reserveOrdinals: withDescription(
    z.array(reserveOrdinalSchema).max(MAX_RESERVE_ORDINALS),
    'Ordinals to skip: the set runs replicas pods at the other ordinals.',
  ).optional(),
  lifecycle: withDescription(
    lifecycleSchema,
    'Lifecycle hooks of the pods (preNormal, preDelete, inPlaceUpdate).',
  ).optional(),
  scaleStrategy: withDescription(
    z.looseObject({
      maxUnavailable: intOrPercentSchema({
        path: 'spec.scaleStrategy.maxUnavailable',
        description:
          'Most pods unavailable while scaling (Parallel): an integer or a percentage of replicas rounded down (at least 1). Unset: no limit.',
        atMost100Percent: true,
      }).optional(),
    }),
    'How fast pods are created and deleted.',
  ).optional(),
  volumeClaimUpdateStrategy: withDescription(
    z.looseObject({
      type: withDescription(
        z.enum(['OnPodRollingUpdate', 'OnDelete']),
        "OnPodRollingUpdate: a larger storage request is applied to each pod's claims before the pod is updated (gate StatefulSetAutoResizePVCGate). OnDelete (default): claims follow only when recreated.",
      ).optional(),
    }),
    'When PVCs follow volumeClaimTemplates changes.',
  ).optional(),
  persistentVolumeClaimRetentionPolicy: withDescription(
    z.looseObject({
      whenDeleted: retention('Delete: the claims go with the set. Retain (default): they stay.'),
      whenScaled: retention(
        'Delete: the claims of scaled-in ordinals go with their pods. Retain (default): they stay and a scale-out reuses them.',
      ),
    }),
    'What happens to the PVCs (gate StatefulSetAutoDeletePVC).',
  ).optional(),
  ordinals: withDescription(
    z.looseObject({
      start: withDescription(
        z.int32().nonnegative(),
        'The first ordinal (gate StatefulSetStartOrdinal). Default 0.',
      ).optional(),
    }),
    'Where ordinals start.',
  ).optional(),
});

/** The desired state of an Advanced StatefulSet (v1beta1, the storage version and the controller's). */
export const statefulSetSpecSchema = withCrdMeta(v1beta1Fields, {
  description: 'Desired state of the StatefulSet.',
  validations: statefulSetSpecRules,
});

/** The fields v1beta1 has and v1alpha1 lacks (OpenKruise 1.9's types; packages/api/README.md). */
export const STATEFULSET_V1BETA1_ONLY_SPEC_FIELDS = [
  'reserveOrdinals',
  'lifecycle',
  'scaleStrategy',
  'volumeClaimUpdateStrategy',
  'persistentVolumeClaimRetentionPolicy',
  'ordinals',
] as const;

/** The v1alpha1 spec, as the CRD serves it: v1beta1's without the fields above (and the rules on them). */
export const statefulSetV1alpha1SpecSchema = withCrdMeta(
  v1beta1Fields.omit({
    reserveOrdinals: true,
    lifecycle: true,
    scaleStrategy: true,
    volumeClaimUpdateStrategy: true,
    persistentVolumeClaimRetentionPolicy: true,
    ordinals: true,
  }),
  {
    description: 'Desired state of the StatefulSet.',
    validations: statefulSetSpecRules.filter((rule) => !rule.rule.includes('self.scaleStrategy')),
  },
);
/** The spec as stored (defaults applied). */
export type StatefulSetSpec = z.output<typeof statefulSetSpecSchema>;
/** The spec as written by users. */
export type StatefulSetSpecInput = z.input<typeof statefulSetSpecSchema>;
