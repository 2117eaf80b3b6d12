/**
 * `helm template` of the apps' validation webhooks (pod-template validation at admission): for every
 * app, a ValidatingWebhookConfiguration `<fullname>-<app>-validation` for CREATE and UPDATE of its own
 * kind, served by the app's own webhook server behind `<fullname>-<app>-webhook`, with certificates of
 * its own (the app's, shared through `<fullname>-<app>-webhook-certs`, or cert-manager's), the shared
 * webhook flags of controller-runtime, and RBAC on its own objects only. webhook.validation.enabled
 * turns them off (and every webhook object of an app that has no other webhook). The SidecarSet app's
 * pod webhook is chart-render-sidecarset.test.ts's.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import type {
  V1ClusterRole,
  V1Container,
  V1Deployment,
  V1Role,
  V1RoleBinding,
  V1Service,
  V1ValidatingWebhook,
  V1ValidatingWebhookConfiguration,
} from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { managerFlagsSchema } from '@kruise-ts/app-config';
import { parseFlags } from '@kruise-ts/controller-runtime';
import { webhookFlagsShape } from '@kruise-ts/webhook';

import { CHART_DIRECTORY, readChartApps, REPOSITORY_ROOT, restrictedViolations } from '../../src/index.ts';
import { inventory, ofKind, renderChart, renderChartFailure, runHelm, valuesFile } from '../support/helm.ts';
import type { Manifest } from '../support/helm.ts';

/** Every app on. */
const ALL_APPS = 'SidecarSet=true,BroadcastJob=true';
const SCHEMA_FAILURE = "values don't meet the specifications of the schema(s)";
const CERT_DIR = '/etc/kruise-ts/webhook-certs';

interface AppCase {
  readonly app: string;
  readonly webhook: {
    readonly name: string;
    readonly path: string;
    readonly apiVersions: readonly string[];
    readonly resource: string;
    readonly scope: 'Namespaced' | 'Cluster';
  };
}

/**
 * The apps' validation webhooks, as the apps serve them (names and paths of issue 20). The kinds whose
 * CRD converts with a webhook are registered for both served versions (issue 39): a request in a version
 * the webhook is not registered for would need that conversion webhook, served by the same app, and
 * fail while the app is down whatever the failurePolicy.
 */
const APPS: readonly AppCase[] = [
  {
    app: 'advanced-statefulset',
    webhook: {
      name: 'vstatefulset.kruise-ts.io',
      path: '/validate-apps-kruise-io-statefulset',
      apiVersions: ['v1alpha1', 'v1beta1'],
      resource: 'statefulsets',
      scope: 'Namespaced',
    },
  },
  {
    app: 'broadcastjob',
    webhook: {
      name: 'vbroadcastjob.kruise-ts.io',
      path: '/validate-apps-kruise-io-broadcastjob',
      apiVersions: ['v1alpha1'],
      resource: 'broadcastjobs',
      scope: 'Namespaced',
    },
  },
  {
    app: 'cloneset',
    webhook: {
      name: 'vcloneset.kruise-ts.io',
      path: '/validate-apps-kruise-io-cloneset',
      apiVersions: ['v1alpha1'],
      resource: 'clonesets',
      scope: 'Namespaced',
    },
  },
  {
    app: 'sidecarset',
    webhook: {
      name: 'vsidecarset.kruise-ts.io',
      path: '/validate-apps-kruise-io-sidecarset',
      apiVersions: ['v1alpha1', 'v1beta1'],
      resource: 'sidecarsets',
      scope: 'Cluster',
    },
  },
];
const APP_NAMES = APPS.map(({ app }) => app);

/** The one object of `objects` called `name`. */
function named<T extends { metadata?: { name?: string } }>(objects: readonly T[], name: string): T {
  const found = objects.find((candidate) => candidate.metadata?.name === name);
  if (found === undefined) {
    throw new Error(`no ${name} among ${objects.map((candidate) => candidate.metadata?.name ?? '').join(', ')}`);
  }
  return found;
}

