import { FeatureGates } from '@kruise-ts/app-config';
import { describe, expect, it } from 'vitest';

import { sidecarSetOptionsFromFlags } from './flags.ts';

const flags = {
  workers: 2,
  namespace: '',
  'sidecarset-excluded-namespaces': ['kube-system'],
  'sidecarset-revision-namespace': '',
  'sidecarset-validation-webhook': true,
  'leader-election-namespace': 'kruise-system',
  'expectation-timeout': 60_000,
  'feature-gates': new FeatureGates({}),
};

describe('sidecarSetOptionsFromFlags', () => {
  it('takes --expectation-timeout for the cache-lag guard of upgrades, and --workers unless --sidecarset-workers says otherwise', () => {
    expect(sidecarSetOptionsFromFlags(flags)).toMatchObject({
      expectationTimeoutMs: 60_000,
      workers: 2,
      revisionNamespace: 'kruise-system',
    });
    expect(sidecarSetOptionsFromFlags({ ...flags, 'sidecarset-workers': 5 }).workers).toBe(5);
  });
});
