/**
 * SidecarSet next to a workload controller in one process, on the real control plane: a CloneSet's
 * pods get the sidecar through the pod webhook; the CloneSet's own in-place update changes only its
 * container (the sidecar is neither removed nor restarted), and the sidecars never make its pods look
 * out of date; then the SidecarSet's upgrade changes only the sidecar, and the CloneSet stays updated
 * and ready.
 */
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import type { CloneSet, Pod } from '@kruise-ts/api';
import { cloneSetResource, setupCloneSetController } from '@kruise-ts/cloneset';
import { CaBundleInjector, createLogger, mutatingWebhookConfigurationResource, parseFeatureGates, SelfManagedCertificates, WebhookServer } from '@kruise-ts/controller-runtime';
import type { LogLevel, WebhookConfigurationLike } from '@kruise-ts/controller-runtime';
import { startTestManager, testClient } from '@kruise-ts/controller-runtime/testing';
import { applyCrdFiles, createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { POD_WEBHOOK_PATH, podWebhookConfiguration, setupSidecarSetController, setupSidecarSetWebhook, sidecarSetResource } from '@kruise-ts/sidecarset';
import { podResource } from '@kruise-ts/workload';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const logger = createLogger({ level: (process.env['KRUISE_TS_TEST_LOG_LEVEL'] ?? 'silent') as LogLevel });
const crd = (file: string): string => fileURLToPath(new URL(`../../../../crds/${file}`, import.meta.url));

const containerOf = (pod: Pod, name: string) => pod.spec?.containers.find((container) => container.name === name);
const statusOf = (pod: Pod, name: string) => pod.status?.containerStatuses?.find((status) => status.name === name);

/** The pod webhook for this namespace only; Fail here, so that no pod is created before the API server calls it. */
function webhookConfiguration(name: string, namespace: string, port: number): WebhookConfigurationLike {
  return podWebhookConfiguration({ name, clientConfig: { url: `https://127.0.0.1:${String(port)}${POD_WEBHOOK_PATH}` }, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } }, failurePolicy: 'Fail' });
}

async function webPods(namespace: string): Promise<Pod[]> {
  return (await client.list(podResource, { namespace, labelSelector: 'app=web' })).items.sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
}

function settledCloneSet(cloneSet: CloneSet): boolean {
  const status = cloneSet.status;
  return status?.observedGeneration === cloneSet.metadata.generation && status?.updatedReadyReplicas === 2 && status.readyReplicas === 2 && status.currentRevision === status.updateRevision;
}