/** `fullname`: the release's base name (`kruise-ts` for release kruise-ts, `<release>-kruise-ts` otherwise). */
function deploymentOf(manifests: readonly Manifest[], app: string, fullname = 'kruise-ts'): V1Deployment {
  return named(ofKind<V1Deployment>(manifests, 'Deployment'), `${fullname}-${app}`);
}

function containerOf(manifests: readonly Manifest[], app: string, fullname = 'kruise-ts'): V1Container {
  const container = deploymentOf(manifests, app, fullname).spec?.template.spec?.containers[0];
  if (container === undefined) {
    throw new Error(`the ${app} Deployment has no container`);
  }
  return container;
}

function webhookFlags(container: V1Container): string[] {
  return (container.args ?? []).filter((arg) => arg.startsWith('--webhook-'));
}

function configurationOf(
  manifests: readonly Manifest[],
  app: string,
  fullname = 'kruise-ts',
): V1ValidatingWebhookConfiguration {
  return named(
    ofKind<V1ValidatingWebhookConfiguration>(manifests, 'ValidatingWebhookConfiguration'),
    `${fullname}-${app}-validation`,
  );
}

/** Every rule of the apps' ClusterRoles and Roles (not the aggregated user roles), with where it is granted. */
function appRules(manifests: readonly Manifest[]): {
  readonly where: string;
  readonly rule: { resources?: string[]; resourceNames?: string[]; verbs: string[]; apiGroups?: string[] };
}[] {
  const roles = [
    ...ofKind<V1ClusterRole>(manifests, 'ClusterRole')
      .filter((role) => !/-(view|edit)$/.test(role.metadata?.name ?? ''))
      .map((role) => ({ where: `cluster/${role.metadata?.name ?? ''}`, role })),
    ...ofKind<V1Role>(manifests, 'Role').map((role) => ({
      where: `${role.metadata?.namespace ?? ''}/${role.metadata?.name ?? ''}`,
      role,
    })),
  ];
  return roles.flatMap(({ where, role }) => (role.rules ?? []).map((rule) => ({ where, rule })));
}

/** The webhook objects of one app (its Service, configurations, certificates and their Role), by kind/name. */
function webhookObjectsOf(manifests: readonly Manifest[], app: string): string[] {
  return inventory(manifests).filter(
    (entry) =>
      entry.includes(`kruise-ts-${app}-webhook`) ||
      entry.includes(`kruise-ts-${app}-validation`) ||
      entry === `MutatingWebhookConfiguration/kruise-ts-${app}`,
  );
}

