/**
 * `helm lint` and `helm template` of charts/kruise-ts: which objects each feature-gate combination
 * renders, the RBAC of each app, the Deployment's flags, Pod Security restricted, and the CRDs (the
 * validation webhooks in detail: chart-render-validation-webhooks.test.ts). (In the integration
 * project because it runs the helm binary the local control plane's tools build.)
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import type {
  V1ClusterRole,
  V1Container,
  V1Deployment,
  V1PodDisruptionBudget,
  V1Role,
  V1Service,
} from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { dump as stringify, load as parse } from 'js-yaml';

import { managerFlagsSchema, parseFeatureGates, parseManagerFlags } from '@kruise-ts/app-config';
import { parseFlags } from '@kruise-ts/controller-runtime';
import { webhookFlagsShape } from '@kruise-ts/webhook';

import { CHART_DIRECTORY, readChartApps, restrictedViolations } from '../../src/index.ts';
import { inventory, ofKind, renderChart, renderChartFailure, runHelm, valuesFile } from '../support/helm.ts';
import type { Manifest } from '../support/helm.ts';

const CHART_CRD = path.join(CHART_DIRECTORY, 'files', 'crds', 'apps.kruise.io_clonesets.yaml');

/**
 * The objects of the CloneSet app of release `kruise-ts` (no standby replicas, default values): with
 * its validation webhook (chart-render-validation-webhooks.test.ts checks those objects in detail).
 */
const CLONESET_OBJECTS = [
  'ClusterRole/kruise-ts-cloneset',
  'ClusterRole/kruise-ts-cloneset-edit',
  'ClusterRole/kruise-ts-cloneset-view',
  'ClusterRoleBinding/kruise-ts-cloneset',
  'CustomResourceDefinition/clonesets.apps.kruise.io',
  'Deployment/kruise-ts-cloneset',
  'Role/kruise-ts-cloneset-leader-election',
  'Role/kruise-ts-cloneset-webhook-certs',
  'RoleBinding/kruise-ts-cloneset-leader-election',
  'RoleBinding/kruise-ts-cloneset-webhook-certs',
  'Secret/kruise-ts-cloneset-webhook-certs',
  'Service/kruise-ts-cloneset-metrics',
  'Service/kruise-ts-cloneset-webhook',
  'ServiceAccount/kruise-ts-cloneset',
  'ValidatingWebhookConfiguration/kruise-ts-cloneset-validation',
];

