/**
 * `migrate from-openkruise` on the real control plane, against what OpenKruise leaves when its manager
 * stops: a mutating and a validating webhook configuration (failurePolicy Fail on pod creation) that
 * call `kruise-webhook-service`, a Service without endpoints here (no manager pod answers), the manager
 * Deployment, and CRDs whose versions that Service converts. The test's namespace plays OpenKruise's
 * (`--openkruise-namespace`), and the webhooks cover that namespace alone, so that other test files'
 * pods are never refused. No OpenKruise schema is installed: the CRDs are minimal ones of a group of
 * the test's own, with the shape the command decides on.
 */
import { describe, expect, inject, it } from 'vitest';

import { defineResource, isNotFound } from '@kruise-ts/controller-runtime';
import type { KubeObject, ResourceType } from '@kruise-ts/controller-runtime';
import { testClient } from '@kruise-ts/controller-runtime/testing';
import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

import {
  customResourceDefinitionResource,
  managerDeploymentResource,
  mutatingWebhookConfigurationResource,
  validatingWebhookConfigurationResource,
} from '../../src/openkruise/openkruise-objects.ts';
import { kruiseTs } from '../support/run-cli.ts';
import { conversionCrd, managerDeployment, webhookConfiguration } from '../support/openkruise-objects.ts';

const kubeConfig = testKubeConfig();
const client = testClient(kubeConfig);
const kubeconfigPath = inject('kubeconfigPath');

const MUTATING = 'kruise-mutating-webhook-configuration';
const VALIDATING = 'kruise-validating-webhook-configuration';

/** The command's resources without their parsers, to create the manifests as they are. */
function writable(resource: ResourceType): ResourceType {
  const { group, version, plural, kind, namespaced } = resource;
  return defineResource<KubeObject>({ group, version, plural, kind, namespaced });
}
const mutatingConfigurations = writable(mutatingWebhookConfigurationResource);
const validatingConfigurations = writable(validatingWebhookConfigurationResource);
const crds = writable(customResourceDefinitionResource);
const deployments = writable(managerDeploymentResource);
const services = defineResource<KubeObject & { spec: object }>({
  group: '',
  version: 'v1',
  plural: 'services',
  kind: 'Service',
  namespaced: true,
});
const pods = defineResource<KubeObject & { spec: object }>({
  group: '',
  version: 'v1',
  plural: 'pods',
  kind: 'Pod',
  namespaced: true,
});

function createPod(namespace: string, name: string, options: { readonly dryRun?: boolean } = {}): Promise<KubeObject> {
  return client.create(
    pods,
    { metadata: { name, namespace }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } },
    options,
  );
}

/**
 * Whether the API server's admission refuses a pod create in the namespace, asked with a dry run (which
 * calls webhooks of sideEffects None): the API server learns of a configuration's creation or deletion
 * through its own informer, a moment after the write.
 */
async function podCreateRefused(namespace: string): Promise<boolean> {
  try {
    await createPod(namespace, 'probe', { dryRun: true });
    return false;
  } catch (error) {
    if (error instanceof Error && error.message.includes('failed calling webhook')) {
      return true;
    }
    throw error;
  }
}

async function deleteIfPresent(resource: ResourceType, name: string): Promise<void> {
  await client.delete(resource, { name }).catch((error: unknown) => {
    if (!isNotFound(error)) {
      throw error;
    }
  });
}

async function exists(resource: ResourceType, name: string): Promise<boolean> {
  try {
    await client.get(resource, { name });
    return true;
  } catch (error) {
    if (isNotFound(error)) {
      return false;
    }
    throw error;
  }
}

