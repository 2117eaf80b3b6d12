/**
 * SidecarSetSpec: which pods get which sidecars, and how they are upgraded. Three schemas of one set of
 * fields: v1alpha1's (`namespace` and `namespaceSelector`; the custom version is a label), v1beta1's
 * (`namespaceSelector` only; `customVersion` is a field), and the hub the controllers parse every
 * SidecarSet with, whichever version it was read in (both spellings; packages/api/README.md).
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';
import type { CelValidationRule } from '../../crd/schema-metadata.ts';
import { celSelectorIsNotEmpty, labelSelectorSchema } from '../../meta/label-selector.ts';
import {
  MAX_SIDECARS,
  sidecarContainerOfContainersSchema,
  sidecarContainerOfInitContainersSchema,
} from './sidecarset-container.ts';
import {
  patchPodMetadataSchema,
  sidecarSetInjectionStrategySchema,
  sidecarSetUpdateStrategySchema,
} from './sidecarset-strategies.ts';

const podSelectorSchema = withCrdMeta(labelSelectorSchema, {
  description: 'The pods that get the sidecars; must not be empty.',
  validations: [
    {
      rule: celSelectorIsNotEmpty('self'),
      message: 'spec.selector: empty selector is not valid for sidecarset',
      reason: 'FieldValueRequired',
    },
  ],
});

const namespaceSelectorSchema = withCrdMeta(labelSelectorSchema, {
  description: 'Namespaces (by their labels) whose pods match; unset: every namespace.',
  validations: [
    {
      rule: celSelectorIsNotEmpty('self'),
      message: 'spec.namespaceSelector: empty selector is not valid for sidecarset',
      reason: 'FieldValueRequired',
    },
  ],
});

const volumeSchema = withCrdMeta(z.looseObject({ name: withDescription(z.string().min(1).max(63), 'Volume name.') }), {
  description: 'A core/v1 Volume; added to a pod only when an injected sidecar mounts it.',
  preserveUnknownFields: true,
});

const imagePullSecretSchema = z.looseObject({ name: withDescription(z.string(), 'Secret name.').optional() });

const v1alpha1Fields = z.looseObject({
  selector: podSelectorSchema,
  namespace: withDescription(z.string(), 'Only pods of this namespace match (not with namespaceSelector).').optional(),
  namespaceSelector: namespaceSelectorSchema.optional(),
  initContainers: withCrdMeta(z.array(sidecarContainerOfInitContainersSchema).max(MAX_SIDECARS), {
    description: 'Init containers injected at pod creation (never upgraded).',
    listType: 'map',
    listMapKeys: ['name'],
  }).optional(),
  containers: withCrdMeta(z.array(sidecarContainerOfContainersSchema).max(MAX_SIDECARS), {
    description: 'Sidecar containers injected at pod creation and upgraded in place.',
    listType: 'map',
    listMapKeys: ['name'],
  }).optional(),
  volumes: withDescription(z.array(volumeSchema), 'Volumes the sidecars may mount.').optional(),
  updateStrategy: withDescription(sidecarSetUpdateStrategySchema, 'How injected pods are upgraded.').prefault({}),
  injectionStrategy: withDescription(sidecarSetInjectionStrategySchema, 'How new pods are injected.').optional(),
  imagePullSecrets: withDescription(
    z.array(imagePullSecretSchema),
    'Merged into injected pods (pod entries first).',
  ).optional(),
  revisionHistoryLimit: withDescription(
    z.int32().nonnegative(),
    'Old ControllerRevisions to keep (at least 1 is kept). Default 10.',
  ).default(10),
  patchPodMetadata: withDescription(
    z.array(patchPodMetadataSchema),
    'Annotations patched onto injected pods.',
  ).optional(),
});

const customVersionField = withDescription(
  z.string(),
  'v1beta1: the custom version of this spec, given to its revision (v1alpha1 spells it as the label apps.kruise.io/sidecarset-custom-version).',
).optional();

const namespaceRule: CelValidationRule = {
  rule: '!(has(self.namespace) && self.namespace != "" && has(self.namespaceSelector))',
  message: 'spec.namespace: namespace and namespaceSelector are mutually exclusive',
  fieldPath: '.namespace',
  reason: 'FieldValueForbidden',
};

const commonRules: readonly CelValidationRule[] = [
  {
    rule: '(has(self.containers) && size(self.containers) > 0) || (has(self.initContainers) && size(self.initContainers) > 0)',
    message: 'spec.containers: no initContainer or container',
    fieldPath: '.containers',
    reason: 'FieldValueRequired',
  },
  {
    rule: "self.updateStrategy.type != 'RollingUpdate' || !has(self.initContainers) || self.initContainers.all(c, !has(c.restartPolicy) || c.restartPolicy != 'Always')",
    message:
      'spec.initContainers: The initContainer in-place upgrade is not currently supported (a native sidecar with restartPolicy Always needs updateStrategy.type NotUpdate)',
    fieldPath: '.initContainers',
    reason: 'FieldValueForbidden',
  },
  {
    rule: '!has(self.containers) || !has(oldSelf.containers) || self.containers.all(c, oldSelf.containers.exists(o, o.name == c.name))',
    message:
      'spec.containers: a container cannot be added to an existing SidecarSet (container is not found in the old spec); create another SidecarSet',
    fieldPath: '.containers',
    reason: 'FieldValueForbidden',
  },
  {
    rule: '!has(self.containers) || !has(oldSelf.containers) || self.containers.all(c, oldSelf.containers.all(o, o.name != c.name || o.upgradeStrategy.upgradeType == c.upgradeStrategy.upgradeType))',
    message: 'spec.containers[].upgradeStrategy.upgradeType: field is immutable',
    fieldPath: '.containers',
    reason: 'FieldValueForbidden',
  },
];

/** The v1alpha1 spec, as the CRD serves it. */
export const sidecarSetV1alpha1SpecSchema = withCrdMeta(v1alpha1Fields, {
  description: 'Desired state of the SidecarSet.',
  validations: [namespaceRule, ...commonRules],
});

/** The v1beta1 spec, as the CRD serves it: no `namespace` (a namespaceSelector on kubernetes.io/metadata.name says it), `customVersion` a field. */
export const sidecarSetV1beta1SpecSchema = withCrdMeta(
  v1alpha1Fields.omit({ namespace: true }).extend({ customVersion: customVersionField }),
  {
    description: 'Desired state of the SidecarSet.',
    validations: commonRules,
  },
);

/** The spec of either version: what controllers and webhooks parse. */
export const sidecarSetSpecSchema = withCrdMeta(v1alpha1Fields.extend({ customVersion: customVersionField }), {
  description: 'Desired state of the SidecarSet.',
  validations: [namespaceRule, ...commonRules],
});
/** The spec as stored (defaults applied). */
export type SidecarSetSpec = z.output<typeof sidecarSetSpecSchema>;
/** The spec as users write it. */
export type SidecarSetSpecInput = z.input<typeof sidecarSetSpecSchema>;
