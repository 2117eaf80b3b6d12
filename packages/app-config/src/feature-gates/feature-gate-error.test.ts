import { describe, expect, it } from 'vitest';

import { FeatureGateError, describeFeatureGateProblem } from '@kruise-ts/controller-runtime';

import { FEATURE_GATE_NAMES } from './known-gates.ts';

const KNOWN = FEATURE_GATE_NAMES.join(', ');

describe('FeatureGateError', () => {
  it('lists the known gates once, after all problems, when a typo may be involved', () => {
    const error = new FeatureGateError(
      [
        { kind: 'unknown-gate', message: 'unknown feature gate "A"' },
        { kind: 'unknown-gate', message: 'unknown feature gate "B"' },
      ],
      FEATURE_GATE_NAMES,
      'A=true,B=true',
    );
    expect(error.name).toBe('FeatureGateError');
    expect(error.message).toBe(
      `invalid feature gates "A=true,B=true": unknown feature gate "A"; unknown feature gate "B"; known gates: ${KNOWN}`,
    );
    expect(error.problems).toHaveLength(2);
  });

  it('omits the list for pure conflicts and the input when there is none', () => {
    expect(
      new FeatureGateError([{ kind: 'conflict', message: 'x conflicts with y' }], FEATURE_GATE_NAMES).message,
    ).toBe('invalid feature gates: x conflicts with y');
  });

  it.each([
    { kind: 'conflict' as const, expected: 'm' },
    { kind: 'syntax' as const, expected: `m; known gates: ${KNOWN}` },
    { kind: 'bad-value' as const, expected: `m; known gates: ${KNOWN}` },
  ])('describes a $kind problem on its own', ({ kind, expected }) => {
    expect(describeFeatureGateProblem({ kind, message: 'm' }, FEATURE_GATE_NAMES)).toBe(expected);
  });
});
