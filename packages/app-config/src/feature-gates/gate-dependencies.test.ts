import { describe, expect, it } from 'vitest';

import { applyFeatureGateDependencies } from '@kruise-ts/controller-runtime';

import { FEATURE_GATE_DEPENDENCIES } from './gate-dependencies.ts';
import { FEATURE_GATE_NAMES, KNOWN_FEATURE_GATES } from './known-gates.ts';
import type { FeatureGateName } from './known-gates.ts';

function defaults(overrides: Partial<Record<FeatureGateName, boolean>> = {}): Map<FeatureGateName, boolean> {
  return new Map(FEATURE_GATE_NAMES.map((name) => [name, overrides[name] ?? KNOWN_FEATURE_GATES[name].default]));
}

describe('applyFeatureGateDependencies', () => {
  it('keeps OpenKruise order: KruiseDaemon=false turns pre-download off before it could force ImagePullJobGate on', () => {
    const order = FEATURE_GATE_DEPENDENCIES.map((rule) => rule.when.gate);
    expect(order).toEqual([
      'PodWebhook',
      'KruiseDaemon',
      'PreDownloadImageForInPlaceUpdate',
      'PreDownloadImageForDaemonSetUpdate',
      'ResourcesDeletionProtection',
    ]);
    const values = defaults({ KruiseDaemon: false, PreDownloadImageForInPlaceUpdate: true });
    // Without explicit settings (e.g. values from another source) the rules apply silently.
    expect(applyFeatureGateDependencies(FEATURE_GATE_DEPENDENCIES, values, new Map())).toEqual([]);
    expect(values.get('PreDownloadImageForInPlaceUpdate')).toBe(false);
    expect(values.get('ImagePullJobGate')).toBe(false);
  });

  it('changes nothing for the defaults', () => {
    const values = defaults();
    expect(applyFeatureGateDependencies(FEATURE_GATE_DEPENDENCIES, values, new Map())).toEqual([]);
    expect(values).toEqual(defaults());
  });

  it('reports explicit settings a rule overrode as conflicts naming both gates', () => {
    const values = defaults({ PodWebhook: false, WorkloadSpread: true });
    const problems = applyFeatureGateDependencies(
      FEATURE_GATE_DEPENDENCIES,
      values,
      new Map([['WorkloadSpread', true]]),
    );
    expect(problems).toEqual([
      {
        kind: 'conflict',
        message: 'feature gate "WorkloadSpread" is set to true, but "PodWebhook=false" forces it to false',
      },
    ]);
  });
});
