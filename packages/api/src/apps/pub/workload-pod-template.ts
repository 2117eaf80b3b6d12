/**
 * The pod template and PVC templates of an OpenKruise workload (CloneSet, Advanced StatefulSet). In the
 * CRD both keep unknown fields (like OpenKruise's), since the API server validates a pod fully when the controller creates it; declared
 * are the fields CEL rules need, the template rules OpenKruise's webhook applies (a pod spec with at
 * least one container), and the types of the fields the controller decodes whose type alone can be
 * wrong (`containerPort: "80"`, `cpu: one`, an annotation `true`), so that such a template is refused at
 * `kubectl apply`, naming the field, instead of reported by the controller later (issue 15). No type
 * refuses a value a Pod accepts: quantities take any number (`cpu: 0.5`), see `meta/quantity.ts`.
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';
import type { CelValidationRule } from '../../crd/schema-metadata.ts';
import { resourceListSchema } from '../../meta/quantity.ts';
import type { PersistentVolumeClaim, PodTemplateSpec } from '../../meta/wire.ts';
import { wireTyped } from '../../meta/wire-typed.ts';

const templateMetadataSchema = withCrdMeta(
  z.looseObject({
    labels: withDescription(
      z.record(z.string(), z.string().max(63)),
      'Pod labels; they must match spec.selector.',
    ).optional(),
    // Values are nullable as in a Pod (Go reads null as ""): kept as written rather than dropped.
    annotations: withDescription(
      z.record(z.string(), z.string().nullable()),
      'Pod annotations (string values).',
    ).optional(),
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

/** The requests and limits of a container or a PVC (claims and the rest are kept as written). */
const resourceRequirementsSchema = withCrdMeta(
  z.looseObject({
    limits: withDescription(resourceListSchema, 'Maximum amounts of compute resources allowed.').optional(),
    requests: withDescription(resourceListSchema, 'Minimum amounts of compute resources required.').optional(),
  }),
  { description: 'Resource requirements (core/v1 ResourceRequirements).', preserveUnknownFields: true },
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
    // Items are nullable: a Pod accepts `[null]` (Go reads null as ""), so the CRD must not refuse it.
    command: withDescription(z.array(z.string().nullable()), 'Entrypoint array.').optional(),
    args: withDescription(z.array(z.string().nullable()), 'Arguments to the entrypoint.').optional(),
    ports: withDescription(z.array(containerPortSchema), 'Ports to expose from the container.').optional(),
    env: withDescription(z.array(envVarSchema), 'Environment variables.').optional(),
    resources: resourceRequirementsSchema.optional(),
  }),
  { description: 'A core/v1 Container.', preserveUnknownFields: true },
);

/** Most containers a workload's pod may have: far above real pods, low enough for CEL cost estimates. */
export const MAX_TEMPLATE_CONTAINERS = 128;

/** How a workload names itself in the template's descriptions and messages. */
export interface WorkloadNames {
  /** As in OpenKruise's webhook messages: `cloneset`, `statefulset`. */
  readonly lower: string;
  /** As in descriptions: `CloneSet`, `StatefulSet`. */
  readonly kind: string;
}

/** The fields every template declares (containers, init containers, readiness gates). */
function commonPodSpecShape() {
  return {
    containers: withDescription(
      z.array(templateContainerSchema).min(1).max(MAX_TEMPLATE_CONTAINERS),
      'The containers of the pods (at least one).',
    ),
    initContainers: withDescription(
      z.array(templateContainerSchema).max(MAX_TEMPLATE_CONTAINERS),
      'The init containers of the pods.',
    ).optional(),
  };
}

/**
 * The pod spec of a job's template (BroadcastJob): `restartPolicy` is required and `Never` or
 * `OnFailure` (OpenKruise defaults it to Always in its webhook and then refuses Always, so in effect it
 * must be written); `activeDeadlineSeconds` is the pod's own and allowed.
 */
function jobPodSpecSchema(names: WorkloadNames): z.ZodType {
  return withCrdMeta(
    z.looseObject({
      ...commonPodSpecShape(),
      restartPolicy: withDescription(
        z.enum(['Never', 'OnFailure']),
        `Never or OnFailure: ${names.kind} pods run to completion.`,
      ),
    }),
    { description: 'Spec of the pods (core/v1 PodSpec).', preserveUnknownFields: true },
  );
}

