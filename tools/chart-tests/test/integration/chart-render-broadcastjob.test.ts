/**
 * `helm template` of the BroadcastJob app (BroadcastJob=true; off by default): its objects, its
 * least-privilege RBAC (the list its code needs, nothing of what it does not call), its Deployment's
 * flags from `apps.broadcastjob`, Pod Security restricted, and what the values refuse.
 * chart-install-broadcastjob.test.ts runs the result on the local control plane.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import type { V1ClusterRole, V1ClusterRoleBinding, V1Container, V1Deployment, V1Role } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

import { managerFlagsSchema } from '@kruise-ts/app-config';
import { parseFlags } from '@kruise-ts/controller-runtime';
import { webhookFlagsShape } from '@kruise-ts/webhook';

import { CHART_DIRECTORY, REPOSITORY_ROOT, restrictedViolations } from '../../src/index.ts';
import { inventory, ofKind, renderChart, renderChartFailure, runHelm, valuesFile } from '../support/helm.ts';
import type { Manifest } from '../support/helm.ts';

const ONLY_BROADCASTJOB = 'CloneSet=false,AdvancedStatefulSet=false,BroadcastJob=true';
const SCHEMA_FAILURE = "values don't meet the specifications of the schema(s)";

/**
 * Every object of the BroadcastJob app of release `kruise-ts`: its validation webhook (Service,
 * certificates Secret and its Role, configuration; chart-render-validation-webhooks.test.ts checks
 * them in detail), no release-namespace Role.
 */
const BROADCASTJOB_OBJECTS = [
  'ClusterRole/kruise-ts-broadcastjob',
  'ClusterRole/kruise-ts-broadcastjob-edit',
  'ClusterRole/kruise-ts-broadcastjob-view',
  'ClusterRoleBinding/kruise-ts-broadcastjob',
  'CustomResourceDefinition/broadcastjobs.apps.kruise.io',
  'Deployment/kruise-ts-broadcastjob',
  'Role/kruise-ts-broadcastjob-leader-election',
  'Role/kruise-ts-broadcastjob-webhook-certs',
  'RoleBinding/kruise-ts-broadcastjob-leader-election',
  'RoleBinding/kruise-ts-broadcastjob-webhook-certs',
  'Secret/kruise-ts-broadcastjob-webhook-certs',
  'Service/kruise-ts-broadcastjob-metrics',
  'Service/kruise-ts-broadcastjob-webhook',
  'ServiceAccount/kruise-ts-broadcastjob',
  'ValidatingWebhookConfiguration/kruise-ts-broadcastjob-validation',
];

