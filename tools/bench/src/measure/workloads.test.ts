import { describe, expect, it } from 'vitest';

import { countersOf, isSettled, resourceOf, workloadKindFor } from './workloads.ts';
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

const statefulSet = (apiVersion: string, replicas: number, status: Workload['status']): Workload => ({
  apiVersion,
  kind: 'StatefulSet',
  metadata: { name: 's', generation: 2 },
  spec: { replicas },
  ...(status === undefined ? {} : { status }),
});
const daemonSet = (status: Workload['status']): Workload => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'ds', generation: 1 },
  spec: {},
  ...(status === undefined ? {} : { status }),
});
const broadcastJob = (status: Workload['status']): Workload => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'BroadcastJob',
  metadata: { name: 'j', generation: 1 },
  spec: {},
  ...(status === undefined ? {} : { status }),
});
const dsReady = {
  observedGeneration: 1,
  desiredNumberScheduled: 3,
  currentNumberScheduled: 3,
  updatedNumberScheduled: 3,
  numberReady: 3,
  numberAvailable: 3,
  numberMisscheduled: 0,
};
const settledCounts = {
  observedGeneration: 2,
  replicas: 2,
  updatedReplicas: 2,
  readyReplicas: 2,
  availableReplicas: 2,
};

describe('workloadKindFor', () => {
  it.each([
    { family: 'cloneset', native: false, kind: 'CloneSet', apiVersion: 'apps.kruise.io/v1alpha1', plural: 'clonesets' },
    { family: 'cloneset', native: true, kind: 'Deployment', apiVersion: 'apps/v1', plural: 'deployments' },
    {
      family: 'statefulset',
      native: false,
      kind: 'AdvancedStatefulSet',
      apiVersion: 'apps.kruise.io/v1beta1',
      plural: 'statefulsets',
    },
    { family: 'statefulset', native: true, kind: 'StatefulSet', apiVersion: 'apps/v1', plural: 'statefulsets' },
    {
      family: 'broadcastjob',
      native: false,
      kind: 'BroadcastJob',
      apiVersion: 'apps.kruise.io/v1alpha1',
      plural: 'broadcastjobs',
    },
    { family: 'broadcastjob', native: true, kind: 'DaemonSet', apiVersion: 'apps/v1', plural: 'daemonsets' },
  ] as const)(
    '$family, native $native: $kind ($apiVersion $plural)',
    ({ family, native, kind, apiVersion, plural }) => {
      expect(workloadKindFor(family, native)).toBe(kind);
      const resource = resourceOf(kind);
      expect([
        resource.group === '' ? resource.version : `${resource.group}/${resource.version}`,
        resource.plural,
      ]).toEqual([apiVersion, plural]);
    },
  );
});

