/**
 * pod-control for owners whose pods the API server names (`generateName`, BroadcastJob's): scale
 * expectations under a name the owner chooses, rolled back for creations that failed, a failure
 * message without the generated name, and Events naming the created pods.
 */
import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { createLogger, resourceClient } from '@kruise-ts/controller-runtime';
import type { DeepReadonly } from '@kruise-ts/controller-runtime';
import { FakeClient, FakeClock, FakeEventRecorder, fakeApiError } from '@kruise-ts/controller-runtime/testing';
import { podResource, pvcResource, ResourceVersionExpectations, ScaleExpectations } from '@kruise-ts/workload';

import type { PodOwner } from './context.ts';
import { createPods, CreatePodsError } from './create-pods.ts';
import { deletePods } from './delete-pods.ts';

const KEY = 'ns/job';
const OWNER: PodOwner = {
  key: KEY,
  ref: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob', namespace: 'ns', name: 'job', uid: 'uid-1' },
  name: 'job',
  lifecycle: undefined,
};

function context(fake: FakeClient) {
  const signal = new AbortController().signal;
  const clock = new FakeClock();
  return {
    signal,
    pods: resourceClient<Pod>(fake, podResource, signal),
    claims: resourceClient(fake, pvcResource, signal),
    recorder: new FakeEventRecorder(),
    clock,
    logger: createLogger({ level: 'silent' }),
    scaleExpectations: new ScaleExpectations({ clock }),
    resourceVersionExpectations: new ResourceVersionExpectations({ clock }),
  };
}

const podFor = (node: string): Pod => ({
  metadata: { generateName: 'job-', namespace: 'ns' },
  spec: { nodeName: node, containers: [{ name: 'c', image: 'busybox' }] },
});
const byNode = (pod: DeepReadonly<Pod>): string => pod.spec?.nodeName ?? '';

describe('createPods with expectationName (pods named by the API server)', () => {
  it('expects each creation under its chosen name and names the created pod in its Event', async () => {
    const fake = new FakeClient();
    const ctx = context(fake);
    const created = await createPods(ctx, OWNER, {
      pods: [podFor('node-1'), podFor('node-2')],
      claimsFor: () => [],
      expectationName: byNode,
    });
    expect(created.map((pod) => pod.spec?.nodeName)).toEqual(['node-1', 'node-2']);
    expect(ctx.scaleExpectations.satisfied(KEY).satisfied).toBe(false);
    ctx.scaleExpectations.observe(KEY, 'create', 'node-1');
    ctx.scaleExpectations.observe(KEY, 'create', 'node-2');
    expect(ctx.scaleExpectations.satisfied(KEY).satisfied).toBe(true);
    expect(ctx.recorder.events.map((event) => event.message)).toEqual(
      created.map((pod) => `succeed to create pod ${pod.metadata?.name ?? ''}`),
    );
    expect(created.every((pod) => (pod.metadata?.name ?? '').startsWith('job-'))).toBe(true);
  });

  it('rolls back the expectations of refused creations and reports a message without the generated name', async () => {
    const fake = new FakeClient();
    fake.prependReactor({ verb: 'create', resource: 'pods' }, () => {
      throw fakeApiError({
        code: 403,
        reason: 'Forbidden',
        message: 'pods "job-x7k2p" is forbidden: exceeded quota: q',
      });
    });
    const ctx = context(fake);
    const failure = await createPods(ctx, OWNER, {
      pods: [podFor('node-1'), podFor('node-2'), podFor('node-3')],
      claimsFor: () => [],
      expectationName: byNode,
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(CreatePodsError);
    expect((failure as CreatePodsError).message).toBe(
      'failed to create 3 of 3 pods: pods "job-" is forbidden: exceeded quota: q',
    );
    expect(ctx.scaleExpectations.satisfied(KEY).satisfied).toBe(true);
    expect(ctx.recorder.reasons()).toEqual(['FailedCreate']);
  });
});

describe('deletePods with expectationName', () => {
  it('expects each deletion under its chosen name, and rolls it back when the deletion fails', async () => {
    const fake = new FakeClient();
    fake.seed<Pod>(podResource, [
      { metadata: { name: 'job-a', namespace: 'ns', uid: 'u-a' }, spec: { nodeName: 'node-1', containers: [] } },
      { metadata: { name: 'job-b', namespace: 'ns', uid: 'u-b' }, spec: { nodeName: 'node-2', containers: [] } },
    ]);
    const ctx = context(fake);
    await deletePods(ctx, OWNER, {
      pods: fake.objects<Pod>(podResource).filter((pod) => pod.metadata?.name === 'job-a'),
      expectationName: byNode,
    });
    expect(ctx.scaleExpectations.satisfied(KEY).satisfied).toBe(false);
    ctx.scaleExpectations.observe(KEY, 'delete', 'node-1');
    expect(ctx.scaleExpectations.satisfied(KEY).satisfied).toBe(true);

    fake.prependReactor({ verb: 'delete', resource: 'pods' }, () => {
      throw fakeApiError({ code: 500, reason: 'InternalError', message: 'etcdserver: request timed out' });
    });
    await expect(
      deletePods(ctx, OWNER, { pods: fake.objects<Pod>(podResource), expectationName: byNode }),
    ).rejects.toThrow('etcdserver: request timed out');
    expect(ctx.scaleExpectations.satisfied(KEY).satisfied).toBe(true);
    expect(ctx.recorder.reasons()).toEqual(['SuccessfulDelete', 'FailedDelete']);
  });
});
