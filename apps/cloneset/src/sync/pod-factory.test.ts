import { cloneSetSchema } from '@kruise-ts/api';
import type { CloneSetInput } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';

import { newPod, podReadinessGates } from './pod-factory.ts';

function cloneSet(
  spec: Partial<CloneSetInput['spec']>,
  templateGates?: string[],
): ReturnType<typeof cloneSetSchema.parse> {
  return cloneSetSchema.parse({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'cs', namespace: 'ns' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'x' } },
      template: {
        metadata: { labels: { app: 'x' } },
        spec: {
          containers: [{ name: 'c', image: 'i' }],
          ...(templateGates === undefined
            ? {}
            : { readinessGates: templateGates.map((conditionType) => ({ conditionType })) }),
        },
      },
      ...spec,
    },
  } satisfies CloneSetInput);
}

function input(cs: ReturnType<typeof cloneSet>, reCreateWithoutReadinessGates = false): Parameters<typeof newPod>[0] {
  return {
    cs,
    controllerRef: {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      name: 'cs',
      uid: 'u',
      controller: true,
      blockOwnerDeletion: true,
    },
    template: cs.spec.template,
    revisionName: 'cs-abc',
    instanceId: 'xyz12',
    shortHash: false,
    reCreateWithoutReadinessGates,
    now: new Date(Date.UTC(2026, 10, 21)),
  };
}

const BOTH = ['InPlaceUpdateReady', 'KruisePodReady'];

describe('podReadinessGates with --cloneset-recreate-without-readiness-gates', () => {
  const on = { reCreateWithoutReadinessGates: true };
  it.each([
    { name: 'no strategy (ReCreate by default)', spec: {}, gates: [] },
    { name: 'ReCreate', spec: { updateStrategy: { type: 'ReCreate' as const } }, gates: [] },
    { name: 'InPlaceIfPossible', spec: { updateStrategy: { type: 'InPlaceIfPossible' as const } }, gates: BOTH },
    { name: 'InPlaceOnly', spec: { updateStrategy: { type: 'InPlaceOnly' as const } }, gates: BOTH },
    {
      name: 'ReCreate, preDelete markPodNotReady',
      spec: { lifecycle: { preDelete: { markPodNotReady: true } } },
      gates: ['KruisePodReady'],
    },
    {
      name: 'ReCreate, inPlaceUpdate markPodNotReady',
      spec: { lifecycle: { inPlaceUpdate: { markPodNotReady: true } } },
      gates: ['KruisePodReady'],
    },
    {
      name: 'ReCreate, hook without markPodNotReady',
      spec: { lifecycle: { preDelete: { finalizersHandler: ['example.io/hold'] } } },
      gates: [],
    },
    {
      name: 'ReCreate, markPodNotReady false',
      spec: { lifecycle: { preDelete: { markPodNotReady: false } } },
      gates: [],
    },
    {
      name: 'InPlaceIfPossible with markPodNotReady',
      spec: {
        updateStrategy: { type: 'InPlaceIfPossible' as const },
        lifecycle: { preDelete: { markPodNotReady: true } },
      },
      gates: BOTH,
    },
  ])('$name → $gates', ({ spec, gates }) => {
    expect(podReadinessGates(cloneSet(spec), on)).toEqual(gates);
  });

  it('without the flag every strategy gets both', () => {
    expect(podReadinessGates(cloneSet({}), { reCreateWithoutReadinessGates: false })).toEqual(BOTH);
  });
});

describe('newPod readinessGates', () => {
  it.each([
    { name: 'ReCreate (the default): both, a later switch to in-place needs them', spec: {} },
    { name: 'InPlaceIfPossible', spec: { updateStrategy: { type: 'InPlaceIfPossible' as const } } },
    { name: 'InPlaceOnly', spec: { updateStrategy: { type: 'InPlaceOnly' as const } } },
  ])('$name', ({ spec }) => {
    expect(newPod(input(cloneSet(spec))).spec?.readinessGates).toEqual([
      { conditionType: 'InPlaceUpdateReady' },
      { conditionType: 'KruisePodReady' },
    ]);
  });

  it("leaves the field out when the pod gets no gate, and keeps the template's own", () => {
    expect(newPod(input(cloneSet({}), true)).spec).not.toHaveProperty('readinessGates');
    expect(newPod(input(cloneSet({}, ['example.io/warm']), true)).spec?.readinessGates).toEqual([
      { conditionType: 'example.io/warm' },
    ]);
  });

  it("keeps the template's own gates, first and once", () => {
    const pod = newPod(
      input(cloneSet({ updateStrategy: { type: 'InPlaceIfPossible' } }, ['example.io/warm', 'KruisePodReady'])),
    );
    expect(pod.spec?.readinessGates).toEqual([
      { conditionType: 'example.io/warm' },
      { conditionType: 'KruisePodReady' },
      { conditionType: 'InPlaceUpdateReady' },
    ]);
  });
});
