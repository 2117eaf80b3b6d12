import { describe, expect, it } from 'vitest';

import { fakeApiError } from '@kruise-ts/controller-runtime/testing';

import { ASTS, CLONESET, FakeCluster, NOW } from '../../test/support/fake-cluster.ts';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './exit-codes.ts';
import { programNameOf } from './cli-io.ts';

describe('usage errors exit 2 and connect to nothing', () => {
  it.each([
    [['bogus'], "error: unknown command 'bogus'"],
    [['rollout', 'paus', 'clone/web'], '(Did you mean pause?)'],
    [['rollout', 'pause', 'clone/web', '--frob'], "error: unknown option '--frob'"],
    [['rollout', 'pause'], "error: missing required argument 'object'"],
    [['rollout', 'pause', 'widget/web'], 'error: the resource type "widget" is not one kruise-ts knows'],
    [
      ['rollout', 'pause', 'statefulset/db'],
      'hint: for an Advanced StatefulSet write asts/db or statefulset.apps.kruise.io/db',
    ],
    [['rollout', 'restart', 'bcj/y'], 'error: rollout restart does not work on broadcastjobs.apps.kruise.io'],
    [['scale', 'clone/web'], "error: required option '--replicas <count>' not specified"],
    [['scale', 'clone/web', '--replicas', '-1'], 'it must be a non-negative integer'],
    [['scale', 'clone/web', '--replicas', '2.5'], 'it must be a non-negative integer'],
    [
      ['scale', 'clone/web', '--replicas', '1', '--delete', 'a,,b'],
      'error: --delete takes pod names separated by commas',
    ],
    [['set', 'image', 'clone/web'], 'error: at least one image update is required'],
    [['set', 'image', 'clone/web', 'nginx='], 'error: invalid image update "nginx="'],
    [['set', 'image', 'sidecarset/x', 'nginx=nginx:1'], 'error: set image does not work on sidecarsets.apps.kruise.io'],
    [[], 'Usage: kruise-ts [options] [command]'],
  ])('%j', async (argv, message) => {
    const cluster = new FakeCluster();
    const run = await cluster.run(...argv);
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
    expect(cluster.connections).toEqual([]);
  });

  it('names the command whose help to read', async () => {
    expect((await new FakeCluster().run('scale', 'clone/web')).stderr).toContain(
      "See 'kruise-ts scale --help' for usage.",
    );
  });

  it('prints help on stdout and exits 0', async () => {
    const run = await new FakeCluster().run('scale', '--help');
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toContain('Usage: kruise-ts scale [options] <object...>');
  });
});

describe('connection flags', () => {
  it.each([
    [['-n', 'team', 'rollout', 'pause', 'clone/web'], { namespace: 'team' }],
    [['rollout', 'pause', 'clone/web', '-n', 'team'], { namespace: 'team' }],
    [['rollout', 'pause', '--namespace=team', 'clone/web'], { namespace: 'team' }],
    [['--kubeconfig', '/k', 'rollout', 'pause', 'clone/web', '--context', 'c'], { kubeconfig: '/k', context: 'c' }],
  ])('%j', async (argv, flags) => {
    const cluster = new FakeCluster();
    await cluster.run(...argv);
    expect(cluster.connections).toEqual([flags]);
  });

  it('names itself after its executable', () => {
    expect(programNameOf('/usr/local/bin/kubectl-kruise_ts')).toBe('kubectl kruise-ts');
    expect(programNameOf('/work/node_modules/.bin/kruise-ts')).toBe('kruise-ts');
    expect(programNameOf('/work/apps/cli/src/main.ts')).toBe('kruise-ts');
  });
});

