import { describe, expect, it } from 'vitest';

import { FeatureGates, parseFeatureGates } from './feature-gates.ts';

import { unimplementedGateWarnings } from './unimplemented-gates.ts';

describe('unimplementedGateWarnings', () => {
  it.each([
    { flag: '', warnings: [] },
    { flag: 'CloneSetShortHash=true,PreparingUpdateAsUpdate=true', warnings: [] },
    {
      flag: 'ImagePullJobGate=true',
      warnings: [
        'feature gate ImagePullJobGate=true is accepted for compatibility with OpenKruise but has no effect: kruise-ts does not implement it',
      ],
    },
    { flag: 'AdvancedStatefulSet=true', warnings: [] },
    { flag: 'SidecarSet=true', warnings: [] },
    { flag: 'BroadcastJob=true', warnings: [] },
    // Always kruise-ts's behaviour: nothing to warn about.
    { flag: 'ForceDeleteTimeoutExpectationGate=true', warnings: [] },
    // Turned off: nothing; set explicitly (even to its default): reported.
    {
      flag: 'ImagePullJobGate=false,KruiseDaemon=true',
      warnings: [
        'feature gate KruiseDaemon=true is accepted for compatibility with OpenKruise but has no effect: kruise-ts does not implement it',
      ],
    },
  ])('--feature-gates=$flag', ({ flag, warnings }) => {
    expect(unimplementedGateWarnings(parseFeatureGates(flag))).toEqual(warnings);
  });

  it('does not report a gate that only a dependency rule turned on', () => {
    const gates = new FeatureGates({ PreDownloadImageForInPlaceUpdate: true });
    expect(gates.enabled('ImagePullJobGate')).toBe(true);
    expect(unimplementedGateWarnings(gates)).toEqual([
      'feature gate PreDownloadImageForInPlaceUpdate=true is accepted for compatibility with OpenKruise but has no effect: kruise-ts does not implement it',
    ]);
  });
});
