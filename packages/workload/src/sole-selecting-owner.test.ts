import { describe, expect, it } from 'vitest';

import { FakeClient } from '@kruise-ts/controller-runtime/testing';
import { defineResource } from '@kruise-ts/controller-runtime';
import type { KubeObject } from '@kruise-ts/controller-runtime';

import { soleSelectingOwner } from './owned-object-events.ts';
import type { SelectingOwner } from './owned-object-events.ts';

type Owner = KubeObject & SelectingOwner;
const owners = defineResource<Owner>({
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  plural: 'clonesets',
  kind: 'CloneSet',
  namespaced: true,
});

function owner(namespace: string, name: string, matchLabels: Record<string, string>): Owner {
  return { metadata: { namespace, name, uid: `${namespace}-${name}` }, spec: { selector: { matchLabels } } };
}

function pod(namespace: string, labels: Record<string, string>): KubeObject {
  return { metadata: { namespace, name: 'orphan', labels } };
}

describe('soleSelectingOwner', () => {
  const fake = new FakeClient();
  fake.seed(owners, [
    owner('a', 'web', { app: 'web' }),
    owner('a', 'web-too', { app: 'web', tier: 'front' }),
    owner('a', 'db', { app: 'db' }),
    owner('a', 'everything', {}),
    owner('b', 'web', { app: 'web' }),
  ]);
  const ownerOf = soleSelectingOwner(fake.lister(owners));

  it.each([
    { name: 'one match in the namespace', pod: pod('a', { app: 'db' }), expected: 'a/db' },
    {
      name: "the same labels in another namespace: that namespace's owner",
      pod: pod('b', { app: 'web', tier: 'front' }),
      expected: 'b/web',
    },
    {
      name: 'two matches: nobody (left alone, as no controller is sure to adopt it)',
      pod: pod('a', { app: 'web', tier: 'front' }),
      expected: undefined,
    },
    { name: 'no match (an empty selector matches nothing)', pod: pod('a', { app: 'cache' }), expected: undefined },
    { name: 'no owner in the namespace', pod: pod('c', { app: 'web' }), expected: undefined },
  ])('$name', ({ pod: orphan, expected }) => {
    expect(ownerOf(orphan)).toBe(expected);
  });
});