describe('isSettled', () => {
  it.each([
    {
      name: 'a Deployment of 0 whose status leaves the zero counts out',
      workload: deployment(0, { observedGeneration: 2 }),
      settled: true,
    },
    {
      name: 'a Deployment with every pod updated, ready and available',
      workload: deployment(3, {
        observedGeneration: 2,
        replicas: 3,
        updatedReplicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
      }),
      settled: true,
    },
    {
      name: 'a Deployment whose controller has not seen the new spec',
      workload: deployment(3, {
        observedGeneration: 1,
        replicas: 3,
        updatedReplicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
      }),
      settled: false,
    },
    {
      name: 'a Deployment with a surplus old pod',
      workload: deployment(3, {
        observedGeneration: 2,
        replicas: 4,
        updatedReplicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
      }),
      settled: false,
    },
    { name: 'a Deployment without status', workload: deployment(0, undefined), settled: false },
    {
      name: 'a CloneSet whose current revision caught up',
      workload: cloneSet(2, {
        observedGeneration: 2,
        replicas: 2,
        updatedReplicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        updatedReadyReplicas: 2,
        currentRevision: 'r2',
        updateRevision: 'r2',
      }),
      settled: true,
    },
    {
      name: 'a CloneSet whose current revision lags',
      workload: cloneSet(2, {
        observedGeneration: 2,
        replicas: 2,
        updatedReplicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        updatedReadyReplicas: 2,
        currentRevision: 'r1',
        updateRevision: 'r2',
      }),
      settled: false,
    },
    {
      name: 'a CloneSet with an updated pod not ready yet',
      workload: cloneSet(2, {
        observedGeneration: 2,
        replicas: 2,
        updatedReplicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        updatedReadyReplicas: 1,
        currentRevision: 'r2',
        updateRevision: 'r2',
      }),
      settled: false,
    },
    {
      name: 'a native StatefulSet whose current revision caught up (it has no updatedReadyReplicas)',
      workload: statefulSet('apps/v1', 2, { ...settledCounts, currentRevision: 's-2', updateRevision: 's-2' }),
      settled: true,
    },
    {
      name: 'a native StatefulSet whose current revision lags',
      workload: statefulSet('apps/v1', 2, { ...settledCounts, currentRevision: 's-1', updateRevision: 's-2' }),
      settled: false,
    },
    {
      name: 'an Advanced StatefulSet with an updated pod not ready yet',
      workload: statefulSet('apps.kruise.io/v1beta1', 2, {
        ...settledCounts,
        updatedReadyReplicas: 1,
        currentRevision: 's-2',
        updateRevision: 's-2',
      }),
      settled: false,
    },
    {
      name: 'an Advanced StatefulSet with every pod updated and ready',
      workload: statefulSet('apps.kruise.io/v1beta1', 2, {
        ...settledCounts,
        updatedReadyReplicas: 2,
        currentRevision: 's-2',
        updateRevision: 's-2',
      }),
      settled: true,
    },
  ])('$name: $settled', ({ workload, settled }) => {
    expect(isSettled(workload)).toBe(settled);
  });
});

describe('isSettled and countersOf of the one-pod-per-node kinds', () => {
  it.each([
    { name: 'a DaemonSet with a ready pod on every node it wants', workload: daemonSet(dsReady), settled: true },
    // Created but not yet handled: the API server fills the counts in with zeros.
    {
      name: 'a DaemonSet its controller has not seen',
      workload: daemonSet({
        desiredNumberScheduled: 0,
        currentNumberScheduled: 0,
        numberReady: 0,
        numberMisscheduled: 0,
      }),
      settled: false,
    },
    { name: 'a DaemonSet that wants no node', workload: daemonSet({ observedGeneration: 1 }), settled: false },
    {
      name: 'a DaemonSet with a pod not ready',
      workload: daemonSet({ ...dsReady, numberReady: 2, numberAvailable: 2 }),
      settled: false,
    },
    {
      name: 'a DaemonSet with a pod on a node it does not want',
      workload: daemonSet({ ...dsReady, numberMisscheduled: 1 }),
      settled: false,
    },
    {
      name: 'a BroadcastJob that completed',
      workload: broadcastJob({ desired: 3, succeeded: 3, conditions: [{ type: 'Complete', status: 'True' }] }),
      settled: true,
    },
    { name: 'a running BroadcastJob', workload: broadcastJob({ desired: 3, active: 2, succeeded: 1 }), settled: false },
    {
      name: 'a failed BroadcastJob',
      workload: broadcastJob({ desired: 3, failed: 3, conditions: [{ type: 'Failed', status: 'True' }] }),
      settled: false,
    },
    { name: 'a BroadcastJob without status', workload: broadcastJob(undefined), settled: false },
  ])('$name: $settled', ({ workload, settled }) => {
    expect(isSettled(workload)).toBe(settled);
  });

  it("counts a DaemonSet's scheduled, updated, ready and available pods, a job's desired, made, active and succeeded ones", () => {
    expect(countersOf(daemonSet({ ...dsReady, numberReady: 2, numberAvailable: 1 }))).toEqual({
      replicas: 3,
      updated: 3,
      ready: 2,
      available: 1,
    });
    expect(countersOf(broadcastJob({ desired: 5, active: 2, succeeded: 2, failed: 1 }))).toEqual({
      replicas: 5,
      updated: 5,
      ready: 2,
      available: 2,
    });
    expect(countersOf(broadcastJob(undefined))).toEqual({ replicas: 0, updated: 0, ready: 0, available: 0 });
  });
});
