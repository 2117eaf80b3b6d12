/**
 * Helpers of the SidecarSet API tests: the CRD file and a valid SidecarSet to start from (the merge
 * patches and the rejection reader are the CloneSet helpers').
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { CustomObjectsApi } from '@kubernetes/client-node';
import { applyCrdFiles, testKubeConfig } from '@kruise-ts/local-cluster/testing';

import type { JsonObject } from './cloneset-api.ts';

/** The generated CRD file under test. */
export const SIDECARSET_CRD_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../crds/apps.kruise.io_sidecarsets.yaml',
);

/** Coordinates of the (cluster-scoped) resource for CustomObjectsApi calls. */
export const SIDECARSETS = { group: 'apps.kruise.io', version: 'v1alpha1', plural: 'sidecarsets' } as const;

/** Installs the generated SidecarSet CRD and waits until it is Established. */
export async function sidecarSetApi(): Promise<CustomObjectsApi> {
  const kubeConfig = testKubeConfig();
  await applyCrdFiles(kubeConfig, [SIDECARSET_CRD_FILE]);
  return kubeConfig.makeApiClient(CustomObjectsApi);
}

/** The sample of OpenKruise's SidecarSet documentation: a log sidecar for pods labelled app=nginx. */
export function validSidecarSet(name: string): JsonObject {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: 'nginx' } },
      updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 },
      containers: [
        {
          name: 'sidecar1',
          image: 'centos:6.7',
          command: ['sleep', '999d'],
          volumeMounts: [{ name: 'log-volume', mountPath: '/var/log' }],
        },
      ],
      volumes: [{ name: 'log-volume', emptyDir: {} }],
    },
  };
}
