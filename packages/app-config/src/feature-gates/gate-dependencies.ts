import type { FeatureGateDependency } from '@kruise-ts/controller-runtime';

import type { FeatureGateName } from './known-gates.ts';

/**
 * OpenKruise's `SetDefaultFeatureGates`, as data and in its order (the order matters: with
 * KruiseDaemon off, the pre-download gates are forced off before they could force ImagePullJobGate on).
 */
export const FEATURE_GATE_DEPENDENCIES: readonly FeatureGateDependency<FeatureGateName>[] = [
  {
    when: { gate: 'PodWebhook', enabled: false },
    force: {
      enabled: false,
      gates: [
        'KruisePodReadinessGate',
        'PodUnavailableBudgetDeleteGate',
        'PodUnavailableBudgetUpdateGate',
        'WorkloadSpread',
        'SidecarSetPatchPodMetadataDefaultsAllowed',
        'EnhancedLivenessProbe',
        'EnablePodProbeMarkerOnServerless',
      ],
    },
  },
  {
    when: { gate: 'KruiseDaemon', enabled: false },
    force: {
      enabled: false,
      gates: [
        'PreDownloadImageForInPlaceUpdate',
        'DaemonWatchingPod',
        'InPlaceUpdateEnvFromMetadata',
        'PreDownloadImageForDaemonSetUpdate',
        'PodProbeMarkerGate',
        'SidecarTerminator',
        'ImagePullJobGate',
        'EnhancedLivenessProbe',
      ],
    },
  },
  {
    when: { gate: 'PreDownloadImageForInPlaceUpdate', enabled: true },
    force: { enabled: true, gates: ['ImagePullJobGate'] },
  },
  {
    when: { gate: 'PreDownloadImageForDaemonSetUpdate', enabled: true },
    force: { enabled: true, gates: ['ImagePullJobGate'] },
  },
  {
    when: { gate: 'ResourcesDeletionProtection', enabled: false },
    force: { enabled: false, gates: ['DeletionProtectionForCRDCascadingGate'] },
  },
];
