/**
 * The Go field table of OpenKruise's SidecarContainer (apps/v1alpha1): a core/v1 Container inlined,
 * then its own fields, in declaration order as of OpenKruise 1.9 (shareVolumeDevicePolicy and
 * resourcesPolicy, added after kruise-api v1.8.0, are nil pointers with omitempty when unused and do
 * not change the JSON then; a resourcesPolicy is hashed, as OpenKruise hashes the whole container).
 * The golden test (test/integration/hash-golden.test.ts) checks it against Go.
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
    { json: 'resourcesPolicy', type: '*ResourcesPolicy', omitempty: true },
  ],
  ResourcesPolicy: [
    { json: 'targetContainersMode', type: 'string', omitempty: false },
    { json: 'targetContainersNameRegex', type: 'string', omitempty: true },
    { json: 'resourcesExpr', type: 'ResourcesExpr', omitempty: false },
  ],
  ResourcesExpr: [
    { json: 'limits', type: '*ResourceExpressions', omitempty: true },
    { json: 'requests', type: '*ResourceExpressions', omitempty: true },
  ],
  // ResourceExprLimits and ResourceExprRequests: the same two fields.
  ResourceExpressions: [
    { json: 'cpu', type: 'string', omitempty: true },
    { json: 'memory', type: 'string', omitempty: true },
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
