/**
 * The step loop over the in-memory API server, with the two controllers played by the test: on every
 * wait of the loop (its sleep) they update their status, the CloneSet's pods becoming available
 * `podsPerTick` at a time. Time is the fake clock the sleeps advance.
 */
import { describe, expect, it } from 'vitest';

import { FakeClient } from '@kruise-ts/controller-runtime/testing';

import { cloneSetObjectResource, deploymentResource } from './objects.ts';
import type { Replicas } from './plan.ts';
import { MigrationTimeoutError, POLL_INTERVAL_MS, runMigration } from './run-migration.ts';
import type { Migration } from './run-migration.ts';

const NAMES = { cloneSet: 'cloneset.apps.kruise.io/web', deployment: 'deployment.apps/web' };
const KEY = { namespace: 'team', name: 'web' };

class Cluster {
  readonly api = new FakeClient();
  readonly lines: string[] = [];
  /** The fewest available pods of both workloads together, after every move of either. */
  fewestAvailable = Infinity;
  clock = 0;
  readonly podsPerTick: number;

  constructor(start: Replicas, podsPerTick: number) {
    this.podsPerTick = podsPerTick;
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx' }] } };
    this.api.seed(deploymentResource, [
      {
        metadata: { ...KEY, uid: '', generation: 1 },
        spec: { replicas: start.deployment, selector: { matchLabels: { app: 'web' } }, template },
        status: { observedGeneration: 1, replicas: start.deployment, availableReplicas: start.deployment },
      },
    ]);
    this.api.seed(cloneSetObjectResource, [
      {
        metadata: { ...KEY, uid: '', generation: 1 },
        spec: { replicas: start.cloneSet },
        status: { observedGeneration: 1, availableReplicas: start.cloneSet },
      },
    ]);
  }

  async run(migration: Partial<Migration> & Pick<Migration, 'target' | 'current' | 'maxSurge'>): Promise<void> {
    await runMigration(
      {
        client: this.api,
        print: (line) => this.lines.push(line),
        now: () => this.clock,
        sleep: async (ms) => {
          this.clock += ms;
          await this.tick();
        },
      },
      { deployment: KEY, cloneSet: KEY, names: NAMES, timeoutMs: 60_000, ...migration },
    );
  }

  /** The controllers act: the Deployment's extra pods go at once, the CloneSet's new pods come slowly. */
  async tick(): Promise<void> {
    const deployment = await this.api.get(deploymentResource, KEY);
    const cloneSet = await this.api.get(cloneSetObjectResource, KEY);
    const deploymentAvailable = Math.min(deployment.spec.replicas, deployment.status?.availableReplicas ?? 0);
    const cloneSetAvailable = Math.min(
      cloneSet.spec.replicas,
      (cloneSet.status?.availableReplicas ?? 0) + this.podsPerTick,
    );
    this.fewestAvailable = Math.min(
      this.fewestAvailable,
      deploymentAvailable + (cloneSet.status?.availableReplicas ?? 0),
    );
    await this.api.patch(deploymentResource, KEY, {
      type: 'merge',
      subresource: 'status',
      body: {
        status: {
          observedGeneration: deployment.metadata.generation,
          replicas: deployment.spec.replicas,
          availableReplicas: deploymentAvailable,
        },
      },
    });
    await this.api.patch(cloneSetObjectResource, KEY, {
      type: 'merge',
      subresource: 'status',
      body: { status: { observedGeneration: cloneSet.metadata.generation, availableReplicas: cloneSetAvailable } },
    });
    this.fewestAvailable = Math.min(this.fewestAvailable, deploymentAvailable + cloneSetAvailable);
  }

  /** The replicas each write asked for, in order: `clonesets 1`, `deployments 9`, ... */
  scaleWrites(): string[] {
    return this.api
      .writes()
      .filter((write) => write.subresource === undefined)
      .map((write) => `${write.resource} ${String((write.body as { spec: { replicas: number } }).spec.replicas)}`);
  }

  async replicas(): Promise<Replicas> {
    return {
      cloneSet: (await this.api.get(cloneSetObjectResource, KEY)).spec.replicas,
      deployment: (await this.api.get(deploymentResource, KEY)).spec.replicas,
    };
  }
}

