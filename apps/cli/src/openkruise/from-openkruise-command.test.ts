/**
 * Whole `migrate from-openkruise` command lines in-process over the in-memory API server: what is
 * refused (and that nothing is written then), what `--dry-run` prints, and the writes of a real run.
 * test/integration/migrate-from-openkruise.test.ts runs it on the real control plane.
 */
import { describe, expect, it } from 'vitest';

import { defineResource } from '@kruise-ts/controller-runtime';
import type { KubeObject } from '@kruise-ts/controller-runtime';

import { FakeCluster } from '../../test/support/fake-cluster.ts';
import { conversionCrd, managerDeployment, webhookConfiguration } from '../../test/support/openkruise-objects.ts';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../cli/exit-codes.ts';
import { podResource } from '../resources/resource-types.ts';
import {
  customResourceDefinitionResource,
  managerDeploymentResource,
  mutatingWebhookConfigurationResource,
  validatingWebhookConfigurationResource,
} from './openkruise-objects.ts';

const SERVICE = 'kruise-system/kruise-webhook-service';

/** The same storage as the command's resources, without their parsers: seeds take the manifests as they are. */
function raw(resource: {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly kind: string;
  readonly namespaced: boolean;
}): ReturnType<typeof defineResource<KubeObject>> {
  const { group, version, plural, kind, namespaced } = resource;
  return defineResource<KubeObject>({ group, version, plural, kind, namespaced });
}

/** OpenKruise 1.9 as its chart leaves it, with one manager replica and no pods (nothing runs them here). */
function openKruise(): FakeCluster {
  const cluster = new FakeCluster();
  cluster.api.seed(raw(mutatingWebhookConfigurationResource), [
    webhookConfiguration('kruise-mutating-webhook-configuration', [
      { name: 'mpod.kb.io', service: SERVICE },
      { name: 'mcloneset.kb.io', service: SERVICE, on: 'clonesets' },
    ]),
    webhookConfiguration('cert-manager-webhook', [
      { name: 'webhook.cert-manager.io', service: 'cert-manager/cert-manager-webhook' },
    ]),
  ]);
  cluster.api.seed(raw(validatingWebhookConfigurationResource), [
    webhookConfiguration('kruise-validating-webhook-configuration', [{ name: 'vpod.kb.io', service: SERVICE }]),
  ]);
  cluster.api.seed(raw(managerDeploymentResource), [managerDeployment('kruise-system', 1)]);
  cluster.api.seed(raw(customResourceDefinitionResource), [
    conversionCrd({
      group: 'apps.kruise.io',
      plural: 'broadcastjobs',
      kind: 'BroadcastJob',
      service: SERVICE,
      sameSchemas: true,
    }),
    conversionCrd({
      group: 'apps.kruise.io',
      plural: 'statefulsets',
      kind: 'StatefulSet',
      service: SERVICE,
      sameSchemas: false,
    }),
    conversionCrd({ group: 'apps.kruise.io', plural: 'clonesets', kind: 'CloneSet', sameSchemas: true }),
    conversionCrd({
      group: 'example.com',
      plural: 'widgets',
      kind: 'Widget',
      service: 'example/hooks',
      sameSchemas: true,
    }),
  ]);
  return cluster;
}

const FOUND = [
  "found, with OpenKruise's namespace kruise-system:",
  "  mutatingwebhookconfiguration.admissionregistration.k8s.io/kruise-mutating-webhook-configuration: 2 webhooks calling OpenKruise's Service, 1 refusing pod creation when it does not answer (failurePolicy Fail)",
  "  validatingwebhookconfiguration.admissionregistration.k8s.io/kruise-validating-webhook-configuration: 1 webhook calling OpenKruise's Service, 1 refusing pod creation when it does not answer (failurePolicy Fail)",
  '  deployment.apps/kruise-controller-manager: 1 replica, 0 pods',
  '  customresourcedefinition.apiextensions.k8s.io/broadcastjobs.apps.kruise.io: versions v1alpha1, v1beta1 (storage); stored (none); conversion Webhook kruise-system/kruise-webhook-service/convert',
  '  customresourcedefinition.apiextensions.k8s.io/clonesets.apps.kruise.io: versions v1alpha1, v1beta1 (storage); stored (none); conversion None',
  '  customresourcedefinition.apiextensions.k8s.io/statefulsets.apps.kruise.io: versions v1alpha1, v1beta1 (storage); stored (none); conversion Webhook kruise-system/kruise-webhook-service/convert',
];

const KEPT = [
  'left as they are:',
  "  customresourcedefinition.apiextensions.k8s.io/statefulsets.apps.kruise.io: its versions differ and OpenKruise's stopped Service converts them; replace it with kruise-ts's (kubectl apply --server-side --force-conflicts -f crds/, or the chart), whose own webhook converts",
  "next: install kruise-ts with the feature gates OpenKruise had; its CRDs replace OpenKruise's (kubectl apply --server-side --force-conflicts -f crds/, or helm install with --take-ownership): docs/migrating-from-openkruise.md",
];