describe('kruise-ts migrate from-openkruise', () => {
  it(
    "stops OpenKruise's leftovers so that pods can be created again; --dry-run changes nothing",
    { timeout: 300_000 },
    async () => {
      await using ns = await createTestNamespace(kubeConfig, 'cli-from-openkruise');
      const namespace = ns.name;
      const service = `${namespace}/kruise-webhook-service`;
      const group = `${namespace}.test.kruise-ts.io`;
      const crdNames = [`samejobs.${group}`, `differentsets.${group}`];
      try {
        // The manager first: once the webhooks exist, no pod of this namespace can be created.
        await client.create(deployments, managerDeployment(namespace, 1));
        await waitFor(
          async () =>
            (await client.get(managerDeploymentResource, { namespace, name: 'kruise-controller-manager' })).status
              ?.replicas === 1,
          {
            description: 'the manager Deployment to have its pod',
            timeoutMs: 120_000,
          },
        );
        // Its Service selects no pod: what the API server finds once OpenKruise's manager is stopped.
        await client.create(services, {
          metadata: { name: 'kruise-webhook-service', namespace },
          spec: { ports: [{ port: 443, targetPort: 9876 }], selector: { app: 'no-such-pod' } },
        });
        await client.create(
          mutatingConfigurations,
          webhookConfiguration(MUTATING, [{ name: 'mpod.kb.io', service, namespaces: [namespace] }]),
        );
        await client.create(
          validatingConfigurations,
          webhookConfiguration(VALIDATING, [{ name: 'vpod.kb.io', service, namespaces: [namespace] }]),
        );
        await client.create(
          crds,
          conversionCrd({ group, plural: 'samejobs', kind: 'SameJob', service, sameSchemas: true }),
        );
        await client.create(
          crds,
          conversionCrd({ group, plural: 'differentsets', kind: 'DifferentSet', service, sameSchemas: false }),
        );

        await waitFor(() => podCreateRefused(namespace), {
          description: "the API server's admission to call the webhook configurations",
          timeoutMs: 30_000,
        });
        await expect(createPod(namespace, 'before')).rejects.toThrow(
          /failed calling webhook "mpod\.kb\.io".*kruise-webhook-service/,
        );

        const cli = (...args: string[]) =>
          kruiseTs([
            '--kubeconfig',
            kubeconfigPath,
            'migrate',
            'from-openkruise',
            '--openkruise-namespace',
            namespace,
            ...args,
          ]);
        const manager = await client.get(managerDeploymentResource, { namespace, name: 'kruise-controller-manager' });
        const dryRun = await cli('--dry-run');
        expect(dryRun, dryRun.stderr).toMatchObject({ code: 0, stderr: '' });
        expect(dryRun.stdout).toContain(
          [
            'changes, in this order:',
            `  1. delete mutatingwebhookconfiguration.admissionregistration.k8s.io/${MUTATING} (first, while OpenKruise's manager still answers it)`,
            `  2. delete validatingwebhookconfiguration.admissionregistration.k8s.io/${VALIDATING} (first, while OpenKruise's manager still answers it)`,
            '  3. scale deployment.apps/kruise-controller-manager from 1 to 0 replicas (kept for a rollback) and wait until its pods are gone',
            `  4. set the conversion of customresourcedefinition.apiextensions.k8s.io/samejobs.${group} to None (its versions have the same schema: nothing is lost)`,
            'left as they are:',
            `  customresourcedefinition.apiextensions.k8s.io/differentsets.${group}: its versions differ and OpenKruise's stopped Service converts them; kruise-ts does not serve this kind: its objects are not reconciled, and are readable only in the version they are stored in`,
          ].join('\n'),
        );
        expect(dryRun.stdout).toContain(
          `  mutatingwebhookconfiguration.admissionregistration.k8s.io/${MUTATING}: 1 webhook calling OpenKruise's Service, 1 refusing pod creation when it does not answer (failurePolicy Fail)\n`,
        );
        expect([
          await exists(mutatingConfigurations, MUTATING),
          await exists(validatingConfigurations, VALIDATING),
        ]).toEqual([true, true]);
        expect(
          (await client.get(managerDeploymentResource, { namespace, name: 'kruise-controller-manager' })).metadata
            .resourceVersion,
        ).toBe(manager.metadata.resourceVersion);
        await expect(createPod(namespace, 'still-refused')).rejects.toThrow(/failed calling webhook/);

        const run = await cli('--timeout', '2m');
        expect(run, `${run.stdout}${run.stderr}`).toMatchObject({ code: 0, stderr: '' });
        expect(run.stdout).toContain(
          [
            `mutatingwebhookconfiguration.admissionregistration.k8s.io/${MUTATING} deleted`,
            `validatingwebhookconfiguration.admissionregistration.k8s.io/${VALIDATING} deleted`,
            'deployment.apps/kruise-controller-manager scaled to 0 (from 1, recorded in its annotation kruise-ts.io/replicas-before-migration)',
            'deployment.apps/kruise-controller-manager: its pods are gone',
            `customresourcedefinition.apiextensions.k8s.io/samejobs.${group} conversion set to None`,
          ].join('\n'),
        );
        expect([
          await exists(mutatingConfigurations, MUTATING),
          await exists(validatingConfigurations, VALIDATING),
        ]).toEqual([false, false]);
        const stopped = await client.get(managerDeploymentResource, { namespace, name: 'kruise-controller-manager' });
        expect([
          stopped.spec.replicas,
          stopped.metadata.annotations?.['kruise-ts.io/replicas-before-migration'],
        ]).toEqual([0, '1']);
        expect(
          (await client.list(pods, { namespace, labelSelector: 'control-plane=controller-manager' })).items,
        ).toEqual([]);
        const conversions = await Promise.all(
          crdNames.map(
            async (name) => (await client.get(customResourceDefinitionResource, { name })).spec.conversion?.strategy,
          ),
        );
        expect(conversions).toEqual(['None', 'Webhook']);

        await waitFor(async () => !(await podCreateRefused(namespace)), {
          description: "the API server's admission to drop the deleted configurations",
          timeoutMs: 30_000,
        });
        await createPod(namespace, 'after');

        // Nothing left to change: a second run writes nothing.
        const again = await cli();
        expect(again.code).toBe(0);
        expect(again.stdout).not.toContain(' deleted\n');
        expect(
          (await client.get(managerDeploymentResource, { namespace, name: 'kruise-controller-manager' })).metadata
            .resourceVersion,
        ).toBe(stopped.metadata.resourceVersion);
      } finally {
        // Cluster-scoped: they outlive the namespace.
        await deleteIfPresent(mutatingConfigurations, MUTATING);
        await deleteIfPresent(validatingConfigurations, VALIDATING);
        await Promise.all(crdNames.map((name) => deleteIfPresent(crds, name)));
      }
    },
  );
});
