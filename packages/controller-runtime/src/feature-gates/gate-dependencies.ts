import type { FeatureGateProblem } from './feature-gate-error.ts';
import type { FeatureGateName } from './known-gates.ts';

/** One of OpenKruise's dependent-default rules: when `when.gate` is `when.enabled`, every gate in `force.gates` becomes `force.enabled`. */
export interface FeatureGateDependency {
  readonly when: { readonly gate: FeatureGateName; readonly enabled: boolean };
  readonly force: { readonly enabled: boolean; readonly gates: readonly FeatureGateName[] };
}

/**
 * OpenKruise's `SetDefaultFeatureGates`, as data and in its order (the order matters: with
 * KruiseDaemon off, the pre-download gates are forced off before they could force ImagePullJobGate on).
 */
export const FEATURE_GATE_DEPENDENCIES: readonly FeatureGateDependency[] = [
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

/**
 * Applies the dependency rules to `values` (in place) and reports every gate whose explicit setting
 * a rule overrode. OpenKruise silently overrides; we refuse, because a flag that says
 * `WorkloadSpread=true` but leaves WorkloadSpread off is a misconfiguration the operator should see.
 */
export function applyFeatureGateDependencies(
  values: Map<FeatureGateName, boolean>,
  explicit: ReadonlyMap<FeatureGateName, boolean>,
): FeatureGateProblem[] {
  const forcedBy = new Map<FeatureGateName, FeatureGateDependency>();
  for (const rule of FEATURE_GATE_DEPENDENCIES) {
    if (values.get(rule.when.gate) !== rule.when.enabled) {
      continue;
    }
    for (const gate of rule.force.gates) {
      values.set(gate, rule.force.enabled);
      forcedBy.set(gate, rule);
    }
  }
  const problems: FeatureGateProblem[] = [];
  for (const [gate, rule] of forcedBy) {
    const wanted = explicit.get(gate);
    if (wanted !== undefined && wanted !== values.get(gate)) {
      problems.push({ kind: 'conflict', message: conflictMessage(gate, wanted, rule) });
    }
  }
  return problems;
}

function conflictMessage(gate: FeatureGateName, wanted: boolean, rule: FeatureGateDependency): string {
  return (
    `feature gate "${gate}" is set to ${String(wanted)}, but "${rule.when.gate}=${String(rule.when.enabled)}" ` +
    `forces it to ${String(rule.force.enabled)}`
  );
}
