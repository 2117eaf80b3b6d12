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
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { podResource } from '@kruise-ts/workload';

import {
  MISSED_INJECTION,
  SIDECARSET_CONFLICT_CONDITION,
  sidecarSetHash,
  sidecarSetResource,
} from '../../src/index.ts';
import { TestPodWebhook } from '../../src/testing/index.ts';
import { createPod, createSidecarSet, installSidecarSetCrd, waitForSidecarSet, webPod } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const logger = createLogger({ level: (process.env['KRUISE_TS_TEST_LOG_LEVEL'] ?? 'silent') as LogLevel });

const deployments = defineResource<KubeObject & { spec: object }>({
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  kind: 'Deployment',
  namespaced: true,
});

function containerNames(pod: Pod): string[] {
  return (pod.spec?.containers ?? []).map((container) => container.name);
}

describe('SidecarSet pod webhook', () => {
  // Both ways the server can run the handler: on the admission thread (the apps' default) and on the main thread (--webhook-thread=false).
  it.each([true, false])(
    "injects the sidecars into a Deployment's and a plain pod through the API server, and fails open when stopped (admission thread: %s)",
    async (admissionThread) => {
      await installSidecarSetCrd(kubeConfig);
      await using ns = await createTestNamespace(
        kubeConfig,
        admissionThread ? 'sidecarset-webhook-thread' : 'sidecarset-webhook',
      );
      const namespace = ns.name;
      // Fail-open, as in production: the test stops the server and keeps the controller and the configuration.
      const webhook = new TestPodWebhook({ client, namespace, logger, failurePolicy: 'Ignore', admissionThread });
      const manager = webhook.startManager(kubeConfig);
      try {
        await using set = await createSidecarSet(client, namespace, {
          containers: [
            {
              name: 'logger',
              image: 'busybox:1.36',
              volumeMounts: [{ name: 'logs', mountPath: '/logs' }],
              transferEnv: [{ sourceContainerName: 'app', envName: 'REGION' }],
            },
          ],
          initContainers: [
            {
              name: 'prepare-logs',
              image: 'busybox:1.36',
              command: ['mkdir', '-p', '/logs/app'],
              volumeMounts: [{ name: 'logs', mountPath: '/logs' }],
            },
          ],
          volumes: [{ name: 'logs', emptyDir: {} }],
        });
        await webhook.start();
        // The API server calls the webhook now; the SidecarSet may still be on its way into the webhook's cache.
        const injected = await waitFor(
          async () => {
            const probe = webPod('');
            const app = {
              name: 'app',
              image: 'nginx:1.27',
              env: [
                { name: 'REGION', value: 'eu-west' },
                { name: 'OTHER', value: 'x' },
              ],
            };
            const pod = await createPod(client, namespace, {
              ...probe,
              metadata: { generateName: 'probe-', labels: { app: 'web' } },
              spec: { ...probe.spec, containers: [app] },
            });
            return containerNames(pod).includes('logger') ? pod : undefined;
          },
          { description: 'a pod injected through the webhook', intervalMs: 300, timeoutMs: 30_000 },
        );
        expect(containerNames(injected)).toEqual(['logger', 'app']);
        expect(injected.spec?.volumes?.map((volume) => volume.name)).toContain('logs');
        expect(
          injected.spec?.initContainers?.map((container) => [container.name, container.volumeMounts?.[0]?.mountPath]),
        ).toEqual([['prepare-logs', '/logs']]);
        expect(injected.spec?.containers[0]?.env).toEqual([
          { name: 'IS_INJECTED', value: 'true' },
          { name: 'REGION', value: 'eu-west' },
        ]);
        expect(injected.metadata?.annotations?.['kruise.io/sidecarset-injected-list']).toBe(set.metadata.name);

        const other = await createPod(client, namespace, {
          ...webPod('db'),
          metadata: { name: 'db', labels: { app: 'db' } },
        });
        expect(containerNames(other)).toEqual(['app']);

        await client.create(deployments, {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web', namespace },
          spec: {
            replicas: 2,
            selector: { matchLabels: { app: 'web', owner: 'deployment' } },
            template: {
              metadata: { labels: { app: 'web', owner: 'deployment' } },
              spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
            },
          },
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
        const reported = await waitForSidecarSet(
          client,
          { name: set.metadata.name ?? '', description: 'the pod created without its sidecars reported' },
          (current) =>
            (current.status?.conditions ?? []).some(
              (condition) =>
                condition.type === MISSED_INJECTION &&
                (condition.message ?? '').includes(`${namespace}/created-while-down`),
            ),
        );
        expect(reported.status?.matchedPods).toBeGreaterThanOrEqual(3);
      } finally {
        await webhook.stop();
        await manager.stop();
      }
    },
  );

  it('injects the revision pinned by injectionStrategy.revision into new pods', async () => {
    await installSidecarSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'sidecarset-pinned');
    const namespace = ns.name;
    const webhook = new TestPodWebhook({ client, namespace, logger });
    const manager = webhook.startManager(kubeConfig);
    try {
      // NotUpdate: the pinned pod stays as injected (with RollingUpdate the controller would then upgrade it).
      await using set = await createSidecarSet(client, namespace, {
        containers: [{ name: 'logger', image: 'busybox:1.35' }],
        updateStrategy: { type: 'NotUpdate' },
      });
      const name = set.metadata.name ?? '';
      const first = await waitForSidecarSet(
        client,
        { name, description: 'the first revision' },
        (current) => (current.status?.latestRevision ?? '') !== '',
      );
      const pinned = first.status?.latestRevision ?? '';
      await client.patch(
        sidecarSetResource,
        { name },
        { type: 'merge', body: { spec: { containers: [{ name: 'logger', image: 'busybox:1.36' }] } } },
      );
      await waitForSidecarSet(
        client,
        { name, description: 'the second revision' },
        (current) => (current.status?.latestRevision ?? pinned) !== pinned,
      );
      await webhook.start();
      const imageOfNewPod = async (): Promise<{ pod: Pod; image: string | undefined }> => {
        const pod = await createPod(client, namespace, {
          ...webPod(''),
          metadata: { generateName: 'probe-', labels: { app: 'web' } },
        });
        return { pod, image: pod.spec?.containers.find((container) => container.name === 'logger')?.image };
      };
      await waitFor(async () => ((await imageOfNewPod()).image === 'busybox:1.36' ? true : undefined), {
        description: 'the latest version injected',
        intervalMs: 300,
        timeoutMs: 30_000,
      });
      await client.patch(
        sidecarSetResource,
        { name },
        { type: 'merge', body: { spec: { injectionStrategy: { revision: { revisionName: pinned } } } } },
      );
      const fromPin = await waitFor(
        async () => {
          const created = await imageOfNewPod();
          return created.image === 'busybox:1.35' ? created.pod : undefined;
        },
        { description: 'the pinned version injected', intervalMs: 300, timeoutMs: 30_000 },
      );
      const record = JSON.parse(fromPin.metadata?.annotations?.['kruise.io/sidecarset-hash'] ?? '{}') as Record<
        string,
        { hash?: string; controllerRevision?: string }
      >;
      expect(record[name]?.controllerRevision).toBe(pinned);
      expect(record[name]?.hash).toBe(sidecarSetHash(first.spec));
    } finally {
      await webhook.stop();
      await manager.stop();
    }
  });

  it('injects the older of two conflicting SidecarSets and puts a Conflict condition on the newer one (no missed-injection report)', async () => {
    await installSidecarSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'sidecarset-conflict');
    const namespace = ns.name;
    const webhook = new TestPodWebhook({ client, namespace, logger });
    const manager = webhook.startManager(kubeConfig);
    try {
      await using older = await createSidecarSet(client, namespace, {
        containers: [{ name: 'logger', image: 'busybox:1.35' }],
      });
      // creationTimestamp has whole seconds: the second set must be visibly younger.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await using newer = await createSidecarSet(client, namespace, {
        containers: [
          { name: 'logger', image: 'busybox:1.36' },
          { name: 'agent', image: 'agent:1' },
        ],
      });
      const conflicted = await waitForSidecarSet(
        client,
        { name: newer.metadata.name ?? '', description: 'the Conflict condition' },
        (current) =>
          (current.status?.conditions ?? []).some((condition) => condition.type === SIDECARSET_CONFLICT_CONDITION),
      );
      const condition = conflicted.status?.conditions?.find(
        (candidate) => candidate.type === SIDECARSET_CONFLICT_CONDITION,
      );
      expect(condition?.message).toContain(
        `spec.containers[name=logger] conflicts with SidecarSet ${older.metadata.name ?? ''}`,
      );
      await webhook.start();
      const pod = await waitFor(
        async () => {
          const created = await createPod(client, namespace, {
            ...webPod(''),
            metadata: { generateName: 'probe-', labels: { app: 'web' } },
          });
          return containerNames(created).includes('logger') ? created : undefined;
        },
        { description: 'a pod injected through the webhook', intervalMs: 300, timeoutMs: 30_000 },
      );
      expect(containerNames(pod)).toEqual(['logger', 'app']);
      expect(pod.spec?.containers[0]?.image).toBe('busybox:1.35');
      expect(pod.metadata?.annotations?.['kruise.io/sidecarset-injected-list']).toBe(older.metadata.name);
      await client.patch(
        sidecarSetResource,
        { name: newer.metadata.name ?? '' },
        { type: 'merge', body: { metadata: { labels: { touched: 'yes' } } } },
      );
      const settled = await waitForSidecarSet(
        client,
        { name: newer.metadata.name ?? '', description: 'the newer set reconciled after the pods' },
        (current) =>
          current.metadata.labels?.['touched'] === 'yes' &&
          current.status?.observedGeneration === current.metadata.generation,
      );
      expect((settled.status?.conditions ?? []).map((candidate) => candidate.type)).not.toContain(MISSED_INJECTION);
    } finally {
      await webhook.stop();
      await manager.stop();
    }
  });
});
