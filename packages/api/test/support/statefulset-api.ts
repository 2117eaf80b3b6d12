/**
 * Helpers of the Advanced StatefulSet API tests: the CRD file and a valid set to start from (the
 * merge patches and the rejection reader are the CloneSet helpers').
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { KubeConfig } from '@kubernetes/client-node';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { applyCrdFiles, createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';
import type { TestNamespace } from '@kruise-ts/local-cluster/testing';

import type { JsonObject } from './cloneset-api.ts';

/** The generated CRD file under test. */
export const STATEFULSET_CRD_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../crds/apps.kruise.io_statefulsets.yaml',
);

/** Coordinates of the resource for CustomObjectsApi calls. */
export const STATEFULSETS = { group: 'apps.kruise.io', version: 'v1beta1', plural: 'statefulsets' } as const;

/** Installs the generated StatefulSet CRD and waits until it is Established. */
export async function installStatefulSetCrd(kubeConfig: KubeConfig): Promise<CustomObjectsApi> {
  await applyCrdFiles(kubeConfig, [STATEFULSET_CRD_FILE]);
  return kubeConfig.makeApiClient(CustomObjectsApi);
}

/** The CRD installed and a fresh namespace for the tests of one file. */
export async function statefulSetApi(
  prefix: string,
): Promise<{ readonly api: CustomObjectsApi; readonly namespace: TestNamespace }> {
  const kubeConfig = testKubeConfig();
  const api = await installStatefulSetCrd(kubeConfig);
  return { api, namespace: await createTestNamespace(kubeConfig, prefix) };
}

/** A valid Parallel set named `name`: 3 nginx pods labelled app=sample, in-place capable. */
export function validStatefulSet(name: string): JsonObject {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name },
    spec: {
      replicas: 3,
      serviceName: 'sample',
      podManagementPolicy: 'Parallel',
      selector: { matchLabels: { app: 'sample' } },
      template: {
        metadata: { labels: { app: 'sample' } },
        spec: {
          readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
          containers: [{ name: 'main', image: 'nginx:alpine' }],
        },
      },
    },
  };
}