describe('migrate from-openkruise refuses a wrong command line (exit 2) and connects to nothing', () => {
  it.each([
    [['migrate', 'from-openkruise', 'extra'], "error: too many arguments for 'from-openkruise'"],
    [
      ['migrate', 'from-openkruise', '--to', 'cloneset'],
      'error: migrate from-openkruise does not take --to\nhint: those are flags of migrate deployment/NAME --to cloneset',
    ],
    [
      ['migrate', 'from-openkruise', '--max-surge', '2', '--name', 'x'],
      'error: migrate from-openkruise does not take --name, --max-surge',
    ],
    [
      ['migrate', 'from-openkruise', '--openkruise-namespace', 'Kruise_System'],
      'error: invalid namespace "Kruise_System" for --openkruise-namespace',
    ],
    [['migrate', 'from-openkruise', '--timeout', 'soon'], 'it must be a duration such as 30s, 10m or 1h30m'],
    [
      ['migrate', 'from-openkruise', '--force'],
      "error: unknown option '--force'\nSee 'kruise-ts migrate from-openkruise --help' for usage.",
    ],
    // `--to` is no longer a required option of commander's (it would be required here too); migrate still asks for it.
    [
      ['migrate', 'deployment/web'],
      "error: required option '--to <kind>' not specified\nSee 'kruise-ts migrate --help' for usage.",
    ],
  ])('%j', async (argv, message) => {
    const cluster = openKruise();
    const run = await cluster.run(...argv);
    expect([run.code, run.stdout]).toEqual([EXIT_USAGE, '']);
    expect(run.stderr).toContain(message);
    expect(cluster.connections).toEqual([]);
  });

  it('has help', async () => {
    const run = await new FakeCluster().run('migrate', 'from-openkruise', '--help');
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toContain('Usage: kruise-ts migrate from-openkruise [options]');
    expect(run.stdout).toContain('--openkruise-namespace <namespace>');
    expect((await new FakeCluster().run('migrate', '--help')).stdout).toContain('from-openkruise [options]');
  });
});

describe('migrate from-openkruise --dry-run', () => {
  it('prints what it found and the changes in order, and writes nothing', async () => {
    const cluster = openKruise();
    const run = await cluster.run('migrate', 'from-openkruise', '--dry-run');
    expect(run).toEqual({
      code: EXIT_OK,
      stderr: '',
      stdout: [
        'dry run: nothing is written',
        ...FOUND,
        'changes, in this order:',
        "  1. delete mutatingwebhookconfiguration.admissionregistration.k8s.io/kruise-mutating-webhook-configuration (first, while OpenKruise's manager still answers it)",
        "  2. delete validatingwebhookconfiguration.admissionregistration.k8s.io/kruise-validating-webhook-configuration (first, while OpenKruise's manager still answers it)",
        '  3. scale deployment.apps/kruise-controller-manager from 1 to 0 replicas (kept for a rollback) and wait until its pods are gone',
        '  4. set the conversion of customresourcedefinition.apiextensions.k8s.io/broadcastjobs.apps.kruise.io to None (its versions have the same schema: nothing is lost)',
        ...KEPT,
        '',
      ].join('\n'),
    });
    expect(cluster.writes()).toBe(0);
    expect(cluster.connections).toEqual([{}]);
  });

  it('reads OpenKruise in the namespace it is told, whatever -n says', async () => {
    const cluster = new FakeCluster();
    cluster.api.seed(raw(managerDeploymentResource), [managerDeployment('openkruise', 2)]);
    const run = await cluster.run(
      '-n',
      'apps',
      'migrate',
      'from-openkruise',
      '--openkruise-namespace',
      'openkruise',
      '--dry-run',
    );
    expect(run.stdout).toContain(
      "found, with OpenKruise's namespace openkruise:\n  deployment.apps/kruise-controller-manager: 2 replicas, 0 pods\n",
    );
    expect(run.stdout).toContain('  1. scale deployment.apps/kruise-controller-manager from 2 to 0 replicas');
  });

  it('waits for the pods of a manager already at 0 replicas', async () => {
    const cluster = new FakeCluster();
    cluster.api.seed(raw(managerDeploymentResource), [managerDeployment('kruise-system', 0)]);
    cluster.api.seed(podResource, [
      {
        metadata: {
          name: 'kruise-controller-manager-abc',
          namespace: 'kruise-system',
          uid: '',
          labels: { 'control-plane': 'controller-manager' },
        },
      },
    ]);
    const run = await cluster.run('migrate', 'from-openkruise', '--dry-run');
    expect(run.stdout).toContain('  deployment.apps/kruise-controller-manager: 0 replicas, 1 pod\n');
    expect(run.stdout).toContain(
      '  1. wait until the pods of deployment.apps/kruise-controller-manager (already at 0 replicas) are gone\n',
    );
  });

  it('says when nothing of OpenKruise is left', async () => {
    const run = await new FakeCluster().run('migrate', 'from-openkruise', '--dry-run');
    expect(run).toEqual({
      code: EXIT_OK,
      stderr: '',
      stdout: 'dry run: nothing is written\nfound nothing of OpenKruise (namespace kruise-system)\nnothing to change\n',
    });
  });
});

