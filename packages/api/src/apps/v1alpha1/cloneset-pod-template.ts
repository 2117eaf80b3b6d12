/**
 * The pod template and PVC templates of a CloneSet. In the CRD both keep unknown fields (like
 * OpenKruise's), since the API server validates a pod fully when the controller creates it; declared
 * are the fields CEL rules need, the template rules OpenKruise's webhook applies, and the types of the
 * container fields the controller decodes whose type alone can be wrong (`containerPort: "80"`), so
 * that such a template is refused at `kubectl apply` instead of reported later. Resource quantities
 * are not typed: the CRD convention for them (int-or-string with a pattern) refuses `cpu: 0.5`, which
 * a Pod accepts, and CEL cannot see values the schema leaves open; the controller reports an
 * unreadable quantity (Event and FailedScale condition naming the field) and creates no pod from it.
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

const containerPortSchema = withCrdMeta(
  z.looseObject({
    containerPort: withDescription(z.int32(), 'Port number on the pod IP (1-65535).'),
    hostPort: withDescription(z.int32(), 'Port number on the node.').optional(),
    name: withDescription(z.string(), 'An IANA_SVC_NAME, unique within the pod.').optional(),
    protocol: withDescription(z.string(), 'UDP, TCP or SCTP.').optional(),
  }),
  { description: 'A core/v1 ContainerPort.', preserveUnknownFields: true },
);

const envVarSchema = withCrdMeta(
  z.looseObject({
    name: withDescription(z.string(), 'Name of the variable.'),
    value: withDescription(z.string(), 'Its value (valueFrom is kept as written).').optional(),
  }),
  { description: 'A core/v1 EnvVar.', preserveUnknownFields: true },
);

/**
 * A container: the name, so that CEL can see which containers a template has (the InPlaceOnly rule),
 * and the types of the fields the controller reads and in-place updates change; everything else is
 * kept as written. The bounds let the API server estimate the rule's cost; 63 is Kubernetes' limit
 * for container names (a DNS label).
 */
const templateContainerSchema = withCrdMeta(
  z.looseObject({
    name: withDescription(z.string().min(1).max(63), 'Container name (a DNS label).'),
    image: withDescription(z.string(), 'Container image name.').optional(),
    imagePullPolicy: withDescription(z.string(), 'Always, Never or IfNotPresent.').optional(),
    command: withDescription(z.array(z.string()), 'Entrypoint array.').optional(),
    args: withDescription(z.array(z.string()), 'Arguments to the entrypoint.').optional(),
    ports: withDescription(z.array(containerPortSchema), 'Ports to expose from the container.').optional(),
    env: withDescription(z.array(envVarSchema), 'Environment variables.').optional(),
  }),
  { description: 'A core/v1 Container.', preserveUnknownFields: true },
);

/** Most containers a CloneSet pod may have: far above real pods, low enough for CEL cost estimates. */
export const MAX_TEMPLATE_CONTAINERS = 128;

const templatePodSpecSchema = withCrdMeta(
  z.looseObject({
    containers: withDescription(z.array(templateContainerSchema).min(1).max(MAX_TEMPLATE_CONTAINERS), 'The containers of the pods (at least one).'),
    initContainers: withDescription(z.array(templateContainerSchema).max(MAX_TEMPLATE_CONTAINERS), 'The init containers of the pods.').optional(),
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
      spec: templatePodSpecSchema,
    }),
  ),
  { description: 'Template of the pods the CloneSet creates (core/v1 PodTemplateSpec).', preserveUnknownFields: true },
);

/** One PVC template (core/v1 PersistentVolumeClaim). */
export const volumeClaimTemplateSchema = withCrdMeta(wireTyped<PersistentVolumeClaim>(z.looseObject({})), {
  description: 'A core/v1 PersistentVolumeClaim; one PVC per pod is created from it.',
  preserveUnknownFields: true,
});
