import { describe, expect, it } from 'vitest';

import { managerFlagsSchema } from '@kruise-ts/app-config';
import { parseFlags } from '@kruise-ts/controller-runtime';

import { cloneSetFlagsShape, cloneSetOptionsFromFlags } from './flags.ts';

const schema = managerFlagsSchema.extend(cloneSetFlagsShape);

describe('CloneSet flags', () => {
  it("defaults: PreparingDelete pods count when scaling, in-place updates strip pods' managedFields, every pod gets the readiness gates", () => {
    const options = cloneSetOptionsFromFlags(parseFlags([], schema));
    expect(options).toMatchObject({
      scalingExcludePreparingDelete: false,
      stripPodManagedFields: true,
      reCreateWithoutReadinessGates: false,
    });
  });

  it.each([
    [
      ['--cloneset-strip-pod-managed-fields=false'],
      { stripPodManagedFields: false, scalingExcludePreparingDelete: false, reCreateWithoutReadinessGates: false },
    ],
    [
      ['--cloneset-scaling-exclude-preparing-delete'],
      { stripPodManagedFields: true, scalingExcludePreparingDelete: true, reCreateWithoutReadinessGates: false },
    ],
    [
      ['--cloneset-recreate-without-readiness-gates'],
      { stripPodManagedFields: true, scalingExcludePreparingDelete: false, reCreateWithoutReadinessGates: true },
    ],
    [['--cloneset-recreate-without-readiness-gates=false'], { reCreateWithoutReadinessGates: false }],
  ])('%j', (argv, expected) => {
    expect(cloneSetOptionsFromFlags(parseFlags(argv, schema))).toMatchObject(expected);
  });

  it.each(['cloneset-strip-pod-managed-fields', 'cloneset-recreate-without-readiness-gates'])(
    'names the flag of a bad value: --%s',
    (flag) => {
      expect(() => parseFlags([`--${flag}=maybe`], schema)).toThrow(new RegExp(flag));
    },
  );

  it.each([
    { argv: [], workers: 3 },
    { argv: ['--workers=5'], workers: 5 },
    { argv: ['--cloneset-workers=8'], workers: 8 },
    { argv: ['--workers=5', '--cloneset-workers', '2'], workers: 2 },
  ])('--cloneset-workers (OpenKruise) overrides --workers: $argv ⇒ $workers', ({ argv, workers }) => {
    expect(cloneSetOptionsFromFlags(parseFlags(argv, schema)).workers).toBe(workers);
  });

  it('rejects a bad --cloneset-workers naming it', () => {
    expect(() => parseFlags(['--cloneset-workers=0'], schema)).toThrow(/--cloneset-workers/);
  });
});
