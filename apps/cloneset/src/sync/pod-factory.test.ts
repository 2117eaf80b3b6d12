import { cloneSetSchema } from '@kruise-ts/api';
import type { CloneSetInput } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';

import { newPod, podReadinessGates } from './pod-factory.ts';

function cloneSet(spec: Partial<CloneSetInput['spec']>, templateGates?: string[]): ReturnType<typeof cloneSetSchema.parse> {
  return cloneSetSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'cs', namespace: 'ns' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'x' } },
      template: {
        metadata: { labels: { app: 'x' } },
        spec: { containers: [{ name: 'c', image: 'i' }], ...(templateGates === undefined ? {} : { readinessGates: templateGates.map((conditionType) => ({ conditionType })) }) },
      },
      ...spec,
    },
  } satisfies CloneSetInput);
}

const BOTH = ['InPlaceUpdateReady', 'KruisePodReady'];

describe('podReadinessGates', () => {
  it.each([
    { name: 'no strategy (ReCreate by default)', spec: {}, gates: [] },
    { name: 'ReCreate', spec: { updateStrategy: { type: 'ReCreate' as const } }, gates: [] },
    { name: 'InPlaceIfPossible', spec: { updateStrategy: { type: 'InPlaceIfPossible' as const } }, gates: BOTH },
    { name: 'InPlaceOnly', spec: { updateStrategy: { type: 'InPlaceOnly' as const } }, gates: BOTH },
    { name: 'ReCreate, preDelete markPodNotReady', spec: { updateStrategy: { type: 'ReCreate' as const }, lifecycle: { preDelete: { markPodNotReady: true } } }, gates: ['KruisePodReady'] },
    { name: 'ReCreate, inPlaceUpdate markPodNotReady', spec: { updateStrategy: { type: 'ReCreate' as const }, lifecycle: { inPlaceUpdate: { markPodNotReady: true } } }, gates: ['KruisePodReady'] },
    { name: 'ReCreate, hook without markPodNotReady', spec: { updateStrategy: { type: 'ReCreate' as const }, lifecycle: { preDelete: { finalizersHandler: ['x/y'] } } }, gates: [] },
    { name: 'ReCreate, markPodNotReady false', spec: { updateStrategy: { type: 'ReCreate' as const }, lifecycle: { preDelete: { markPodNotReady: false } } }, gates: [] },
    { name: 'InPlaceIfPossible with markPodNotReady', spec: { updateStrategy: { type: 'InPlaceIfPossible' as const }, lifecycle: { preDelete: { markPodNotReady: true } } }, gates: BOTH },
  ])('$name → $gates', ({ spec, gates }) => {
    expect(podReadinessGates(cloneSet(spec))).toEqual(gates);
  });
});

describe('newPod readinessGates', () => {
  const input = (cs: ReturnType<typeof cloneSet>): Parameters<typeof newPod>[0] => ({
    cs,
    controllerRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs', uid: 'u', controller: true, blockOwnerDeletion: true },
    template: cs.spec.template,
    revisionName: 'cs-abc',
    instanceId: 'xyz12',
    shortHash: false,
    now: new Date(Date.UTC(2026, 10, 21)),
  });

  it('omits the field when the pod gets no gate', () => {
    expect(newPod(input(cloneSet({ updateStrategy: { type: 'ReCreate' } }))).spec).not.toHaveProperty('readinessGates');
  });

  it("keeps the template's own gates, first and once", () => {
    const recreate = newPod(input(cloneSet({ updateStrategy: { type: 'ReCreate' } }, ['example.io/warm'])));
    expect(recreate.spec?.readinessGates).toEqual([{ conditionType: 'example.io/warm' }]);
    const inPlace = newPod(input(cloneSet({ updateStrategy: { type: 'InPlaceIfPossible' } }, ['example.io/warm', 'KruisePodReady'])));
    expect(inPlace.spec?.readinessGates).toEqual([{ conditionType: 'example.io/warm' }, { conditionType: 'KruisePodReady' }, { conditionType: 'InPlaceUpdateReady' }]);
  });
});