/** Every `.ts` file under `directory` except tests. */
async function sourceFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('helm template: the validation webhook of every app', () => {
  it('comes from files/apps.yaml (the test table above is the same data)', async () => {
    const apps = Object.values(await readChartApps());
    expect(apps.map((app) => app.name).sort()).toEqual(APP_NAMES);
    for (const { app, webhook } of APPS) {
      const entry = apps.find((candidate) => candidate.name === app)?.validationWebhook;
      expect(entry, app).toEqual({
        name: webhook.name,
        path: webhook.path,
        group: 'apps.kruise.io',
        versions: webhook.apiVersions,
        resource: webhook.resource,
        scope: webhook.scope,
      });
    }
  });

  it("uses the webhook names and paths the apps' sources declare, where they declare one", async () => {
    for (const { app, webhook } of APPS) {
      const sources = await Promise.all(
        (await sourceFiles(path.join(REPOSITORY_ROOT, 'apps', app, 'src'))).map((file) => readFile(file, 'utf8')),
      );
      const paths = new Set(
        sources.flatMap((source) => [...source.matchAll(/'(\/validate-[a-z0-9-]+)'/g)].map((match) => match[1])),
      );
      const names = new Set(
        sources.flatMap((source) => [...source.matchAll(/'(v[a-z0-9-]+\.kruise-ts\.io)'/g)].map((match) => match[1])),
      );
      expect(
        [...paths].filter((declared) => declared !== webhook.path),
        app,
      ).toEqual([]);
      expect(
        [...names].filter((declared) => declared !== webhook.name),
        app,
      ).toEqual([]);
    }
  });

  it.each(APPS)(
    'renders <fullname>-$app-validation: CREATE and UPDATE of $webhook.resource only, fail-open, 5 s, matchPolicy Equivalent, no caBundle',
    async ({ app, webhook }) => {
      const { manifests } = await renderChart({ featureGates: ALL_APPS });
      const configuration = configurationOf(manifests, app);
      expect(configuration.metadata?.annotations).toBeUndefined();
      expect(configuration.metadata?.labels?.['app.kubernetes.io/component']).toBe(app);
      const expected: V1ValidatingWebhook = {
        name: webhook.name,
        clientConfig: {
          service: { name: `kruise-ts-${app}-webhook`, namespace: 'kruise-system', path: webhook.path, port: 443 },
        },
        rules: [
          {
            operations: ['CREATE', 'UPDATE'],
            apiGroups: ['apps.kruise.io'],
            apiVersions: [...webhook.apiVersions],
            resources: [webhook.resource],
            scope: webhook.scope,
          },
        ],
        failurePolicy: 'Ignore',
        matchPolicy: 'Equivalent',
        timeoutSeconds: 5,
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      };
      expect(configuration.webhooks).toEqual([expected]);
    },
  );

  it('renders one configuration per enabled app and none for an app that is off', async () => {
    const kinds = (manifests: readonly Manifest[]): string[] =>
      inventory(manifests).filter((entry) => entry.startsWith('ValidatingWebhookConfiguration/'));
    expect(kinds((await renderChart({ featureGates: ALL_APPS })).manifests)).toEqual(
      APP_NAMES.map((app) => `ValidatingWebhookConfiguration/kruise-ts-${app}-validation`),
    );
    expect(kinds((await renderChart()).manifests)).toEqual([
      'ValidatingWebhookConfiguration/kruise-ts-advanced-statefulset-validation',
      'ValidatingWebhookConfiguration/kruise-ts-cloneset-validation',
    ]);
    expect(kinds((await renderChart({ featureGates: 'CloneSet=false,AdvancedStatefulSet=false' })).manifests)).toEqual(
      [],
    );
  });

  it.each(APPS)(
    'serves $app behind <fullname>-$app-webhook, port 443 to the container port `webhook` of every replica, Ready or not',
    async ({ app }) => {
      const { manifests } = await renderChart({ featureGates: ALL_APPS });
      const service = named(ofKind<V1Service>(manifests, 'Service'), `kruise-ts-${app}-webhook`);
      expect(service.metadata?.namespace).toBe('kruise-system');
      expect(service.spec?.type).toBe('ClusterIP');
      // A replica is Ready once its caches have synced, which for a kind served in two versions takes a
      // conversion through this very Service (issue 39): not-ready replicas must be reachable.
      expect(service.spec?.publishNotReadyAddresses).toBe(true);
      expect(service.spec?.ports).toEqual([{ name: 'webhook', port: 443, targetPort: 'webhook', protocol: 'TCP' }]);
      expect(service.spec?.selector).toEqual(deploymentOf(manifests, app).spec?.selector.matchLabels);
      expect(containerOf(manifests, app).ports).toContainEqual({
        name: 'webhook',
        containerPort: 9876,
        protocol: 'TCP',
      });
    },
  );

  it.each(APPS)(
    'gives the $app container the shared webhook flags: its Service, its certificates Secret, its configurations',
    async ({ app }) => {
      const { manifests } = await renderChart({ featureGates: ALL_APPS }, { namespace: 'controllers' });
      const container = containerOf(manifests, app);
      const flags = webhookFlags(container);
      expect(flags).toEqual([
        '--webhook-port=9876',
        `--webhook-service-name=kruise-ts-${app}-webhook`,
        '--webhook-service-namespace=controllers',
        `--webhook-certs-secret=kruise-ts-${app}-webhook-certs`,
        ...(app === 'sidecarset' ? ['--webhook-mutating-configurations=kruise-ts-sidecarset'] : []),
        `--webhook-validating-configurations=kruise-ts-${app}-validation`,
        // The apps whose CRD has a conversion webhook (issue 29) keep its caBundle.
        ...(app === 'sidecarset'
          ? ['--webhook-conversion-crds=sidecarsets.apps.kruise.io']
          : app === 'advanced-statefulset'
            ? ['--webhook-conversion-crds=statefulsets.apps.kruise.io']
            : []),
      ]);
      // After the common flags (the app's own --workers) and before extraArgs.
      const args = container.args ?? [];
      expect(args.indexOf('--workers=3')).toBeLessThan(args.indexOf('--webhook-port=9876'));
      const parsed = parseFlags(flags, managerFlagsSchema.extend(webhookFlagsShape));
      expect(parsed['webhook-validating-configurations']).toEqual([`kruise-ts-${app}-validation`]);
      expect(parsed['webhook-service-name']).toBe(`kruise-ts-${app}-webhook`);
    },
  );

  it.each(APPS)(
    'creates the empty Secret <fullname>-$app-webhook-certs that only the $app ServiceAccount may read and update, by name',
    async ({ app }) => {
      const { manifests } = await renderChart({ featureGates: ALL_APPS }, { namespace: 'controllers' });
      const secret = named(ofKind(manifests, 'Secret'), `kruise-ts-${app}-webhook-certs`);
      expect(secret.metadata.namespace).toBe('controllers');
      expect(secret['data']).toBeUndefined();
      const role = named(ofKind<V1Role>(manifests, 'Role'), `kruise-ts-${app}-webhook-certs`);
      expect(role.metadata?.namespace).toBe('controllers');
      expect(role.rules).toEqual([
        {
          apiGroups: [''],
          resources: ['secrets'],
          resourceNames: [`kruise-ts-${app}-webhook-certs`],
          verbs: ['get', 'update'],
        },
      ]);
      const binding = named(ofKind<V1RoleBinding>(manifests, 'RoleBinding'), `kruise-ts-${app}-webhook-certs`);
      expect(binding.roleRef).toEqual({
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'Role',
        name: `kruise-ts-${app}-webhook-certs`,
      });
      expect(binding.subjects).toEqual([
        { kind: 'ServiceAccount', name: `kruise-ts-${app}`, namespace: 'controllers' },
      ]);
    },
  );

  it('lets each app get and patch its own configuration only (its CA-bundle injector), and read and update its own Secret only', async () => {
    const { manifests } = await renderChart({ featureGates: ALL_APPS });
    const rules = appRules(manifests);
    expect(rules.filter(({ rule }) => rule.resources?.includes('validatingwebhookconfigurations') === true)).toEqual(
      APP_NAMES.map((app) => ({
        where: `cluster/kruise-ts-${app}`,
        rule: {
          apiGroups: ['admissionregistration.k8s.io'],
          resources: ['validatingwebhookconfigurations'],
          resourceNames: [`kruise-ts-${app}-validation`],
          verbs: ['get', 'patch'],
        },
      })),
    );
    expect(
      rules
        .filter(({ rule }) => rule.resources?.includes('secrets') === true)
        .map(({ where, rule }) => [where, rule.resourceNames]),
    ).toEqual(
      APP_NAMES.map((app) => [`kruise-system/kruise-ts-${app}-webhook-certs`, [`kruise-ts-${app}-webhook-certs`]]),
    );
    expect(
      rules
        .flatMap(({ rule }) => [
          ...rule.verbs,
          ...(rule.resources ?? []),
          ...(rule.apiGroups ?? []),
          ...(rule.resourceNames ?? []),
        ])
        .filter((word) => word.includes('*')),
    ).toEqual([]);
  });

  it('keeps the dry-run permissions of template validation: pods (and claims) create where the apps already had them, and the SidecarSet app pods create in the release namespace only', async () => {
    const { manifests } = await renderChart({ featureGates: ALL_APPS }, { namespace: 'controllers' });
    const creates = (resource: string): string[] =>
      appRules(manifests)
        .filter(({ rule }) => rule.resources?.includes(resource) === true && rule.verbs.includes('create'))
        .map(({ where }) => where);
    expect(creates('pods')).toEqual([
      'cluster/kruise-ts-advanced-statefulset',
      'cluster/kruise-ts-broadcastjob',
      'cluster/kruise-ts-cloneset',
      'controllers/kruise-ts-sidecarset-release-namespace',
    ]);
    expect(creates('persistentvolumeclaims')).toEqual([
      'cluster/kruise-ts-advanced-statefulset',
      'cluster/kruise-ts-cloneset',
    ]);
    const sidecarSetPods = appRules(manifests).filter(
      ({ where, rule }) =>
        where === 'controllers/kruise-ts-sidecarset-release-namespace' && rule.resources?.includes('pods') === true,
    );
    expect(sidecarSetPods.map(({ rule }) => rule)).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['create'] },
    ]);
  });

  it('takes failurePolicy and timeoutSeconds from the values for every configuration, the pod webhook included', async () => {
    const { manifests } = await renderChart({
      featureGates: ALL_APPS,
      webhook: { failurePolicy: 'Fail', timeoutSeconds: 2 },
    });
    const webhooks = [
      ...ofKind<V1ValidatingWebhookConfiguration>(manifests, 'ValidatingWebhookConfiguration'),
      ...ofKind<V1ValidatingWebhookConfiguration>(manifests, 'MutatingWebhookConfiguration'),
    ].flatMap((configuration) => configuration.webhooks ?? []);
    expect(webhooks).toHaveLength(5);
    expect(webhooks.map((webhook) => [webhook.failurePolicy, webhook.timeoutSeconds])).toEqual(
      webhooks.map(() => ['Fail', 2]),
    );
  });

  it('follows the release name and namespace, and a moved webhook port', async () => {
    const { manifests } = await renderChart(
      { featureGates: ALL_APPS, webhook: { port: 10250 } },
      { release: 'controllers', namespace: 'ops' },
    );
    for (const app of APP_NAMES) {
      const configuration = configurationOf(manifests, app, 'controllers-kruise-ts');
      expect(configuration.webhooks?.[0]?.clientConfig.service).toEqual(
        expect.objectContaining({ name: `controllers-kruise-ts-${app}-webhook`, namespace: 'ops', port: 443 }),
      );
      const container = containerOf(manifests, app, 'controllers-kruise-ts');
      expect(container.ports).toContainEqual({ name: 'webhook', containerPort: 10250, protocol: 'TCP' });
      expect(webhookFlags(container)).toEqual(
        expect.arrayContaining([
          '--webhook-port=10250',
          `--webhook-service-name=controllers-kruise-ts-${app}-webhook`,
          '--webhook-service-namespace=ops',
          `--webhook-certs-secret=controllers-kruise-ts-${app}-webhook-certs`,
          `--webhook-validating-configurations=controllers-kruise-ts-${app}-validation`,
        ]),
      );
    }
  });

  it('passes helm lint --strict with every app, with either certificate source and with validation off', async () => {
    for (const webhook of [
      {},
      { certManager: { enabled: true }, failurePolicy: 'Fail', timeoutSeconds: 3 },
      { validation: { enabled: false } },
    ]) {
      const result = await runHelm([
        'lint',
        '--strict',
        CHART_DIRECTORY,
        '-f',
        await valuesFile({ featureGates: ALL_APPS, webhook }),
      ]);
      expect(result.stdout + result.stderr, JSON.stringify(webhook)).toContain('1 chart(s) linted, 0 chart(s) failed');
      expect(result.code).toBe(0);
    }
  });

  it.each([
    [
      'a typo in webhook.validation',
      { validation: { enable: false } },
      "at '/webhook/validation': additional properties 'enable' not allowed",
    ],
    [
      'a string for webhook.validation.enabled',
      { validation: { enabled: 'no' } },
      "at '/webhook/validation/enabled': got string, want boolean",
    ],
  ])('refuses %s, naming the key', async (_name, webhook, message) => {
    const error = await renderChartFailure({ featureGates: ALL_APPS, webhook });
    expect(error).toContain(SCHEMA_FAILURE);
    expect(error).toContain(message);
  });
});

