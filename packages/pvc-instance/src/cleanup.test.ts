import { describe, expect, it } from 'vitest';

import type { PersistentVolumeClaim, Pod } from '@kruise-ts/api';

import { handOverOwnerReferences, planPvcCleanup, podControllerRef } from './cleanup.ts';

const csRef = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  name: 'web',
  uid: 'cs-uid',
  controller: true,
  blockOwnerDeletion: true,
};

function claim(name: string, id?: string): PersistentVolumeClaim {
  return {
    metadata: {
      name,
      ...(id === undefined ? {} : { labels: { 'apps.kruise.io/cloneset-instance-id': id } }),
      ownerReferences: [csRef],
    },
  };
}

function podWithId(id: string): Pod {
  return { metadata: { name: `web-${id}`, uid: `uid-${id}`, labels: { 'apps.kruise.io/cloneset-instance-id': id } } };
}

function names(list: readonly { readonly metadata?: { readonly name?: string } }[]): string[] {
  return list.map((item) => item.metadata?.name ?? '');
}

describe('planPvcCleanup', () => {
  it('keeps claims of active pods, hands claims of inactive pods over and removes the rest', () => {
    const pvcs = [
      claim('data-a', 'aaaaa'),
      claim('data-b', 'bbbbb'),
      claim('data-c', 'ccccc'),
      claim('no-id'),
      claim('logs-a', 'aaaaa'),
      claim('data-d', 'ddddd'),
    ];
    const plan = planPvcCleanup({
      pvcs,
      activePods: [podWithId('aaaaa'), podWithId('ddddd')],
      inactivePods: [podWithId('bbbbb'), podWithId('ddddd')],
    });
    expect(names(plan.keep)).toEqual(['data-a', 'logs-a', 'data-d']);
    expect(plan.handOver.map(({ pvc, pod }) => [pvc.metadata?.name, pod.metadata?.name])).toEqual([
      ['data-b', 'web-bbbbb'],
    ]);
    expect(names(plan.remove)).toEqual(['data-c', 'no-id']);
  });

  it('has nothing to do without claims', () => {
    expect(planPvcCleanup({ pvcs: [], activePods: [podWithId('a')], inactivePods: [] })).toEqual({
      keep: [],
      handOver: [],
      remove: [],
    });
  });
});

describe('podControllerRef and handOverOwnerReferences', () => {
  it('makes the pod the controller of the claim instead of the workload', () => {
    const pod = podWithId('bbbbb');
    expect(podControllerRef(pod)).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      name: 'web-bbbbb',
      uid: 'uid-bbbbb',
      controller: true,
      blockOwnerDeletion: true,
    });
    const other = { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'cm-uid' };
    const pvc: PersistentVolumeClaim = { metadata: { name: 'data-b', ownerReferences: [other, csRef] } };
    expect(handOverOwnerReferences({ pvc, ownerUid: 'cs-uid', pod })).toEqual([other, podControllerRef(pod)]);
  });

  it('does not add the pod twice', () => {
    const pod = podWithId('bbbbb');
    const pvc: PersistentVolumeClaim = { metadata: { name: 'data-b', ownerReferences: [podControllerRef(pod)] } };
    expect(handOverOwnerReferences({ pvc, ownerUid: 'cs-uid', pod })).toEqual([podControllerRef(pod)]);
  });
});
