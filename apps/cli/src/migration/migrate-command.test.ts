/**
 * Whole `migrate` command lines in-process over the in-memory API server: what is refused (and that
 * nothing is written then), and the plan `--dry-run` prints. The steps themselves need controllers:
 * run-migration.test.ts plays them, test/integration/migrate.test.ts runs the real ones.
 */
import { describe, expect, it } from 'vitest';

import { fakeApiError } from '@kruise-ts/controller-runtime/testing';

import { FakeCluster } from '../../test/support/fake-cluster.ts';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../cli/exit-codes.ts';
import { cloneSetManifest } from './cloneset-manifest.ts';
import { cloneSetObjectResource, deploymentResource } from './objects.ts';
import type { Deployment } from './objects.ts';

function seedDeployment(cluster: FakeCluster, spec: Partial<Deployment['spec']> = {}): Deployment {
  cluster.api.seed(deploymentResource, [
    {
      metadata: { name: 'web', namespace: 'default', uid: '', generation: 1 },
      spec: {
        replicas: 10,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
        },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
        ...spec,
      },
      status: { observedGeneration: 1, replicas: 10, updatedReplicas: 10, readyReplicas: 10, availableReplicas: 10 },
    },
  ]);
  return cluster.api.objects(deploymentResource)[0] ?? (undefined as never);
}

describe('migrate refuses a wrong command line (exit 2) and connects to nothing', () => {
  it.each([
    [['migrate', 'deployment/web'], "error: required option '--to <kind>' not specified"],
    [['migrate', '--to', 'cloneset'], "error: missing required argument 'object'"],
    [
      ['migrate', 'deployment/web', '--to', 'asts'],
      'error: migrate --to asts: a Deployment can only be migrated to a CloneSet for now\nhint: write --to cloneset',
    ],
    [
      ['migrate', 'clone/web', '--to', 'cloneset'],
      'error: migrate does not work on clonesets.apps.kruise.io\nhint: it takes deploy/NAME',
    ],
    [['migrate', 'widget/web', '--to', 'cloneset'], 'error: the resource type "widget" is not one kruise-ts knows'],
    [['migrate', 'deployment/web', 'deployment/db', '--to', 'cloneset'], 'error: one object at a time'],
    [
      ['migrate', 'deployment/web', '--to', 'cloneset', '--max-surge', '0'],
      'it must be a positive integer or a percentage such as 25%',
    ],
    [
      ['migrate', 'deployment/web', '--to', 'cloneset', '--max-surge', '150%'],
      'a percentage must be between 1% and 100%',
    ],
    [
      ['migrate', 'deployment/web', '--to', 'cloneset', '--timeout', '10'],
      'it must be a duration such as 30s, 10m or 1h30m',
    ],
    [['migrate', 'deployment/web', '--to', 'cloneset', '--name', 'Web_CS'], 'error: invalid CloneSet name "Web_CS"'],
    [
      ['migrate', 'deployment/web', '--to', 'cloneset', '--force'],
      "error: unknown option '--force'\nSee 'kruise-ts migrate --help' for usage.",
    ],
  ])('%j', async (argv, message) => {
    const cluster = new FakeCluster();
    seedDeployment(cluster);
    const run = await cluster.run(...argv);
    expect([run.code, run.stdout]).toEqual([EXIT_USAGE, '']);
    expect(run.stderr).toContain(message);
    expect(cluster.connections).toEqual([]);
  });

  it('has help', async () => {
    const run = await new FakeCluster().run('migrate', '--help');
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toContain('Usage: kruise-ts migrate [options] <object...>');
    expect(run.stdout).toContain('--max-surge <count>');
  });
});

describe('migrate refuses what the cluster forbids (exit 1), writing nothing', () => {
  it("reports a missing Deployment with the API server's error", async () => {
    const cluster = new FakeCluster();
    const run = await cluster.run('migrate', 'deployment/missing', '--to', 'cloneset');
    expect(run.code).toBe(EXIT_FAILURE);
    expect(run.stderr).toMatch(/^Error from server \(NotFound\): .*"missing" not found\n$/);
    expect(cluster.writes()).toBe(0);
  });

  it('refuses a paused Deployment', async () => {
    const cluster = new FakeCluster();
    seedDeployment(cluster, { paused: true });
    const run = await cluster.run('migrate', 'deploy/web', '--to', 'cloneset');
    expect(run).toEqual({
      code: EXIT_FAILURE,
      stdout: '',
      stderr: 'error: deployments.apps "web" is paused: resume it first (kubectl rollout resume deployment/web)\n',
    });
    expect(cluster.writes()).toBe(0);
  });

  it('refuses to take over a CloneSet it did not create', async () => {
    const cluster = new FakeCluster();
    seedDeployment(cluster);
    cluster.api.seed(cloneSetObjectResource, [
      { metadata: { name: 'web', namespace: 'default', uid: '' }, spec: { replicas: 2 } },
    ]);
    const run = await cluster.run('migrate', 'deployment/web', '--to', 'cloneset');
    expect(run.code).toBe(EXIT_FAILURE);
    expect(run.stderr).toBe(
      'error: clonesets.apps.kruise.io "web" already exists and was not created by a migration of deployments.apps "web": choose another name with --name\n',
    );
    expect(cluster.writes()).toBe(0);
  });
});