describe('helm template: the validation webhooks with cert-manager', () => {
  it.each(APPS)(
    'gives $app a self-signed Issuer and a Certificate for its Service, mounts the Secret, and lets cert-manager inject the CA',
    async ({ app }) => {
      const { manifests } = await renderChart(
        { featureGates: ALL_APPS, webhook: { certManager: { enabled: true } } },
        { namespace: 'controllers' },
      );
      const issuer = named(ofKind(manifests, 'Issuer'), `kruise-ts-${app}-webhook-selfsigned`);
      expect(issuer.metadata.namespace).toBe('controllers');
      expect(issuer['spec']).toEqual({ selfSigned: {} });
      const certificate = named(ofKind(manifests, 'Certificate'), `kruise-ts-${app}-webhook`);
      expect(certificate.metadata.namespace).toBe('controllers');
      expect(certificate['spec']).toEqual(
        expect.objectContaining({
          secretName: `kruise-ts-${app}-webhook-tls`,
          dnsNames: [
            `kruise-ts-${app}-webhook.controllers.svc`,
            `kruise-ts-${app}-webhook.controllers.svc.cluster.local`,
          ],
          issuerRef: { kind: 'Issuer', name: `kruise-ts-${app}-webhook-selfsigned` },
        }),
      );
      expect(configurationOf(manifests, app).metadata?.annotations).toEqual({
        'cert-manager.io/inject-ca-from': `controllers/kruise-ts-${app}-webhook`,
      });
      const pod = deploymentOf(manifests, app).spec?.template;
      expect(pod?.spec?.volumes).toContainEqual({
        name: 'webhook-certs',
        secret: { secretName: `kruise-ts-${app}-webhook-tls` },
      });
      expect(pod?.spec?.containers[0]?.volumeMounts).toContainEqual({
        name: 'webhook-certs',
        mountPath: CERT_DIR,
        readOnly: true,
      });
      expect(webhookFlags(containerOf(manifests, app))).toEqual([
        '--webhook-port=9876',
        `--webhook-cert-dir=${CERT_DIR}`,
      ]);
      expect(restrictedViolations(pod?.spec ?? { containers: [] }, pod?.metadata?.annotations ?? {})).toEqual([]);
    },
  );

  it('gives no app a certificates Secret, Secret access or webhook configuration access', async () => {
    const { manifests } = await renderChart({ featureGates: ALL_APPS, webhook: { certManager: { enabled: true } } });
    expect(
      inventory(manifests).filter((entry) => entry.startsWith('Secret/') || entry.endsWith('-webhook-certs')),
    ).toEqual([]);
    expect(
      appRules(manifests).filter(
        ({ rule }) =>
          rule.resources?.some((resource) => resource === 'secrets' || resource.endsWith('webhookconfigurations')) ===
          true,
      ),
    ).toEqual([]);
    expect(
      inventory(manifests).filter((entry) => entry.startsWith('Certificate/') || entry.startsWith('Issuer/')),
    ).toEqual([
      ...APP_NAMES.map((app) => `Certificate/kruise-ts-${app}-webhook`),
      ...APP_NAMES.map((app) => `Issuer/kruise-ts-${app}-webhook-selfsigned`),
    ]);
  });
});

