/**
 * Pod-template validation through the real API server (issue 20): the CloneSet validation webhook
 * registered in a ValidatingWebhookConfiguration for this test's namespace refuses what a pod of the
 * template could never be, naming the CloneSet's field, and OpenKruise's InPlaceOnly update rule; with
 * the webhook down and `failurePolicy: Ignore`, an invalid CloneSet is stored, and the controller
 * creates no pod from it and says why (condition and Event naming the field).
 */
import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { parseFeatureGates } from '@kruise-ts/app-config';
import type { CloneSet } from '@kruise-ts/api';
import { createLogger } from '@kruise-ts/controller-runtime';
import type { LogLevel } from '@kruise-ts/controller-runtime';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';
import { TestValidationWebhook } from '@kruise-ts/template-validation/testing';

import { CLONESET_VALIDATION_WEBHOOK, cloneSetResource, setupCloneSetWebhook } from '../../src/index.ts';
import {
  activePods,
  createCloneSet,
  installCloneSetCrd,
  settled,
  startController,
  testClient,
  waitForStatus,
  webCloneSet,
} from '../support/harness.ts';
import type { CloneSetManifest } from '../support/harness.ts';
import { apiRefusal } from '@kruise-ts/controller-runtime/testing';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const logger = createLogger({ level: (process.env['KRUISE_TS_TEST_LOG_LEVEL'] ?? 'silent') as LogLevel });
const controllerOptions = {
  featureGates: parseFeatureGates(''),
  workers: 1,
  expectationTimeoutMs: 60_000,
  scalingExcludePreparingDelete: false,
};

function withContainer(manifest: CloneSetManifest, container: Record<string, unknown>): CloneSetManifest {
  const template = manifest.spec.template;
  return {
    ...manifest,
    spec: {
      ...manifest.spec,
      template: {
        ...template,
        spec: { ...template.spec, containers: [{ name: 'main', image: 'nginx:1.25', ...container }] },
      },
    },
  };
}

