/**
 * `helm template` of the SidecarSet app (SidecarSet=true): its Deployment (2 replicas of its own, the
 * webhook port and flags), PodDisruptionBudget, webhook Service, MutatingWebhookConfiguration, where
 * its certificates come from (the app's own, shared through a Secret only the app can read, or
 * cert-manager's: render only, the test cluster has no cert-manager CRDs), its RBAC, and what the
 * values refuse. chart-install-sidecarset.test.ts runs the result on the local control plane.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import type {
  V1ClusterRole,
  V1Container,
  V1Deployment,
  V1MutatingWebhookConfiguration,
  V1PodDisruptionBudget,
  V1Role,
  V1RoleBinding,
  V1Service,
} from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { CHART_DIRECTORY, REPOSITORY_ROOT, restrictedViolations } from '../../src/index.ts';
import { inventory, ofKind, renderChart, renderChartFailure, runHelm, valuesFile } from '../support/helm.ts';
import type { Manifest } from '../support/helm.ts';

const ONLY_SIDECARSET = 'CloneSet=false,AdvancedStatefulSet=false,SidecarSet=true';
const ALL_APPS = 'SidecarSet=true';
const SCHEMA_FAILURE = "values don't meet the specifications of the schema(s)";

/** Every object of the SidecarSet app of release `kruise-ts`, with the app's own certificates. */
const SIDECARSET_OBJECTS = [
  'ClusterRole/kruise-ts-sidecarset',
  'ClusterRole/kruise-ts-sidecarset-edit',
  'ClusterRole/kruise-ts-sidecarset-view',
  'ClusterRoleBinding/kruise-ts-sidecarset',
  'CustomResourceDefinition/sidecarsets.apps.kruise.io',
  'Deployment/kruise-ts-sidecarset',
  'MutatingWebhookConfiguration/kruise-ts-sidecarset',
  'PodDisruptionBudget/kruise-ts-sidecarset',
  'Role/kruise-ts-sidecarset-leader-election',
  'Role/kruise-ts-sidecarset-release-namespace',
  'Role/kruise-ts-sidecarset-webhook-certs',
  'RoleBinding/kruise-ts-sidecarset-leader-election',
  'RoleBinding/kruise-ts-sidecarset-release-namespace',
  'RoleBinding/kruise-ts-sidecarset-webhook-certs',
  'Secret/kruise-ts-sidecarset-webhook-certs',
  'Service/kruise-ts-sidecarset-metrics',
  'Service/kruise-ts-sidecarset-webhook',
  'ServiceAccount/kruise-ts-sidecarset',
  'ValidatingWebhookConfiguration/kruise-ts-sidecarset-validation',
];