describe('rollout pause and resume', () => {
  it('pauses a CloneSet and resumes it', async () => {
    const cluster = new FakeCluster();
    cluster.workload(CLONESET, 'web');
    expect(await cluster.run('rollout', 'pause', 'clone/web')).toEqual({
      code: EXIT_OK,
      stdout: 'cloneset.apps.kruise.io/web paused\n',
      stderr: '',
    });
    expect(cluster.stored(CLONESET, 'web').spec.updateStrategy?.paused).toBe(true);
    expect(await cluster.run('rollout', 'resume', 'cloneset/web')).toEqual({
      code: EXIT_OK,
      stdout: 'cloneset.apps.kruise.io/web resumed\n',
      stderr: '',
    });
    expect(cluster.stored(CLONESET, 'web').spec.updateStrategy?.paused).toBe(false);
  });

  it('pauses the rolling update of an Advanced StatefulSet', async () => {
    const cluster = new FakeCluster();
    cluster.workload(ASTS, 'db');
    expect((await cluster.run('rollout', 'pause', 'asts/db')).stdout).toBe('statefulset.apps.kruise.io/db paused\n');
    expect(cluster.stored(ASTS, 'db').spec.updateStrategy?.rollingUpdate?.paused).toBe(true);
  });

  it('refuses what is already so, as kubectl does, writing nothing', async () => {
    const cluster = new FakeCluster();
    cluster.workload(CLONESET, 'web', { updateStrategy: { paused: true } });
    cluster.workload(ASTS, 'db');
    expect(await cluster.run('rollout', 'pause', 'clone/web')).toEqual({
      code: EXIT_FAILURE,
      stdout: '',
      stderr: 'error: clonesets.apps.kruise.io "web" is already paused\n',
    });
    expect((await cluster.run('rollout', 'resume', 'asts/db')).stderr).toBe(
      'error: statefulsets.apps.kruise.io "db" is not paused\n',
    );
    expect(cluster.writes()).toBe(0);
  });

  it('refuses to pause an OnDelete Advanced StatefulSet', async () => {
    const cluster = new FakeCluster();
    cluster.workload(ASTS, 'db', { updateStrategy: { type: 'OnDelete' } });
    const run = await cluster.run('rollout', 'pause', 'asts/db');
    expect([run.code, run.stderr]).toEqual([
      EXIT_FAILURE,
      'error: statefulsets.apps.kruise.io "db" updates OnDelete: it has no rolling update to pause or resume\n',
    ]);
    expect(cluster.writes()).toBe(0);
  });

  it("reports the API server's error as kubectl does", async () => {
    const run = await new FakeCluster().run('rollout', 'pause', 'clone/missing');
    expect(run.code).toBe(EXIT_FAILURE);
    expect(run.stderr).toMatch(/^Error from server \(NotFound\): .*missing.* not found\n$/);
  });
});

describe('rollout restart', () => {
  it("sets kubectl's restartedAt annotation on the template", async () => {
    const cluster = new FakeCluster();
    cluster.workload(CLONESET, 'web');
    expect((await cluster.run('rollout', 'restart', 'clone/web')).stdout).toBe(
      'cloneset.apps.kruise.io/web restarted\n',
    );
    expect(cluster.stored(CLONESET, 'web').spec.template.metadata?.annotations).toEqual({
      'kubectl.kubernetes.io/restartedAt': NOW.toISOString().replace('.123', ''),
    });
  });

  it('refuses a paused workload', async () => {
    const cluster = new FakeCluster();
    cluster.workload(ASTS, 'db', { updateStrategy: { rollingUpdate: { paused: true } } });
    const run = await cluster.run('rollout', 'restart', 'asts/db');
    expect([run.code, run.stderr]).toEqual([
      EXIT_FAILURE,
      "error: can't restart paused statefulset db (run rollout resume first)\n",
    ]);
    expect(cluster.writes()).toBe(0);
  });
});

