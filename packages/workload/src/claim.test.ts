import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { ApiError, deepFreeze } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';

import { names, pod } from '../test/fixtures/pods.ts';
import { adoptPatch, claimDecision, claimObjects, isSameLiveOwner, newControllerRef, releasePatch } from './claim.ts';
import type { ClaimOwner, JsonPatch } from './claim.ts';

const owner: ClaimOwner = {
  uid: 'cs-uid',
  name: 'web',
  namespace: 'ns',
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  deleting: false,
};
const selector = { matchLabels: { app: 'web' } };
const ours = [newControllerRef(owner)];
const theirs = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-uid', controller: true }];
const notController = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'cm-uid' }];
const matching = { app: 'web' };
const other = { app: 'other' };

describe('claimDecision', () => {
  it.each([
    {
      case: 'ours and matching ⇒ keep',
      labels: matching,
      refs: ours,
      deleting: false,
      podDeleting: false,
      expected: 'keep',
    },
    {
      case: 'ours and matching while the owner is deleting ⇒ keep',
      labels: matching,
      refs: ours,
      deleting: true,
      podDeleting: false,
      expected: 'keep',
    },
    {
      case: 'ours, labels changed ⇒ release',
      labels: other,
      refs: ours,
      deleting: false,
      podDeleting: false,
      expected: 'release',
    },
    {
      case: 'ours, labels changed, owner deleting ⇒ ignore',
      labels: other,
      refs: ours,
      deleting: true,
      podDeleting: false,
      expected: 'ignore',
    },
    {
      case: 'orphan, matching ⇒ adopt',
      labels: matching,
      refs: undefined,
      deleting: false,
      podDeleting: false,
      expected: 'adopt',
    },
    {
      case: 'orphan with a non-controller ref ⇒ adopt',
      labels: matching,
      refs: notController,
      deleting: false,
      podDeleting: false,
      expected: 'adopt',
    },
    {
      case: 'orphan, matching, owner deleting ⇒ ignore',
      labels: matching,
      refs: undefined,
      deleting: true,
      podDeleting: false,
      expected: 'ignore',
    },
    {
      case: 'orphan, matching, pod deleting ⇒ ignore',
      labels: matching,
      refs: undefined,
      deleting: false,
      podDeleting: true,
      expected: 'ignore',
    },
    {
      case: 'orphan, not matching ⇒ ignore',
      labels: other,
      refs: undefined,
      deleting: false,
      podDeleting: false,
      expected: 'ignore',
    },
    {
      case: "someone else's, matching ⇒ ignore",
      labels: matching,
      refs: theirs,
      deleting: false,
      podDeleting: false,
      expected: 'ignore',
    },
  ])('$case', ({ labels, refs, deleting, podDeleting, expected }) => {
    const p = pod({
      name: 'p',
      labels,
      ...(refs === undefined ? {} : { ownerReferences: refs }),
      deleting: podDeleting,
    });
    expect(claimDecision({ owner: { ...owner, deleting }, selector, object: p })).toBe(expected);
  });
});

