/**
 * The Go field table of OpenKruise's SidecarContainer (apps/v1alpha1): a core/v1 Container inlined,
 * then its own fields, in declaration order (kruise-api v1.8.0; the fields added later,
 * shareVolumeDevicePolicy and resourcesPolicy, are nil pointers with omitempty when unused and do not
 * change the JSON). The golden test (test/integration/hash-golden.test.ts) checks it against Go.
 */
import type { GoStructTable } from '@kruise-ts/revision';
import { POD_TEMPLATE_STRUCTS } from '@kruise-ts/revision';

/** Container's fields, then SidecarContainer's own. */
export const SIDECAR_CONTAINER_STRUCTS: GoStructTable = {
  ...POD_TEMPLATE_STRUCTS,
  SidecarContainer: [
    ...(POD_TEMPLATE_STRUCTS['Container'] ?? []),
    { json: 'podInjectPolicy', type: 'string', omitempty: true },
    { json: 'upgradeStrategy', type: 'SidecarContainerUpgradeStrategy', omitempty: true },
    { json: 'shareVolumePolicy', type: 'ShareVolumePolicy', omitempty: true },
    { json: 'shareVolumeDevicePolicy', type: '*ShareVolumePolicy', omitempty: true },
    { json: 'transferEnv', type: '[]TransferEnvVar', omitempty: true },
  ],
  SidecarContainerUpgradeStrategy: [
    { json: 'upgradeType', type: 'string', omitempty: true },
    { json: 'hotUpgradeEmptyImage', type: 'string', omitempty: true },
  ],
  ShareVolumePolicy: [{ json: 'type', type: 'string', omitempty: true }],
  TransferEnvVar: [
    { json: 'sourceContainerName', type: 'string', omitempty: true },
    { json: 'sourceContainerNameFrom', type: '*SourceContainerNameSource', omitempty: true },
    { json: 'envName', type: 'string', omitempty: true },
    { json: 'envNames', type: '[]string', omitempty: true },
  ],
  SourceContainerNameSource: [{ json: 'fieldRef', type: '*ObjectFieldSelector', omitempty: true }],
};