describe('runMigration', () => {
  it('moves 10 pods one at a time, scaling the Deployment down only after each new pod is available', async () => {
    const cluster = new Cluster({ cloneSet: 0, deployment: 10 }, 1);
    await cluster.run({ target: 10, current: { cloneSet: 0, deployment: 10 }, maxSurge: 1 });
    expect(cluster.lines).toEqual(
      Array.from(
        { length: 10 },
        (_, index) =>
          `step ${String(index + 1)}/10: cloneset.apps.kruise.io/web ${String(index + 1)}/10 ready, deployment.apps/web ${String(9 - index)}`,
      ),
    );
    expect(cluster.scaleWrites()).toEqual(
      Array.from({ length: 10 }, (_, index) => [
        `clonesets ${String(index + 1)}`,
        `deployments ${String(9 - index)}`,
      ]).flat(),
    );
    expect(cluster.fewestAvailable).toBe(10);
    expect(await cluster.replicas()).toEqual({ cloneSet: 10, deployment: 0 });
  });

  it('moves up to maxSurge pods per step', async () => {
    const cluster = new Cluster({ cloneSet: 0, deployment: 10 }, 2);
    await cluster.run({ target: 10, current: { cloneSet: 0, deployment: 10 }, maxSurge: 4 });
    expect(cluster.scaleWrites()).toEqual([
      'clonesets 4',
      'deployments 6',
      'clonesets 8',
      'deployments 2',
      'clonesets 10',
      'deployments 0',
    ]);
    expect(cluster.lines.at(-1)).toBe('step 3/3: cloneset.apps.kruise.io/web 10/10 ready, deployment.apps/web 0');
    expect(cluster.fewestAvailable).toBe(10);
  });

  it('finishes an interrupted step first: the CloneSet is already up, the Deployment goes down', async () => {
    const cluster = new Cluster({ cloneSet: 4, deployment: 7 }, 1);
    await cluster.run({ target: 10, current: { cloneSet: 4, deployment: 7 }, maxSurge: 2 });
    expect(cluster.scaleWrites()).toEqual([
      'deployments 6',
      'clonesets 6',
      'deployments 4',
      'clonesets 8',
      'deployments 2',
      'clonesets 10',
      'deployments 0',
    ]);
    expect(cluster.lines[0]).toBe('step 1/4: cloneset.apps.kruise.io/web 4/10 ready, deployment.apps/web 6');
    expect(cluster.fewestAvailable).toBe(10);
  });

  it('checks a migration that is already complete and writes nothing', async () => {
    const cluster = new Cluster({ cloneSet: 10, deployment: 0 }, 1);
    await cluster.run({ target: 10, current: { cloneSet: 10, deployment: 0 }, maxSurge: 1 });
    expect(cluster.lines).toEqual(['step 1/1: cloneset.apps.kruise.io/web 10/10 ready, deployment.apps/web 0']);
    expect(cluster.api.writes()).toEqual([]);
  });

  it('gives up after the timeout, keeping the Deployment, and says where it stopped', async () => {
    const cluster = new Cluster({ cloneSet: 0, deployment: 3 }, 0);
    const run = cluster.run({ target: 3, current: { cloneSet: 0, deployment: 3 }, maxSurge: 1, timeoutMs: 5_000 });
    await expect(run).rejects.toThrow(MigrationTimeoutError);
    await expect(run).rejects.toThrow(
      'timed out after 5s waiting for cloneset.apps.kruise.io/web to have 1 pod available (it has 0), at step 1/3\n' +
        'the migration stopped with cloneset.apps.kruise.io/web scaled to 1 and deployment.apps/web to 3; run the same command again to resume it',
    );
    expect(cluster.clock).toBe(5_000);
    expect(cluster.clock % POLL_INTERVAL_MS).toBe(0);
    expect(await cluster.replicas()).toEqual({ cloneSet: 1, deployment: 3 });
    expect(cluster.lines).toEqual([]);
  });

  it('times out on a Deployment whose controller does not follow', async () => {
    const cluster = new Cluster({ cloneSet: 0, deployment: 2 }, 1);
    // The Deployment's status is never updated again: its observedGeneration stays behind.
    const tick = cluster.tick.bind(cluster);
    cluster.tick = async () => {
      const before = await cluster.api.get(deploymentResource, KEY);
      await tick();
      await cluster.api.patch(deploymentResource, KEY, {
        type: 'merge',
        subresource: 'status',
        body: { status: before.status },
      });
    };
    await expect(
      cluster.run({ target: 2, current: { cloneSet: 0, deployment: 2 }, maxSurge: 1, timeoutMs: 2_000 }),
    ).rejects.toThrow(
      'timed out after 2s waiting for deployment.apps/web to scale down to 1 pod (it has 2), at step 1/2\n' +
        'the migration stopped with cloneset.apps.kruise.io/web scaled to 1 and deployment.apps/web to 1; run the same command again to resume it',
    );
  });
});
