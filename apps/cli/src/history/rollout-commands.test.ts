/**
 * `rollout history` and `rollout undo` as whole command lines over the fake API server, with the
 * revisions made as the controllers make them (the revision package's ensureUpdateRevision, after
 * each template change).
 */
import { describe, expect, it } from 'vitest';

import { resourceClient } from '@kruise-ts/controller-runtime';
import { fakeApiError } from '@kruise-ts/controller-runtime/testing';
import { controllerRevisionResource, ensureUpdateRevision } from '@kruise-ts/revision';

import { ASTS, CLONESET, FakeCluster } from '../../test/support/fake-cluster.ts';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../cli/exit-codes.ts';
import type { Kind } from '../resources/kinds.ts';
import { workloadResource } from '../resources/resource-types.ts';

const images = (cluster: FakeCluster, kind: Kind, name: string): (string | undefined)[] =>
  cluster.stored(kind, name).spec.template.spec.containers.map((container) => container.image);

/** What the workload's controller does after a template change: make (or take back) its update revision. */
async function reconcile(cluster: FakeCluster, kind: Kind, name: string): Promise<void> {
  const object = cluster.stored(kind, name);
  const { metadata } = object;
  await ensureUpdateRevision({
    client: resourceClient(cluster.api, controllerRevisionResource),
    owner: {
      name,
      namespace: 'default',
      uid: metadata.uid,
      apiVersion: `${kind.group}/${kind.version}`,
      kind: kind.kind,
    },
    template: object.spec.template,
    ownerAnnotations: metadata.annotations,
    revisions: cluster.api
      .objects(controllerRevisionResource)
      .filter((revision) => revision.metadata?.ownerReferences?.[0]?.uid === metadata.uid),
    collisionCount: 0,
  });
}

/** A workload whose image went nginx:1.25 → 1.26 → 1.27, the last two with a change cause: revisions 1, 2, 3. */
async function workloadWithHistory(kind: Kind, name: string, spec: Record<string, unknown> = {}): Promise<FakeCluster> {
  const cluster = new FakeCluster();
  cluster.workload(kind, name, {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } },
    ...spec,
  });
  await reconcile(cluster, kind, name);
  for (const image of ['nginx:1.26', 'nginx:1.27']) {
    const cause = `kruise-ts set image ${name} nginx=${image}`;
    await cluster.api.patch(
      workloadResource(kind),
      { namespace: 'default', name },
      { type: 'merge', body: { metadata: { annotations: { 'kubernetes.io/change-cause': cause } } } },
    );
    expect((await cluster.run('set', 'image', `${kind.plural}.${kind.group}/${name}`, `nginx=${image}`)).code).toBe(
      EXIT_OK,
    );
    await reconcile(cluster, kind, name);
  }
  cluster.api.clearActions();
  return cluster;
}