describe('CloneSet validation webhook', () => {
  it('refuses invalid templates with the field path, enforces InPlaceOnly image-only updates, and allows valid changes', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'cs-validation');
    const namespace = ns.name;
    await using webhook = new TestValidationWebhook({
      client,
      namespace,
      id: namespace,
      webhooks: [CLONESET_VALIDATION_WEBHOOK],
      logger,
    });
    const controller = startController({
      kubeConfig,
      namespace,
      setup: (manager) => {
        setupCloneSetWebhook(manager, webhook.server, controllerOptions);
      },
    });
    try {
      await webhook.start(() =>
        client.create(
          cloneSetResource,
          {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'CloneSet',
            ...webCloneSet(0),
            metadata: { name: 'probe', namespace },
          } as CloneSet,
          { dryRun: true },
        ),
      );

      const capital = await apiRefusal(
        createCloneSet(client, namespace, withContainer(webCloneSet(1), { name: 'Main' })),
      );
      expect(capital?.code).toBe(422);
      expect(capital?.message).toContain('admission webhook "vcloneset.kruise-ts.io" denied the request');
      expect(capital?.message).toContain('spec.template.spec.containers[0].name: Invalid value: "Main"');

      const port = await apiRefusal(
        createCloneSet(client, namespace, withContainer(webCloneSet(1), { ports: [{ containerPort: 70_000 }] })),
      );
      expect(port?.message).toContain('spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000');
      // Nothing was stored.
      expect((await client.list(cloneSetResource, { namespace })).items).toEqual([]);

      // InPlaceOnly: an image change goes through, an env change is refused with OpenKruise's message.
      await createCloneSet(client, namespace, {
        ...webCloneSet(2),
        spec: { ...webCloneSet(2).spec, updateStrategy: { type: 'InPlaceOnly' } },
      });
      await waitForStatus(client, { namespace, name: 'web', description: 'two pods' }, settled);
      const env = await apiRefusal(
        client.patch(
          cloneSetResource,
          { namespace, name: 'web' },
          {
            type: 'json',
            body: [{ op: 'add', path: '/spec/template/spec/containers/0/env', value: [{ name: 'MODE', value: 'x' }] }],
          },
        ),
      );
      expect(env?.code).toBe(422);
      expect(env?.message).toContain(
        'spec.template.spec: Forbidden: only allowed to update images in spec for InPlaceOnly, but found add /containers/0/env',
      );
      const added = await apiRefusal(
        client.patch(
          cloneSetResource,
          { namespace, name: 'web' },
          {
            type: 'json',
            body: [
              {
                op: 'add',
                path: '/spec/template/spec/containers/-',
                value: { name: 'sidecar', image: 'busybox:1.36' },
              },
            ],
          },
        ),
      );
      expect(added?.code).toBe(422);
      expect(added?.message).toContain('only allowed to update images in spec for InPlaceOnly');
      await client.patch(
        cloneSetResource,
        { namespace, name: 'web' },
        {
          type: 'json',
          body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.27' }],
        },
      );
      // A change the dry run does not depend on is not sent to the API server again.
      const before = await webhook.answered();
      await client.patch(
        cloneSetResource,
        { namespace, name: 'web' },
        { type: 'merge', body: { spec: { replicas: 3 } } },
      );
      expect(await webhook.answered()).toBe(before + 1);
    } finally {
      await controller.stop();
    }
  });

  it('with the webhook down and failurePolicy Ignore, creates no pod from an invalid template and reports the field within one reconcile', async () => {
    await installCloneSetCrd(kubeConfig);
    await using ns = await createTestNamespace(kubeConfig, 'cs-validation-down');
    const namespace = ns.name;
    await using webhook = new TestValidationWebhook({
      client,
      namespace,
      id: namespace,
      webhooks: [CLONESET_VALIDATION_WEBHOOK],
      logger,
      failurePolicy: 'Ignore',
    });
    const controller = startController({
      kubeConfig,
      namespace,
      setup: (manager) => {
        setupCloneSetWebhook(manager, webhook.server, controllerOptions);
      },
    });
    try {
      await webhook.start(() =>
        client.create(
          cloneSetResource,
          {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'CloneSet',
            ...webCloneSet(0),
            metadata: { name: 'probe', namespace },
          } as CloneSet,
          { dryRun: true },
        ),
      );
      await webhook.stopServing();

      await createCloneSet(client, namespace, withContainer(webCloneSet(3), { name: 'Main' }));
      const reported = await waitForStatus(
        client,
        { namespace, name: 'web', description: 'the FailedScale condition' },
        (cs) =>
          cs.status?.conditions?.some(
            (condition) => condition.type === 'FailedScale' && condition.reason === 'InvalidTemplate',
          ) === true,
      );
      const message = reported.status?.conditions?.find((condition) => condition.type === 'FailedScale')?.message ?? '';
      expect(message).toContain('spec.template.spec.containers[0].name: Invalid value: "Main"');
      expect(reported.status?.observedGeneration).toBe(reported.metadata.generation);
      const event = await waitFor(
        async () => {
          const events = await kubeConfig
            .makeApiClient(CoreV1Api)
            .listNamespacedEvent({ namespace, fieldSelector: 'involvedObject.name=web' });
          return events.items.find((item) => item.reason === 'FailedCreate');
        },
        { description: 'the FailedCreate event' },
      );
      expect(event.type).toBe('Warning');
      expect(event.message).toContain('spec.template.spec.containers[0].name');
      expect(await activePods(client, namespace)).toEqual([]);

      // Fixed: the pods are created and the condition goes.
      await client.patch(
        cloneSetResource,
        { namespace, name: 'web' },
        { type: 'json', body: [{ op: 'replace', path: '/spec/template/spec/containers/0/name', value: 'main' }] },
      );
      const fixed = await waitForStatus(client, { namespace, name: 'web', description: 'three pods' }, settled);
      expect((fixed.status?.conditions ?? []).some((condition) => condition.type === 'FailedScale')).toBe(false);
    } finally {
      await controller.stop();
    }
  });
});