/** The app's cluster-wide rules, as derived from its code (templates/_rbac-sidecarset.tpl says why). */
const SIDECARSET_RULES = [
  { apiGroups: ['apps.kruise.io'], resources: ['sidecarsets'], verbs: ['list', 'watch', 'patch'] },
  { apiGroups: ['apps.kruise.io'], resources: ['sidecarsets/status'], verbs: ['patch'] },
  { apiGroups: ['apps.kruise.io'], resources: ['sidecarsets/finalizers'], verbs: ['update'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch', 'patch'] },
  { apiGroups: [''], resources: ['pods/status'], verbs: ['patch'] },
  { apiGroups: [''], resources: ['namespaces'], verbs: ['list', 'watch'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];
/** What the CA-bundle injector does (get, then a JSON patch), on the chart's configuration only. */
const CONFIGURATION_RULE = {
  apiGroups: ['admissionregistration.k8s.io'],
  resources: ['mutatingwebhookconfigurations'],
  resourceNames: ['kruise-ts-sidecarset'],
  verbs: ['get', 'patch'],
};
/** The same for its SidecarSet validation webhook's configuration. */
const VALIDATING_CONFIGURATION_RULE = {
  apiGroups: ['admissionregistration.k8s.io'],
  resources: ['validatingwebhookconfigurations'],
  resourceNames: ['kruise-ts-sidecarset-validation'],
  verbs: ['get', 'patch'],
};
/** The CA-bundle injector of its conversion webhook, on the SidecarSet CRD only. */
const CONVERSION_CRD_RULE = {
  apiGroups: ['apiextensions.k8s.io'],
  resources: ['customresourcedefinitions'],
  resourceNames: ['sidecarsets.apps.kruise.io'],
  verbs: ['get', 'patch'],
};

/** The flags the chart adds for the webhook, with the app's own certificates, in release namespace `kruise-system`. */
const SELF_MANAGED_WEBHOOK_FLAGS = [
  '--webhook-port=9876',
  '--sidecarset-excluded-namespaces=kube-system,kruise-system',
  '--webhook-service-name=kruise-ts-sidecarset-webhook',
  '--webhook-service-namespace=kruise-system',
  '--webhook-certs-secret=kruise-ts-sidecarset-webhook-certs',
  '--webhook-mutating-configurations=kruise-ts-sidecarset',
  '--webhook-validating-configurations=kruise-ts-sidecarset-validation',
  '--webhook-conversion-crds=sidecarsets.apps.kruise.io',
];

/** The one object of `objects` called `name`. */
function named<T extends { metadata?: { name?: string } }>(objects: readonly T[], name: string): T {
  const found = objects.find((candidate) => candidate.metadata?.name === name);
  if (found === undefined) {
    throw new Error(`no ${name} among ${objects.map((candidate) => candidate.metadata?.name ?? '').join(', ')}`);
  }
  return found;
}

function sidecarSetContainer(manifests: readonly Manifest[]): V1Container {
  const container = named(ofKind<V1Deployment>(manifests, 'Deployment'), 'kruise-ts-sidecarset').spec?.template.spec
    ?.containers[0];
  if (container === undefined) {
    throw new Error('the SidecarSet Deployment has no container');
  }
  return container;
}

function replicasOf(manifests: readonly Manifest[]): Record<string, number | undefined> {
  return Object.fromEntries(
    ofKind<V1Deployment>(manifests, 'Deployment').map((deployment) => [
      deployment.metadata?.name ?? '',
      deployment.spec?.replicas,
    ]),
  );
}

function configuration(manifests: readonly Manifest[]): V1MutatingWebhookConfiguration {
  return named(
    ofKind<V1MutatingWebhookConfiguration>(manifests, 'MutatingWebhookConfiguration'),
    'kruise-ts-sidecarset',
  );
}

/** Every rule of every ClusterRole and Role, with the kind and namespace it is granted in. */
function allRules(manifests: readonly Manifest[]): {
  readonly where: string;
  readonly rule: { resources?: string[]; resourceNames?: string[]; verbs: string[]; apiGroups?: string[] };
}[] {
  const roles = [
    ...ofKind<V1ClusterRole>(manifests, 'ClusterRole').map((role) => ({ where: 'cluster', role })),
    ...ofKind<V1Role>(manifests, 'Role').map((role) => ({
      where: `${role.metadata?.namespace ?? ''}/${role.metadata?.name ?? ''}`,
      role,
    })),
  ];
  return roles.flatMap(({ where, role }) => (role.rules ?? []).map((rule) => ({ where, rule })));
}

/** A constant of apps/sidecarset/src (chart-tests may not import an app): `export const NAME = '<value>'`. */
async function appConstant(file: string, name: string): Promise<string> {
  const source = await readFile(path.join(REPOSITORY_ROOT, 'apps', 'sidecarset', 'src', file), 'utf8');
  const value = new RegExp(`export const ${name} = '([^']+)'`).exec(source)?.[1];
  if (value === undefined) {
    throw new Error(`${name} not found in ${file}`);
  }
  return value;
}

describe('helm template: the SidecarSet app', () => {
  it('renders its Deployment, RBAC, certificates Secret, PodDisruptionBudget, webhook Service and configurations, and nothing of it while the gate is off', async () => {
    expect(inventory((await renderChart({ featureGates: ONLY_SIDECARSET })).manifests)).toEqual(SIDECARSET_OBJECTS);
    const defaults = inventory((await renderChart()).manifests);
    expect(
      defaults.filter((entry) => entry.includes('sidecarset') || entry.startsWith('MutatingWebhookConfiguration/')),
    ).toEqual([]);
  });

  it('passes helm lint --strict with the webhook on, with either certificate source', async () => {
    for (const values of [
      { featureGates: ALL_APPS },
      { featureGates: ALL_APPS, webhook: { certManager: { enabled: true }, failurePolicy: 'Fail', timeoutSeconds: 3 } },
    ]) {
      const result = await runHelm(['lint', '--strict', CHART_DIRECTORY, '-f', await valuesFile(values)]);
      expect(result.stdout + result.stderr, JSON.stringify(values)).toContain('1 chart(s) linted, 0 chart(s) failed');
    }
  });

  it('runs 2 replicas of its own by default while the other apps keep the global replicas, with a PodDisruptionBudget for it alone', async () => {
    const { manifests } = await renderChart({ featureGates: ALL_APPS });
    expect(replicasOf(manifests)).toEqual({
      'kruise-ts-advanced-statefulset': 1,
      'kruise-ts-cloneset': 1,
      'kruise-ts-sidecarset': 2,
    });
    const budgets = ofKind<V1PodDisruptionBudget>(manifests, 'PodDisruptionBudget');
    expect(budgets.map((budget) => budget.metadata?.name)).toEqual(['kruise-ts-sidecarset']);
    expect(budgets[0]?.spec?.maxUnavailable).toBe(1);
    expect(budgets[0]?.spec?.selector?.matchLabels).toEqual(
      named(ofKind<V1Deployment>(manifests, 'Deployment'), 'kruise-ts-sidecarset').spec?.selector.matchLabels,
    );

    expect(replicasOf((await renderChart({ featureGates: ALL_APPS, replicas: 4 })).manifests)).toEqual({
      'kruise-ts-advanced-statefulset': 4,
      'kruise-ts-cloneset': 4,
      'kruise-ts-sidecarset': 2,
    });
    const single = await renderChart({ featureGates: ALL_APPS, apps: { sidecarset: { replicas: 1 } } });
    expect(replicasOf(single.manifests)['kruise-ts-sidecarset']).toBe(1);
    expect(ofKind(single.manifests, 'PodDisruptionBudget')).toEqual([]);
  });

  it('gives the container the webhook port and flags, after the common ones and before extraArgs, and a readiness probe on /readyz', async () => {
    const { manifests } = await renderChart({
      featureGates: ONLY_SIDECARSET,
      apps: { sidecarset: { workers: 5, extraArgs: ['--sidecarset-workers=2'] } },
    });
    const container = sidecarSetContainer(manifests);
    expect(container.args).toEqual([
      'dist/sidecarset.mjs',
      `--feature-gates=${ONLY_SIDECARSET}`,
      '--leader-elect=true',
      '--leader-election-namespace=kruise-system',
      '--leader-election-id=kruise-ts-sidecarset',
      '--metrics-bind-address=:8080',
      '--health-probe-bind-address=:8000',
      '--log-level=info',
      '--log-format=json',
      '--kube-api-qps=30',
      '--kube-api-burst=50',
      '--graceful-shutdown-timeout=30s',
      '--workers=5',
      ...SELF_MANAGED_WEBHOOK_FLAGS,
      '--sidecarset-workers=2',
    ]);
    expect(container.ports).toEqual([
      { name: 'metrics', containerPort: 8080, protocol: 'TCP' },
      { name: 'health', containerPort: 8000, protocol: 'TCP' },
      { name: 'webhook', containerPort: 9876, protocol: 'TCP' },
    ]);
    // /readyz holds the webhook server's check and never the Lease: standby replicas serve the webhook.
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'health' });
    const moved = sidecarSetContainer(
      (await renderChart({ featureGates: ONLY_SIDECARSET, webhook: { port: 10250 } })).manifests,
    );
    expect(moved.args).toContain('--webhook-port=10250');
    expect(moved.ports).toContainEqual({ name: 'webhook', containerPort: 10250, protocol: 'TCP' });
  });

  it('exposes every replica, Ready or not, behind the Service <fullname>-sidecarset-webhook, port 443 to the container port `webhook`', async () => {
    const { manifests } = await renderChart({ featureGates: ONLY_SIDECARSET });
    const service = named(ofKind<V1Service>(manifests, 'Service'), 'kruise-ts-sidecarset-webhook');
    expect(service.spec?.type).toBe('ClusterIP');
    expect(service.spec?.publishNotReadyAddresses).toBe(true);
    expect(service.spec?.ports).toEqual([{ name: 'webhook', port: 443, targetPort: 'webhook', protocol: 'TCP' }]);
    expect(service.spec?.selector).toEqual(
      named(ofKind<V1Deployment>(manifests, 'Deployment'), 'kruise-ts-sidecarset').spec?.selector.matchLabels,
    );
    expect(sidecarSetContainer(manifests).ports?.find((port) => port.name === 'webhook')?.containerPort).toBe(9876);
  });

  it("renders the configuration the app's podWebhookConfiguration describes: pods CREATE, fail-open, 5 s, kube-system and the release namespace excluded, no caBundle", async () => {
    const { manifests } = await renderChart({ featureGates: ONLY_SIDECARSET });
    const rendered = configuration(manifests);
    expect(rendered.metadata?.annotations).toBeUndefined();
    expect(rendered.webhooks).toEqual([
      {
        name: await appConstant('webhook/webhook-configuration.ts', 'POD_WEBHOOK_NAME'),
        clientConfig: {
          service: {
            name: 'kruise-ts-sidecarset-webhook',
            namespace: 'kruise-system',
            path: await appConstant('webhook/setup-webhook.ts', 'POD_WEBHOOK_PATH'),
            port: 443,
          },
        },
        rules: [
          { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Namespaced' },
        ],
        namespaceSelector: {
          matchExpressions: [
            { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'kruise-system'] },
          ],
        },
        failurePolicy: 'Ignore',
        timeoutSeconds: 5,
        sideEffects: 'None',
        reinvocationPolicy: 'Never',
        admissionReviewVersions: ['v1'],
      },
    ]);
  });

  it('excludes the release namespace wherever the chart is installed, and tells the controller the same namespaces', async () => {
    for (const [namespace, excluded] of [
      ['controllers', ['kube-system', 'controllers']],
      ['kube-system', ['kube-system']],
    ] as const) {
      const { manifests } = await renderChart({ featureGates: ONLY_SIDECARSET }, { namespace });
      const webhook = configuration(manifests).webhooks?.[0];
      expect(webhook?.namespaceSelector?.matchExpressions).toEqual([
        { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: excluded },
      ]);
      expect(webhook?.clientConfig.service).toEqual(expect.objectContaining({ namespace }));
      expect(sidecarSetContainer(manifests).args).toContain(`--sidecarset-excluded-namespaces=${excluded.join(',')}`);
    }
  });

  it('takes failurePolicy and timeoutSeconds from the values', async () => {
    const webhook = configuration(
      (await renderChart({ featureGates: ONLY_SIDECARSET, webhook: { failurePolicy: 'Fail', timeoutSeconds: 3 } }))
        .manifests,
    ).webhooks?.[0];
    expect(webhook?.failurePolicy).toBe('Fail');
    expect(webhook?.timeoutSeconds).toBe(3);
  });

  it.each([
    [
      'a failurePolicy other than Ignore or Fail',
      { failurePolicy: 'ignore' },
      "at '/webhook/failurePolicy': value must be one of 'Ignore', 'Fail'",
    ],
    ['a timeout above 5 seconds', { timeoutSeconds: 6 }, "at '/webhook/timeoutSeconds': maximum: got 6, want 5"],
    ['a zero timeout', { timeoutSeconds: 0 }, "at '/webhook/timeoutSeconds': minimum: got 0, want 1"],
    ['a timeout as a string', { timeoutSeconds: '5' }, "at '/webhook/timeoutSeconds': got string, want integer"],
    [
      'an unknown webhook key',
      { certmanager: { enabled: true } },
      "at '/webhook': additional properties 'certmanager' not allowed",
    ],
    [
      'a string for certManager.enabled',
      { certManager: { enabled: 'yes' } },
      "at '/webhook/certManager/enabled': got string, want boolean",
    ],
  ])('refuses %s, naming the key', async (_name, webhook, message) => {
    const error = await renderChartFailure({ featureGates: ONLY_SIDECARSET, webhook });
    expect(error).toContain(SCHEMA_FAILURE);
    expect(error).toContain(message);
  });

  it('refuses a typo in apps.sidecarset and negative replicas', async () => {
    expect(await renderChartFailure({ apps: { sidecarset: { replica: 2 } } })).toContain(
      "at '/apps/sidecarset': additional properties 'replica' not allowed",
    );
    expect(await renderChartFailure({ apps: { sidecarset: { replicas: -1 } } })).toContain(
      "at '/apps/sidecarset/replicas': minimum: got -1, want 0",
    );
  });

  it('with PodWebhook=false deploys the SidecarSet app without its pod webhook (as OpenKruise): no MutatingWebhookConfiguration, no rule on one, the gate passed on', async () => {
    const { manifests } = await renderChart({ featureGates: 'SidecarSet=true,PodWebhook=false' });
    expect(inventory(manifests).filter((entry) => entry.startsWith('MutatingWebhookConfiguration/'))).toEqual([]);
    expect(JSON.stringify(ofKind(manifests, 'ClusterRole'))).not.toContain('mutatingwebhookconfigurations');
    expect(sidecarSetContainer(manifests).args).toContain('--feature-gates=SidecarSet=true,PodWebhook=false');
    // Its validation and conversion webhooks stay, behind the app's Service.
    expect(inventory(manifests)).toContain('ValidatingWebhookConfiguration/kruise-ts-sidecarset-validation');
    const alone = await renderChart({ featureGates: 'PodWebhook=false' });
    expect(inventory(alone.manifests).filter((entry) => entry.startsWith('MutatingWebhookConfiguration/'))).toEqual([]);
    expect(ofKind(alone.manifests, 'Deployment')).toHaveLength(2);
  });

  it('refuses a webhook port equal to the metrics or health port', async () => {
    expect(await renderChartFailure({ featureGates: ONLY_SIDECARSET, webhook: { port: 8080 } })).toContain(
      'webhook.port must differ from metrics.port and health.port (it is 8080)',
    );
    expect(await renderChartFailure({ featureGates: ONLY_SIDECARSET, webhook: { port: 8000 } })).toContain(
      'webhook.port must differ from metrics.port and health.port (it is 8000)',
    );
  });

  it.each([
    ['its own certificates', {}],
    ['cert-manager', { certManager: { enabled: true } }],
  ])('meets Pod Security "restricted" with %s', async (_name, webhook) => {
    const { manifests } = await renderChart({ featureGates: ONLY_SIDECARSET, webhook });
    const template = named(ofKind<V1Deployment>(manifests, 'Deployment'), 'kruise-ts-sidecarset').spec?.template;
    expect(restrictedViolations(template?.spec ?? { containers: [] }, template?.metadata?.annotations ?? {})).toEqual(
      [],
    );
  });
});

describe('helm template: the SidecarSet app RBAC', () => {
  it('grants exactly the cluster-wide rules its code needs, and its own webhook configuration only by name (get and patch: list and watch could not be limited to a name)', async () => {
    const { manifests } = await renderChart({ featureGates: ONLY_SIDECARSET });
    expect(named(ofKind<V1ClusterRole>(manifests, 'ClusterRole'), 'kruise-ts-sidecarset').rules).toEqual([
      ...SIDECARSET_RULES,
      CONFIGURATION_RULE,
      VALIDATING_CONFIGURATION_RULE,
      CONVERSION_CRD_RULE,
    ]);
    const configurationRules = allRules(manifests).filter(
      ({ rule }) => rule.resources?.some((resource) => resource.includes('webhookconfigurations')) === true,
    );
    expect(configurationRules.map(({ rule }) => rule)).toEqual([CONFIGURATION_RULE, VALIDATING_CONFIGURATION_RULE]);
    expect(
      allRules(manifests)
        .flatMap(({ rule }) => [...rule.verbs, ...(rule.resources ?? []), ...(rule.apiGroups ?? [])])
        .filter((word) => word.includes('*')),
    ).toEqual([]);
  });

  it('grants Secrets only in a Role of the release namespace, for its certificates Secret by name: get and update, no create, list or watch', async () => {
    const { manifests } = await renderChart({ featureGates: ONLY_SIDECARSET }, { namespace: 'controllers' });
    const secretRules = allRules(manifests).filter(
      ({ rule }) => rule.resources?.some((resource) => resource.startsWith('secrets')) === true,
    );
    expect(secretRules).toEqual([
      {
        where: 'controllers/kruise-ts-sidecarset-webhook-certs',
        rule: {
          apiGroups: [''],
          resources: ['secrets'],
          resourceNames: ['kruise-ts-sidecarset-webhook-certs'],
          verbs: ['get', 'update'],
        },
      },
    ]);
    const binding = named(ofKind<V1RoleBinding>(manifests, 'RoleBinding'), 'kruise-ts-sidecarset-webhook-certs');
    expect(binding.metadata?.namespace).toBe('controllers');
    expect(binding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'Role',
      name: 'kruise-ts-sidecarset-webhook-certs',
    });
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'kruise-ts-sidecarset', namespace: 'controllers' },
    ]);
    // The chart creates the Secret (empty), which is why the app needs no create.
    const secret = named(ofKind(manifests, 'Secret'), 'kruise-ts-sidecarset-webhook-certs');
    expect(secret.metadata.namespace).toBe('controllers');
    expect(secret['data']).toBeUndefined();
  });

  it('keeps its ControllerRevisions in the release namespace only: a Role there, no cluster-wide rule', async () => {
    const { manifests } = await renderChart({ featureGates: ONLY_SIDECARSET }, { namespace: 'controllers' });
    const revisionRules = allRules(manifests).filter(
      ({ rule }) => rule.resources?.includes('controllerrevisions') === true,
    );
    expect(revisionRules).toEqual([
      {
        where: 'controllers/kruise-ts-sidecarset-release-namespace',
        rule: {
          apiGroups: ['apps'],
          resources: ['controllerrevisions'],
          verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'],
        },
      },
    ]);
    const binding = named(ofKind<V1RoleBinding>(manifests, 'RoleBinding'), 'kruise-ts-sidecarset-release-namespace');
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'kruise-ts-sidecarset', namespace: 'controllers' },
    ]);
    // The revision namespace defaults to the leader-election namespace, which is the release namespace.
    expect(sidecarSetContainer(manifests).args).toContain('--leader-election-namespace=controllers');
  });

  it('may create pods only in the release namespace (the validation webhook dry-runs a SidecarSet there), and not without the validation webhook', async () => {
    const { manifests } = await renderChart({ featureGates: ONLY_SIDECARSET }, { namespace: 'controllers' });
    const podRules = allRules(manifests).filter(({ rule }) => rule.resources?.includes('pods') === true);
    expect(podRules).toEqual([
      { where: 'cluster', rule: { apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch', 'patch'] } },
      {
        where: 'controllers/kruise-ts-sidecarset-release-namespace',
        rule: { apiGroups: [''], resources: ['pods'], verbs: ['create'] },
      },
    ]);
    const withoutValidation = await renderChart(
      { featureGates: ONLY_SIDECARSET, webhook: { validation: { enabled: false } } },
      { namespace: 'controllers' },
    );
    expect(
      allRules(withoutValidation.manifests)
        .filter(({ rule }) => rule.resources?.includes('pods') === true)
        .map(({ where }) => where),
    ).toEqual(['cluster']);
    expect(
      named(ofKind<V1Role>(withoutValidation.manifests, 'Role'), 'kruise-ts-sidecarset-release-namespace').rules,
    ).toEqual([
      {
        apiGroups: ['apps'],
        resources: ['controllerrevisions'],
        verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'],
      },
    ]);
  });

  it('aggregates read access to SidecarSets into view and write access into edit/admin', async () => {
    const { manifests } = await renderChart({ featureGates: ONLY_SIDECARSET });
    expect(named(ofKind<V1ClusterRole>(manifests, 'ClusterRole'), 'kruise-ts-sidecarset-view').rules).toEqual([
      {
        apiGroups: ['apps.kruise.io'],
        resources: ['sidecarsets', 'sidecarsets/status'],
        verbs: ['get', 'list', 'watch'],
      },
    ]);
    expect(named(ofKind<V1ClusterRole>(manifests, 'ClusterRole'), 'kruise-ts-sidecarset-edit').rules).toEqual([
      {
        apiGroups: ['apps.kruise.io'],
        resources: ['sidecarsets'],
        verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'],
      },
    ]);
  });
});