/** The app's cluster-wide rules, as derived from its code (templates/_rbac-broadcastjob.tpl says why). */
const BROADCASTJOB_RULES = [
  { apiGroups: ['apps.kruise.io'], resources: ['broadcastjobs'], verbs: ['list', 'watch', 'delete'] },
  { apiGroups: ['apps.kruise.io'], resources: ['broadcastjobs/status'], verbs: ['patch'] },
  { apiGroups: ['apps.kruise.io'], resources: ['broadcastjobs/finalizers'], verbs: ['update'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch', 'create', 'delete'] },
  { apiGroups: [''], resources: ['nodes'], verbs: ['list', 'watch'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];
/** The CA-bundle injector of its validation webhook, on its own configuration only (not with cert-manager). */
const VALIDATING_CONFIGURATION_RULE = {
  apiGroups: ['admissionregistration.k8s.io'],
  resources: ['validatingwebhookconfigurations'],
  resourceNames: ['kruise-ts-broadcastjob-validation'],
  verbs: ['get', 'patch'],
};

/** The one object of `objects` called `name`. */
function named<T extends { metadata?: { name?: string } }>(objects: readonly T[], name: string): T {
  const found = objects.find((candidate) => candidate.metadata?.name === name);
  if (found === undefined) {
    throw new Error(`no ${name} among ${objects.map((candidate) => candidate.metadata?.name ?? '').join(', ')}`);
  }
  return found;
}

function broadcastJobDeployment(manifests: readonly Manifest[]): V1Deployment {
  return named(ofKind<V1Deployment>(manifests, 'Deployment'), 'kruise-ts-broadcastjob');
}

function broadcastJobContainer(manifests: readonly Manifest[]): V1Container {
  const container = broadcastJobDeployment(manifests).spec?.template.spec?.containers[0];
  if (container === undefined) {
    throw new Error('the BroadcastJob Deployment has no container');
  }
  return container;
}

/** Every rule of the app's ClusterRoles and Roles (not the aggregated user roles). */
function appRules(
  manifests: readonly Manifest[],
): { resources?: string[]; resourceNames?: string[]; verbs: string[]; apiGroups?: string[] }[] {
  const roles = [...ofKind<V1ClusterRole>(manifests, 'ClusterRole'), ...ofKind<V1Role>(manifests, 'Role')].filter(
    (role) => !/-(view|edit)$/.test(role.metadata?.name ?? ''),
  );
  return roles.flatMap((role) => role.rules ?? []);
}

/** The flag names the app declares (chart-tests may not import an app): the quoted keys of its flags shape. */
async function appFlagNames(): Promise<string[]> {
  const source = await readFile(path.join(REPOSITORY_ROOT, 'apps', 'broadcastjob', 'src', 'flags.ts'), 'utf8');
  return [...source.matchAll(/^\s+'([a-z][a-z0-9-]*)':/gm)].map((match) => match[1] ?? '');
}

describe('helm template: the BroadcastJob app', () => {
  it('renders its CRD, ServiceAccount, RBAC, metrics Service and Deployment with BroadcastJob=true, and nothing of it by default', async () => {
    expect(inventory((await renderChart({ featureGates: ONLY_BROADCASTJOB })).manifests)).toEqual(BROADCASTJOB_OBJECTS);
    const defaults = inventory((await renderChart()).manifests);
    expect(defaults.filter((entry) => entry.includes('broadcastjob'))).toEqual([]);
    const withOthers = inventory((await renderChart({ featureGates: 'BroadcastJob=true' })).manifests);
    expect(withOthers).toEqual(expect.arrayContaining(BROADCASTJOB_OBJECTS));
    expect(withOthers.filter((entry) => entry.startsWith('Deployment/'))).toEqual([
      'Deployment/kruise-ts-advanced-statefulset',
      'Deployment/kruise-ts-broadcastjob',
      'Deployment/kruise-ts-cloneset',
    ]);
  });

  it('passes helm lint --strict with the app on', async () => {
    const result = await runHelm([
      'lint',
      '--strict',
      CHART_DIRECTORY,
      '-f',
      await valuesFile({
        featureGates: 'BroadcastJob=true',
        apps: { broadcastjob: { workers: 2, extraArgs: ['--assign-bcj-pods-by-scheduler=false'] } },
      }),
    ]);
    expect(result.stdout + result.stderr).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(result.code).toBe(0);
  });

  it('runs dist/broadcastjob.mjs with the common flags, --workers from apps.broadcastjob.workers, its webhook flags, and its extraArgs last', async () => {
    const { manifests } = await renderChart({
      featureGates: ONLY_BROADCASTJOB,
      extraArgs: ['--leader-election-lease-duration=30s'],
      apps: {
        broadcastjob: { workers: 5, extraArgs: ['--broadcastjob-workers=2', '--assign-bcj-pods-by-scheduler=false'] },
      },
    });
    const container = broadcastJobContainer(manifests);
    expect(container.args).toEqual([
      'dist/broadcastjob.mjs',
      `--feature-gates=${ONLY_BROADCASTJOB}`,
      '--leader-elect=true',
      '--leader-election-namespace=kruise-system',
      '--leader-election-id=kruise-ts-broadcastjob',
      '--metrics-bind-address=:8080',
      '--health-probe-bind-address=:8000',
      '--log-level=info',
      '--log-format=json',
      '--kube-api-qps=30',
      '--kube-api-burst=50',
      '--graceful-shutdown-timeout=30s',
      '--workers=5',
      '--webhook-port=9876',
      '--webhook-service-name=kruise-ts-broadcastjob-webhook',
      '--webhook-service-namespace=kruise-system',
      '--webhook-certs-secret=kruise-ts-broadcastjob-webhook-certs',
      '--webhook-validating-configurations=kruise-ts-broadcastjob-validation',
      '--leader-election-lease-duration=30s',
      '--broadcastjob-workers=2',
      '--assign-bcj-pods-by-scheduler=false',
    ]);
    // The manager and the shared webhook flags accept every chart flag; the app's own two are among the ones its flags shape declares.
    expect(parseFlags((container.args ?? []).slice(1, -2), managerFlagsSchema.extend(webhookFlagsShape)).workers).toBe(
      5,
    );
    expect(await appFlagNames()).toEqual(
      expect.arrayContaining(['broadcastjob-workers', 'assign-bcj-pods-by-scheduler']),
    );
    expect(container.ports).toEqual([
      { name: 'metrics', containerPort: 8080, protocol: 'TCP' },
      { name: 'health', containerPort: 8000, protocol: 'TCP' },
      { name: 'webhook', containerPort: 9876, protocol: 'TCP' },
    ]);
    const defaults = broadcastJobContainer((await renderChart({ featureGates: ONLY_BROADCASTJOB })).manifests);
    expect(defaults.args?.filter((arg) => arg.startsWith('--workers='))).toEqual(['--workers=3']);
    const withoutWebhook = broadcastJobContainer(
      (await renderChart({ featureGates: ONLY_BROADCASTJOB, webhook: { validation: { enabled: false } } })).manifests,
    );
    expect(withoutWebhook.args?.at(-1)).toBe('--workers=3');
    expect(withoutWebhook.ports?.map((port) => port.name)).toEqual(['metrics', 'health']);
  });

  it('follows the global replicas (no replicas key of its own), with a PodDisruptionBudget only above 1', async () => {
    const single = await renderChart({ featureGates: ONLY_BROADCASTJOB });
    expect(broadcastJobDeployment(single.manifests).spec?.replicas).toBe(1);
    expect(ofKind(single.manifests, 'PodDisruptionBudget')).toEqual([]);
    const two = await renderChart({ featureGates: ONLY_BROADCASTJOB, replicas: 2 });
    expect(broadcastJobDeployment(two.manifests).spec?.replicas).toBe(2);
    expect(inventory(two.manifests)).toContain('PodDisruptionBudget/kruise-ts-broadcastjob');
  });

  it('meets Pod Security "restricted"', async () => {
    const template = broadcastJobDeployment((await renderChart({ featureGates: ONLY_BROADCASTJOB })).manifests).spec
      ?.template;
    expect(restrictedViolations(template?.spec ?? { containers: [] }, template?.metadata?.annotations ?? {})).toEqual(
      [],
    );
    expect(template?.spec?.serviceAccountName).toBe('kruise-ts-broadcastjob');
  });

  it.each([
    [
      'a typo in apps.broadcastjob',
      { broadcastjob: { worker: 2 } },
      "at '/apps/broadcastjob': additional properties 'worker' not allowed",
    ],
    ['zero workers', { broadcastjob: { workers: 0 } }, "at '/apps/broadcastjob/workers': minimum: got 0, want 1"],
    [
      'a replicas key of its own',
      { broadcastjob: { replicas: 2 } },
      "at '/apps/broadcastjob': additional properties 'replicas' not allowed",
    ],
    [
      'a flag without --',
      { broadcastjob: { extraArgs: ['assign-bcj-pods-by-scheduler=false'] } },
      "at '/apps/broadcastjob/extraArgs/0'",
    ],
  ])('refuses %s, naming the key', async (_name, apps, message) => {
    const error = await renderChartFailure({ featureGates: ONLY_BROADCASTJOB, apps });
    expect(error).toContain(SCHEMA_FAILURE);
    expect(error).toContain(message);
  });
});

describe('helm template: the BroadcastJob app RBAC', () => {
  it('grants exactly the cluster-wide rules its code needs: no get (it reads from its caches), no patch or update of jobs or pods', async () => {
    const { manifests } = await renderChart({ featureGates: ONLY_BROADCASTJOB });
    expect(named(ofKind<V1ClusterRole>(manifests, 'ClusterRole'), 'kruise-ts-broadcastjob').rules).toEqual([
      ...BROADCASTJOB_RULES,
      VALIDATING_CONFIGURATION_RULE,
    ]);
    const withoutWebhook = await renderChart({
      featureGates: ONLY_BROADCASTJOB,
      webhook: { validation: { enabled: false } },
    });
    expect(
      named(ofKind<V1ClusterRole>(withoutWebhook.manifests, 'ClusterRole'), 'kruise-ts-broadcastjob').rules,
    ).toEqual(BROADCASTJOB_RULES);
    const binding = named(ofKind<V1ClusterRoleBinding>(manifests, 'ClusterRoleBinding'), 'kruise-ts-broadcastjob');
    expect(binding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'kruise-ts-broadcastjob',
    });
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'kruise-ts-broadcastjob', namespace: 'kruise-system' },
    ]);
  });

  it('has no wildcard or ConfigMap, only its own certificates Secret and webhook configuration by name, and nothing else in the release namespace but its Lease', async () => {
    const { manifests } = await renderChart({ featureGates: ONLY_BROADCASTJOB }, { namespace: 'controllers' });
    const rules = appRules(manifests);
    expect(
      rules
        .flatMap((rule) => [...rule.verbs, ...(rule.resources ?? []), ...(rule.apiGroups ?? [])])
        .filter((word) => word.includes('*')),
    ).toEqual([]);
    expect(
      rules.filter(
        (rule) =>
          rule.resources?.some((resource) =>
            /^(secrets|configmaps|mutatingwebhookconfigurations|validatingwebhookconfigurations)/.test(resource),
          ) === true,
      ),
    ).toEqual([
      VALIDATING_CONFIGURATION_RULE,
      {
        apiGroups: [''],
        resources: ['secrets'],
        resourceNames: ['kruise-ts-broadcastjob-webhook-certs'],
        verbs: ['get', 'update'],
      },
    ]);
    const roles = ofKind<V1Role>(manifests, 'Role');
    expect(roles.map((role) => `${role.metadata?.namespace ?? ''}/${role.metadata?.name ?? ''}`)).toEqual([
      'controllers/kruise-ts-broadcastjob-leader-election',
      'controllers/kruise-ts-broadcastjob-webhook-certs',
    ]);
    expect(roles[0]?.rules).toEqual([
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        resourceNames: ['kruise-ts-broadcastjob'],
        verbs: ['get', 'update'],
      },
    ]);
    // With webhook.validation.enabled=false it has no webhook at all: no Secret or configuration access.
    const withoutWebhook = appRules(
      (await renderChart({ featureGates: ONLY_BROADCASTJOB, webhook: { validation: { enabled: false } } })).manifests,
    );
    expect(
      withoutWebhook
        .flatMap((rule) => rule.resources ?? [])
        .filter((resource) =>
          /^(secrets|configmaps|mutatingwebhookconfigurations|validatingwebhookconfigurations)/.test(resource),
        ),
    ).toEqual([]);
  });

  it('aggregates read access to BroadcastJobs into view and write access into edit/admin (no scale subresource)', async () => {
    const { manifests } = await renderChart({ featureGates: ONLY_BROADCASTJOB });
    const view = named(ofKind<V1ClusterRole>(manifests, 'ClusterRole'), 'kruise-ts-broadcastjob-view');
    const edit = named(ofKind<V1ClusterRole>(manifests, 'ClusterRole'), 'kruise-ts-broadcastjob-edit');
    expect(view.metadata?.labels?.['rbac.authorization.k8s.io/aggregate-to-view']).toBe('true');
    expect(view.rules).toEqual([
      {
        apiGroups: ['apps.kruise.io'],
        resources: ['broadcastjobs', 'broadcastjobs/status'],
        verbs: ['get', 'list', 'watch'],
      },
    ]);
    expect(edit.metadata?.labels?.['rbac.authorization.k8s.io/aggregate-to-edit']).toBe('true');
    expect(edit.metadata?.labels?.['rbac.authorization.k8s.io/aggregate-to-admin']).toBe('true');
    expect(edit.rules).toEqual([
      {
        apiGroups: ['apps.kruise.io'],
        resources: ['broadcastjobs'],
        verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'],
      },
    ]);
  });
});