function templatePodSpecSchema(names: WorkloadNames): z.ZodType {
  return withCrdMeta(
    z.looseObject({
      ...commonPodSpecShape(),
      restartPolicy: withDescription(
        z.literal('Always'),
        `Only Always is supported for ${names.kind} pods.`,
      ).optional(),
      activeDeadlineSeconds: withDescription(
        z.int(),
        `Not supported for ${names.kind} pods: must be unset.`,
      ).optional(),
      readinessGates: withDescription(
        z.array(
          withCrdMeta(z.looseObject({ conditionType: withDescription(z.string(), 'A pod condition type.') }), {
            description: 'A core/v1 PodReadinessGate.',
            preserveUnknownFields: true,
          }),
        ),
        'Conditions a pod needs, besides its containers, to be Ready (InPlaceUpdateReady for in-place updates).',
      ).optional(),
    }),
    {
      description: 'Spec of the pods (core/v1 PodSpec).',
      preserveUnknownFields: true,
      validations: [
        {
          rule: '!has(self.activeDeadlineSeconds)',
          message: `spec.template.spec.activeDeadlineSeconds: activeDeadlineSeconds in ${names.lower} is not supported`,
          fieldPath: '.activeDeadlineSeconds',
          reason: 'FieldValueForbidden',
        },
      ],
    },
  );
}

/** Options of {@link workloadPodTemplateSchema} and {@link jobPodTemplateSchema}. */
export interface JobTemplateOptions {
  /**
   * Labels the controller sets on every pod or acts on (a pod created with `specified-delete` would be
   * deleted at once, and again), which the template must not preset. A CEL rule: it holds without any
   * webhook, and ratcheting lets an object stored before the rule keep an unchanged template.
   */
  readonly reservedLabels: readonly string[];
}

/** The CEL rule refusing the reserved labels in a template's labels (`self` is the template). */
function reservedLabelsRule(names: WorkloadNames, labels: readonly string[]): CelValidationRule {
  const reserved = labels.map((label) => `'${label}'`).join(', ');
  return {
    rule: `!has(self.metadata) || !has(self.metadata.labels) || [${reserved}].all(k, !(k in self.metadata.labels))`,
    message: `spec.template.metadata.labels: ${labels.join(' and ')} are set by the ${names.lower} controller and must not be in the template`,
    fieldPath: '.metadata.labels',
    reason: 'FieldValueForbidden',
  };
}

/** The pod template of a workload (core/v1 PodTemplateSpec). */
export function workloadPodTemplateSchema(
  names: WorkloadNames,
  options: JobTemplateOptions,
): z.ZodType<PodTemplateSpec, PodTemplateSpec> {
  return withCrdMeta(
    wireTyped<PodTemplateSpec>(
      z.looseObject({
        metadata: templateMetadataSchema.optional(),
        spec: templatePodSpecSchema(names),
      }),
    ),
    {
      description: `Template of the pods the ${names.kind} creates (core/v1 PodTemplateSpec).`,
      preserveUnknownFields: true,
      validations: [reservedLabelsRule(names, options.reservedLabels)],
    },
  );
}

/** The pod template of a job-like kind: pods that run to completion (core/v1 PodTemplateSpec). */
export function jobPodTemplateSchema(
  names: WorkloadNames,
  options: JobTemplateOptions,
): z.ZodType<PodTemplateSpec, PodTemplateSpec> {
  return withCrdMeta(
    wireTyped<PodTemplateSpec>(
      z.looseObject({
        metadata: templateMetadataSchema.optional(),
        spec: jobPodSpecSchema(names),
      }),
    ),
    {
      description: `Template of the pods the ${names.kind} creates (core/v1 PodTemplateSpec).`,
      preserveUnknownFields: true,
      validations: [reservedLabelsRule(names, options.reservedLabels)],
    },
  );
}

/** The spec of a PVC template: the type of its storage request; everything else is kept as written. */
const volumeClaimSpecSchema = withCrdMeta(
  z.looseObject({
    resources: withCrdMeta(resourceRequirementsSchema, {
      description: 'Storage requests and limits (core/v1 VolumeResourceRequirements).',
    }).optional(),
  }),
  { description: 'Spec of the PVC (core/v1 PersistentVolumeClaimSpec).', preserveUnknownFields: true },
);

/** One PVC template (core/v1 PersistentVolumeClaim). */
export const volumeClaimTemplateSchema = withCrdMeta(
  wireTyped<PersistentVolumeClaim>(z.looseObject({ spec: volumeClaimSpecSchema.optional() })),
  {
    description: 'A core/v1 PersistentVolumeClaim; one PVC per pod is created from it.',
    preserveUnknownFields: true,
  },
);
