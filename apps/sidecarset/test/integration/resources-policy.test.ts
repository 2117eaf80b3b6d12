/**
 * resourcesPolicy through the real API server (OpenKruise 1.9): the pod webhook computes the sidecar's
 * resources from the app containers of each new pod (here the sum of two, halved for the limits), and a
 * pod none of whose containers the policy targets is refused with OpenKruise's reason.
 */
import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { ApiError, createLogger } from '@kruise-ts/controller-runtime';
import type { LogLevel } from '@kruise-ts/controller-runtime';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

import { TestPodWebhook } from '../../src/testing/index.ts';
import { createPod, createSidecarSet, installSidecarSetCrd } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const logger = createLogger({ level: (process.env['KRUISE_TS_TEST_LOG_LEVEL'] ?? 'silent') as LogLevel });

function appPod(containers: NonNullable<Pod['spec']>['containers']): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { generateName: 'rp-', labels: { app: 'web' } },
    spec: { containers, terminationGracePeriodSeconds: 0 },
  };
}

describe('SidecarSet resourcesPolicy', () => {
  it('gives the injected sidecar resources computed from the app containers, and refuses a pod without a target', async () => {
    await installSidecarSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'sidecarset-resources');
    const namespace = ns.name;
    const webhook = new TestPodWebhook({ client, namespace, logger });
    const manager = webhook.startManager(kubeConfig);
    try {
      await using set = await createSidecarSet(client, namespace, {
        updateStrategy: { type: 'NotUpdate' },
        containers: [
          {
            name: 'logger',
            image: 'busybox:1.36',
            resourcesPolicy: {
              targetContainersMode: 'sum',
              targetContainersNameRegex: '^app',
              resourcesExpr: {
                limits: { cpu: 'cpu*50%', memory: 'memory*50%' },
                requests: { cpu: 'max(cpu*10%, 50m)', memory: '64Mi' },
              },
            },
          },
        ],
      });
      await webhook.start();
      const containers = [
        {
          name: 'app',
          image: 'nginx:1.27',
          resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '200m', memory: '256Mi' } },
        },
        {
          name: 'app-worker',
          image: 'nginx:1.27',
          resources: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '300m' } },
        },
        { name: 'metrics', image: 'nginx:1.27', resources: { limits: { cpu: '4', memory: '4Gi' } } },
      ];
      // The SidecarSet may still be on its way into the webhook's cache.
      const injected = await waitFor(
        async () => {
          const pod = await createPod(client, namespace, appPod(containers));
          return pod.spec?.containers.some((container) => container.name === 'logger') === true ? pod : undefined;
        },
        { description: 'a pod injected through the webhook', intervalMs: 300, timeoutMs: 30_000 },
      );
      expect(injected.metadata?.annotations?.['kruise.io/sidecarset-injected-list']).toBe(set.metadata.name);
      const logger_ = injected.spec?.containers.find((container) => container.name === 'logger');
      expect(logger_?.resources).toEqual({
        limits: { cpu: '1500m', memory: '1Gi' },
        requests: { cpu: '50m', memory: '64Mi' },
      });
      expect(injected.spec?.containers.find((container) => container.name === 'app')?.resources?.limits).toEqual({
        cpu: '1',
        memory: '1Gi',
      });

      const refused = await createPod(client, namespace, appPod([{ name: 'db', image: 'postgres:17' }])).then(
        () => undefined,
        (error: unknown) => {
          if (error instanceof ApiError) {
            return error;
          }
          throw error;
        },
      );
      expect(refused?.message).toContain('no containers match the regex pattern "^app"');
    } finally {
      await webhook.stop();
      await manager.stop();
    }
  });
});