describe('SidecarSet with a CloneSet in one process', () => {
  it("leaves the sidecar alone during the CloneSet's in-place update, and the CloneSet alone during the sidecar's", async () => {
    await applyCrdFiles(kubeConfig, [crd('apps.kruise.io_clonesets.yaml'), crd('apps.kruise.io_sidecarsets.yaml')]);
    await using ns = await createTestNamespace(kubeConfig, 'sidecar-cloneset');
    const namespace = ns.name;
    const certificates = new SelfManagedCertificates({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], logger });
    const server = new WebhookServer({ certificates, logger, host: '127.0.0.1', port: 0 });
    const manager = startTestManager({
      kubeConfig,
      namespace,
      setup: (created) => {
        setupCloneSetController(created, { featureGates: parseFeatureGates(''), workers: 2, expectationTimeoutMs: 60_000, scalingExcludePreparingDelete: false, stripPodManagedFields: true });
        setupSidecarSetController(created, { workers: 2, excludedNamespaces: [], namespace });
        setupSidecarSetWebhook(created, server);
        created.add(server);
      },
    });
    const configurationName = `kruise-ts-sidecar-cloneset-${namespace}`;
    const stopInjector = new AbortController();
    let injecting: Promise<void> | undefined;
    const setName = `logs-${namespace}`;
    try {
      await client.create(sidecarSetResource, {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'SidecarSet',
        metadata: { name: setName },
        spec: { namespace, selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'logger', image: 'busybox:1.36' }], updateStrategy: { maxUnavailable: '100%' } },
      } as never);
      await client.create(mutatingWebhookConfigurationResource, webhookConfiguration(configurationName, namespace, await server.listening()));
      injecting = new CaBundleInjector({ client, certificates, targets: [{ kind: 'MutatingWebhookConfiguration', name: configurationName }], logger }).start(stopInjector.signal);
      await waitFor(async () => ((await client.get(mutatingWebhookConfigurationResource, { name: configurationName })).webhooks?.[0]?.clientConfig?.caBundle === undefined ? undefined : true), { description: 'the CA bundle' });
      await waitFor(
        async () => {
          const probe = await client.create(podResource, { metadata: { generateName: 'probe-', namespace, labels: { probe: 'true' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } }).catch(() => undefined);
          return probe === undefined ? undefined : true;
        },
        { description: 'the webhook answering', intervalMs: 300 },
      );
      await client.create(cloneSetResource, {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'CloneSet',
        metadata: { name: 'web', namespace },
        spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } }, updateStrategy: { type: 'InPlaceIfPossible' } },
      } as never);
      await waitFor(async () => (settledCloneSet(await client.get(cloneSetResource, { namespace, name: 'web' })) ? true : undefined), { description: 'the CloneSet ready' });
      const before = await webPods(namespace);
      expect(before.map((pod) => pod.spec?.containers.map((container) => container.name))).toEqual([
        ['logger', 'app'],
        ['logger', 'app'],
      ]);

      await client.patch(cloneSetResource, { namespace, name: 'web' }, { type: 'merge', body: { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } } } } });
      await waitFor(
        async () => {
          const cloneSet = await client.get(cloneSetResource, { namespace, name: 'web' });
          return settledCloneSet(cloneSet) && cloneSet.status?.updateRevision !== undefined && (await webPods(namespace)).every((pod) => containerOf(pod, 'app')?.image === 'nginx:1.28') ? true : undefined;
        },
        { description: 'the CloneSet updated in place' },
      );
      const afterCloneSet = await webPods(namespace);
      expect(afterCloneSet.map((pod) => pod.metadata?.uid)).toEqual(before.map((pod) => pod.metadata?.uid));
      for (const pod of afterCloneSet) {
        expect([containerOf(pod, 'logger')?.image, statusOf(pod, 'logger')?.restartCount, statusOf(pod, 'app')?.restartCount]).toEqual(['busybox:1.36', 0, 1]);
      }

      await client.patch(sidecarSetResource, { name: setName }, { type: 'merge', body: { spec: { containers: [{ name: 'logger', image: 'busybox:1.37' }] } } });
      await waitFor(
        async () => {
          const set = await client.get(sidecarSetResource, { name: setName });
          return set.status?.updatedReadyPods === 2 && set.status.observedGeneration === set.metadata.generation ? true : undefined;
        },
        { description: 'the sidecars upgraded' },
      );
      const afterSidecar = await webPods(namespace);
      expect(afterSidecar.map((pod) => pod.metadata?.uid)).toEqual(before.map((pod) => pod.metadata?.uid));
      for (const pod of afterSidecar) {
        expect([containerOf(pod, 'logger')?.image, containerOf(pod, 'app')?.image, statusOf(pod, 'logger')?.restartCount, statusOf(pod, 'app')?.restartCount]).toEqual(['busybox:1.37', 'nginx:1.28', 1, 1]);
      }
      expect(settledCloneSet(await client.get(cloneSetResource, { namespace, name: 'web' }))).toBe(true);
    } finally {
      await manager.stop();
      stopInjector.abort();
      await injecting;
      await client.delete(mutatingWebhookConfigurationResource, { name: configurationName }).catch(() => undefined);
      await client.delete(sidecarSetResource, { name: setName }).catch(() => undefined);
    }
  });
});
