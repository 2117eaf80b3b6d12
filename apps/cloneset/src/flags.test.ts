import { describe, expect, it } from 'vitest';

import { managerFlagsSchema, parseFlags } from '@kruise-ts/controller-runtime';

import { cloneSetFlagsShape, cloneSetOptionsFromFlags } from './flags.ts';

const schema = managerFlagsSchema.extend(cloneSetFlagsShape);

describe('CloneSet flags', () => {
  it('defaults: PreparingDelete pods count when scaling, and in-place updates strip pods\' managedFields', () => {
    const options = cloneSetOptionsFromFlags(parseFlags([], schema));
    expect(options).toMatchObject({ scalingExcludePreparingDelete: false, stripPodManagedFields: true });
  });

  it.each([
    [['--cloneset-strip-pod-managed-fields=false'], { stripPodManagedFields: false, scalingExcludePreparingDelete: false }],
    [['--cloneset-scaling-exclude-preparing-delete'], { stripPodManagedFields: true, scalingExcludePreparingDelete: true }],
  ])('%j', (argv, expected) => {
    expect(cloneSetOptionsFromFlags(parseFlags(argv, schema))).toMatchObject(expected);
  });

  it('names the flag of a bad value', () => {
    expect(() => parseFlags(['--cloneset-strip-pod-managed-fields=maybe'], schema)).toThrow(/cloneset-strip-pod-managed-fields/);
  });
});