describe('migrate --dry-run', () => {
  it('prints the CloneSet and every step, and writes nothing', async () => {
    const cluster = new FakeCluster();
    seedDeployment(cluster);
    const run = await cluster.run('migrate', 'deployment/web', '--to', 'cloneset', '--dry-run');
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout.split('\n')).toEqual([
      'dry run: nothing is written',
      'cloneset.apps.kruise.io/web would be created with 0 replicas:',
      '  selector: app=web',
      '  containers: nginx=nginx:1.25',
      '  revisionHistoryLimit: 10, progressDeadlineSeconds: 600',
      '  updateStrategy: ReCreate, maxSurge 25%, maxUnavailable 25%',
      '  accepted by the API server in a server-side dry run',
      'moving 10 pods from deployment.apps/web to cloneset.apps.kruise.io/web, one at a time, never fewer than 10 available',
      ...Array.from(
        { length: 10 },
        (_, index) =>
          `step ${String(index + 1)}/10: cloneset.apps.kruise.io/web ${String(index + 1)}/10 ready, deployment.apps/web ${String(9 - index)}`,
      ),
      '',
    ]);
    expect(cluster.writes()).toBe(0);
    expect(
      cluster.api.actions
        .filter((action) => action.dryRun === true)
        .map((action) => [action.verb, action.resource, action.name]),
    ).toEqual([['create', 'clonesets', 'web']]);
  });

  it('prints no plan when the API server refuses the CloneSet in the dry run', async () => {
    const cluster = new FakeCluster();
    seedDeployment(cluster);
    cluster.api.prependReactor({ verb: 'create', resource: 'clonesets' }, () => {
      throw fakeApiError({
        code: 422,
        reason: 'Invalid',
        message:
          'CloneSet.apps.kruise.io "web" is invalid: spec.template.spec.containers[0].name: Invalid value: "Main"',
      });
    });
    const run = await cluster.run('migrate', 'deployment/web', '--to', 'cloneset', '--dry-run');
    expect([run.code, run.stdout, run.stderr]).toEqual([
      EXIT_FAILURE,
      '',
      'Error from server (Invalid): CloneSet.apps.kruise.io "web" is invalid: spec.template.spec.containers[0].name: Invalid value: "Main"\n',
    ]);
    expect(cluster.writes()).toBe(0);
  });

  it('plans bigger steps with --max-surge, under another name', async () => {
    const cluster = new FakeCluster();
    seedDeployment(cluster);
    const run = await cluster.run(
      'migrate',
      'deployment',
      'web',
      '--to=clone',
      '--name=web-cs',
      '--max-surge=25%',
      '--dry-run',
      '-n',
      'default',
    );
    expect(run.stdout).toContain('cloneset.apps.kruise.io/web-cs would be created with 0 replicas:\n');
    expect(run.stdout).toContain(', up to 3 at a time, never fewer than 10 available\n');
    expect(run.stdout).toContain('step 4/4: cloneset.apps.kruise.io/web-cs 10/10 ready, deployment.apps/web 0\n');
    expect(cluster.writes()).toBe(0);
  });

  it('plans the rest of an interrupted migration', async () => {
    const cluster = new FakeCluster();
    const deployment = seedDeployment(cluster);
    const manifest = cloneSetManifest(deployment, 'web');
    cluster.api.seed(cloneSetObjectResource, [
      { metadata: { ...manifest.metadata, uid: '' }, spec: { replicas: 8 }, status: { availableReplicas: 8 } },
    ]);
    const key = { namespace: 'default', name: 'web' };
    await cluster.api.patch(deploymentResource, key, { type: 'merge', body: { spec: { replicas: 3 } } });
    await cluster.api.patch(deploymentResource, key, {
      type: 'merge',
      subresource: 'status',
      body: { status: { observedGeneration: 2, replicas: 3, updatedReplicas: 3, availableReplicas: 3 } },
    });
    cluster.api.clearActions();
    const run = await cluster.run('migrate', 'deployment/web', '--to', 'cloneset', '--dry-run');
    expect(run.stdout.split('\n')).toEqual([
      'dry run: nothing is written',
      'resuming the migration to cloneset.apps.kruise.io/web (created by an earlier run): it has 8 of 10 replicas, deployment.apps/web 3',
      'moving 10 pods from deployment.apps/web to cloneset.apps.kruise.io/web, one at a time, never fewer than 10 available',
      'step 1/3: cloneset.apps.kruise.io/web 8/10 ready, deployment.apps/web 2',
      'step 2/3: cloneset.apps.kruise.io/web 9/10 ready, deployment.apps/web 1',
      'step 3/3: cloneset.apps.kruise.io/web 10/10 ready, deployment.apps/web 0',
      '',
    ]);
    expect(cluster.writes()).toBe(0);
  });
});
