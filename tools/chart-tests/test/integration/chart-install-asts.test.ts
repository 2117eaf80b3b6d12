/**
 * The chart with AdvancedStatefulSet=true on a real control plane: the app gets its own Deployment,
 * ServiceAccount and RBAC, and, run out of cluster with the Deployment's args and a token of that
 * ServiceAccount (not an admin identity), it reconciles an Advanced StatefulSet with per-ordinal
 * PVCs end to end, which proves its least-privilege ClusterRole is sufficient.
 */
import { randomBytes } from 'node:crypto';

import { AppsV1Api, CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { serviceAccountKubeConfig } from '@kruise-ts/local-cluster';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import type { TestNamespace } from '@kruise-ts/local-cluster/testing';

import { outOfClusterFlags, startApp } from '../support/app-process.ts';
import { installChart, runHelm } from '../support/helm.ts';

const admin = testKubeConfig();
const core = admin.makeApiClient(CoreV1Api);
const custom = admin.makeApiClient(CustomObjectsApi);
const RELEASE = `kta-${randomBytes(3).toString('hex')}`;
const APP = `${RELEASE}-kruise-ts-advanced-statefulset`;
const STATEFULSETS = { group: 'apps.kruise.io', version: 'v1beta1', plural: 'statefulsets' } as const;
const GATES = 'CloneSet=false,AdvancedStatefulSet=true';
const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

interface SetView {
  readonly metadata: { readonly generation?: number };
  readonly status?: {
    readonly observedGeneration?: number;
    readonly readyReplicas?: number;
    readonly updatedReplicas?: number;
    readonly currentRevision?: string;
    readonly updateRevision?: string;
  };
}

let releaseNamespace: TestNamespace;
let workloadNamespace: TestNamespace;
let installed = false;

beforeAll(async () => {
  releaseNamespace = await createTestNamespace(admin, 'chart-asts-release');
  workloadNamespace = await createTestNamespace(admin, 'chart-asts-workload');
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

describe('the chart with AdvancedStatefulSet=true', () => {
  it('deploys the app with its own ServiceAccount and RBAC, and the app reconciles a set with that identity', async () => {
    const result = await installChart({
      release: RELEASE,
      namespace: releaseNamespace.name,
      gates: GATES,
      kubeconfig: inject('kubeconfigPath'),
    });
    expect(result.code, result.stderr).toBe(0);
    installed = true;
    const deployment = await admin
      .makeApiClient(AppsV1Api)
      .readNamespacedDeployment({ name: APP, namespace: releaseNamespace.name });
    expect(deployment.status?.availableReplicas).toBe(1);
    const serviceAccountName = deployment.spec?.template.spec?.serviceAccountName ?? '';
    expect(serviceAccountName).toBe(APP);
    const [entrypoint = '', ...flags] = deployment.spec?.template.spec?.containers[0]?.args ?? [];
    expect(entrypoint).toBe('dist/advanced-statefulset.mjs');

    const account = await serviceAccountKubeConfig(admin, {
      namespace: releaseNamespace.name,
      name: serviceAccountName,
    });
    const app = await startApp(entrypoint, [
      ...outOfClusterFlags(flags),
      `--kubeconfig=${account.path}`,
      `--namespace=${workloadNamespace.name}`,
    ]);
    const namespace = workloadNamespace.name;
    try {
      await custom.createNamespacedCustomObject({
        ...STATEFULSETS,
        namespace,
        body: {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'StatefulSet',
          metadata: { name: 'sample' },
          spec: {
            replicas: 2,
            serviceName: 'sample',
            podManagementPolicy: 'Parallel',
            selector: { matchLabels: { app: 'sample' } },
            template: {
              metadata: { labels: { app: 'sample' } },
              spec: {
                readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
                containers: [{ name: 'nginx', image: 'nginx:alpine' }],
              },
            },
            volumeClaimTemplates: [
              {
                metadata: { name: 'data' },
                spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
              },
            ],
            updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 2 } },
            persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' },
          },
        },
      });
      const read = async (): Promise<SetView> =>
        (await custom.getNamespacedCustomObject({ ...STATEFULSETS, namespace, name: 'sample' })) as SetView;
      const settled = (set: SetView): boolean => {
        const status = set.status;
        return (
          status !== undefined &&
          status.observedGeneration === set.metadata.generation &&
          status.readyReplicas === 2 &&
          status.updatedReplicas === 2 &&
          status.currentRevision === status.updateRevision
        );
      };
      await waitFor(async () => (settled(await read()) ? true : undefined), {
        description: 'two ready pods',
        timeoutMs: 90_000,
      });
      await custom.patchNamespacedCustomObject(
        {
          ...STATEFULSETS,
          namespace,
          name: 'sample',
          body: { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:mainline' }] } } } },
        },
        MERGE_PATCH,
      );
      await waitFor(
        async () => {
          const pods = (await core.listNamespacedPod({ namespace, labelSelector: 'app=sample' })).items;
          return settled(await read()) && pods.every((pod) => pod.spec?.containers[0]?.image === 'nginx:mainline')
            ? true
            : undefined;
        },
        { description: 'updated in place', timeoutMs: 90_000 },
      );
      const claims = (await core.listNamespacedPersistentVolumeClaim({ namespace })).items;
      expect(claims.map((claim) => claim.metadata?.name).sort()).toEqual(['data-sample-0', 'data-sample-1']);
      const events = (
        await core.listNamespacedEvent({
          namespace,
          fieldSelector: 'involvedObject.kind=StatefulSet,involvedObject.name=sample',
        })
      ).items;
      expect(new Set(events.map((event) => event.reason))).toContain('SuccessfulUpdatePodInPlace');
      expect(events.every((event) => event.source?.component === 'statefulset-controller')).toBe(true);
    } finally {
      expect(await app.stop()).toBe(0);
    }
    expect(app.output()).not.toMatch(/forbidden/i);
  });
});
