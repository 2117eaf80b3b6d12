import { describe, expect, it } from 'vitest';

import { isSettled } from './workloads.ts';
import type { Workload } from './workloads.ts';

const deployment = (replicas: number, status: Workload['status'], generation = 2): Workload => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd', generation },
  spec: { replicas },
  ...(status === undefined ? {} : { status }),
});

const cloneSet = (replicas: number, status: Workload['status']): Workload => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'c', generation: 2 },
  spec: { replicas },
  ...(status === undefined ? {} : { status }),
});

describe('isSettled', () => {
  it.each([
    { name: 'a Deployment of 0 whose status leaves the zero counts out', workload: deployment(0, { observedGeneration: 2 }), settled: true },
    { name: 'a Deployment with every pod updated, ready and available', workload: deployment(3, { observedGeneration: 2, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 }), settled: true },
    { name: 'a Deployment whose controller has not seen the new spec', workload: deployment(3, { observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 }), settled: false },
    { name: 'a Deployment with a surplus old pod', workload: deployment(3, { observedGeneration: 2, replicas: 4, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 }), settled: false },
    { name: 'a Deployment without status', workload: deployment(0, undefined), settled: false },
    {
      name: 'a CloneSet whose current revision caught up',
      workload: cloneSet(2, { observedGeneration: 2, replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2, updatedReadyReplicas: 2, currentRevision: 'r2', updateRevision: 'r2' }),
      settled: true,
    },
    {
      name: 'a CloneSet whose current revision lags',
      workload: cloneSet(2, { observedGeneration: 2, replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2, updatedReadyReplicas: 2, currentRevision: 'r1', updateRevision: 'r2' }),
      settled: false,
    },
    {
      name: 'a CloneSet with an updated pod not ready yet',
      workload: cloneSet(2, { observedGeneration: 2, replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2, updatedReadyReplicas: 1, currentRevision: 'r2', updateRevision: 'r2' }),
      settled: false,
    },
  ])('$name: $settled', ({ workload, settled }) => {
    expect(isSettled(workload)).toBe(settled);
  });
});
