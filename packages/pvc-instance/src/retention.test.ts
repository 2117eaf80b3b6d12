import { describe, expect, it } from 'vitest';

import type { OwnerReference, PersistentVolumeClaim } from '@kruise-ts/api';

import { hasStalePodReference, retentionOwnerReferences, wantedClaimOwners } from './retention.ts';

describe('wantedClaimOwners', () => {
  it.each([
    // whenScaled, whenDeleted, inRange ⇒ set, pod
    ['Retain', 'Retain', true, false, false],
    ['Retain', 'Retain', false, false, false],
    ['Retain', 'Delete', true, true, false],
    ['Retain', 'Delete', false, true, false],
    ['Delete', 'Retain', true, false, false],
    ['Delete', 'Retain', false, false, true],
    ['Delete', 'Delete', true, true, false],
    ['Delete', 'Delete', false, false, true],
  ] as const)('whenScaled %s, whenDeleted %s, in range %s ⇒ set %s, pod %s', (...row) => {
    const [whenScaled, whenDeleted, inRange, set, pod] = row;
    expect(wantedClaimOwners({ whenScaled, whenDeleted }, inRange)).toEqual({ set, pod });
  });

  it('treats an absent policy as Retain/Retain', () => {
    expect(wantedClaimOwners(undefined, false)).toEqual({ set: false, pod: false });
  });
});

const setRef: OwnerReference = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'StatefulSet',
  name: 'db',
  uid: 'set-uid',
};
const podRef: OwnerReference = { apiVersion: 'v1', kind: 'Pod', name: 'db-2', uid: 'pod-uid' };
const other: OwnerReference = { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'cm-uid' };
const claim = (refs: OwnerReference[]): PersistentVolumeClaim => ({
  metadata: { name: 'data-db-2', ownerReferences: refs },
});
const owners = { set: setRef, podName: 'db-2', pod: podRef };

describe('retentionOwnerReferences', () => {
  it('adds the set and keeps other owners', () => {
    expect(retentionOwnerReferences(claim([other]), { owners, wanted: { set: true, pod: false } })).toEqual([
      other,
      setRef,
    ]);
  });

  it('swaps the set for the pod once the ordinal is scaled in', () => {
    expect(retentionOwnerReferences(claim([setRef]), { owners, wanted: { set: false, pod: true } })).toEqual([podRef]);
  });

  it('drops a reference to an older pod of the same name', () => {
    const stale = { ...podRef, uid: 'old-pod' };
    expect(retentionOwnerReferences(claim([stale]), { owners, wanted: { set: true, pod: false } })).toEqual([setRef]);
  });

  it('is undefined when the references are already right', () => {
    expect(
      retentionOwnerReferences(claim([other, setRef]), { owners, wanted: { set: true, pod: false } }),
    ).toBeUndefined();
    expect(retentionOwnerReferences(claim([]), { owners, wanted: { set: false, pod: false } })).toBeUndefined();
  });

  it('cannot add a pod that does not exist', () => {
    expect(
      retentionOwnerReferences(claim([setRef]), {
        owners: { set: setRef, podName: 'db-2' },
        wanted: { set: false, pod: true },
      }),
    ).toEqual([]);
  });
});

describe('hasStalePodReference', () => {
  it('finds a pod reference with the name and another uid', () => {
    expect(hasStalePodReference(claim([{ ...podRef, uid: 'old' }]), { name: 'db-2', uid: 'pod-uid' })).toBe(true);
    expect(hasStalePodReference(claim([podRef]), { name: 'db-2', uid: 'pod-uid' })).toBe(false);
  });
});
