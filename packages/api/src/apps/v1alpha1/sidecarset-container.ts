/**
 * SidecarContainer: a core/v1 Container inlined, plus how it is injected and upgraded. In the CRD the
 * container body keeps unknown fields (as OpenKruise's), the API server validates the pod when it is
 * created; declared are the fields injection reads and OpenKruise's webhook defaults (§B.4).
 */
import { z } from 'zod';

import { withCrdMeta, withDescription } from '../../crd/schema-metadata.ts';

/** Where a sidecar goes among the pod's containers. */
export const PodInjectPolicy = {
  /** Before the pod's own containers (the default of `containers`). */
  BeforeAppContainer: 'BeforeAppContainer',
  /** After them (the default of `initContainers`). */
  AfterAppContainer: 'AfterAppContainer',
} as const;
/** A pod inject policy. */
export type PodInjectPolicy = (typeof PodInjectPolicy)[keyof typeof PodInjectPolicy];

/** How a sidecar is upgraded. */
export const SidecarUpgradeType = {
  /** Restart the container with the new image (in place). The default. */
  ColdUpgrade: 'ColdUpgrade',
  /** Swap between two containers, one of them running an empty image, so the pod always has a working sidecar. */
  HotUpgrade: 'HotUpgrade',
} as const;
/** An upgrade type. */
export type SidecarUpgradeType = (typeof SidecarUpgradeType)[keyof typeof SidecarUpgradeType];

/** Whether the sidecar gets the pod containers' volume mounts. */
export const ShareVolumePolicyType = { enabled: 'enabled', disabled: 'disabled' } as const;
/** A share policy value. */
export type ShareVolumePolicyType = (typeof ShareVolumePolicyType)[keyof typeof ShareVolumePolicyType];

const shareVolumePolicySchema = z.looseObject({
  type: withDescription(z.enum(ShareVolumePolicyType), 'enabled or disabled (default).').default(
    ShareVolumePolicyType.disabled,
  ),
});

const transferEnvSchema = withCrdMeta(
  z.looseObject({
    sourceContainerName: withDescription(z.string(), 'The pod container to copy env vars from.').optional(),
    sourceContainerNameFrom: withDescription(
      z.looseObject({
        fieldRef: withDescription(
          z.looseObject({
            apiVersion: withDescription(z.string().max(64), 'Must be v1.').optional(),
            fieldPath: withDescription(
              z.string(),
              "metadata.name, or metadata.labels['k'] or metadata.annotations['k'].",
            ).optional(),
          }),
          'Where the source container name is read from the pod.',
        ).optional(),
      }),
      'Reads the source container name from the pod.',
    ).optional(),
    envName: withDescription(z.string(), 'One env var to copy.').optional(),
    envNames: withDescription(z.array(z.string()), 'More env vars to copy.').optional(),
  }),
  {
    description: 'Env vars copied from a pod container into the sidecar at injection.',
    validations: [
      {
        rule: '!has(self.sourceContainerNameFrom) || !has(self.sourceContainerNameFrom.fieldRef) || (has(self.sourceContainerNameFrom.fieldRef.apiVersion) && self.sourceContainerNameFrom.fieldRef.apiVersion == "v1")',
        message: 'transferEnv[].sourceContainerNameFrom.fieldRef.apiVersion: only v1 is supported',
        fieldPath: '.sourceContainerNameFrom.fieldRef.apiVersion',
        reason: 'FieldValueInvalid',
      },
    ],
  },
);

/** How resourcesPolicy aggregates the target containers' resources. */
export const TargetContainersMode = { sum: 'sum', max: 'max' } as const;
/** A target containers mode. */
export type TargetContainersMode = (typeof TargetContainersMode)[keyof typeof TargetContainersMode];

const resourceExpressionsSchema = (what: string) =>
  z.looseObject({
    cpu: withDescription(
      z.string(),
      `Expression of the sidecar's cpu ${what} (+ - * /, max(), min(), the variable cpu: the targets' aggregated ${what}).`,
    ).optional(),
    memory: withDescription(
      z.string(),
      `Expression of the sidecar's memory ${what} (the variable memory: the targets' aggregated ${what}).`,
    ).optional(),
  });

