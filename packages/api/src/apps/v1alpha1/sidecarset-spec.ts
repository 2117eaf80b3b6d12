/**
 * SidecarSetSpec (v1alpha1): which pods get which sidecars, and how they are upgraded.
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';
import { celSelectorIsNotEmpty, labelSelectorSchema } from '../../meta/label-selector.ts';
import { MAX_SIDECARS, sidecarContainerOfContainersSchema, sidecarContainerOfInitContainersSchema } from './sidecarset-container.ts';
import { patchPodMetadataSchema, sidecarSetInjectionStrategySchema, sidecarSetUpdateStrategySchema } from './sidecarset-strategies.ts';

const podSelectorSchema = withCrdMeta(labelSelectorSchema, {
  description: 'The pods that get the sidecars; must not be empty.',
  validations: [{ rule: celSelectorIsNotEmpty('self'), message: 'spec.selector: empty selector is not valid for sidecarset', reason: 'FieldValueRequired' }],
});

const namespaceSelectorSchema = withCrdMeta(labelSelectorSchema, {
  description: 'Namespaces (by their labels) whose pods match; unset: every namespace.',
  validations: [{ rule: celSelectorIsNotEmpty('self'), message: 'spec.namespaceSelector: empty selector is not valid for sidecarset', reason: 'FieldValueRequired' }],
});

const volumeSchema = withCrdMeta(z.looseObject({ name: withDescription(z.string().min(1).max(63), 'Volume name.') }), {
  description: 'A core/v1 Volume; added to a pod only when an injected sidecar mounts it.',
  preserveUnknownFields: true,
});

const imagePullSecretSchema = z.looseObject({ name: withDescription(z.string(), 'Secret name.').optional() });

/** The desired state of a SidecarSet. */
export const sidecarSetSpecSchema = withCrdMeta(
  z.looseObject({
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
    imagePullSecrets: withDescription(z.array(imagePullSecretSchema), 'Merged into injected pods (pod entries first).').optional(),
    revisionHistoryLimit: withDescription(z.int32().nonnegative(), 'Old ControllerRevisions to keep (at least 1 is kept). Default 10.').default(10),
    patchPodMetadata: withDescription(z.array(patchPodMetadataSchema), 'Annotations patched onto injected pods.').optional(),
  }),
  {
    description: 'Desired state of the SidecarSet.',
    validations: [
      {
        rule: '!(has(self.namespace) && self.namespace != "" && has(self.namespaceSelector))',
        message: 'spec.namespace: namespace and namespaceSelector are mutually exclusive',
        fieldPath: '.namespace',
        reason: 'FieldValueForbidden',
      },
      {
        rule: '(has(self.containers) && size(self.containers) > 0) || (has(self.initContainers) && size(self.initContainers) > 0)',
        message: 'spec.containers: no initContainer or container',
        fieldPath: '.containers',
        reason: 'FieldValueRequired',
      },
      {
        rule: "self.updateStrategy.type != 'RollingUpdate' || !has(self.initContainers) || self.initContainers.all(c, !has(c.restartPolicy) || c.restartPolicy != 'Always')",
        message: 'spec.initContainers: The initContainer in-place upgrade is not currently supported (a native sidecar with restartPolicy Always needs updateStrategy.type NotUpdate)',
        fieldPath: '.initContainers',
        reason: 'FieldValueForbidden',
      },
      {
        rule: "!has(self.containers) || !has(oldSelf.containers) || self.containers.all(c, oldSelf.containers.exists(o, o.name == c.name))",
        message: 'spec.containers: a container cannot be added to an existing SidecarSet (container is not found in the old spec); create another SidecarSet',
        fieldPath: '.containers',
        reason: 'FieldValueForbidden',
      },
      {
        rule: "!has(self.containers) || !has(oldSelf.containers) || self.containers.all(c, oldSelf.containers.all(o, o.name != c.name || o.upgradeStrategy.upgradeType == c.upgradeStrategy.upgradeType))",
        message: 'spec.containers[].upgradeStrategy.upgradeType: field is immutable',
        fieldPath: '.containers',
        reason: 'FieldValueForbidden',
      },
    ],
  },
);
/** The spec as stored (defaults applied). */
export type SidecarSetSpec = z.output<typeof sidecarSetSpecSchema>;
/** The spec as users write it. */
export type SidecarSetSpecInput = z.input<typeof sidecarSetSpecSchema>;
