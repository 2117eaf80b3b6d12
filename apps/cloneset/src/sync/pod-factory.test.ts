import { cloneSetSchema } from '@kruise-ts/api';
import type { CloneSetInput } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';

import { newPod } from './pod-factory.ts';

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

function input(cs: ReturnType<typeof cloneSet>): Parameters<typeof newPod>[0] {
  return {
    cs,
    controllerRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs', uid: 'u', controller: true, blockOwnerDeletion: true },
    template: cs.spec.template,
    revisionName: 'cs-abc',
    instanceId: 'xyz12',
    shortHash: false,
    now: new Date(Date.UTC(2026, 10, 21)),
  };
}

describe('newPod readinessGates', () => {
  it.each([
    { name: 'ReCreate (the default): both, a later switch to in-place needs them', spec: {} },
    { name: 'InPlaceIfPossible', spec: { updateStrategy: { type: 'InPlaceIfPossible' as const } } },
    { name: 'InPlaceOnly', spec: { updateStrategy: { type: 'InPlaceOnly' as const } } },
  ])('$name', ({ spec }) => {
    expect(newPod(input(cloneSet(spec))).spec?.readinessGates).toEqual([{ conditionType: 'InPlaceUpdateReady' }, { conditionType: 'KruisePodReady' }]);
  });

  it("keeps the template's own gates, first and once", () => {
    const pod = newPod(input(cloneSet({ updateStrategy: { type: 'InPlaceIfPossible' } }, ['example.io/warm', 'KruisePodReady'])));
    expect(pod.spec?.readinessGates).toEqual([{ conditionType: 'example.io/warm' }, { conditionType: 'KruisePodReady' }, { conditionType: 'InPlaceUpdateReady' }]);
  });
});
