import { describe, expect, it } from 'vitest';

import { FeatureGateError } from '@kruise-ts/controller-runtime';

import { FeatureGates } from './feature-gates.ts';
import type { FeatureGateName } from './known-gates.ts';

describe('FeatureGates', () => {
  it('takes explicit overrides and applies the dependency rules', () => {
    const gates = new FeatureGates({ PreDownloadImageForInPlaceUpdate: true, CloneSet: false });
    expect(gates.enabled('ImagePullJobGate')).toBe(true);
    expect(gates.enabled('CloneSet')).toBe(false);
    expect(gates.toString()).toBe('CloneSet=false,ImagePullJobGate=true,PreDownloadImageForInPlaceUpdate=true');
    expect(new FeatureGates().toString()).toBe('');
  });

  it('lists every gate once, sorted by name', () => {
    const names = new FeatureGates().entries().map(([name]) => name);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
  });

  it('rejects unknown override keys from untyped callers', () => {
    expect(() => new FeatureGates({ Nope: true } as never)).toThrow(
      /unknown feature gate "Nope"; known gates: AdvancedStatefulSet, /,
    );
  });

  it('rejects conflicting overrides', () => {
    expect(() => new FeatureGates({ PodWebhook: false, WorkloadSpread: true })).toThrow(FeatureGateError);
  });

  it('refuses to answer for an unknown gate instead of reading it as off', () => {
    expect(() => new FeatureGates().enabled('Nope' as FeatureGateName)).toThrow(/unknown feature gate "Nope"/);
  });

  it('cannot be changed through the entries it hands out', () => {
    const gates = new FeatureGates();
    const entries = gates.entries() as [FeatureGateName, boolean][];
    const first = entries[0];
    if (first !== undefined) {
      first[1] = !first[1];
    }
    expect(gates.entries()).not.toEqual(entries);
  });
});
