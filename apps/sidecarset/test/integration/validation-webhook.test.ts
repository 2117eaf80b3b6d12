/**
 * The SidecarSet validation webhook through the real API server (issue 20): its containers, init
 * containers and volumes are dry-run as a pod in the controllers' namespace, and what Kubernetes
 * refuses in a pod is refused at `kubectl apply` of the SidecarSet, naming the SidecarSet's field. A
 * sidecar mounting a volume of the pods it is injected into is valid. SidecarSets are cluster-scoped,
 * so the test's configuration selects only SidecarSets carrying its label.
 */
import { describe, expect, it } from 'vitest';

import type { SidecarSet } from '@kruise-ts/api';
import { createLogger, defineResource } from '@kruise-ts/controller-runtime';
import type { KubeObject, LogLevel } from '@kruise-ts/controller-runtime';
import { apiRefusal, startTestManager, testClient } from '@kruise-ts/controller-runtime/testing';
import { createTestNamespace, testKubeConfig } from '@kruise-ts/local-cluster/testing';
import { TestValidationWebhook } from '@kruise-ts/template-validation/testing';

import {
  setupSidecarSetValidationWebhook,
  SIDECARSET_VALIDATION_WEBHOOK,
  sidecarSetResource,
} from '../../src/index.ts';
import { installSidecarSetCrd } from '../support/harness.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const sidecarSetV1beta1Resource = defineResource<SidecarSet>({ ...sidecarSetResource, version: 'v1beta1' });
const configMaps = defineResource<KubeObject & { readonly data?: Record<string, string> }>({
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
});
const logger = createLogger({ level: (process.env['KRUISE_TS_TEST_LOG_LEVEL'] ?? 'silent') as LogLevel });

function sidecarSet(name: string, label: string, spec: Record<string, unknown>): SidecarSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name, labels: { 'kruise-ts.io/test': label } },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
  } as unknown as SidecarSet;
}

/**
 * Runs `body` with the validation webhook registered for the SidecarSets labelled with a new test
 * namespace's name (`label`), the controllers' namespace being that one, and answering already.
 */
async function withValidationWebhook(prefix: string, body: (label: string) => Promise<void>): Promise<void> {
  await installSidecarSetCrd(kubeConfig);
  await using ns = await createTestNamespace(kubeConfig, prefix);
  const label = ns.name;
  await using webhook = new TestValidationWebhook({
    client,
    id: ns.name,
    objectLabels: { 'kruise-ts.io/test': label },
    webhooks: [SIDECARSET_VALIDATION_WEBHOOK],
    logger,
  });
  const manager = startTestManager({
    kubeConfig,
    namespace: ns.name,
    setup: (m) => {
      setupSidecarSetValidationWebhook(m, webhook.server, { revisionNamespace: ns.name });
    },
  });
  try {
    await webhook.start(() =>
      client.create(
        sidecarSetResource,
        sidecarSet(`${label}-probe`, label, { containers: [{ name: 'probe', image: 'busybox:1.36' }] }),
        { dryRun: true },
      ),
    );
    await body(label);
  } finally {
    await manager.stop();
  }
}

