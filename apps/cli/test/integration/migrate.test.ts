/**
 * `migrate deployment/NAME --to cloneset` on the real control plane: kube-controller-manager runs the
 * Deployment, the CloneSet controller runs as its own process (the launcher, scoped to the test's
 * namespace), kwok makes the pods Ready, and the CLI is a process of its own. Every pod event of the
 * namespace is followed through one watch, from before the CLI starts, to check that the available
 * pods never drop below what the Deployment had.
 */
import { describe, expect, inject, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { defineResource, watchResource } from '@kruise-ts/controller-runtime';
import type { KubeObject } from '@kruise-ts/controller-runtime';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { applyCrdFiles, createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

import { cloneSetObjectResource, deploymentResource } from '../../src/migration/objects.ts';
import type { CloneSetObject, Deployment } from '../../src/migration/objects.ts';
import { startControllersProcess } from '../support/controllers-process.ts';
import { CRD_FILES, kruiseTs } from '../support/run-cli.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const kubeconfigPath = inject('kubeconfigPath');

const pods = defineResource<Pod>({ group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true });
const deploymentsToWrite = defineResource<KubeObject & { spec: object }>({
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  kind: 'Deployment',
  namespaced: true,
});

function createDeployment(namespace: string, name: string, replicas: number): Promise<unknown> {
  return client.create(deploymentsToWrite, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } },
    },
  });
}

function waitForDeploymentAvailable(namespace: string, name: string, replicas: number): Promise<Deployment> {
  return waitFor(
    async () => {
      const deployment = await client.get(deploymentResource, { namespace, name });
      const { status } = deployment;
      return status?.observedGeneration === deployment.metadata.generation &&
        status?.availableReplicas === replicas &&
        status.updatedReplicas === replicas
        ? deployment
        : undefined;
    },
    { description: `deployment ${name} to have ${String(replicas)} available pods`, timeoutMs: 120_000 },
  );
}

/** Ready and not on its way out: what a Service would send traffic to. */
function isAvailable(pod: Pod): boolean {
  return (
    pod.metadata?.deletionTimestamp === undefined &&
    pod.status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') === true
  );
}

/**
 * Follows every pod event of a namespace from a list's resourceVersion on (one watch, resumed from the
 * last version seen if the server ends it), and after each event counts the available pods.
 */
class AvailabilityWatch {
  readonly #pods = new Map<string, Pod>();
  readonly #stop = new AbortController();
  #following: Promise<void> = Promise.resolve();
  events = 0;
  fewest = Infinity;

  static async start(namespace: string): Promise<AvailabilityWatch> {
    const watch = new AvailabilityWatch();
    const list = await client.list(pods, { namespace });
    for (const pod of list.items) {
      watch.#pods.set(pod.metadata?.name ?? '', pod);
    }
    watch.fewest = watch.available();
    watch.#following = watch.#follow(namespace, list.metadata.resourceVersion);
    return watch;
  }

  available(): number {
    return [...this.#pods.values()].filter(isAvailable).length;
  }

  names(): string[] {
    return [...this.#pods.keys()].sort();
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#following;
  }

  async #follow(namespace: string, from: string): Promise<void> {
    let resourceVersion = from;
    try {
      for (;;) {
        resourceVersion = await this.#watchFrom(namespace, resourceVersion);
      }
    } catch (error) {
      // Aborting ends the stream with an error; anything else (410 Gone: events lost) fails the test.
      if (!this.#stop.signal.aborted) {
        throw error;
      }
    }
  }

  /** One watch, until the server ends it; returns the last version seen. */
  async #watchFrom(namespace: string, from: string): Promise<string> {
    let resourceVersion = from;
    for await (const event of watchResource(client.transport, pods, {
      namespace,
      resourceVersion,
      timeoutSeconds: 300,
      signal: this.#stop.signal,
    })) {
      resourceVersion = event.resourceVersion;
      if (event.type !== 'BOOKMARK') {
        this.#apply(event.type, event.object);
      }
    }
    return resourceVersion;
  }

  #apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', pod: Pod): void {
    const name = pod.metadata?.name ?? '';
    if (type === 'DELETED') {
      this.#pods.delete(name);
    } else {
      this.#pods.set(name, pod);
    }
    this.events++;
    this.fewest = Math.min(this.fewest, this.available());
  }
}

function readCloneSet(namespace: string, name: string): Promise<CloneSetObject> {
  return client.get(cloneSetObjectResource, { namespace, name });
}

