import { describe, expect, it } from 'vitest';

import { PreconditionError, UsageError } from '../cli/cli-errors.ts';
import { resolveKind } from '../resources/kinds.ts';
import type { Kind } from '../resources/kinds.ts';
import type { WorkloadObject } from '../resources/workload-object.ts';
import { mergePodsToDelete, mergeReserveOrdinals, parsePodList, podOrdinal, scalePatch } from './scale-in.ts';

const kind = (type: string): Kind => resolveKind(type) ?? (undefined as never);

describe('parsePodList', () => {
  it.each([
    ['a', ['a']],
    ['a,b', ['a', 'b']],
    [' a , b ', ['a', 'b']],
    ['a,b,a', ['a', 'b']],
  ])('%j', (value, names) => {
    expect(parsePodList(value)).toEqual(names);
  });

  it.each(['', ',', 'a,,b', 'a,'])('refuses %j', (value) => {
    expect(() => parsePodList(value)).toThrow(UsageError);
  });
});

describe('mergePodsToDelete', () => {
  it.each([
    [[], ['a'], ['a']],
    [['a'], ['b'], ['a', 'b']],
    [
      ['a', 'b'],
      ['b', 'c'],
      ['a', 'b', 'c'],
    ],
    [['a'], ['a'], ['a']],
    [['x', 'y'], [], ['x', 'y']],
  ])('%j + %j = %j', (existing, added, merged) => {
    expect(mergePodsToDelete(existing, added)).toEqual(merged);
  });
});

describe('Advanced StatefulSet ordinals', () => {
  it.each([
    ['db', 'db-0', 0],
    ['db', 'db-12', 12],
    ['db-x', 'db-x-3', 3],
    ['db', 'db-01', undefined],
    ['db', 'db-', undefined],
    ['db', 'web-1', undefined],
    ['db', 'db-1a', undefined],
  ])('%s: %s is ordinal %j', (set, pod, ordinal) => {
    expect(podOrdinal(set, pod)).toBe(ordinal);
  });

  it.each([
    [[], [1], [1]],
    [[1], [1], [1]],
    [[1], [2, 2], [1, 2]],
    [['3-5'], [4, 6], ['3-5', 6]],
    [['7'], [7], ['7']],
  ])('reserveOrdinals %j + %j = %j', (existing, ordinals, merged) => {
    expect(mergeReserveOrdinals(existing, ordinals)).toEqual(merged);
  });
});

describe('scalePatch', () => {
  const object: WorkloadObject = {
    metadata: { name: 'web', uid: 'u', resourceVersion: '42' },
    spec: {
      replicas: 3,
      template: { spec: { containers: [{ name: 'c' }] } },
      scaleStrategy: { podsToDelete: ['web-old'] },
      reserveOrdinals: [0],
    },
  };

  it('patches only replicas without --delete', () => {
    expect(scalePatch(kind('clone'), object, { replicas: 5, pods: [] })).toEqual({ spec: { replicas: 5 } });
  });

  it('appends podsToDelete of a CloneSet at the version it read', () => {
    expect(scalePatch(kind('clone'), object, { replicas: 1, pods: ['web-a', 'web-old'] })).toEqual({
      metadata: { resourceVersion: '42' },
      spec: { replicas: 1, scaleStrategy: { podsToDelete: ['web-old', 'web-a'] } },
    });
  });

  it('reserves the ordinals of an Advanced StatefulSet', () => {
    expect(scalePatch(kind('asts'), object, { replicas: 2, pods: ['web-2'] })).toEqual({
      metadata: { resourceVersion: '42' },
      spec: { replicas: 2, reserveOrdinals: [0, 2] },
    });
  });

  it("refuses a name that is not an Advanced StatefulSet's pod", () => {
    expect(() => scalePatch(kind('asts'), object, { replicas: 2, pods: ['other-1'] })).toThrow(PreconditionError);
  });
});