describe('helm template: webhook.validation.enabled=false', () => {
  it('renders no ValidatingWebhookConfiguration, and no webhook object, port, flag or rule for the apps that have no other webhook', async () => {
    const { manifests } = await renderChart({ featureGates: ALL_APPS, webhook: { validation: { enabled: false } } });
    expect(inventory(manifests).filter((entry) => entry.startsWith('ValidatingWebhookConfiguration/'))).toEqual([]);
    // The Advanced StatefulSet app keeps its webhook server for its CRD's conversion webhook.
    expect(webhookFlags(containerOf(manifests, 'advanced-statefulset'))).toContain(
      '--webhook-conversion-crds=statefulsets.apps.kruise.io',
    );
    for (const app of ['broadcastjob', 'cloneset']) {
      expect(webhookObjectsOf(manifests, app), app).toEqual([]);
      const container = containerOf(manifests, app);
      expect(webhookFlags(container), app).toEqual([]);
      expect(
        container.ports?.map((port) => port.name),
        app,
      ).toEqual(['metrics', 'health']);
    }
    expect(
      appRules(manifests)
        .filter(
          ({ rule }) =>
            rule.resources?.some(
              (resource) => resource === 'secrets' || resource === 'validatingwebhookconfigurations',
            ) === true,
        )
        .map(({ where }) => where),
    ).toEqual([
      'kruise-system/kruise-ts-advanced-statefulset-webhook-certs',
      'kruise-system/kruise-ts-sidecarset-webhook-certs',
    ]);
  });

  it('keeps the SidecarSet pod webhook exactly as it is, without the validation configuration, its flag, its rule or the dry-run pods', async () => {
    const { manifests } = await renderChart({ featureGates: ALL_APPS, webhook: { validation: { enabled: false } } });
    expect(webhookObjectsOf(manifests, 'sidecarset')).toEqual([
      'MutatingWebhookConfiguration/kruise-ts-sidecarset',
      'Role/kruise-ts-sidecarset-webhook-certs',
      'RoleBinding/kruise-ts-sidecarset-webhook-certs',
      'Secret/kruise-ts-sidecarset-webhook-certs',
      'Service/kruise-ts-sidecarset-webhook',
    ]);
    expect(webhookFlags(containerOf(manifests, 'sidecarset'))).toEqual([
      '--webhook-port=9876',
      '--webhook-service-name=kruise-ts-sidecarset-webhook',
      '--webhook-service-namespace=kruise-system',
      '--webhook-certs-secret=kruise-ts-sidecarset-webhook-certs',
      '--webhook-mutating-configurations=kruise-ts-sidecarset',
      '--webhook-conversion-crds=sidecarsets.apps.kruise.io',
    ]);
    const sidecarSetRules = appRules(manifests).filter(({ where }) => where.includes('kruise-ts-sidecarset'));
    expect(
      sidecarSetRules.filter(({ rule }) => rule.resources?.includes('validatingwebhookconfigurations') === true),
    ).toEqual([]);
    expect(
      sidecarSetRules.filter(({ rule }) => rule.resources?.includes('pods') === true && rule.verbs.includes('create')),
    ).toEqual([]);
    // The same pod webhook as with validation on.
    const withValidation = await renderChart({ featureGates: ALL_APPS });
    const mutating = (rendered: readonly Manifest[]): unknown =>
      named(ofKind(rendered, 'MutatingWebhookConfiguration'), 'kruise-ts-sidecarset');
    expect(mutating(manifests)).toEqual(mutating(withValidation.manifests));
  });

  it('with cert-manager, renders an Issuer and a Certificate for the apps with another webhook (SidecarSet; Advanced StatefulSet for its conversion)', async () => {
    const { manifests } = await renderChart({
      featureGates: ALL_APPS,
      webhook: { validation: { enabled: false }, certManager: { enabled: true } },
    });
    expect(
      inventory(manifests).filter((entry) => entry.startsWith('Certificate/') || entry.startsWith('Issuer/')),
    ).toEqual([
      'Certificate/kruise-ts-advanced-statefulset-webhook',
      'Certificate/kruise-ts-sidecarset-webhook',
      'Issuer/kruise-ts-advanced-statefulset-webhook-selfsigned',
      'Issuer/kruise-ts-sidecarset-webhook-selfsigned',
    ]);
    expect(deploymentOf(manifests, 'cloneset').spec?.template.spec?.volumes?.map((volume) => volume.name)).toEqual([
      'tmp',
    ]);
  });
});