describe('kruise-ts migrate deployment --to cloneset', () => {
  it(
    'moves a 10-pod Deployment to a CloneSet without ever having fewer than 10 available pods',
    { timeout: 600_000 },
    async () => {
      await applyCrdFiles(kubeConfig, CRD_FILES);
      await using ns = await createTestNamespace(kubeConfig, 'cli-migrate');
      const cli = (...args: string[]) => kruiseTs(['--kubeconfig', kubeconfigPath, '-n', ns.name, ...args]);
      await createDeployment(ns.name, 'web', 10);
      const settled = await waitForDeploymentAvailable(ns.name, 'web', 10);

      // Bad input and --dry-run write nothing.
      expect(await cli('migrate', 'deployment/missing', '--to', 'cloneset')).toEqual({
        code: 1,
        stdout: '',
        stderr: 'Error from server (NotFound): deployments.apps "missing" not found\n',
      });
      const wrongKind = await cli('migrate', 'deployment/web', '--to', 'asts');
      expect([wrongKind.code, wrongKind.stderr]).toEqual([
        2,
        'error: migrate --to asts: a Deployment can only be migrated to a CloneSet for now\nhint: write --to cloneset\n',
      ]);
      const dryRun = await cli('migrate', 'deployment/web', '--to', 'cloneset', '--dry-run');
      expect(dryRun.code).toBe(0);
      expect(dryRun.stdout).toContain(
        'cloneset.apps.kruise.io/web would be created with 0 replicas:\n  selector: app=web\n  containers: nginx=nginx:1.25\n',
      );
      expect(dryRun.stdout).toContain('  accepted by the API server in a server-side dry run\n');
      expect(dryRun.stdout).toContain('step 10/10: cloneset.apps.kruise.io/web 10/10 ready, deployment.apps/web 0\n');
      expect((await client.list(cloneSetObjectResource, { namespace: ns.name })).items).toEqual([]);
      expect(
        (await client.get(deploymentResource, { namespace: ns.name, name: 'web' })).metadata['resourceVersion'],
      ).toBe(settled.metadata['resourceVersion']);

      await using controller = await startControllersProcess({
        kubeconfigPath,
        namespace: ns.name,
        featureGates: 'CloneSet=true',
      });
      const watch = await AvailabilityWatch.start(ns.name);
      expect(watch.available()).toBe(10);
      const run = await cli('migrate', 'deployment/web', '--to', 'cloneset', '--timeout', '2m');
      expect(run, controller.output()).toMatchObject({ code: 0, stderr: '' });
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines.slice(0, 2)).toEqual([
        'cloneset.apps.kruise.io/web created',
        'moving 10 pods from deployment.apps/web to cloneset.apps.kruise.io/web, one at a time, never fewer than 10 available',
      ]);
      expect(lines.slice(2, 12)).toEqual(
        Array.from(
          { length: 10 },
          (_, index) =>
            `step ${String(index + 1)}/10: cloneset.apps.kruise.io/web ${String(index + 1)}/10 ready, deployment.apps/web ${String(9 - index)}`,
        ),
      );
      expect(lines.slice(12)).toEqual([
        'deployment.apps/web migrated to cloneset.apps.kruise.io/web: 10 pods',
        `deployment.apps/web is kept with 0 replicas; delete it with: kubectl delete deployment web -n ${ns.name}`,
      ]);

      // The watch has seen every Deployment pod go and every CloneSet pod come, and never fewer than 10 available between.
      await waitFor(() => Promise.resolve(watch.names().length === 10 && watch.available() === 10), {
        description: 'the watch to see 10 pods, all available',
        timeoutMs: 60_000,
      });
      await watch.stop();
      expect(watch.fewest).toBe(10);
      expect(watch.events).toBeGreaterThanOrEqual(30);

      const cloneSet = await readCloneSet(ns.name, 'web');
      expect(cloneSet.spec.replicas).toBe(10);
      expect(cloneSet.status).toMatchObject({ replicas: 10, readyReplicas: 10, availableReplicas: 10 });
      const deployment = await client.get(deploymentResource, { namespace: ns.name, name: 'web' });
      expect([deployment.spec.replicas, deployment.status?.replicas ?? 0]).toEqual([0, 0]);
      const remaining = (await client.list(pods, { namespace: ns.name })).items.filter(
        (pod) => pod.metadata?.deletionTimestamp === undefined,
      );
      expect(
        remaining.map((pod) => pod.metadata?.ownerReferences?.find((owner) => owner.controller === true)?.uid),
      ).toEqual(Array.from({ length: 10 }, () => cloneSet.metadata.uid));
    },
  );

  it(
    'refuses in --dry-run, through the API server, a Deployment whose template a CloneSet may not have',
    { timeout: 300_000 },
    async () => {
      await applyCrdFiles(kubeConfig, CRD_FILES);
      await using ns = await createTestNamespace(kubeConfig, 'cli-migrate-refused');
      // A label the CloneSet controller sets on its pods: fine in a Deployment, refused by the CloneSet CRD's CEL rule.
      await client.create(deploymentsToWrite, {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'reserved', namespace: ns.name },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'reserved' } },
          template: {
            metadata: { labels: { app: 'reserved', 'apps.kruise.io/specified-delete': 'true' } },
            spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
          },
        },
      });
      await waitForDeploymentAvailable(ns.name, 'reserved', 1);
      const refused = await kruiseTs([
        '--kubeconfig',
        kubeconfigPath,
        '-n',
        ns.name,
        'migrate',
        'deployment/reserved',
        '--to',
        'cloneset',
        '--dry-run',
      ]);
      expect([refused.code, refused.stdout]).toEqual([1, '']);
      expect(refused.stderr).toMatch(
        /^Error from server \(Invalid\): CloneSet\.apps\.kruise\.io "reserved" is invalid: .*spec\.template\.metadata\.labels: .*apps\.kruise\.io\/specified-delete/,
      );
      expect((await client.list(cloneSetObjectResource, { namespace: ns.name })).items).toEqual([]);
    },
  );

  it('stops at a timeout saying where, and a re-run resumes the migration', { timeout: 600_000 }, async () => {
    await applyCrdFiles(kubeConfig, CRD_FILES);
    await using ns = await createTestNamespace(kubeConfig, 'cli-migrate-resume');
    const cli = (...args: string[]) => kruiseTs(['--kubeconfig', kubeconfigPath, '-n', ns.name, ...args]);
    await createDeployment(ns.name, 'api', 3);
    await waitForDeploymentAvailable(ns.name, 'api', 3);

    // No CloneSet controller yet: the first step cannot finish.
    const stopped = await cli('migrate', 'deploy/api', '--to', 'cloneset', '--timeout', '3s');
    expect(stopped).toEqual({
      code: 1,
      stdout:
        'cloneset.apps.kruise.io/api created\nmoving 3 pods from deployment.apps/api to cloneset.apps.kruise.io/api, one at a time, never fewer than 3 available\n',
      stderr:
        'error: timed out after 3s waiting for cloneset.apps.kruise.io/api to have 1 pod available (it has 0), at step 1/3\n' +
        'error: the migration stopped with cloneset.apps.kruise.io/api scaled to 1 and deployment.apps/api to 3; run the same command again to resume it\n',
    });
    expect((await readCloneSet(ns.name, 'api')).spec.replicas).toBe(1);
    expect((await client.get(deploymentResource, { namespace: ns.name, name: 'api' })).spec.replicas).toBe(3);

    // A CloneSet that no migration of this Deployment made is left alone.
    await createDeployment(ns.name, 'other', 1);
    await waitForDeploymentAvailable(ns.name, 'other', 1);
    const cloneSetBefore = await readCloneSet(ns.name, 'api');
    const foreign = await cli('migrate', 'deployment/other', '--to', 'cloneset', '--name', 'api');
    expect([foreign.code, foreign.stderr]).toEqual([
      1,
      'error: clonesets.apps.kruise.io "api" already exists and was not created by a migration of deployments.apps "other": choose another name with --name\n',
    ]);
    expect((await readCloneSet(ns.name, 'api')).metadata['resourceVersion']).toBe(
      cloneSetBefore.metadata['resourceVersion'],
    );

    await using controller = await startControllersProcess({
      kubeconfigPath,
      namespace: ns.name,
      featureGates: 'CloneSet=true',
    });
    const resumed = await cli('migrate', 'deploy/api', '--to', 'cloneset');
    expect(resumed, controller.output()).toMatchObject({ code: 0, stderr: '' });
    expect(resumed.stdout.split('\n')).toEqual([
      'resuming the migration to cloneset.apps.kruise.io/api (created by an earlier run): it has 1 of 3 replicas, deployment.apps/api 3',
      'moving 3 pods from deployment.apps/api to cloneset.apps.kruise.io/api, one at a time, never fewer than 3 available',
      'step 1/3: cloneset.apps.kruise.io/api 1/3 ready, deployment.apps/api 2',
      'step 2/3: cloneset.apps.kruise.io/api 2/3 ready, deployment.apps/api 1',
      'step 3/3: cloneset.apps.kruise.io/api 3/3 ready, deployment.apps/api 0',
      'deployment.apps/api migrated to cloneset.apps.kruise.io/api: 3 pods',
      `deployment.apps/api is kept with 0 replicas; delete it with: kubectl delete deployment api -n ${ns.name}`,
      '',
    ]);
    expect((await readCloneSet(ns.name, 'api')).status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
    });
    expect((await client.get(deploymentResource, { namespace: ns.name, name: 'api' })).spec.replicas).toBe(0);

    // Run again once complete: it checks and changes nothing.
    const again = await cli('migrate', 'deploy/api', '--to', 'cloneset');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('step 1/1: cloneset.apps.kruise.io/api 3/3 ready, deployment.apps/api 0\n');
  });
});
