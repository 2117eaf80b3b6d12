import { describe, expect, it } from 'vitest';

import { FakeCluster, kind } from '../../test/support/fake-cluster.ts';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../cli/exit-codes.ts';
import { flightPodResource, statusSubjectResource } from '../status/status-subject.ts';
import type { FlightPod, StatusSubject } from '../status/status-subject.ts';

const owner = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: 'cs-1', controller: true };

function cloneSet(
  status: NonNullable<StatusSubject['status']>,
  spec: StatusSubject['spec'] = { replicas: 2 },
): StatusSubject {
  return {
    metadata: { name: 'web', namespace: 'default', uid: 'cs-1', generation: 1 },
    spec,
    status: { observedGeneration: 1, labelSelector: 'app=web', ...status },
  };
}

function seeded(type: string, object: StatusSubject, pods: readonly FlightPod[] = []): FakeCluster {
  const cluster = new FakeCluster();
  cluster.api.seed(statusSubjectResource(kind(type)), [object]);
  cluster.api.seed(flightPodResource, pods);
  return cluster;
}

const done = { replicas: 2, updatedReplicas: 2, updatedReadyReplicas: 2, availableReplicas: 2 };

describe('rollout status', () => {
  it("prints kubectl's line and exits 0 for a finished rollout", async () => {
    const run = await seeded('cloneset', cloneSet(done)).run('rollout', 'status', 'clone/web');
    expect(run).toEqual({ code: EXIT_OK, stdout: 'cloneset "web" successfully rolled out\n', stderr: '' });
  });

  it('exits 1 with the condition message on a failed rollout', async () => {
    const failing = cloneSet({
      ...done,
      updatedReplicas: 1,
      conditions: [
        { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'timed out progressing' },
      ],
    });
    const run = await seeded('cloneset', failing).run('rollout', 'status', 'cloneset/web');
    expect(run).toEqual({
      code: EXIT_FAILURE,
      stdout: '',
      stderr: 'error: cloneset "web" exceeded its progress deadline: timed out progressing\n',
    });
  });

  it("gives up after --timeout with kubectl's message, having printed where it stood", async () => {
    const run = await seeded('cloneset', cloneSet({ ...done, updatedReplicas: 1 })).run(
      'rollout',
      'status',
      'clone/web',
      '--timeout',
      '50ms',
    );
    expect(run).toEqual({
      code: EXIT_FAILURE,
      stdout: 'Waiting for cloneset "web" rollout to finish: 1 out of 2 new replicas have been updated...\n',
      stderr: 'error: timed out waiting for the condition\n',
    });
  });

  it('draws the bars and the pods in flight with --progress bars', async () => {
    const pod: FlightPod = {
      metadata: { name: 'web-a', namespace: 'default', labels: { app: 'web' }, ownerReferences: [owner] },
      status: { phase: 'Running', conditions: [{ type: 'InPlaceUpdateReady', status: 'False' }] },
    };
    const run = await seeded('cloneset', cloneSet({ ...done, updatedReadyReplicas: 1, availableReplicas: 1 }), [
      pod,
    ]).run('rollout', 'status', 'clone/web', '--timeout=10ms', '--progress=bars');
    expect(run.code).toBe(EXIT_FAILURE);
    expect(run.stdout.split('\n')).toEqual([
      'cloneset.apps.kruise.io/web',
      `  updated       ${'█'.repeat(40)}  2/2`,
      `  updated-ready ${'█'.repeat(20)}${'░'.repeat(20)}  1/2`,
      `  available     ${'█'.repeat(20)}${'░'.repeat(20)}  1/2`,
      '  in flight     web-a (updating in place)',
      'Waiting for cloneset "web" rollout to finish: 1 of 2 updated replicas are ready...',
      '',
    ]);
  });

  it('reads a SidecarSet without a namespace (it is cluster-scoped) and a BroadcastJob', async () => {
    const sidecarSet: StatusSubject = {
      metadata: { name: 'logs', uid: 's', generation: 1 },
      spec: {},
      status: { observedGeneration: 1, matchedPods: 2, updatedPods: 2, updatedReadyPods: 2 },
    };
    expect(
      await seeded('sidecarset', sidecarSet).run('-n', 'team', 'rollout', 'status', 'sidecarset/logs'),
    ).toMatchObject({ code: EXIT_OK, stdout: 'sidecarset "logs" successfully rolled out\n' });
    const job: StatusSubject = {
      metadata: { name: 'pull', namespace: 'default', uid: 'b', generation: 1 },
      spec: {},
      status: { desired: 3, succeeded: 3, conditions: [{ type: 'Complete', status: 'True' }] },
    };
    expect(await seeded('bcj', job).run('rollout', 'status', 'bcj/pull')).toMatchObject({
      code: EXIT_OK,
      stdout: 'broadcastjob "pull" completed: 3 of 3 pods succeeded\n',
    });
  });

  it("exits 1 with the API server's NotFound for a missing object", async () => {
    const run = await new FakeCluster().run('rollout', 'status', 'clone/nope');
    expect(run.code).toBe(EXIT_FAILURE);
    expect(run.stderr).toMatch(/^Error from server \(NotFound\): .*"nope" not found\n$/);
  });

  it.each([
    [['rollout', 'status', 'deploy/web'], 'error: rollout status does not work on deployments.apps'],
    [
      ['rollout', 'status', 'clone/web', '--timeout', '5'],
      'it must be a duration such as 30s, 10m or 1h30m (time: missing unit in duration "5").',
    ],
    [['rollout', 'status', 'clone/web', '--progress', 'fancy'], 'Allowed choices are auto, bars, lines.'],
  ])('%j is a usage error', async (argv, message) => {
    const cluster = new FakeCluster();
    const run = await cluster.run(...argv);
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stderr).toContain(message);
    expect(cluster.connections).toEqual([]);
  });
});