describe('patches', () => {
  it('adopts with preconditions on uid and the current (absent) ownerReferences', () => {
    expect(adoptPatch(pod({ name: 'p', uid: 'p-uid' }), owner)).toEqual({
      type: 'json',
      body: [
        { op: 'test', path: '/metadata/uid', value: 'p-uid' },
        { op: 'test', path: '/metadata/ownerReferences', value: null },
        {
          op: 'add',
          path: '/metadata/ownerReferences',
          value: [
            {
              apiVersion: 'apps.kruise.io/v1alpha1',
              kind: 'CloneSet',
              name: 'web',
              uid: 'cs-uid',
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        },
      ],
    });
  });

  it('appends to existing ownerReferences after testing them', () => {
    const patch = adoptPatch(pod({ name: 'p', uid: 'p-uid', ownerReferences: notController }), owner);
    expect(patch.body).toEqual([
      { op: 'test', path: '/metadata/uid', value: 'p-uid' },
      { op: 'test', path: '/metadata/ownerReferences', value: notController },
      { op: 'add', path: '/metadata/ownerReferences/-', value: newControllerRef(owner) },
    ]);
  });

  it('releases by index with the same preconditions', () => {
    const refs = [...notController, ...ours];
    expect(releasePatch(pod({ name: 'p', uid: 'p-uid', ownerReferences: refs }), 'cs-uid')?.body).toEqual([
      { op: 'test', path: '/metadata/uid', value: 'p-uid' },
      { op: 'test', path: '/metadata/ownerReferences', value: refs },
      { op: 'remove', path: '/metadata/ownerReferences/1' },
    ]);
    expect(releasePatch(pod({ name: 'p', ownerReferences: notController }), 'cs-uid')).toBeUndefined();
  });
});

describe('isSameLiveOwner', () => {
  it.each([
    [{ metadata: { uid: 'cs-uid' } }, true],
    [{ metadata: { uid: 'other' } }, false],
    [{ metadata: { uid: 'cs-uid', deletionTimestamp: '2026-01-01T00:00:00Z' } }, false],
    [{}, false],
  ])('%j ⇒ %s', (fresh, expected) => {
    expect(isSameLiveOwner(fresh, 'cs-uid')).toBe(expected);
  });
});

interface FakeApi {
  readonly patches: { name: string; patch: JsonPatch }[];
  readonly patchPod: (p: DeepReadonly<Pod>, patch: JsonPatch) => Promise<DeepReadonly<Pod>>;
}

function fakeApi(failures: Readonly<Record<string, unknown>> = {}): FakeApi {
  const patches: { name: string; patch: JsonPatch }[] = [];
  return {
    patches,
    patchPod: (p, patch) => {
      const name = p.metadata?.name ?? '';
      patches.push({ name, patch });
      if (Object.hasOwn(failures, name)) {
        return Promise.reject(failures[name] instanceof Error ? failures[name] : new Error(String(failures[name])));
      }
      return Promise.resolve({ ...p, metadata: { ...p.metadata, resourceVersion: 'patched' } });
    },
  };
}

describe('claimObjects (pods)', () => {
  const pods = deepFreeze([
    pod({ name: 'kept', labels: matching, ownerReferences: ours }),
    pod({ name: 'orphan', labels: matching }),
    pod({ name: 'moved-away', labels: other, ownerReferences: ours }),
    pod({ name: 'theirs', labels: matching, ownerReferences: theirs }),
    pod({ name: 'unrelated', labels: other }),
    pod({ name: 'dying-orphan', labels: matching, deleting: true }),
  ]);

  it('keeps, adopts and releases, and returns the claimed pods in input order', async () => {
    const api = fakeApi();
    let adoptChecks = 0;
    const claimed = await claimObjects({
      owner,
      selector,
      objects: pods,
      kind: 'pod',
      patch: api.patchPod,
      canAdopt: () => {
        adoptChecks += 1;
        return Promise.resolve(true);
      },
    });
    expect(names(claimed)).toEqual(['kept', 'orphan']);
    expect(claimed[1]?.metadata?.resourceVersion).toBe('patched');
    expect(api.patches.map((p) => [p.name, p.patch.body.at(-1)?.op])).toEqual([
      ['orphan', 'add'],
      ['moved-away', 'remove'],
    ]);
    expect(adoptChecks).toBe(1);
  });

  it('adopts and releases nothing while the owner is deleting', async () => {
    const api = fakeApi();
    const claimed = await claimObjects({
      owner: { ...owner, deleting: true },
      selector,
      objects: pods,
      kind: 'pod',
      patch: api.patchPod,
      canAdopt: () => Promise.resolve(true),
    });
    expect(names(claimed)).toEqual(['kept']);
    expect(api.patches).toEqual([]);
  });

  it('does not read the owner when there is nothing to adopt', async () => {
    const claimed = await claimObjects({
      owner,
      selector,
      objects: [pods[0] as DeepReadonly<Pod>],
      kind: 'pod',
      patch: fakeApi().patchPod,
      canAdopt: () => Promise.reject(new Error('must not be called')),
    });
    expect(names(claimed)).toEqual(['kept']);
  });

  it('refuses to adopt when the fresh owner check fails, and says so', async () => {
    const api = fakeApi();
    const claiming = claimObjects({
      owner,
      selector,
      objects: pods,
      kind: 'pod',
      patch: api.patchPod,
      canAdopt: () => Promise.resolve(false),
    });
    await expect(claiming).rejects.toThrow(AggregateError);
    await expect(claiming).rejects.toMatchObject({
      errors: [expect.objectContaining({ message: expect.stringContaining('gone or being deleted') as unknown })],
    });
    // The release still went through; the adoption was never sent.
    expect(api.patches.map((p) => p.name)).toEqual(['moved-away']);
  });

  it('skips pods that disappeared and reports other failures after trying every pod', async () => {
    const notFound = new ApiError({ code: 404, message: 'gone' });
    const api = fakeApi({ orphan: notFound, 'moved-away': 'test failed' });
    const claiming = claimObjects({
      owner,
      selector,
      objects: pods,
      kind: 'pod',
      patch: api.patchPod,
      canAdopt: () => Promise.resolve(true),
    });
    await expect(claiming).rejects.toMatchObject({
      errors: [expect.objectContaining({ message: "can't release pod moved-away" }) as unknown],
    });
    expect(api.patches.map((p) => p.name)).toEqual(['orphan', 'moved-away']);
  });
});