describe('scale', () => {
  it('sets replicas and appends podsToDelete in one patch', async () => {
    const cluster = new FakeCluster();
    const web = cluster.workload(CLONESET, 'web', { scaleStrategy: { podsToDelete: ['web-a'] } });
    cluster.pod('web-a', web);
    cluster.pod('web-b', web);
    expect(await cluster.run('scale', 'clone/web', '--replicas', '1', '--delete', 'web-b,web-a')).toEqual({
      code: EXIT_OK,
      stdout: 'cloneset.apps.kruise.io/web scaled\n',
      stderr: '',
    });
    const stored = cluster.stored(CLONESET, 'web');
    expect([stored.spec.replicas, stored.spec.scaleStrategy?.podsToDelete]).toEqual([1, ['web-a', 'web-b']]);
    expect(cluster.writes()).toBe(1);
  });

  it('reserves the ordinals of an Advanced StatefulSet', async () => {
    const cluster = new FakeCluster();
    const db = cluster.workload(ASTS, 'db');
    cluster.pod('db-1', db);
    expect((await cluster.run('scale', 'asts/db', '--replicas=2', '--delete=db-1')).code).toBe(EXIT_OK);
    const stored = cluster.stored(ASTS, 'db');
    expect([stored.spec.replicas, stored.spec.reserveOrdinals]).toEqual([2, [1]]);
  });

  it('refuses pods that are missing or not controlled by the workload, writing nothing', async () => {
    const cluster = new FakeCluster();
    const web = cluster.workload(CLONESET, 'web');
    const other = cluster.workload(CLONESET, 'other');
    cluster.pod('web-a', web);
    cluster.pod('other-a', other);
    cluster.pod('loose');
    const run = await cluster.run('scale', 'clone/web', '--replicas', '1', '--delete', 'web-a,other-a,loose,gone');
    expect(run.code).toBe(EXIT_FAILURE);
    expect(run.stderr).toBe(
      [
        'error: pod "other-a" is not controlled by cloneset.apps.kruise.io/web',
        'error: pod "loose" is not controlled by cloneset.apps.kruise.io/web',
        'error: pod "gone" not found in namespace "default"',
        '',
      ].join('\n'),
    );
    expect(cluster.writes()).toBe(0);
    expect(cluster.stored(CLONESET, 'web').spec.replicas).toBe(3);
  });

  it('reads again and retries when its write loses a race', async () => {
    const cluster = new FakeCluster();
    const web = cluster.workload(CLONESET, 'web');
    cluster.pod('web-a', web);
    let conflicts = 1;
    cluster.api.prependReactor({ verb: 'patch' }, () => {
      if (conflicts-- > 0) {
        throw fakeApiError({ code: 409, reason: 'Conflict', message: 'the object has been modified' });
      }
      return undefined;
    });
    expect((await cluster.run('scale', 'clone/web', '--replicas', '2', '--delete', 'web-a')).code).toBe(EXIT_OK);
    expect(
      cluster.api.actions.filter((action) => action.verb === 'get' && action.resource === 'clonesets'),
    ).toHaveLength(2);
    expect(cluster.stored(CLONESET, 'web').spec.scaleStrategy?.podsToDelete).toEqual(['web-a']);
  });
});

describe('set image', () => {
  it('sets images by container name', async () => {
    const cluster = new FakeCluster();
    cluster.workload(CLONESET, 'web', {
      template: {
        spec: {
          containers: [
            { name: 'nginx', image: 'nginx:1.25' },
            { name: 'sidecar', image: 'busybox:1.36' },
          ],
        },
      },
    });
    expect((await cluster.run('set', 'image', 'clone/web', 'nginx=nginx:1.27', 'sidecar=busybox:1.37')).stdout).toBe(
      'cloneset.apps.kruise.io/web image updated\n',
    );
    expect(cluster.stored(CLONESET, 'web').spec.template.spec.containers.map((container) => container.image)).toEqual([
      'nginx:1.27',
      'busybox:1.37',
    ]);
  });

  it('sets every container with *', async () => {
    const cluster = new FakeCluster();
    cluster.workload(ASTS, 'db');
    expect((await cluster.run('set', 'image', 'asts', 'db', '*=nginx:1.27')).code).toBe(EXIT_OK);
    expect(cluster.stored(ASTS, 'db').spec.template.spec.containers[0]?.image).toBe('nginx:1.27');
  });

  it('writes and prints nothing when the images are already set, as kubectl', async () => {
    const cluster = new FakeCluster();
    cluster.workload(CLONESET, 'web');
    expect(await cluster.run('set', 'image', 'clone/web', 'nginx=nginx:1.25')).toEqual({
      code: EXIT_OK,
      stdout: '',
      stderr: '',
    });
    expect(cluster.writes()).toBe(0);
  });

  it('refuses an unknown container, listing the containers', async () => {
    const cluster = new FakeCluster();
    cluster.workload(CLONESET, 'web');
    const run = await cluster.run('set', 'image', 'clone/web', 'nginx=nginx:1.27', 'app=app:2');
    expect([run.code, run.stderr]).toEqual([
      EXIT_FAILURE,
      'error: unable to find container named "app" in cloneset.apps.kruise.io/web; its containers are nginx\n',
    ]);
    expect(cluster.writes()).toBe(0);
  });
});