/** The CloneSet app's cluster-wide rules, as derived from its code (templates/_rbac-cloneset.tpl says why). */
const CLONESET_RULES = [
  { apiGroups: ['apps.kruise.io'], resources: ['clonesets'], verbs: ['get', 'list', 'watch', 'patch'] },
  { apiGroups: ['apps.kruise.io'], resources: ['clonesets/status'], verbs: ['patch'] },
  { apiGroups: ['apps.kruise.io'], resources: ['clonesets/finalizers'], verbs: ['update'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'] },
  { apiGroups: [''], resources: ['pods/status'], verbs: ['patch'] },
  { apiGroups: [''], resources: ['pods/finalizers'], verbs: ['update'] },
  { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['list', 'watch', 'create', 'patch', 'delete'] },
  {
    apiGroups: ['apps'],
    resources: ['controllerrevisions'],
    verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'],
  },
  { apiGroups: [''], resources: ['nodes'], verbs: ['list', 'watch'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];
const RESIZE_RULE = { apiGroups: [''], resources: ['pods/resize'], verbs: ['patch'] };
/** The CA-bundle injector of its validation webhook, on its own configuration only (not with cert-manager). */
const VALIDATING_CONFIGURATION_RULE = {
  apiGroups: ['admissionregistration.k8s.io'],
  resources: ['validatingwebhookconfigurations'],
  resourceNames: ['kruise-ts-cloneset-validation'],
  verbs: ['get', 'patch'],
};

/** The objects of the Advanced StatefulSet app (on by default next to CloneSet); its own test is chart-install-asts. */
const STATEFULSET_OBJECTS = [
  'ClusterRole/kruise-ts-advanced-statefulset',
  'ClusterRole/kruise-ts-advanced-statefulset-edit',
  'ClusterRole/kruise-ts-advanced-statefulset-view',
  'ClusterRoleBinding/kruise-ts-advanced-statefulset',
  'CustomResourceDefinition/statefulsets.apps.kruise.io',
  'Deployment/kruise-ts-advanced-statefulset',
  'Role/kruise-ts-advanced-statefulset-leader-election',
  'Role/kruise-ts-advanced-statefulset-webhook-certs',
  'RoleBinding/kruise-ts-advanced-statefulset-leader-election',
  'RoleBinding/kruise-ts-advanced-statefulset-webhook-certs',
  'Secret/kruise-ts-advanced-statefulset-webhook-certs',
  'Service/kruise-ts-advanced-statefulset-metrics',
  'Service/kruise-ts-advanced-statefulset-webhook',
  'ServiceAccount/kruise-ts-advanced-statefulset',
  'ValidatingWebhookConfiguration/kruise-ts-advanced-statefulset-validation',
];
const DEFAULT_OBJECTS = [...CLONESET_OBJECTS, ...STATEFULSET_OBJECTS].sort();
/** Every app gate off: the chart renders nothing. */
const NO_APP = 'CloneSet=false,AdvancedStatefulSet=false';

/** The chart's default memory settings, from docs/benchmarks.md ("Memory"). */
const MEASURED_RESOURCES = { requests: { cpu: '100m', memory: '192Mi' }, limits: { memory: '384Mi' } };
const MEASURED_NODE_FLAGS = ['--max-semi-space-size=2', '--heap-growing-percent=50', '--expose-gc'];

/** Values that set every key of the chart to something other than its default. */
const EVERY_VALUE = {
  featureGates: 'CloneSet=true, InPlaceWorkloadVerticalScaling=true, SidecarSet=true, BroadcastJob=true',
  image: {
    repository: 'registry.example/kruise-ts',
    tag: '0.1.0-rc.1',
    digest: '',
    pullPolicy: 'Always',
    pullSecrets: ['regcred'],
  },
  replicas: 3,
  resources: { requests: { cpu: '200m', memory: '256Mi' }, limits: { cpu: 1, memory: '1Gi' } },
  nodeFlags: ['--max-old-space-size=700'],
  mallocArenaMax: 4,
  logging: { level: 'debug', format: 'text' },
  kubeAPI: { qps: 7.5, burst: 15 },
  metrics: {
    port: 9090,
    serviceMonitor: { enabled: true, interval: '30s', scrapeTimeout: '10s', labels: { release: 'prometheus' } },
  },
  health: { port: 9091 },
  gracefulShutdownTimeoutSeconds: 60,
  securityContext: { runAsUser: 1000, runAsGroup: 2000 },
  serviceAccount: { annotations: { 'example.com/role': 'controller' } },
  rbac: { aggregateToDefaultRoles: false },
  nodeSelector: { 'kubernetes.io/os': 'linux' },
  tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'control', effect: 'NoSchedule' }],
  affinity: {
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        {
          weight: 1,
          podAffinityTerm: {
            topologyKey: 'kubernetes.io/hostname',
            labelSelector: { matchLabels: { 'app.kubernetes.io/component': 'cloneset' } },
          },
        },
      ],
    },
  },
  priorityClassName: 'kruise-ts-critical',
  podAnnotations: { 'example.com/scrape': 'true' },
  podLabels: { team: 'platform' },
  extraArgs: ['--leader-election-lease-duration=30s'],
  webhook: {
    port: 9443,
    failurePolicy: 'Fail',
    timeoutSeconds: 3,
    validation: { enabled: false },
    certManager: { enabled: true },
  },
  apps: {
    cloneset: { workers: 8, extraArgs: ['--cloneset-scaling-exclude-preparing-delete'] },
    'advanced-statefulset': { workers: 2, extraArgs: ['--statefulset-strip-pod-managed-fields=false'] },
    sidecarset: { replicas: 3, workers: 4, extraArgs: ['--sidecarset-workers=2'] },
    broadcastjob: { workers: 5, extraArgs: ['--assign-bcj-pods-by-scheduler=false'] },
  },
};

