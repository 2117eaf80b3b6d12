import { describe, expect, it } from 'vitest';

import type { BroadcastJobInput, Pod } from '@kruise-ts/api';

import { broadcastJob, NAMESPACE, reconcileFixture } from '../test/fixtures/reconcile-fixture.ts';

const UID = 'uid-1';

/** A pod of the job on `node`, in `phase` (Running when absent). */
function jobPod(node: string, phase = 'Running'): Pod {
  return {
    metadata: {
      name: `job-${node}`,
      namespace: NAMESPACE,
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: { 'broadcastjob-name': 'job', 'broadcastjob-controller-uid': UID },
      ownerReferences: [
        { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob', name: 'job', uid: UID, controller: true },
      ],
    },
    spec: { nodeName: node, containers: [{ name: 'work', image: 'busybox:1.36' }] },
    status: { phase },
  };
}

interface Row {
  readonly name: string;
  readonly spec?: Partial<BroadcastJobInput['spec']>;
  readonly nodes?: readonly string[];
  /** Phases of the pods on node-1, node-2, ... (undefined: no pod there). */
  readonly pods: readonly (string | undefined)[];
  readonly phase: string;
  readonly counts: {
    readonly active: number;
    readonly succeeded: number;
    readonly failed: number;
    readonly desired: number;
  };
  /** The condition the round adds, if any. */
  readonly condition?: string;
  /** Nodes whose pods the round deleted / nodes it created pods on. */
  readonly deleted?: readonly string[];
  readonly created?: number;
  readonly reasons: readonly string[];
}

const ROWS: readonly Row[] = [
  {
    name: 'a new job creates a pod on every node',
    pods: [],
    phase: 'running',
    counts: { active: 2, succeeded: 0, failed: 0, desired: 2 },
    created: 2,
    reasons: ['SuccessfulCreate', 'SuccessfulCreate'],
  },
  {
    name: 'parallelism 1 creates one pod at a time',
    spec: { parallelism: 1 },
    pods: [],
    phase: 'running',
    counts: { active: 1, succeeded: 0, failed: 0, desired: 2 },
    created: 1,
    reasons: ['SuccessfulCreate'],
  },
  {
    name: 'a node without a pod gets one while the other runs',
    pods: ['Running'],
    phase: 'running',
    counts: { active: 2, succeeded: 0, failed: 0, desired: 2 },
    created: 1,
    reasons: ['SuccessfulCreate'],
  },
  {
    name: 'every pod succeeded: complete',
    pods: ['Succeeded', 'Succeeded'],
    phase: 'completed',
    counts: { active: 0, succeeded: 2, failed: 0, desired: 2 },
    condition: 'Complete',
    reasons: ['JobComplete'],
  },
  {
    name: 'Continue: a failed pod counts and the job completes',
    spec: { failurePolicy: { type: 'Continue', restartLimit: 0 } },
    pods: ['Failed', 'Succeeded'],
    phase: 'completed',
    counts: { active: 0, succeeded: 1, failed: 1, desired: 2 },
    condition: 'Complete',
    reasons: ['JobComplete'],
  },
  {
    name: 'FailFast: a failed pod fails the job and its running pods are deleted',
    pods: ['Failed', 'Running'],
    phase: 'failed',
    counts: { active: 0, succeeded: 0, failed: 2, desired: 2 },
    condition: 'Failed',
    deleted: ['node-2'],
    reasons: ['SuccessfulDelete', 'failed pod is found'],
  },
  {
    name: 'Pause: a failed pod pauses the job, nothing is created',
    spec: { failurePolicy: { type: 'Pause', restartLimit: 0 } },
    pods: ['Failed'],
    phase: 'paused',
    counts: { active: 0, succeeded: 0, failed: 1, desired: 2 },
    reasons: ['Paused'],
  },
  {
    name: 'paused: nothing is created',
    spec: { paused: true },
    pods: [],
    phase: 'paused',
    counts: { active: 0, succeeded: 0, failed: 0, desired: 2 },
    reasons: [],
  },
  {
    name: 'a pod on a node that left is deleted',
    nodes: ['node-1'],
    pods: ['Running', 'Running'],
    phase: 'running',
    counts: { active: 1, succeeded: 0, failed: 0, desired: 1 },
    deleted: ['node-2'],
    reasons: ['SuccessfulDelete'],
  },
];

describe('BroadcastJobReconciler rounds (over the in-memory API)', () => {
  it.each(ROWS)('$name', async (row) => {
    const pods = row.pods.flatMap((phase, index) =>
      phase === undefined ? [] : [jobPod(`node-${String(index + 1)}`, phase)],
    );
    const fixture = reconcileFixture(
      [broadcastJob({ uid: UID, ...(row.spec === undefined ? {} : { spec: row.spec }) })],
      { pods, ...(row.nodes === undefined ? {} : { nodes: row.nodes }) },
    );
    expect(await fixture.reconcileError()).toBeUndefined();
    const { status } = fixture.stored();
    expect(status).toMatchObject({ phase: row.phase, ...row.counts });
    expect((status?.conditions ?? []).map((condition) => condition.type)).toEqual(
      row.condition === undefined ? [] : [row.condition],
    );
    const remaining = new Set(fixture.pods().map((pod) => pod.metadata?.name));
    expect(pods.filter((pod) => !remaining.has(pod.metadata?.name)).map((pod) => pod.spec?.nodeName)).toEqual(
      row.deleted ?? [],
    );
    expect(fixture.pods().length - pods.length + (row.deleted?.length ?? 0)).toBe(row.created ?? 0);
    expect(fixture.recorder.reasons()).toEqual(row.reasons);
  });
});
