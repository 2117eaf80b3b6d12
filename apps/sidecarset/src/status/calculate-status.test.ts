import { describe, expect, it } from 'vitest';

import { sidecarSetSchema } from '@kruise-ts/api';
import type { Pod } from '@kruise-ts/api';

import { injectSidecars } from '../injection/inject-pod.ts';
import { calculateStatus } from './calculate-status.ts';

const SET = sidecarSetSchema.parse({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'SidecarSet',
  metadata: { name: 'logs', creationTimestamp: '2026-11-25T00:00:00Z' },
  spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'logger', image: 'busybox:1' }] },
});

function pod(name: string, gate: 'True' | 'False' | undefined): Pod {
  const injected = injectSidecars(
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'ns', labels: { app: 'web' }, creationTimestamp: '2026-11-25T00:00:01Z' },
      spec: { containers: [{ name: 'app', image: 'app:1' }] },
    },
    [SET],
    new Date(0),
  );
  const conditions = [
    { type: 'Ready', status: 'True' },
    ...(gate === undefined ? [] : [{ type: 'InPlaceUpdateReady', status: gate }]),
  ];
  const containerStatuses = (injected.spec?.containers ?? []).map((container) => ({
    name: container.name,
    image: container.image ?? '',
    imageID: 'id',
    ready: true,
    restartCount: 0,
  }));
  return { ...injected, status: { phase: 'Running', conditions, containerStatuses } };
}

describe('calculateStatus', () => {
  it('marks a pod its workload is updating in place (InPlaceUpdateReady False) so that its sidecars wait', () => {
    const result = calculateStatus({
      set: SET,
      pods: [pod('updating', 'False'), pod('done', 'True'), pod('plain', undefined)],
      namespaceLabels: () => ({}),
      excludedNamespaces: new Set(),
    });
    expect(result.candidates.map((candidate) => [candidate.pod.metadata?.name, candidate.workloadUpdating])).toEqual([
      ['updating', true],
      ['done', false],
      ['plain', false],
    ]);
    expect(result.status).toMatchObject({ matchedPods: 3, updatedPods: 3, readyPods: 3 });
  });
});
