/**
 * Helpers of the BroadcastJob API tests: the CRD file and a valid BroadcastJob to start from (the
 * merge patches and the rejection reader are the CloneSet helpers').
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { CustomObjectsApi } from '@kubernetes/client-node';
import { applyCrdFiles, testKubeConfig } from '@kruise-ts/local-cluster/testing';

import type { JsonObject } from './cloneset-api.ts';

/** The generated CRD file under test. */
export const BROADCASTJOB_CRD_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../crds/apps.kruise.io_broadcastjobs.yaml',
);

/** Coordinates of the resource for CustomObjectsApi calls. */
export const BROADCASTJOBS = { group: 'apps.kruise.io', version: 'v1alpha1', plural: 'broadcastjobs' } as const;

/** Installs the generated BroadcastJob CRD and waits until it is Established. */
export async function broadcastJobApi(): Promise<CustomObjectsApi> {
  const kubeConfig = testKubeConfig();
  await applyCrdFiles(kubeConfig, [BROADCASTJOB_CRD_FILE]);
  return kubeConfig.makeApiClient(CustomObjectsApi);
}

/** The sample of OpenKruise's BroadcastJob documentation (download an image on every node). */
export function validBroadcastJob(name: string): JsonObject {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'BroadcastJob',
    metadata: { name },
    spec: {
      template: {
        spec: { containers: [{ name: 'sleep', image: 'busybox', command: ['sleep', '3'] }], restartPolicy: 'Never' },
      },
      completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 30 },
    },
  };
}
