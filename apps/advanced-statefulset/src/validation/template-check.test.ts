import { describe, expect, it } from 'vitest';

import type { StatefulSet } from '@kruise-ts/api';

import { statefulSet, webSpec } from '../../test/fixtures/reconcile-fixture.ts';
import { needsTemplateCheck } from './template-check.ts';

function withStatus(
  replicas: number,
  status: Partial<NonNullable<StatefulSet['status']>> | undefined,
  extra: Partial<StatefulSet['metadata']> = {},
): StatefulSet {
  const set = statefulSet({ spec: webSpec(replicas), generation: 2 });
  return {
    ...set,
    metadata: { ...set.metadata, ...extra },
    ...(status === undefined ? {} : { status: { replicas: 0, readyReplicas: 0, availableReplicas: 0, ...status } }),
  };
}

describe('needsTemplateCheck', () => {
  it.each([
    ['a new set', withStatus(2, undefined), true],
    ['a new generation', withStatus(2, { observedGeneration: 1, replicas: 2, updatedReplicas: 2 }), true],
    ['missing pods', withStatus(2, { observedGeneration: 2, replicas: 1, updatedReplicas: 1 }), true],
    ['pods to update', withStatus(2, { observedGeneration: 2, replicas: 2, updatedReplicas: 1 }), true],
    ['a set at rest', withStatus(2, { observedGeneration: 2, replicas: 2, updatedReplicas: 2 }), false],
    ['no replicas', withStatus(0, undefined), false],
    ['a set being deleted', withStatus(2, undefined, { deletionTimestamp: '2024-01-01T00:00:00Z' }), false],
  ])('%s: %s', (_, set, expected) => {
    expect(needsTemplateCheck(set)).toBe(expected);
  });
});