/** The CloneSet app's one object among `objects` of a kind (the tests here read that app; the others render the same templates). */
function cloneSetObject<T extends { metadata?: { name?: string } }>(objects: readonly T[]): T {
  const found = objects.filter((candidate) =>
    /kruise-ts-cloneset(-metrics|-leader-election)?$/.test(candidate.metadata?.name ?? ''),
  );
  const [only, ...others] = found;
  if (only === undefined || others.length > 0) {
    throw new Error(
      `expected exactly one object of the CloneSet app, got ${objects.map((object) => object.metadata?.name ?? '').join(', ')}`,
    );
  }
  return only;
}

/** A copy of the chart in a temporary directory whose files/apps.yaml marks the app of `gate` unavailable (as an app being built is). */
async function chartCopyWithUnavailable(gate: string): Promise<string> {
  const copy = path.join(await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-chart-copy-')), 'kruise-ts');
  await cp(CHART_DIRECTORY, copy, { recursive: true });
  const appsFile = path.join(copy, 'files', 'apps.yaml');
  const apps = parse(await readFile(appsFile, 'utf8')) as Record<string, Record<string, unknown>>;
  const app: Record<string, unknown> = { ...apps[gate], available: false };
  delete app['entrypoint'];
  await writeFile(appsFile, stringify({ ...apps, [gate]: app }));
  return copy;
}

function deploymentOf(manifests: readonly Manifest[]): V1Deployment {
  return cloneSetObject(ofKind<V1Deployment>(manifests, 'Deployment'));
}

function containerOf(deployment: V1Deployment): V1Container {
  const container = deployment.spec?.template.spec?.containers[0];
  if (container === undefined) {
    throw new Error('the Deployment has no container');
  }
  return container;
}

function clusterRole(manifests: readonly Manifest[], name: string): V1ClusterRole {
  const role = ofKind<V1ClusterRole>(manifests, 'ClusterRole').find((candidate) => candidate.metadata?.name === name);
  if (role === undefined) {
    throw new Error(`no ClusterRole ${name} in ${inventory(manifests).join(', ')}`);
  }
  return role;
}

describe('helm lint', () => {
  it.each([
    ['the default values', {}],
    ['every value set', EVERY_VALUE],
    ['no app enabled', { featureGates: NO_APP }],
  ])('passes --strict with %s', async (_name, values) => {
    const result = await runHelm(['lint', '--strict', CHART_DIRECTORY, '-f', await valuesFile(values)]);
    expect(result.stdout + result.stderr).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(result.code).toBe(0);
  });
});

describe('helm template: apps by feature gate', () => {
  it('renders the CloneSet and Advanced StatefulSet apps by default: for each its CRD, ServiceAccount, RBAC, metrics Service, Deployment and validation webhook, nothing else', async () => {
    const { manifests } = await renderChart();
    expect(inventory(manifests)).toEqual(DEFAULT_OBJECTS);
    expect(inventory((await renderChart({ featureGates: 'AdvancedStatefulSet=false' })).manifests)).toEqual(
      CLONESET_OBJECTS,
    );
    expect(
      manifests
        .filter((manifest) => manifest.metadata.namespace !== undefined)
        .every((manifest) => manifest.metadata.namespace === 'kruise-system'),
    ).toBe(true);
  });

  it('renders no object at all with every app gate off', async () => {
    const { manifests } = await renderChart({ featureGates: NO_APP });
    expect(manifests).toEqual([]);
  });

  it('refuses the gate of an app that files/apps.yaml marks unavailable, naming it (every app is available now: checked on a copy of the chart)', async () => {
    const apps = await readChartApps();
    expect(Object.entries(apps).filter(([, app]) => !app.available)).toEqual([]);
    const copy = await chartCopyWithUnavailable('BroadcastJob');
    const result = await runHelm([
      'template',
      'kruise-ts',
      copy,
      '--namespace',
      'kruise-system',
      '--set',
      'featureGates=BroadcastJob=true',
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      'featureGates: BroadcastJob=true enables the BroadcastJob app, which kruise-ts 0.1.0 does not have yet',
    );
    expect((await runHelm(['template', 'kruise-ts', copy, '--namespace', 'kruise-system'])).code).toBe(0);
  });

  it('deploys the apps the runtime would run, and refuses what --feature-gates refuses, naming the gate', async () => {
    const cases: readonly { readonly gates: string; readonly problem?: string }[] = [
      { gates: '' },
      { gates: ' CloneSet = true ,, ' },
      { gates: 'CloneSet=false,CloneSet=true' },
      { gates: 'CloneSet=true,CloneSet=false' },
      { gates: 'AdvancedStatefulSet=false,SidecarSet=false,BroadcastJob=false' },
      { gates: 'BroadcastJob=true' },
      { gates: 'CloneSet=false,AdvancedStatefulSet=false,BroadcastJob=true,SidecarSet=true' },
      { gates: 'AdvancedStatefulSet=true' },
      { gates: 'SidecarSet=true' },
      { gates: 'CloneSet=false,SidecarSet=true,AdvancedStatefulSet=false' },
      { gates: 'PreDownloadImageForInPlaceUpdate=true,ImagePullJobGate=true' },
      { gates: 'KruiseDaemon=false,PreDownloadImageForInPlaceUpdate=false' },
      { gates: 'CloneSetShortHash=true' },
      { gates: 'Cloneset=true', problem: 'unknown feature gate "Cloneset"' },
      {
        gates: 'PodWebhook=false,WorkloadSpread=true',
        problem: 'feature gate "WorkloadSpread" is set to true, but "PodWebhook=false" forces it to false',
      },
      {
        gates: 'KruiseDaemon=false,ImagePullJobGate=true',
        problem: 'feature gate "ImagePullJobGate" is set to true, but "KruiseDaemon=false" forces it to false',
      },
      {
        gates: 'PreDownloadImageForInPlaceUpdate=true,ImagePullJobGate=false',
        problem:
          'feature gate "ImagePullJobGate" is set to false, but "PreDownloadImageForInPlaceUpdate=true" forces it to true',
      },
    ];
    for (const { gates, problem } of cases) {
      let runtimeApps: string[] | Error;
      try {
        const parsed = parseFeatureGates(gates);
        runtimeApps = [
          ...(parsed.enabled('AdvancedStatefulSet') ? ['kruise-ts-advanced-statefulset'] : []),
          ...(parsed.enabled('BroadcastJob') ? ['kruise-ts-broadcastjob'] : []),
          ...(parsed.enabled('CloneSet') ? ['kruise-ts-cloneset'] : []),
          ...(parsed.enabled('SidecarSet') ? ['kruise-ts-sidecarset'] : []),
        ];
      } catch (error) {
        runtimeApps = error as Error;
      }
      if (problem === undefined) {
        const { manifests } = await renderChart({ featureGates: gates });
        expect(
          ofKind<V1Deployment>(manifests, 'Deployment').map((deployment) => deployment.metadata?.name),
          gates,
        ).toEqual(runtimeApps);
      } else {
        expect(runtimeApps, gates).toBeInstanceOf(Error);
        expect(await renderChartFailure({ featureGates: gates }), gates).toContain(problem);
      }
    }
  });

  it('passes the gate string unchanged to the app, and no --feature-gates flag when it is empty', async () => {
    const withGates = deploymentOf(
      (await renderChart({ featureGates: 'InPlaceWorkloadVerticalScaling=true, CloneSet=true' })).manifests,
    );
    expect(containerOf(withGates).args).toContain('--feature-gates=InPlaceWorkloadVerticalScaling=true, CloneSet=true');
    const without = deploymentOf((await renderChart()).manifests);
    expect(containerOf(without).args?.some((arg) => arg.startsWith('--feature-gates'))).toBe(false);
  });

  it('refuses a cluster older than Kubernetes 1.30', async () => {
    expect(await renderChartFailure({}, { kubeVersion: 'v1.29.9' })).toContain(
      'chart requires kubeVersion: >=1.30.0-0 which is incompatible with Kubernetes v1.29.9',
    );
  });
});

describe('helm template: RBAC', () => {
  it('gives the CloneSet app exactly the rules its code needs, cluster-wide: no wildcard, no Secret, no update of pods', async () => {
    const { manifests } = await renderChart();
    const role = clusterRole(manifests, 'kruise-ts-cloneset');
    expect(role.rules).toEqual([...CLONESET_RULES, VALIDATING_CONFIGURATION_RULE]);
    const everything = [
      ...ofKind<V1ClusterRole>(manifests, 'ClusterRole'),
      ...ofKind<V1Role>(manifests, 'Role'),
    ].flatMap((candidate) => candidate.rules ?? []);
    expect(
      everything
        .flatMap((rule) => [...rule.verbs, ...(rule.resources ?? []), ...(rule.apiGroups ?? [])])
        .filter((word) => word.includes('*')),
    ).toEqual([]);
    expect(
      everything.flatMap((rule) => rule.resources ?? []).filter((resource) => resource.startsWith('configmaps')),
    ).toEqual([]);
    // Secrets: each app its own webhook certificates Secret, by name, in a Role of the release namespace.
    const secretRoles = ofKind<V1Role>(manifests, 'Role').filter(
      (candidate) => candidate.rules?.some((rule) => rule.resources?.includes('secrets')) === true,
    );
    expect(
      secretRoles.map((candidate) => [candidate.metadata?.namespace, candidate.metadata?.name, candidate.rules]),
    ).toEqual(
      ['advanced-statefulset', 'cloneset'].map((app) => [
        'kruise-system',
        `kruise-ts-${app}-webhook-certs`,
        [
          {
            apiGroups: [''],
            resources: ['secrets'],
            resourceNames: [`kruise-ts-${app}-webhook-certs`],
            verbs: ['get', 'update'],
          },
        ],
      ]),
    );
    expect(
      ofKind<V1ClusterRole>(manifests, 'ClusterRole')
        .flatMap((candidate) => candidate.rules ?? [])
        .filter((rule) => rule.resources?.some((resource) => resource.startsWith('secrets')) === true),
    ).toEqual([]);
    const binding = cloneSetObject(
      ofKind<{
        metadata: { name: string };
        roleRef: { apiGroup: string; kind: string; name: string };
        subjects: { kind: string; name: string; namespace: string }[];
      }>(manifests, 'ClusterRoleBinding'),
    );
    expect(binding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'kruise-ts-cloneset',
    });
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'kruise-ts-cloneset', namespace: 'kruise-system' },
    ]);
  });

  it('limits leader election to the app own Lease in the release namespace (create cannot be limited by name)', async () => {
    const { manifests } = await renderChart({}, { namespace: 'controllers' });
    const role = cloneSetObject(ofKind<V1Role>(manifests, 'Role'));
    expect(role.metadata?.namespace).toBe('controllers');
    expect(role.rules).toEqual([
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        resourceNames: ['kruise-ts-cloneset'],
        verbs: ['get', 'update'],
      },
    ]);
    expect(containerOf(deploymentOf(manifests)).args).toEqual(
      expect.arrayContaining(['--leader-election-namespace=controllers', '--leader-election-id=kruise-ts-cloneset']),
    );
  });

  it('adds pods/resize patch, and nothing else, with InPlaceWorkloadVerticalScaling=true', async () => {
    const { manifests } = await renderChart({ featureGates: 'InPlaceWorkloadVerticalScaling=true' });
    const rules = clusterRole(manifests, 'kruise-ts-cloneset').rules ?? [];
    expect(rules).toEqual([
      ...CLONESET_RULES.slice(0, 6),
      RESIZE_RULE,
      ...CLONESET_RULES.slice(6),
      VALIDATING_CONFIGURATION_RULE,
    ]);
  });

  it('aggregates read access into view and write access into edit/admin, unless turned off', async () => {
    const { manifests } = await renderChart();
    const view = clusterRole(manifests, 'kruise-ts-cloneset-view');
    const edit = clusterRole(manifests, 'kruise-ts-cloneset-edit');
    expect(view.metadata?.labels?.['rbac.authorization.k8s.io/aggregate-to-view']).toBe('true');
    expect(view.rules).toEqual([
      {
        apiGroups: ['apps.kruise.io'],
        resources: ['clonesets', 'clonesets/scale', 'clonesets/status'],
        verbs: ['get', 'list', 'watch'],
      },
    ]);
    expect(edit.metadata?.labels?.['rbac.authorization.k8s.io/aggregate-to-edit']).toBe('true');
    expect(edit.metadata?.labels?.['rbac.authorization.k8s.io/aggregate-to-admin']).toBe('true');
    expect(edit.rules).toEqual([
      {
        apiGroups: ['apps.kruise.io'],
        resources: ['clonesets', 'clonesets/scale'],
        verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'],
      },
    ]);
    const off = await renderChart({ rbac: { aggregateToDefaultRoles: false } });
    expect(inventory(off.manifests).filter((entry) => entry.startsWith('ClusterRole/'))).toEqual([
      'ClusterRole/kruise-ts-advanced-statefulset',
      'ClusterRole/kruise-ts-cloneset',
    ]);
  });
});

