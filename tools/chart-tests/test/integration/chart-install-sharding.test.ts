/**
 * The chart with `apps.cloneset.shards=2` on a real control plane: the CloneSet Deployment gets two
 * replicas and `--sharding`, and two processes run out of cluster with exactly those args and a token
 * of the chart's ServiceAccount (not an admin identity). They split the ring's 64 bucket Leases
 * between them and each reconciles the CloneSets of its buckets, which proves the chart's Lease rule
 * (member Leases whose names are not known in advance, bucket Leases taken over and released) and the
 * rest of its RBAC sufficient for a sharded app; the render test only reads the manifests.
 */
import { randomBytes } from 'node:crypto';

import { AppsV1Api, CoordinationV1Api, CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import {
  bucketLabels,
  bucketLeaseName,
  bucketOf,
  SHARD_BUCKET_LABEL,
  SHARD_BUCKETS,
  SHARD_RING_LABEL,
} from '@kruise-ts/sharding';
import { serviceAccountKubeConfig } from '@kruise-ts/local-cluster';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import type { TestNamespace } from '@kruise-ts/local-cluster/testing';

import { outOfClusterFlags, startApp } from '../support/app-process.ts';
import type { AppProcess } from '../support/app-process.ts';
import { installChart, runHelm } from '../support/helm.ts';

const admin = testKubeConfig();
const core = admin.makeApiClient(CoreV1Api);
const custom = admin.makeApiClient(CustomObjectsApi);
const leases = admin.makeApiClient(CoordinationV1Api);
const RELEASE = `kts-${randomBytes(3).toString('hex')}`;
const APP = `${RELEASE}-kruise-ts-cloneset`;
const CLONESET = { group: 'apps.kruise.io', version: 'v1alpha1', plural: 'clonesets' } as const;
/** CloneSets each replica must own at least this many of. */
const PER_REPLICA = 2;

interface CloneSetView {
  readonly metadata: { readonly generation?: number };
  readonly status?: {
    readonly observedGeneration?: number;
    readonly readyReplicas?: number;
    readonly updatedReadyReplicas?: number;
  };
}

let releaseNamespace: TestNamespace;
let workloadNamespace: TestNamespace;
let installed = false;

beforeAll(async () => {
  releaseNamespace = await createTestNamespace(admin, 'chart-shards-release');
  workloadNamespace = await createTestNamespace(admin, 'chart-shards-workload');
});

afterAll(async () => {
  if (installed) {
    await runHelm(['uninstall', RELEASE, '--namespace', releaseNamespace.name, '--wait'], {
      kubeconfig: inject('kubeconfigPath'),
    });
  }
  await workloadNamespace[Symbol.asyncDispose]();
  await releaseNamespace[Symbol.asyncDispose]();
});

/** Each bucket's holder, from the ring's Leases in the release namespace. */
async function bucketHolders(ring: string): Promise<Map<number, string>> {
  const listed = await leases.listNamespacedLease({
    namespace: releaseNamespace.name,
    labelSelector: `${SHARD_RING_LABEL}=${ring}`,
  });
  const byName = new Map(listed.items.map((lease) => [lease.metadata?.name ?? '', lease.spec?.holderIdentity ?? '']));
  return new Map(
    Array.from({ length: SHARD_BUCKETS }, (_unused, bucket) => [
      bucket,
      byName.get(bucketLeaseName(ring, bucket)) ?? '',
    ]),
  );
}

/** Names `sample-<i>` until each holder owns PER_REPLICA of them, by the CloneSet's bucket. */
function namesForEachHolder(holders: ReadonlyMap<number, string>, namespace: string): string[] {
  const owned = new Map<string, string[]>();
  for (let index = 0; [...owned.values()].filter((names) => names.length >= PER_REPLICA).length < 2; index++) {
    const name = `sample-${String(index)}`;
    const holder = holders.get(bucketOf(namespace, name)) ?? '';
    const names = owned.get(holder) ?? [];
    if (names.length < PER_REPLICA) {
      owned.set(holder, [...names, name]);
    }
  }
  return [...owned.values()].flat();
}

function cloneSetBody(name: string): object {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] },
      },
    },
  };
}

describe('the chart with apps.cloneset.shards=2', () => {
  it("runs two replicas with the Deployment's args and the ServiceAccount's token: they split the buckets and each reconciles its CloneSets", async () => {
    const result = await installChart({
      release: RELEASE,
      namespace: releaseNamespace.name,
      gates: 'CloneSet=true',
      kubeconfig: inject('kubeconfigPath'),
      set: ['apps.cloneset.shards=2'],
    });
    expect(result.code, result.stderr).toBe(0);
    installed = true;
    const deployment = await admin
      .makeApiClient(AppsV1Api)
      .readNamespacedDeployment({ name: APP, namespace: releaseNamespace.name });
    expect(deployment.spec?.replicas).toBe(2);
    const container = deployment.spec?.template.spec?.containers[0];
    const [entrypoint = '', ...flags] = container?.args ?? [];
    expect(flags).toContain('--sharding');
    const ring = flags.find((flag) => flag.startsWith('--leader-election-id='))?.split('=')[1] ?? '';
    expect(ring).not.toBe('');
    const account = await serviceAccountKubeConfig(admin, {
      namespace: releaseNamespace.name,
      name: deployment.spec?.template.spec?.serviceAccountName ?? '',
    });
    const [, ...nodeFlags] = container?.command ?? [];
    const args = [...outOfClusterFlags(flags), `--kubeconfig=${account.path}`, `--namespace=${workloadNamespace.name}`];
    const replicas: AppProcess[] = [
      await startApp(entrypoint, args, nodeFlags),
      await startApp(entrypoint, args, nodeFlags),
    ];
    const namespace = workloadNamespace.name;
    try {
      const holders = await waitFor(
        async () => {
          const held = await bucketHolders(ring);
          const identities = new Set(held.values());
          return identities.size === 2 && !identities.has('') ? held : undefined;
        },
        {
          description: 'every bucket held, by two replicas',
          timeoutMs: 90_000,
          state: async () => Object.fromEntries(await bucketHolders(ring)),
        },
      );
      const names = namesForEachHolder(holders, namespace);
      for (const name of names) {
        await custom.createNamespacedCustomObject({ ...CLONESET, namespace, body: cloneSetBody(name) });
      }
      for (const name of names) {
        await waitFor(
          async () => {
            const cs = (await custom.getNamespacedCustomObject({ ...CLONESET, namespace, name })) as CloneSetView;
            return cs.status?.observedGeneration === cs.metadata.generation &&
              cs.status?.readyReplicas === 1 &&
              cs.status.updatedReadyReplicas === 1
              ? true
              : undefined;
          },
          {
            description: `CloneSet ${name} with one ready pod`,
            timeoutMs: 90_000,
            state: () => Promise.resolve(replicas.map((replica) => replica.output().split('\n').slice(-20))),
          },
        );
        const pods = (await core.listNamespacedPod({ namespace, labelSelector: `app=${name}` })).items;
        expect(pods.map((pod) => pod.metadata?.labels?.[SHARD_BUCKET_LABEL])).toEqual([
          bucketLabels(namespace, name)[SHARD_BUCKET_LABEL],
        ]);
      }
    } finally {
      expect(await Promise.all(replicas.map((replica) => replica.stop()))).toEqual([0, 0]);
    }
    for (const replica of replicas) {
      expect(replica.output()).not.toMatch(/forbidden/i);
    }
  });
});