/** OpenKruise 1.9's resourcesPolicy: the sidecar's resources computed at injection from the pod's containers. */
const resourcesPolicySchema = z.looseObject({
  targetContainersMode: withDescription(
    z.enum(TargetContainersMode),
    "sum or max of the target containers' resources.",
  ),
  targetContainersNameRegex: withDescription(
    z.string(),
    'Regular expression of the target container names (native sidecars and containers, not SidecarSet sidecars); default .*',
  ).default('.*'),
  resourcesExpr: withDescription(
    z.looseObject({
      limits: withDescription(
        resourceExpressionsSchema('limits'),
        'Limits; a target without a limit makes it unlimited (not set).',
      ).optional(),
      requests: withDescription(
        resourceExpressionsSchema('requests'),
        'Requests; a target without a request counts 0.',
      ).optional(),
    }),
    'The expressions of the sidecar resources.',
  ),
});

/** Most transferEnv entries of one sidecar: a bound for the API server's CEL cost estimate. */
export const MAX_TRANSFER_ENV = 32;

/** The schema of one sidecar of `containers` or `initContainers` (their defaults differ). */
function sidecarContainerSchema(defaultPolicy: PodInjectPolicy) {
  return withCrdMeta(
    z.looseObject({
      name: withDescription(
        z.string().min(1).max(63),
        'Container name (a DNS label), unique among the SidecarSets that match a pod.',
      ),
      image: withDescription(z.string(), 'Container image.').optional(),
      restartPolicy: withDescription(z.string(), 'Always makes an init container a native sidecar.').optional(),
      podInjectPolicy: withDescription(
        z.enum(PodInjectPolicy),
        `BeforeAppContainer or AfterAppContainer (default ${defaultPolicy}).`,
      ).default(defaultPolicy),
      upgradeStrategy: withDescription(
        z.looseObject({
          upgradeType: withDescription(
            z.enum(SidecarUpgradeType),
            'ColdUpgrade (default) or HotUpgrade; cannot change.',
          ).default(SidecarUpgradeType.ColdUpgrade),
          hotUpgradeEmptyImage: withDescription(
            z.string(),
            'HotUpgrade: the image of the idle container of the pair.',
          ).optional(),
        }),
        'How the sidecar is upgraded.',
      ).prefault({}),
      shareVolumePolicy: withDescription(
        shareVolumePolicySchema,
        "Whether it gets the pod containers' volume mounts.",
      ).prefault({}),
      shareVolumeDevicePolicy: withDescription(
        shareVolumePolicySchema,
        "Whether it gets the pod containers' volume devices.",
      ).optional(),
      transferEnv: withDescription(
        z.array(transferEnvSchema).max(MAX_TRANSFER_ENV),
        'Env vars copied from pod containers.',
      ).optional(),
      resourcesPolicy: withDescription(
        resourcesPolicySchema,
        "The sidecar's resources computed at injection from the pod's containers (replaces resources).",
      ).optional(),
    }),
    {
      description: 'A core/v1 Container plus how it is injected and upgraded.',
      preserveUnknownFields: true,
      validations: [
        {
          rule: "!has(self.upgradeStrategy) || self.upgradeStrategy.upgradeType != 'HotUpgrade' || (has(self.upgradeStrategy.hotUpgradeEmptyImage) && self.upgradeStrategy.hotUpgradeEmptyImage != '')",
          message: 'upgradeStrategy.hotUpgradeEmptyImage: required for HotUpgrade',
          fieldPath: '.upgradeStrategy.hotUpgradeEmptyImage',
          reason: 'FieldValueRequired',
        },
      ],
    },
  );
}

/** Most sidecars of one list: far above real use, low enough for CEL cost estimates. */
export const MAX_SIDECARS = 64;

/** A sidecar of `containers`. */
export const sidecarContainerOfContainersSchema = sidecarContainerSchema(PodInjectPolicy.BeforeAppContainer);
/** A sidecar of `initContainers`. */
export const sidecarContainerOfInitContainersSchema = sidecarContainerSchema(PodInjectPolicy.AfterAppContainer);
/** A sidecar container as stored (defaults applied). */
export type SidecarContainer = z.output<typeof sidecarContainerOfContainersSchema>;
