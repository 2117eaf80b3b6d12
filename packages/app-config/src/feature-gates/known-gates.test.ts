import { describe, expect, it } from 'vitest';

import { FEATURE_GATE_NAMES, KNOWN_FEATURE_GATES, isFeatureGateName } from './known-gates.ts';
import type { FeatureGateName } from './known-gates.ts';

/** OpenKruise v1.9 `defaultFeatureGates` (spec §13), transcribed independently: name, default, stage. */
const OPENKRUISE: readonly (readonly [string, boolean, 'Alpha' | 'Beta'])[] = [
  ['KruiseDaemon', true, 'Beta'],
  ['PodWebhook', true, 'Beta'],
  ['DaemonWatchingPod', true, 'Beta'],
  ['CloneSetShortHash', false, 'Alpha'],
  ['KruisePodReadinessGate', false, 'Alpha'],
  ['PreDownloadImageForInPlaceUpdate', false, 'Alpha'],
  ['CloneSetPartitionRollback', false, 'Alpha'],
  ['ResourcesDeletionProtection', false, 'Beta'],
  ['PodUnavailableBudgetDeleteGate', true, 'Beta'],
  ['PodUnavailableBudgetUpdateGate', false, 'Alpha'],
  ['WorkloadSpread', true, 'Beta'],
  ['TemplateNoDefaults', false, 'Alpha'],
  ['InPlaceUpdateEnvFromMetadata', true, 'Beta'],
  ['StatefulSetAutoDeletePVC', true, 'Beta'],
  ['SidecarSetPatchPodMetadataDefaultsAllowed', false, 'Alpha'],
  ['SidecarTerminator', false, 'Alpha'],
  ['PodProbeMarkerGate', true, 'Beta'],
  ['PreDownloadImageForDaemonSetUpdate', false, 'Alpha'],
  ['CloneSetEventHandlerOptimization', false, 'Alpha'],
  ['PreparingUpdateAsUpdate', false, 'Alpha'],
  ['ImagePullJobGate', false, 'Alpha'],
  ['ResourceDistributionGate', false, 'Beta'],
  ['DeletionProtectionForCRDCascadingGate', false, 'Alpha'],
  ['EnhancedLivenessProbe', false, 'Alpha'],
  ['RecreatePodWhenChangeVCTInCloneSetGate', false, 'Alpha'],
  ['StatefulSetStartOrdinal', false, 'Alpha'],
  ['PodIndexLabel', true, 'Beta'],
  ['EnableExternalCerts', false, 'Alpha'],
  ['StatefulSetAutoResizePVCGate', false, 'Alpha'],
  ['ForceDeleteTimeoutExpectationGate', false, 'Alpha'],
  ['InPlaceWorkloadVerticalScaling', false, 'Alpha'],
  ['EnablePodProbeMarkerOnServerless', false, 'Alpha'],
  ['EnableSortSidecarContainerByName', false, 'Alpha'],
  ['InPlacePodVerticalScaling', false, 'Alpha'],
  ['DefaultHostNetworkHostPortsInPodTemplates', false, 'Alpha'],
  ['DaemonSetPruneIneligibleNodes', false, 'Alpha'],
];

const APPS: readonly (readonly [string, boolean])[] = [
  ['CloneSet', true],
  ['AdvancedStatefulSet', true],
  ['SidecarSet', false],
  ['BroadcastJob', false],
];

describe('known feature gates', () => {
  it('are exactly the OpenKruise gates plus one per app, sorted in FEATURE_GATE_NAMES', () => {
    const expected = [...OPENKRUISE.map(([name]) => name), ...APPS.map(([name]) => name)].sort();
    expect(FEATURE_GATE_NAMES).toEqual(expected);
    expect(FEATURE_GATE_NAMES).toHaveLength(40);
  });

  it.each(OPENKRUISE)('%s defaults to %s at stage %s, as in OpenKruise', (name, enabled, stage) => {
    expect(KNOWN_FEATURE_GATES[name as FeatureGateName]).toMatchObject({
      default: enabled,
      stage,
      origin: 'openkruise',
    });
  });

  it.each(APPS)('app gate %s defaults to %s', (name, enabled) => {
    expect(KNOWN_FEATURE_GATES[name as FeatureGateName]).toMatchObject({
      default: enabled,
      origin: 'kruise-ts',
      apps: [name],
    });
  });

  it('records for every gate whether kruise-ts implements it and which apps it affects', () => {
    for (const name of FEATURE_GATE_NAMES) {
      const spec = KNOWN_FEATURE_GATES[name];
      expect(typeof spec.implemented).toBe('boolean');
      expect(spec.description).not.toBe('');
      expect(Array.isArray(spec.apps)).toBe(true);
    }
  });

  it.each([
    ['CloneSet', true],
    ['cloneset', false],
    ['toString', false],
    ['__proto__', false],
    ['', false],
  ] as const)('isFeatureGateName(%j) is %s', (name, known) => {
    expect(isFeatureGateName(name)).toBe(known);
  });
});
