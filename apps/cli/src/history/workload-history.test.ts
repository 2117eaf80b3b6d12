import { describe, expect, it } from 'vitest';

import { PreconditionError } from '../cli/cli-errors.ts';
import type { RevisionObject } from './revision-resource.ts';
import { controlledRevisions, findRevision, undoTarget } from './workload-history.ts';

function revision(
  name: string,
  number: number,
  owner: { uid: string; controller?: boolean } | null = { uid: 'web-uid' },
): RevisionObject {
  const ownerReferences =
    owner === null
      ? []
      : [
          {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'CloneSet',
            name: 'web',
            uid: owner.uid,
            controller: owner.controller ?? true,
          },
        ];
  return { metadata: { name, ownerReferences }, revision: number, data: {} };
}

const names = (revisions: readonly RevisionObject[]): string[] => revisions.map((item) => item.metadata.name);

describe('controlledRevisions', () => {
  it('keeps the revisions the workload controls, by uid, sorted by revision number', () => {
    const revisions = [
      revision('web-c', 3),
      revision('web-a', 1),
      revision('old-web', 2, { uid: 'earlier-web-uid' }),
      revision('orphan', 2, null),
      revision('not-controller', 2, { uid: 'web-uid', controller: false }),
      revision('web-b', 2),
    ];
    expect(names(controlledRevisions('web-uid', revisions))).toEqual(['web-a', 'web-b', 'web-c']);
  });
});

describe('findRevision', () => {
  const history = [revision('a', 1), revision('b', 2), revision('b2', 2)];
  it.each([
    [1, 'a'],
    [2, 'b2'],
    [3, undefined],
  ])('revision %i is %s', (number, name) => {
    expect(findRevision(history, number)?.metadata.name).toBe(name);
  });
});

describe('undoTarget', () => {
  const history = [revision('a', 1), revision('b', 3), revision('c', 4)];

  it.each([
    [0, 'b'],
    [1, 'a'],
    [4, 'c'],
  ])('--to-revision=%i restores %s', (toRevision, name) => {
    expect(undoTarget(history, toRevision, 'clonesets.apps.kruise.io "web"').metadata.name).toBe(name);
  });

  it.each([
    ['unable to find specified revision 2 in history', history, 2],
    ['unable to find specified revision 99 in history', history, 99],
    ['no rollout history found for clonesets.apps.kruise.io "web"', [], 0],
    ['no last revision to roll back to', [revision('a', 1)], 0],
    ['unable to find specified revision 1 in history', [], 1],
  ])('refuses: %s', (message, revisions, toRevision) => {
    const call = (): RevisionObject => undoTarget(revisions, toRevision, 'clonesets.apps.kruise.io "web"');
    expect(call).toThrow(PreconditionError);
    expect(call).toThrow(message);
  });
});