describe('SidecarSet validation webhook', () => {
  it('refuses sidecars a pod could not have, naming the SidecarSet field, and accepts mounts of the pod volumes', async () => {
    await withValidationWebhook('sidecarset-validation', async (label) => {
      const capital = await apiRefusal(
        client.create(
          sidecarSetResource,
          sidecarSet(`${label}-a`, label, { containers: [{ name: 'Logger', image: 'busybox:1.36' }] }),
          { dryRun: true },
        ),
      );
      expect(capital?.code).toBe(422);
      expect(capital?.message).toContain('admission webhook "vsidecarset.kruise-ts.io" denied the request');
      expect(capital?.message).toContain('spec.containers[0].name: Invalid value: "Logger"');

      const volume = await apiRefusal(
        client.create(
          sidecarSetResource,
          sidecarSet(`${label}-b`, label, {
            containers: [{ name: 'logger', image: 'busybox:1.36' }],
            volumes: [{ name: 'Logs', emptyDir: {} }],
          }),
          { dryRun: true },
        ),
      );
      expect(volume?.message).toContain('spec.volumes[0].name: Invalid value: "Logs"');

      const initOnly = await apiRefusal(
        client.create(
          sidecarSetResource,
          sidecarSet(`${label}-c`, label, {
            initContainers: [{ name: 'init', image: 'busybox:1.36', imagePullPolicy: 'Sometimes' }],
          }),
          { dryRun: true },
        ),
      );
      expect(initOnly?.message).toContain('spec.initContainers[0].imagePullPolicy: Unsupported value: "Sometimes"');

      // Valid: a sidecar mounting the pods' own volume (not declared by the SidecarSet), and a native sidecar.
      const mounting = sidecarSet(`${label}-d`, label, {
        containers: [
          { name: 'logger', image: 'busybox:1.36', volumeMounts: [{ name: 'app-logs', mountPath: '/logs' }] },
        ],
        initContainers: [{ name: 'proxy', image: 'envoyproxy/envoy:v1.31', restartPolicy: 'Always' }],
        updateStrategy: { type: 'NotUpdate' },
      });
      expect(await apiRefusal(client.create(sidecarSetResource, mounting, { dryRun: true }))).toBeUndefined();
    });
  });

  // OpenKruise refuses patchPodMetadata keys outside the kruise-configuration whitelist (pkg/webhook/sidecarset/validating).
  it("refuses patchPodMetadata keys outside the kruise-configuration whitelist of the controllers' namespace", async () => {
    await withValidationWebhook('sidecarset-whitelist', async (label) => {
      const patching = (key: string): SidecarSet =>
        sidecarSet(`${label}-p`, label, {
          containers: [{ name: 'logger', image: 'busybox:1.36' }],
          patchPodMetadata: [{ annotations: { [key]: 'true' }, patchPolicy: 'Overwrite' }],
        });

      const noWhitelist = await apiRefusal(
        client.create(sidecarSetResource, patching('mesh.io/inject'), { dryRun: true }),
      );
      expect(noWhitelist?.code).toBe(422);
      expect(noWhitelist?.message).toContain(
        'spec.patchPodMetadata: Required value: SidecarSet patch metadata whitelist not found',
      );

      await client.create(configMaps, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'kruise-configuration', namespace: label },
        data: {
          SidecarSet_PatchPodMetadata_WhiteList: JSON.stringify({
            rules: [{ allowedAnnotationKeyExprs: ['^mesh\\.io/.*'] }],
          }),
        },
      });
      expect(
        await apiRefusal(client.create(sidecarSetResource, patching('mesh.io/inject'), { dryRun: true })),
      ).toBeUndefined();
      const outside = await apiRefusal(client.create(sidecarSetResource, patching('other.io/x'), { dryRun: true }));
      expect(outside?.message).toContain(
        'spec.patchPodMetadata: Required value: sidecarSet patch metadata annotation(other.io/x) is not allowed',
      );
    });
  });

  // Registered for both served versions (issue 39): a write in v1beta1, the stored version, is sent to
  // the handler as it is, without the conversion webhook, and judged as the same SidecarSet in v1alpha1.
  it('validates a SidecarSet written in v1beta1 as in v1alpha1', async () => {
    await withValidationWebhook('sidecarset-v1beta1', async (label) => {
      const inV1beta1 = (name: string, containerName: string): SidecarSet => ({
        ...sidecarSet(name, label, {
          customVersion: 'canary',
          containers: [{ name: containerName, image: 'busybox:1.36' }],
        }),
        apiVersion: 'apps.kruise.io/v1beta1',
      });
      const capital = await apiRefusal(
        client.create(sidecarSetV1beta1Resource, inV1beta1(`${label}-a`, 'Logger'), { dryRun: true }),
      );
      expect(capital?.code).toBe(422);
      expect(capital?.message).toContain('admission webhook "vsidecarset.kruise-ts.io" denied the request');
      expect(capital?.message).toContain('spec.containers[0].name: Invalid value: "Logger"');
      expect(
        await apiRefusal(client.create(sidecarSetV1beta1Resource, inV1beta1(`${label}-b`, 'logger'), { dryRun: true })),
      ).toBeUndefined();
    });
  });
});
