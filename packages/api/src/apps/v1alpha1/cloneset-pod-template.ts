/**
 * The pod template and PVC templates of a CloneSet. In the CRD both keep unknown fields (like
 * OpenKruise's), since the API server validates a pod fully when the controller creates it; only the
 * fields CEL rules need are declared, together with the template rules OpenKruise's webhook applies.
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';
import type { PersistentVolumeClaim, PodTemplateSpec } from '../../meta/wire.ts';
import { wireTyped } from '../../meta/wire-typed.ts';

const templateMetadataSchema = withCrdMeta(
  z.looseObject({
    labels: withDescription(z.record(z.string(), z.string().max(63)), 'Pod labels; they must match spec.selector.').optional(),
  }),
  { description: 'Metadata of the pods.', preserveUnknownFields: true },
);

/**
 * A container: only the name is declared, so that CEL can see which containers a template has (the
 * InPlaceOnly rule); everything else is kept as written. The bounds let the API server estimate the
 * rule's cost; 63 is Kubernetes' limit for container names (a DNS label).
 */
const templateContainerSchema = withCrdMeta(
  z.looseObject({
    name: withDescription(z.string().min(1).max(63), 'Container name (a DNS label).'),
  }),
  { description: 'A core/v1 Container.', preserveUnknownFields: true },
);

/** Most containers a CloneSet pod may have: far above real pods, low enough for CEL cost estimates. */
export const MAX_TEMPLATE_CONTAINERS = 128;

const templatePodSpecSchema = withCrdMeta(
  z.looseObject({
    containers: withDescription(z.array(templateContainerSchema).max(MAX_TEMPLATE_CONTAINERS), 'The containers of the pods.').optional(),
    restartPolicy: withDescription(z.literal('Always'), 'Only Always is supported for CloneSet pods.').optional(),
    activeDeadlineSeconds: withDescription(z.int(), 'Not supported for CloneSet pods: must be unset.').optional(),
  }),
  {
    description: 'Spec of the pods (core/v1 PodSpec).',
    preserveUnknownFields: true,
    validations: [
      {
        rule: '!has(self.activeDeadlineSeconds)',
        message: 'spec.template.spec.activeDeadlineSeconds: activeDeadlineSeconds in cloneset is not supported',
        fieldPath: '.activeDeadlineSeconds',
        reason: 'FieldValueForbidden',
      },
    ],
  },
);

/** The pod template of a CloneSet (core/v1 PodTemplateSpec). */
export const cloneSetPodTemplateSchema = withCrdMeta(
  wireTyped<PodTemplateSpec>(
    z.looseObject({
      metadata: templateMetadataSchema.optional(),
      spec: templatePodSpecSchema.optional(),
    }),
  ),
  { description: 'Template of the pods the CloneSet creates (core/v1 PodTemplateSpec).', preserveUnknownFields: true },
);

/** One PVC template (core/v1 PersistentVolumeClaim). */
export const volumeClaimTemplateSchema = withCrdMeta(wireTyped<PersistentVolumeClaim>(z.looseObject({})), {
  description: 'A core/v1 PersistentVolumeClaim; one PVC per pod is created from it.',
  preserveUnknownFields: true,
});