describe('rollout history', () => {
  it("lists the workload's revisions with change causes and images", async () => {
    const cluster = await workloadWithHistory(CLONESET, 'web');
    expect(await cluster.run('rollout', 'history', 'clone/web')).toEqual({
      code: EXIT_OK,
      stdout: [
        'cloneset.apps.kruise.io/web',
        'REVISION  CHANGE-CAUSE                              IMAGES',
        '1         <none>                                    nginx:1.25',
        '2         kruise-ts set image web nginx=nginx:1.26  nginx:1.26',
        '3         kruise-ts set image web nginx=nginx:1.27  nginx:1.27',
        '',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(cluster.api.actions.find((action) => action.verb === 'list')).toMatchObject({
      resource: 'controllerrevisions',
      namespace: 'default',
    });
  });

  it('leaves out the revisions of other workloads, even with matching labels', async () => {
    const cluster = await workloadWithHistory(ASTS, 'db');
    const [first] = cluster.api.objects(controllerRevisionResource);
    const foreign = {
      ...first,
      metadata: {
        ...first?.metadata,
        name: 'other-1',
        uid: '',
        resourceVersion: '',
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1beta1',
            kind: 'StatefulSet',
            name: 'db',
            uid: 'an-earlier-db',
            controller: true,
          },
        ],
      },
    };
    cluster.api.seed(controllerRevisionResource, [{ ...foreign, revision: 7, data: first?.data }]);
    const run = await cluster.run('rollout', 'history', 'asts/db');
    expect(run.stdout.split('\n').map((line) => line.split(' ')[0])).toEqual([
      'statefulset.apps.kruise.io/db',
      'REVISION',
      '1',
      '2',
      '3',
      '',
      '',
    ]);
  });

  it("prints one revision's pod template with --revision", async () => {
    const cluster = await workloadWithHistory(CLONESET, 'web');
    const run = await cluster.run('rollout', 'history', 'clone/web', '--revision', '2');
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toContain(
      'cloneset.apps.kruise.io/web with revision #2\nPod Template:\n  Labels:       app=web\n',
    );
    expect(run.stdout).toContain('    Image:        nginx:1.26\n');
  });

  it('refuses a revision that does not exist', async () => {
    const cluster = await workloadWithHistory(CLONESET, 'web');
    expect(await cluster.run('rollout', 'history', 'clone/web', '--revision=9')).toEqual({
      code: EXIT_FAILURE,
      stdout: '',
      stderr: 'error: unable to find the specified revision\n',
    });
  });

  it('says so when there is no history', async () => {
    const cluster = new FakeCluster();
    cluster.workload(CLONESET, 'web');
    expect((await cluster.run('rollout', 'history', 'clone/web')).stdout).toBe(
      'cloneset.apps.kruise.io/web\nNo rollout history found.\n',
    );
  });
});

describe('rollout undo', () => {
  it('restores the previous revision in one patch that carries the resourceVersion', async () => {
    const cluster = await workloadWithHistory(CLONESET, 'web');
    const before = cluster.stored(CLONESET, 'web').metadata.resourceVersion;
    expect(await cluster.run('rollout', 'undo', 'clone/web')).toEqual({
      code: EXIT_OK,
      stdout: 'cloneset.apps.kruise.io/web rolled back\n',
      stderr: '',
    });
    expect(images(cluster, CLONESET, 'web')).toEqual(['nginx:1.26']);
    expect(cluster.api.writes()).toEqual([
      expect.objectContaining({
        verb: 'patch',
        resource: 'clonesets',
        patchType: 'merge',
        body: expect.objectContaining({ metadata: { resourceVersion: before } }) as unknown,
      }),
    ]);
  });

  it('restores --to-revision, and the controller takes the old revision back under a new number', async () => {
    const cluster = await workloadWithHistory(ASTS, 'db');
    expect((await cluster.run('rollout', 'undo', 'asts/db', '--to-revision', '1')).stdout).toBe(
      'statefulset.apps.kruise.io/db rolled back\n',
    );
    expect(images(cluster, ASTS, 'db')).toEqual(['nginx:1.25']);
    await reconcile(cluster, ASTS, 'db');
    const history = await cluster.run('rollout', 'history', 'asts/db');
    expect(
      history.stdout
        .split('\n')
        .slice(2, 5)
        .map((line) => line.split(/ +/)[0]),
    ).toEqual(['2', '3', '4']);
    expect(history.stdout).toMatch(/\n4 +<none> +nginx:1\.25\n/);
  });

  it('writes nothing when the template already is the revision', async () => {
    const cluster = await workloadWithHistory(CLONESET, 'web');
    expect(await cluster.run('rollout', 'undo', 'clone/web', '--to-revision=3')).toEqual({
      code: EXIT_OK,
      stdout: 'cloneset.apps.kruise.io/web skipped rollback (current template already matches revision 3)\n',
      stderr: '',
    });
    expect(cluster.writes()).toBe(0);
  });

  it.each([
    {
      name: 'a revision that does not exist',
      args: ['clone/web', '--to-revision', '99'],
      spec: {},
      stderr: 'error: unable to find specified revision 99 in history\n',
    },
    {
      name: 'a paused workload',
      args: ['clone/web'],
      spec: { updateStrategy: { paused: true } },
      stderr:
        "error: you cannot rollback a paused cloneset; resume it first with 'kruise-ts rollout resume clone/web' and try again\n",
    },
  ])('refuses $name and writes nothing', async ({ args, spec, stderr }) => {
    const cluster = await workloadWithHistory(CLONESET, 'web', spec);
    expect(await cluster.run('rollout', 'undo', ...args)).toEqual({ code: EXIT_FAILURE, stdout: '', stderr });
    expect(cluster.writes()).toBe(0);
    expect(images(cluster, CLONESET, 'web')).toEqual(['nginx:1.27']);
  });

  it('refuses without a previous revision', async () => {
    const cluster = new FakeCluster();
    cluster.workload(ASTS, 'db');
    expect((await cluster.run('rollout', 'undo', 'asts/db')).stderr).toBe(
      'error: no rollout history found for statefulsets.apps.kruise.io "db"\n',
    );
    await reconcile(cluster, ASTS, 'db');
    expect((await cluster.run('rollout', 'undo', 'asts/db')).stderr).toBe('error: no last revision to roll back to\n');
    expect(cluster.writes()).toBe(1);
  });

  it('reads and decides again when its patch loses a race', async () => {
    const cluster = await workloadWithHistory(CLONESET, 'web');
    let conflicts = 1;
    cluster.api.prependReactor({ verb: 'patch', resource: 'clonesets' }, () => {
      if (conflicts-- > 0) {
        throw fakeApiError({ code: 409, reason: 'Conflict', message: 'the object has been modified' });
      }
      return undefined;
    });
    expect((await cluster.run('rollout', 'undo', 'clone/web')).code).toBe(EXIT_OK);
    expect(
      cluster.api.actions.filter((action) => action.verb === 'get' && action.resource === 'clonesets'),
    ).toHaveLength(2);
    expect(images(cluster, CLONESET, 'web')).toEqual(['nginx:1.26']);
  });

  it('refuses a stale resourceVersion, as the API server does', async () => {
    const cluster = await workloadWithHistory(CLONESET, 'web');
    // Every read answers with a resourceVersion the server has moved past.
    cluster.api.prependReactor({ verb: 'get', resource: 'clonesets' }, () => ({
      ...cluster.stored(CLONESET, 'web'),
      metadata: { ...cluster.stored(CLONESET, 'web').metadata, resourceVersion: '1' },
    }));
    const run = await cluster.run('rollout', 'undo', 'clone/web');
    expect([run.code, run.stderr]).toEqual([
      EXIT_FAILURE,
      expect.stringMatching(/^Error from server \(Conflict\): .*the object has been modified/) as unknown,
    ]);
    expect(images(cluster, CLONESET, 'web')).toEqual(['nginx:1.27']);
  });
});

describe('usage errors exit 2 and connect to nothing', () => {
  it.each([
    [
      ['rollout', 'undo', 'statefulset/db'],
      'hint: for an Advanced StatefulSet write asts/db or statefulset.apps.kruise.io/db',
    ],
    [['rollout', 'history', 'bcj/y'], 'error: rollout history does not work on broadcastjobs.apps.kruise.io'],
    [['rollout', 'undo', 'clone/web', '--to-revision', '-1'], 'it must be a non-negative integer'],
    [['rollout', 'history', 'clone/web', '--revision', 'two'], 'it must be a non-negative integer'],
    [['rollout', 'undo'], "error: missing required argument 'object'"],
  ])('%j', async (argv, message) => {
    const cluster = new FakeCluster();
    const run = await cluster.run(...argv);
    expect([run.code, run.stdout]).toEqual([EXIT_USAGE, '']);
    expect(run.stderr).toContain(message);
    expect(cluster.connections).toEqual([]);
  });
});