describe('migrate from-openkruise', () => {
  it('deletes the webhook configurations, then scales the manager to 0, then sets conversion None where nothing is lost', async () => {
    const cluster = openKruise();
    const run = await cluster.run('migrate', 'from-openkruise');
    expect(run).toEqual({
      code: EXIT_OK,
      stderr: '',
      stdout: [
        ...FOUND,
        'mutatingwebhookconfiguration.admissionregistration.k8s.io/kruise-mutating-webhook-configuration deleted',
        'validatingwebhookconfiguration.admissionregistration.k8s.io/kruise-validating-webhook-configuration deleted',
        'deployment.apps/kruise-controller-manager scaled to 0 (from 1, recorded in its annotation kruise-ts.io/replicas-before-migration)',
        'deployment.apps/kruise-controller-manager: its pods are gone',
        'customresourcedefinition.apiextensions.k8s.io/broadcastjobs.apps.kruise.io conversion set to None',
        ...KEPT,
        "to go back to OpenKruise: stop kruise-ts, re-create OpenKruise's webhook configurations and CRDs (helm upgrade of its release), then kubectl scale deployment kruise-controller-manager -n kruise-system --replicas 1",
        '',
      ].join('\n'),
    });
    expect(cluster.api.writes().map((write) => `${write.verb} ${write.resource}/${write.name}`)).toEqual([
      'delete mutatingwebhookconfigurations/kruise-mutating-webhook-configuration',
      'delete validatingwebhookconfigurations/kruise-validating-webhook-configuration',
      'patch deployments/kruise-controller-manager',
      'patch customresourcedefinitions/broadcastjobs.apps.kruise.io',
    ]);
    expect(
      cluster.api.objects(raw(mutatingWebhookConfigurationResource)).map((object) => object.metadata?.name),
    ).toEqual(['cert-manager-webhook']);
    expect(cluster.api.objects(raw(validatingWebhookConfigurationResource))).toEqual([]);
    const [manager] = cluster.api.objects(managerDeploymentResource);
    expect([manager?.spec.replicas, manager?.metadata.annotations]).toEqual([
      0,
      { 'kruise-ts.io/replicas-before-migration': '1' },
    ]);
    const conversions = Object.fromEntries(
      cluster.api.objects(customResourceDefinitionResource).map((crd) => [crd.metadata.name, crd.spec.conversion]),
    );
    expect(conversions['broadcastjobs.apps.kruise.io']).toEqual({ strategy: 'None' });
    expect(conversions['statefulsets.apps.kruise.io']).toMatchObject({ strategy: 'Webhook' });
    expect(conversions['widgets.example.com']).toMatchObject({ strategy: 'Webhook' });

    // Run again: nothing left to change, and the rollback still names the replicas recorded.
    cluster.api.clearActions();
    const again = await cluster.run('migrate', 'from-openkruise');
    expect(again.code).toBe(EXIT_OK);
    expect(again.stdout).toContain('  deployment.apps/kruise-controller-manager: 0 replicas, 0 pods\n');
    expect(again.stdout).toContain('--replicas 1\n');
    expect(cluster.writes()).toBe(0);
  });

  it("refuses, writing nothing, when a configuration with OpenKruise's name calls another Service", async () => {
    const cluster = openKruise();
    cluster.api.seed(raw(validatingWebhookConfigurationResource), [
      webhookConfiguration('kruise-validating-webhook-configuration', [
        { name: 'vpod.kb.io', service: 'openkruise/kruise-webhook-service' },
      ]),
    ]);
    const run = await cluster.run('migrate', 'from-openkruise');
    expect([run.code, run.stdout]).toEqual([EXIT_FAILURE, '']);
    expect(run.stderr).toBe(
      "error: validatingwebhookconfigurations.admissionregistration.k8s.io \"kruise-validating-webhook-configuration\" has OpenKruise's name but its webhooks call openkruise/kruise-webhook-service/mutate-pod, not OpenKruise's Service: if OpenKruise runs in another namespace, pass --openkruise-namespace; if it is not OpenKruise's, this command will not touch it, so stop OpenKruise by hand (docs/migrating-from-openkruise.md)\n",
    );
    expect(cluster.writes()).toBe(0);
  });

  it("stops at the API server's Conflict when the manager changed since it was read", async () => {
    const cluster = openKruise();
    // Someone scales the manager between the command's read and its patch.
    cluster.api.prependReactor({ verb: 'delete', name: 'kruise-validating-webhook-configuration' }, () => {
      void cluster.api.patch(
        managerDeploymentResource,
        { namespace: 'kruise-system', name: 'kruise-controller-manager' },
        { type: 'merge', body: { spec: { replicas: 3 } } },
      );
      return undefined;
    });
    const run = await cluster.run('migrate', 'from-openkruise');
    expect(run.code).toBe(EXIT_FAILURE);
    expect(run.stderr).toMatch(/^Error from server \(Conflict\): .*kruise-controller-manager/);
    expect(cluster.api.objects(managerDeploymentResource)[0]?.spec.replicas).toBe(3);
  });
});
