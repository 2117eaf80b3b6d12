/**
 * CloneSetSpec (v1alpha1) with the CRD defaults of OpenKruise's mutating webhook and the CEL rules of
 * its validating webhook.
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';
import { celSelectorIsNotEmpty, labelSelectorSchema } from '../../meta/label-selector.ts';
import { lifecycleSchema } from '../pub/lifecycle.ts';
import { cloneSetPodTemplateSchema, volumeClaimTemplateSchema } from './cloneset-pod-template.ts';
import { cloneSetScaleStrategySchema } from './cloneset-scale-strategy.ts';
import { cloneSetSpecRules } from './cloneset-spec-rules.ts';
import { cloneSetUpdateStrategySchema } from './cloneset-update-strategy.ts';

const selectorSchema = withCrdMeta(labelSelectorSchema, {
  description:
    'Label query over the pods of this CloneSet; must not be empty, must match the template labels and cannot change.',
  validations: [
    {
      rule: celSelectorIsNotEmpty('self'),
      message: 'spec.selector: empty selector is invalid for cloneset',
      reason: 'FieldValueRequired',
    },
    {
      rule: 'self == oldSelf',
      message: 'spec.selector: field is immutable',
      reason: 'FieldValueForbidden',
    },
  ],
});

/** The desired state of a CloneSet. */
export const cloneSetSpecSchema = withCrdMeta(
  z.looseObject({
    replicas: withDescription(z.int32().nonnegative(), 'Desired number of pods. Default 1.').default(1),
    selector: selectorSchema,
    template: cloneSetPodTemplateSchema,
    volumeClaimTemplates: withDescription(
      z.array(volumeClaimTemplateSchema),
      'PVC templates: each pod gets one PVC per template, deleted with the pod unless reused.',
    ).optional(),
    scaleStrategy: withDescription(cloneSetScaleStrategySchema, 'How pods are created and deleted.').optional(),
    // prefault, not default: an absent updateStrategy becomes {} and then gets its fields' defaults.
    updateStrategy: withDescription(cloneSetUpdateStrategySchema, 'How pods are updated to a new revision.').prefault(
      {},
    ),
    revisionHistoryLimit: withDescription(
      z.int32().nonnegative(),
      'Old ControllerRevisions to keep. Default 10.',
    ).default(10),
    minReadySeconds: withDescription(
      z.int32().nonnegative(),
      'Seconds a new pod must be ready before it counts as available. Default 0.',
    ).optional(),
    lifecycle: withDescription(
      lifecycleSchema,
      'Lifecycle hooks of the pods (preNormal, preDelete, inPlaceUpdate).',
    ).optional(),
    progressDeadlineSeconds: withDescription(
      z.int32().nonnegative(),
      'Seconds an update may go without progress before the Progressing condition turns False (ProgressDeadlineExceeded). Unset: no deadline.',
    ).optional(),
  }),
  { description: 'Desired state of the CloneSet.', validations: cloneSetSpecRules },
);
/** The spec as stored (defaults applied). */
export type CloneSetSpec = z.output<typeof cloneSetSpecSchema>;
/** The spec as written by users (defaults optional). */
export type CloneSetSpecInput = z.input<typeof cloneSetSpecSchema>;