describe('helm template: the Deployment', () => {
  it('runs the entrypoint with flags the app accepts, from the default values', async () => {
    const deployment = deploymentOf((await renderChart()).manifests);
    const container = containerOf(deployment);
    expect(container.image).toBe('kruise-ts:0.1.0');
    expect(container.args).toEqual([
      'dist/cloneset.mjs',
      '--leader-elect=true',
      '--leader-election-namespace=kruise-system',
      '--leader-election-id=kruise-ts-cloneset',
      '--metrics-bind-address=:8080',
      '--health-probe-bind-address=:8000',
      '--log-level=info',
      '--log-format=json',
      '--kube-api-qps=30',
      '--kube-api-burst=50',
      '--graceful-shutdown-timeout=30s',
      '--workers=3',
      '--webhook-port=9876',
      '--webhook-service-name=kruise-ts-cloneset-webhook',
      '--webhook-service-namespace=kruise-system',
      '--webhook-certs-secret=kruise-ts-cloneset-webhook-certs',
      '--webhook-validating-configurations=kruise-ts-cloneset-validation',
    ]);
    // The manager's flags and the shared webhook flags of controller-runtime (every app with a webhook takes them).
    const flags = parseFlags(container.args?.slice(1) ?? [], managerFlagsSchema.extend(webhookFlagsShape));
    expect(flags['graceful-shutdown-timeout']).toBe(30_000);
    expect(flags['webhook-validating-configurations']).toEqual(['kruise-ts-cloneset-validation']);
    expect(flags['webhook-mutating-configurations']).toEqual([]);
    expect(deployment.spec?.replicas).toBe(1);
    expect(deployment.spec?.template.spec?.terminationGracePeriodSeconds).toBe(35);
    expect(deployment.spec?.template.spec?.serviceAccountName).toBe('kruise-ts-cloneset');
    expect(deployment.spec?.template.spec?.automountServiceAccountToken).toBe(true);
    expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'health' });
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'health' });
    // Measured: docs/benchmarks.md, "Memory and idle CPU" (the request covers every app idle in one
    // process with 5,000 cached pods, the limit the peak of a 5,000-pod rollout with room to spare).
    expect(container.resources).toEqual(MEASURED_RESOURCES);
    expect(container.command).toEqual(['node', ...MEASURED_NODE_FLAGS]);
    expect(container.env).toEqual([{ name: 'MALLOC_ARENA_MAX', value: '2' }]);
    expect(container.ports).toEqual([
      { name: 'metrics', containerPort: 8080, protocol: 'TCP' },
      { name: 'health', containerPort: 8000, protocol: 'TCP' },
      { name: 'webhook', containerPort: 9876, protocol: 'TCP' },
    ]);
  });

  it('takes every value into the pod: image, flags in order, scheduling, metadata, identity and grace period', async () => {
    const { manifests } = await renderChart(EVERY_VALUE);
    const deployment = deploymentOf(manifests);
    const pod = deployment.spec?.template;
    const container = containerOf(deployment);
    expect(container.image).toBe('registry.example/kruise-ts:0.1.0-rc.1');
    expect(container.imagePullPolicy).toBe('Always');
    expect(container.args).toEqual([
      'dist/cloneset.mjs',
      '--feature-gates=CloneSet=true, InPlaceWorkloadVerticalScaling=true, SidecarSet=true, BroadcastJob=true',
      '--leader-elect=true',
      '--leader-election-namespace=kruise-system',
      '--leader-election-id=kruise-ts-cloneset',
      '--metrics-bind-address=:9090',
      '--health-probe-bind-address=:9091',
      '--log-level=debug',
      '--log-format=text',
      '--kube-api-qps=7.5',
      '--kube-api-burst=15',
      '--graceful-shutdown-timeout=60s',
      '--workers=8',
      '--leader-election-lease-duration=30s',
      '--cloneset-scaling-exclude-preparing-delete',
    ]);
    expect(parseManagerFlags((container.args ?? []).slice(1, -1))['leader-election-lease-duration']).toBe(30_000);
    expect(container.resources).toEqual(EVERY_VALUE.resources);
    expect(container.command).toEqual(['node', '--max-old-space-size=700']);
    expect(container.env).toEqual([{ name: 'MALLOC_ARENA_MAX', value: '4' }]);
    // webhook.validation.enabled=false: the CloneSet app serves no webhook, so no webhook port or flags.
    expect(container.ports?.map((port) => [port.name, port.containerPort])).toEqual([
      ['metrics', 9090],
      ['health', 9091],
    ]);
    expect(deployment.spec?.replicas).toBe(3);
    expect(pod?.spec?.terminationGracePeriodSeconds).toBe(65);
    expect(pod?.spec?.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    expect(pod?.spec?.nodeSelector).toEqual(EVERY_VALUE.nodeSelector);
    expect(pod?.spec?.tolerations).toEqual(EVERY_VALUE.tolerations);
    expect(pod?.spec?.affinity).toEqual(EVERY_VALUE.affinity);
    expect(pod?.spec?.priorityClassName).toBe('kruise-ts-critical');
    expect(pod?.spec?.securityContext).toEqual(
      expect.objectContaining({ runAsUser: 1000, runAsGroup: 2000, runAsNonRoot: true }),
    );
    expect(pod?.metadata?.annotations).toEqual(EVERY_VALUE.podAnnotations);
    expect(pod?.metadata?.labels).toEqual(
      expect.objectContaining({ team: 'platform', 'app.kubernetes.io/component': 'cloneset' }),
    );
    expect(
      cloneSetObject(
        ofKind<{ metadata: { name: string; annotations: Record<string, string> } }>(manifests, 'ServiceAccount'),
      ).metadata.annotations,
    ).toEqual(EVERY_VALUE.serviceAccount.annotations);
    const service = cloneSetObject(ofKind<V1Service>(manifests, 'Service'));
    expect(service.spec?.ports).toEqual([{ name: 'metrics', port: 9090, targetPort: 'metrics', protocol: 'TCP' }]);
  });

  it('pins the image by digest when one is given', async () => {
    const digest = `sha256:${'a'.repeat(64)}`;
    const deployment = deploymentOf((await renderChart({ image: { digest } })).manifests);
    expect(containerOf(deployment).image).toBe(`kruise-ts@${digest}`);
  });

  it('runs standby replicas behind leader election, with a PodDisruptionBudget, when replicas > 1', async () => {
    const { manifests } = await renderChart({ replicas: 2 });
    const deployment = deploymentOf(manifests);
    expect(deployment.spec?.replicas).toBe(2);
    expect(containerOf(deployment).args).toContain('--leader-elect=true');
    const budget = cloneSetObject(ofKind<V1PodDisruptionBudget>(manifests, 'PodDisruptionBudget'));
    expect(budget.spec?.maxUnavailable).toBe(1);
    expect(budget.spec?.selector?.matchLabels).toEqual(deployment.spec?.selector.matchLabels);
    expect(inventory(manifests)).toEqual(
      [
        ...DEFAULT_OBJECTS,
        'PodDisruptionBudget/kruise-ts-advanced-statefulset',
        'PodDisruptionBudget/kruise-ts-cloneset',
      ].sort(),
    );
  });

  it('refuses the same port for metrics and health', async () => {
    expect(await renderChartFailure({ metrics: { port: 8000 } })).toContain(
      'metrics.port and health.port must differ (both are 8000)',
    );
  });

  it('names objects after a release that does not contain the chart name', async () => {
    const { manifests } = await renderChart({}, { release: 'controllers' });
    expect(inventory(manifests)).toContain('Deployment/controllers-kruise-ts-cloneset');
    expect(containerOf(deploymentOf(manifests)).args).toContain('--leader-election-id=controllers-kruise-ts-cloneset');
  });

  it.each([
    ['the default values', {}],
    ['every value set', EVERY_VALUE],
    ['two replicas', { replicas: 2 }],
  ])('meets Pod Security "restricted" in every rendered pod spec, with %s', async (_name, values) => {
    const deployments = ofKind<V1Deployment>((await renderChart(values)).manifests, 'Deployment');
    expect(deployments.length).toBeGreaterThan(0);
    for (const deployment of deployments) {
      const template = deployment.spec?.template;
      expect(restrictedViolations(template?.spec ?? { containers: [] }, template?.metadata?.annotations ?? {})).toEqual(
        [],
      );
      const container = containerOf(deployment);
      expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
      expect(template?.spec?.securityContext?.runAsUser).toBeGreaterThan(0);
      expect(template?.spec?.securityContext?.runAsGroup).toBeGreaterThan(0);
    }
  });
});

