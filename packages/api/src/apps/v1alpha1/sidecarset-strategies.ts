/**
 * How a SidecarSet upgrades injected pods and how it injects new ones, with OpenKruise's webhook
 * defaults as CRD defaults and its validation (§B.5) as CEL rules naming the field.
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';
import { intOrPercentSchema } from '../../meta/int-or-string.ts';
import { labelSelectorSchema } from '../../meta/label-selector.ts';
import { updatePriorityStrategySchema } from '../pub/update-priority.ts';
import { updateScatterStrategySchema } from './update-scatter-strategy.ts';

/** Whether injected sidecars are upgraded when the SidecarSet changes. */
export const SidecarSetUpdateStrategyType = {
  /** Upgrade them in place, within partition and maxUnavailable. The default. */
  RollingUpdate: 'RollingUpdate',
  /** Never: only new pods get the new sidecars. */
  NotUpdate: 'NotUpdate',
} as const;
/** An update strategy type. */
export type SidecarSetUpdateStrategyType =
  (typeof SidecarSetUpdateStrategyType)[keyof typeof SidecarSetUpdateStrategyType];

const PARTITION_SET =
  "has(self.partition) && !(type(self.partition) == int ? self.partition == 0 : self.partition.matches('^0+([.]0+)?%$'))";

/** The upgrade of injected pods. */
export const sidecarSetUpdateStrategySchema = withCrdMeta(
  z.looseObject({
    type: withDescription(z.enum(SidecarSetUpdateStrategyType), 'RollingUpdate (default) or NotUpdate.').default(
      SidecarSetUpdateStrategyType.RollingUpdate,
    ),
    paused: withDescription(z.boolean(), 'Stops upgrading injected pods (new pods are still injected).').optional(),
    selector: withDescription(
      labelSelectorSchema,
      'Only pods matching it are upgraded (not with partition).',
    ).optional(),
    partition: intOrPercentSchema({
      path: 'spec.updateStrategy.partition',
      description: 'Pods (a number or a percentage) kept on the old sidecars. Default 0.',
    }).default(0),
    maxUnavailable: intOrPercentSchema({
      path: 'spec.updateStrategy.maxUnavailable',
      description: 'Most pods unavailable during the upgrade: a number or a percentage rounded up. Default 1.',
    }).default(1),
    priorityStrategy: withDescription(updatePriorityStrategySchema, 'Which pods are upgraded first.').optional(),
    scatterStrategy: updateScatterStrategySchema.optional(),
  }),
  {
    description: 'How injected pods are upgraded.',
    validations: [
      {
        rule: `self.type != 'RollingUpdate' || !(${PARTITION_SET} && has(self.selector))`,
        message: 'spec.updateStrategy: partition and selector cannot be used together',
        fieldPath: '.selector',
        reason: 'FieldValueForbidden',
      },
    ],
  },
);
/** The update strategy as stored. */
export type SidecarSetUpdateStrategy = z.output<typeof sidecarSetUpdateStrategySchema>;

/** Which revision new pods get when `injectionStrategy.revision` is set. */
export const SidecarSetInjectRevisionPolicy = {
  /** Always the pinned revision. The default. */
  Always: 'Always',
  /** The pinned revision for pods outside the update selector, or by the partition's share. */
  Partial: 'Partial',
} as const;
/** A revision policy. */
export type SidecarSetInjectRevisionPolicy =
  (typeof SidecarSetInjectRevisionPolicy)[keyof typeof SidecarSetInjectRevisionPolicy];

/** How new pods are injected. */
export const sidecarSetInjectionStrategySchema = z.looseObject({
  paused: withDescription(z.boolean(), 'No injection into new pods (injected pods are still upgraded).').optional(),
  revision: withCrdMeta(
    z.looseObject({
      revisionName: withDescription(z.string(), 'A ControllerRevision of this SidecarSet.').optional(),
      customVersion: withDescription(
        z.string(),
        'The newest revision labelled apps.kruise.io/sidecarset-custom-version with this value.',
      ).optional(),
      policy: withDescription(z.enum(SidecarSetInjectRevisionPolicy), 'Always (default) or Partial.').default(
        SidecarSetInjectRevisionPolicy.Always,
      ),
    }),
    {
      description: 'Inject a pinned revision instead of the current spec.',
      validations: [
        {
          rule: "(has(self.revisionName) && self.revisionName != '') || (has(self.customVersion) && self.customVersion != '')",
          message: 'spec.injectionStrategy.revision: revisionName or customVersion is required',
          reason: 'FieldValueRequired',
        },
      ],
    },
  ).optional(),
});
/** The injection strategy as stored. */
export type SidecarSetInjectionStrategy = z.output<typeof sidecarSetInjectionStrategySchema>;

/** How a patchPodMetadata entry meets an existing annotation. */
export const SidecarSetPatchPolicy = {
  /** Set it only if absent. The default. */
  Retain: 'Retain',
  /** Always set it. */
  Overwrite: 'Overwrite',
  /** JSON merge-patch (RFC 7386) the value onto the existing one. */
  MergePatchJson: 'MergePatchJson',
} as const;
/** A patch policy. */
export type SidecarSetPatchPolicy = (typeof SidecarSetPatchPolicy)[keyof typeof SidecarSetPatchPolicy];

/** Annotations patched onto injected pods. */
export const patchPodMetadataSchema = withCrdMeta(
  z.looseObject({
    annotations: withDescription(z.record(z.string(), z.string()), 'Annotations to patch onto the pod.').optional(),
    patchPolicy: withDescription(
      z.enum(SidecarSetPatchPolicy),
      'Retain (default), Overwrite or MergePatchJson.',
    ).default(SidecarSetPatchPolicy.Retain),
  }),
  {
    description: 'Pod annotations the SidecarSet patches at injection and upgrade.',
    validations: [
      {
        rule: 'has(self.annotations) && size(self.annotations) > 0',
        message: 'spec.patchPodMetadata[].annotations: must not be empty',
        fieldPath: '.annotations',
        reason: 'FieldValueRequired',
      },
    ],
  },
);
/** A patchPodMetadata entry as stored. */
export type PatchPodMetadata = z.output<typeof patchPodMetadataSchema>;
