import { describe, expect, it } from 'vitest';

import type { BroadcastJob, Pod } from '@kruise-ts/api';
import { fakeApiError } from '@kruise-ts/controller-runtime/testing';

import { broadcastJob, NAMESPACE, reconcileFixture } from '../test/fixtures/reconcile-fixture.ts';
import type { ReconcileFixture } from '../test/fixtures/reconcile-fixture.ts';

type Condition = NonNullable<NonNullable<BroadcastJob['status']>['conditions']>[number];

const QUOTA = 'exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0';

function condition(fixture: ReconcileFixture, type: string): Condition | undefined {
  return fixture.stored().status?.conditions?.find((candidate) => candidate.type === type);
}

/** Refuses pod creations as a ResourceQuota does, naming the pod the API server generated (`job-` + 5 characters). */
function refuseCreates(fixture: ReconcileFixture): { lift(): void } {
  let refusing = true;
  fixture.fake.prependReactor({ verb: 'create', resource: 'pods' }, () => {
    if (refusing) {
      throw fakeApiError({ code: 403, reason: 'Forbidden', message: `pods "job-x7k2p" is forbidden: ${QUOTA}` });
    }
    return undefined;
  });
  return {
    lift: () => {
      refusing = false;
    },
  };
}

function podOn(node: string, uid: string, name: string): Pod {
  return {
    metadata: {
      name,
      namespace: NAMESPACE,
      labels: { 'broadcastjob-name': 'job', 'broadcastjob-controller-uid': uid },
      ownerReferences: [
        { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob', name: 'job', uid, controller: true },
      ],
    },
    spec: { nodeName: node, containers: [{ name: 'work', image: 'busybox:1.36' }] },
    status: { phase: 'Running' },
  };
}

describe('BroadcastJobReconciler pod writes (over the in-memory API)', () => {
  it('a refused creation: a FailedCreate Event, the FailedCreatePod condition naming the cause, and the error for the queue to back off', async () => {
    const fixture = reconcileFixture([broadcastJob({ uid: 'uid-1' })]);
    refuseCreates(fixture);
    const error = await fixture.reconcileError();
    expect(error).toBeInstanceOf(Error);
    expect(fixture.pods()).toEqual([]);
    expect(fixture.recorder.reasons()).toEqual(['FailedCreate']);
    expect(condition(fixture, 'FailedCreatePod')).toMatchObject({
      status: 'True',
      reason: 'CreateError',
      message: `failed to create 2 of 2 pods: pods "job-" is forbidden: ${QUOTA}`,
    });
    expect(fixture.stored().status).toMatchObject({ phase: 'running', active: 0, desired: 2 });
    // The creations never made were checked off: the next round is not blocked on them.
    expect(fixture.scaleExpectations.satisfied(`${NAMESPACE}/job`).satisfied).toBe(true);
  });

  it('a retry refused the same way writes no status (a write would reconcile again past the backoff) and fails again', async () => {
    const fixture = reconcileFixture([broadcastJob({ uid: 'uid-1' })]);
    refuseCreates(fixture);
    await fixture.reconcileError();
    fixture.fake.clearActions();
    expect(await fixture.reconcileError()).toBeInstanceOf(Error);
    // Slow start: one refused creation per attempt, not one per node.
    expect(fixture.fake.writes().map((action) => `${action.verb} ${action.resource}`)).toEqual(['create pods']);
  });

  it('once creations are accepted, the pods are made and the condition goes', async () => {
    const fixture = reconcileFixture([broadcastJob({ uid: 'uid-1' })]);
    const quota = refuseCreates(fixture);
    await fixture.reconcileError();
    quota.lift();
    expect(await fixture.reconcileError()).toBeUndefined();
    expect(
      fixture
        .pods()
        .map(
          (pod) =>
            pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[0]
              ?.matchFields?.[0]?.values,
        ),
    ).toEqual([['node-1'], ['node-2']]);
    expect(condition(fixture, 'FailedCreatePod')).toBeUndefined();
    expect(fixture.recorder.reasons()).toEqual(['FailedCreate', 'SuccessfulCreate', 'SuccessfulCreate']);
    expect(fixture.recorder.events.at(-1)?.message).toMatch(/^succeed to create pod job-\d+$/);
  });

  it('a refused deletion: a FailedDelete Event, the FailedDeletePod condition and the error; the pod is deleted on a later round', async () => {
    const pods = [
      podOn('node-1', 'uid-1', 'job-old'),
      podOn('node-1', 'uid-1', 'job-new'),
      podOn('node-2', 'uid-1', 'job-two'),
    ];
    const withAges = pods.map((pod, index) => ({
      ...pod,
      metadata: { ...pod.metadata, creationTimestamp: `2026-11-25T00:00:0${String(index)}Z` },
    }));
    const fixture = reconcileFixture([broadcastJob({ uid: 'uid-1' })], { pods: withAges });
    let refusing = true;
    fixture.fake.prependReactor({ verb: 'delete', resource: 'pods' }, () => {
      if (refusing) {
        throw fakeApiError({ code: 500, reason: 'InternalError', message: 'etcdserver: request timed out' });
      }
      return undefined;
    });
    expect(await fixture.reconcileError()).toBeInstanceOf(Error);
    expect(fixture.recorder.reasons()).toEqual(['DuplicatePodCreatedOnSameNode', 'FailedDelete']);
    expect(condition(fixture, 'FailedDeletePod')).toMatchObject({
      status: 'True',
      reason: 'DeleteError',
      message: 'etcdserver: request timed out',
    });
    expect(fixture.scaleExpectations.satisfied(`${NAMESPACE}/job`).satisfied).toBe(true);
    refusing = false;
    expect(await fixture.reconcileError()).toBeUndefined();
    expect(
      fixture
        .pods()
        .map((pod) => pod.metadata?.name)
        .sort(),
    ).toEqual(['job-old', 'job-two']);
    expect(condition(fixture, 'FailedDeletePod')).toBeUndefined();
  });

  it('a job failing while deletions of its running pods fail is not finished: the next round deletes them and fails it', async () => {
    const failed = { ...podOn('node-1', 'uid-1', 'job-a'), status: { phase: 'Failed' } };
    const fixture = reconcileFixture(
      [broadcastJob({ uid: 'uid-1', spec: { failurePolicy: { type: 'FailFast', restartLimit: 0 } } })],
      { pods: [failed, podOn('node-2', 'uid-1', 'job-b')] },
    );
    let refusing = true;
    fixture.fake.prependReactor({ verb: 'delete', resource: 'pods' }, () => {
      if (refusing) {
        throw fakeApiError({
          code: 429,
          reason: 'TooManyRequests',
          message: 'the server has received too many requests',
        });
      }
      return undefined;
    });
    expect(await fixture.reconcileError()).toBeInstanceOf(Error);
    expect(fixture.stored().status).toMatchObject({ phase: 'running' });
    expect(condition(fixture, 'Failed')).toBeUndefined();
    refusing = false;
    expect(await fixture.reconcileError()).toBeUndefined();
    expect(fixture.stored().status).toMatchObject({ phase: 'failed', failed: 2 });
    expect(condition(fixture, 'FailedDeletePod')).toBeUndefined();
  });
});