describe('helm template: CRDs and monitoring', () => {
  it('includes the generated chart copy of the CRD verbatim (kept on uninstall), only for enabled apps', async () => {
    const { text, manifests } = await renderChart();
    const file = await readFile(CHART_CRD, 'utf8');
    expect(text).toContain(`---\n# Source: kruise-ts/templates/crds.yaml\n${file}`);
    const crds = ofKind(manifests, 'CustomResourceDefinition');
    expect(crds.map((crd) => crd.metadata.name)).toEqual(['clonesets.apps.kruise.io', 'statefulsets.apps.kruise.io']);
    expect(crds.map((crd) => crd.metadata.annotations)).toEqual([
      { 'helm.sh/resource-policy': 'keep' },
      { 'helm.sh/resource-policy': 'keep' },
    ]);
    const cloneSetOff = await renderChart({ featureGates: 'CloneSet=false' });
    expect(ofKind(cloneSetOff.manifests, 'CustomResourceDefinition').map((crd) => crd.metadata.name)).toEqual([
      'statefulsets.apps.kruise.io',
    ]);
    const off = await renderChart({ featureGates: NO_APP });
    expect(off.text).not.toContain('CustomResourceDefinition');
  });

  it('renders one ServiceMonitor per app that selects its metrics Service, only when enabled', async () => {
    const { manifests } = await renderChart({
      metrics: { serviceMonitor: { enabled: true, interval: '30s', labels: { release: 'prometheus' } } },
    });
    expect(ofKind(manifests, 'ServiceMonitor')).toHaveLength(2);
    const monitor = cloneSetObject(
      ofKind<{
        metadata: { name: string; labels: Record<string, string> };
        spec: { selector: { matchLabels: Record<string, string> }; endpoints: unknown[] };
      }>(manifests, 'ServiceMonitor'),
    );
    expect(monitor.metadata.labels['release']).toBe('prometheus');
    expect(monitor.spec.endpoints).toEqual([{ port: 'metrics', path: '/metrics', interval: '30s' }]);
    const service = cloneSetObject(ofKind<V1Service>(manifests, 'Service'));
    expect(service.metadata?.labels).toEqual(expect.objectContaining(monitor.spec.selector.matchLabels));
    expect(inventory((await renderChart()).manifests).some((entry) => entry.startsWith('ServiceMonitor/'))).toBe(false);
  });
});