describe('helm template: the SidecarSet webhook with cert-manager', () => {
  it('renders a self-signed Issuer and a Certificate for the Service names, mounts its Secret, and lets cert-manager inject the CA', async () => {
    const { manifests } = await renderChart(
      { featureGates: ONLY_SIDECARSET, webhook: { certManager: { enabled: true } } },
      { namespace: 'controllers' },
    );
    const issuer = named(ofKind(manifests, 'Issuer'), 'kruise-ts-sidecarset-webhook-selfsigned');
    expect(issuer.apiVersion).toBe('cert-manager.io/v1');
    expect(issuer.metadata.namespace).toBe('controllers');
    expect(issuer['spec']).toEqual({ selfSigned: {} });
    const certificate = named(ofKind(manifests, 'Certificate'), 'kruise-ts-sidecarset-webhook');
    expect(certificate.apiVersion).toBe('cert-manager.io/v1');
    expect(certificate.metadata.namespace).toBe('controllers');
    expect(certificate['spec']).toEqual(
      expect.objectContaining({
        secretName: 'kruise-ts-sidecarset-webhook-tls',
        dnsNames: [
          'kruise-ts-sidecarset-webhook.controllers.svc',
          'kruise-ts-sidecarset-webhook.controllers.svc.cluster.local',
        ],
        issuerRef: { kind: 'Issuer', name: 'kruise-ts-sidecarset-webhook-selfsigned' },
      }),
    );
    expect(configuration(manifests).metadata?.annotations).toEqual({
      'cert-manager.io/inject-ca-from': 'controllers/kruise-ts-sidecarset-webhook',
    });

    const pod = named(ofKind<V1Deployment>(manifests, 'Deployment'), 'kruise-ts-sidecarset').spec?.template.spec;
    expect(pod?.volumes).toContainEqual({
      name: 'webhook-certs',
      secret: { secretName: 'kruise-ts-sidecarset-webhook-tls' },
    });
    expect(pod?.containers[0]?.volumeMounts).toContainEqual({
      name: 'webhook-certs',
      mountPath: '/etc/kruise-ts/webhook-certs',
      readOnly: true,
    });
  });

  it('passes --webhook-cert-dir and not the configuration (no caBundle writes) or the Secret; the app then gets no Secret or configuration access at all', async () => {
    const { manifests } = await renderChart({
      featureGates: ONLY_SIDECARSET,
      webhook: { certManager: { enabled: true } },
    });
    const webhookFlags = (sidecarSetContainer(manifests).args ?? []).filter(
      (arg) => arg.startsWith('--webhook-') || arg.startsWith('--sidecarset-'),
    );
    expect(webhookFlags).toEqual([
      '--webhook-port=9876',
      '--sidecarset-excluded-namespaces=kube-system,kruise-system',
      '--webhook-cert-dir=/etc/kruise-ts/webhook-certs',
    ]);
    expect(named(ofKind<V1ClusterRole>(manifests, 'ClusterRole'), 'kruise-ts-sidecarset').rules).toEqual(
      SIDECARSET_RULES,
    );
    expect(
      allRules(manifests).filter(
        ({ rule }) =>
          rule.resources?.some(
            (resource) => resource.startsWith('secrets') || resource.includes('webhookconfigurations'),
          ) === true,
      ),
    ).toEqual([]);
    const objects = inventory(manifests);
    expect(objects).not.toContain('Secret/kruise-ts-sidecarset-webhook-certs');
    expect(objects).not.toContain('Role/kruise-ts-sidecarset-webhook-certs');
    expect(objects).toEqual(
      expect.arrayContaining([
        'Certificate/kruise-ts-sidecarset-webhook',
        'Issuer/kruise-ts-sidecarset-webhook-selfsigned',
        'MutatingWebhookConfiguration/kruise-ts-sidecarset',
        'ValidatingWebhookConfiguration/kruise-ts-sidecarset-validation',
      ]),
    );
  });

  it('renders no cert-manager object without the value', async () => {
    const objects = inventory((await renderChart({ featureGates: ONLY_SIDECARSET })).manifests);
    expect(objects.filter((entry) => entry.startsWith('Certificate/') || entry.startsWith('Issuer/'))).toEqual([]);
  });
});
