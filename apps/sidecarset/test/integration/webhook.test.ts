/**
 * Injection through the real API server: the app's pod webhook served over HTTPS on 127.0.0.1 with
 * certificates it made itself, registered in a MutatingWebhookConfiguration (pods CREATE, this test's
 * namespace, failurePolicy Ignore, 5 s) whose caBundle the injector keeps. A Deployment's new pods and a
 * plain pod get the sidecar, its volume and the pod annotations; a pod outside the selector does not.
 * With the webhook server stopped, a pod is still created (Ignore), and the controller reports it.
 */
import { describe, expect, it } from 'vitest';

import type { Pod } from '@kruise-ts/api';
import { createLogger, defineResource } from '@kruise-ts/controller-runtime';
import type { KubeObject, LogLevel } from '@kruise-ts/controller-runtime';
import { startTestManager, testClient } from '@kruise-ts/controller-runtime/testing';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import { MISSED_INJECTION, setupSidecarSetController, setupSidecarSetWebhook } from '../../src/index.ts';
import { TestPodWebhook } from '../../src/testing/index.ts';
import { createPod, createSidecarSet, installSidecarSetCrd, waitForSidecarSet, webPod } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const logger = createLogger({ level: (process.env['KRUISE_TS_TEST_LOG_LEVEL'] ?? 'silent') as LogLevel });

const deployments = defineResource<KubeObject & { spec: object }>({ group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true });

function containerNames(pod: Pod): string[] {
  return (pod.spec?.containers ?? []).map((container) => container.name);
}

describe('SidecarSet pod webhook', () => {
  it("injects the sidecars into a Deployment's and a plain pod through the API server, and fails open when stopped", async () => {
    await installSidecarSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'sidecarset-webhook');
    const namespace = ns.name;
    // Fail-open, as in production: the test stops the server and keeps the controller and the configuration.
    const webhook = new TestPodWebhook({ client, namespace, logger, failurePolicy: 'Ignore' });
    const manager = startTestManager({
      kubeConfig,
      namespace,
      setup: (created) => {
        setupSidecarSetController(created, { workers: 2, excludedNamespaces: ['kube-system'], namespace });
        setupSidecarSetWebhook(created, webhook.server);
      },
    });
    try {
      await using set = await createSidecarSet(client, namespace, {
        containers: [{ name: 'logger', image: 'busybox:1.36', volumeMounts: [{ name: 'logs', mountPath: '/logs' }] }],
        volumes: [{ name: 'logs', emptyDir: {} }],
      });
      await webhook.start();
      // The API server calls the webhook now; the SidecarSet may still be on its way into the webhook's cache.
      const injected = await waitFor(
        async () => {
          const pod = await createPod(client, namespace, { ...webPod(''), metadata: { generateName: 'probe-', labels: { app: 'web' } } });
          return containerNames(pod).includes('logger') ? pod : undefined;
        },
        { description: 'a pod injected through the webhook', intervalMs: 300, timeoutMs: 30_000 },
      );
      expect(containerNames(injected)).toEqual(['logger', 'app']);
      expect(injected.spec?.volumes?.map((volume) => volume.name)).toContain('logs');
      expect(injected.metadata?.annotations?.['kruise.io/sidecarset-injected-list']).toBe(set.metadata.name);

      const other = await createPod(client, namespace, { ...webPod('db'), metadata: { name: 'db', labels: { app: 'db' } } });
      expect(containerNames(other)).toEqual(['app']);

      await client.create(deployments, {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace },
        spec: { replicas: 2, selector: { matchLabels: { app: 'web', owner: 'deployment' } }, template: { metadata: { labels: { app: 'web', owner: 'deployment' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } },
      });
      const fromDeployment = await waitFor(
        async () => {
          const pods = (await client.list(podResource, { namespace, labelSelector: 'owner=deployment' })).items;
          return pods.length === 2 ? pods : undefined;
        },
        { description: "the Deployment's two pods" },
      );
      expect(fromDeployment.map(containerNames)).toEqual([
        ['logger', 'app'],
        ['logger', 'app'],
      ]);

      await webhook.stopServing();
      const missed = await createPod(client, namespace, webPod('created-while-down'));
      expect(containerNames(missed)).toEqual(['app']);
      const reported = await waitForSidecarSet(client, { name: set.metadata.name ?? '', description: 'the pod created without its sidecars reported' }, (current) =>
        (current.status?.conditions ?? []).some((condition) => condition.type === MISSED_INJECTION && (condition.message ?? '').includes(`${namespace}/created-while-down`)),
      );
      expect(reported.status?.matchedPods).toBeGreaterThanOrEqual(3);
    } finally {
      await webhook.stop();
      await manager.stop();
    }
  });
});
