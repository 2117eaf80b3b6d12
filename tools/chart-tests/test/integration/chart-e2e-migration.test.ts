/**
 * The switch of docs/migrating-from-openkruise.md, run as its steps say (issue 39), on a control plane
 * of its own whose apps are the chart's pods, run by the process kubelet.
 *
 * Before: what OpenKruise 1.9 leaves on a cluster. Its CRDs (Advanced StatefulSet and SidecarSet
 * served in v1alpha1 and v1beta1, stored in v1beta1, converted by OpenKruise's `kruise-webhook-service`;
 * BroadcastJob the same with conversion None; CloneSet v1alpha1), templates of its Helm release
 * `kruise`; one object of each kind as OpenKruise's webhooks defaulted it, with the pods, revisions
 * and status OpenKruise's manager made (revision names and SidecarSet hashes computed by OpenKruise's
 * own Go code: packages/revision/test/golden-go), the pods on kwok's nodes; a pod with the SidecarSet's
 * injected sidecar; the manager Deployment (a stand-in whose pods never run: its nodeSelector matches
 * no node, so the Service has no endpoints), its webhook Service, its two webhook configurations
 * (failurePolicy Fail) and `kruise-daemon`.
 *
 * Then the guide: `kruise-ts migrate from-openkruise --dry-run`, `kruise-ts migrate from-openkruise`,
 * `kubectl apply --server-side --force-conflicts -f crds/`, and its `helm install --take-ownership
 * --force-conflicts ... --wait` with OpenKruise's feature gates, which must finish within helm's
 * default timeout. The only value the test adds is the placement of the chart's pods on the process
 * kubelet's node. After: every object read in each version it has, through the chart's conversion
 * Service; each reconciled by the installed apps with OpenKruise's revisions and hashes; no pod
 * recreated or restarted; a new pod gets its sidecar.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  AdmissionregistrationV1Api,
  ApiextensionsV1Api,
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  DiscoveryV1Api,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import type {
  V1Container,
  V1CustomResourceDefinition,
  V1JSONSchemaProps,
  V1MutatingWebhook,
  V1OwnerReference,
  V1Pod,
  V1PodSpec,
  V1ValidatingWebhook,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { simulatedJobRunAnnotations } from '@kruise-ts/local-cluster';
import { buildGoProgram, runGoProgram, toolBinary, waitFor } from '@kruise-ts/local-cluster/testing';

import { CHART_DIRECTORY, REPOSITORY_ROOT } from '../../src/index.ts';
import { valuesFile } from '../support/helm.ts';
import type { HelmResult } from '../support/helm.ts';
import { chartPods, expectHelmSuccess, startChartCluster } from '../support/installed-chart.ts';
import type { ChartCluster } from '../support/installed-chart.ts';
import { statusCode } from '../support/status-code.ts';

type Json = Record<string, unknown>;
/** client-node's models as plain data (its classes may not be spread). */
type Container = Pick<V1Container, keyof V1Container>;
type PodSpec = Pick<V1PodSpec, keyof V1PodSpec>;

const SYSTEM = 'kruise-system';
const APPS = 'apps';
const GROUP = 'apps.kruise.io';
const MANAGER = 'kruise-controller-manager';
const MUTATING = 'kruise-mutating-webhook-configuration';
const VALIDATING = 'kruise-validating-webhook-configuration';
/** The gates OpenKruise's manager runs with; the guide reads them from its arguments. */
const OPENKRUISE_GATES = 'PreDownloadImageForInPlaceUpdate=false,StatefulSetAutoDeletePVC=true';
const KWOK_NODES = ['kwok-node-0', 'kwok-node-1'];
/** When OpenKruise made the pods (a fixed time: the annotations are compared as written). */
const MADE_AT = '2025-06-02T10:00:00Z';
/** The BroadcastJob's pods run this long (kwok's simulated job): they end while or after kruise-ts takes over. */
const JOB_RUN_MS = 45_000;
const GOLDEN_GO_DIRECTORY = fileURLToPath(new URL('../../../../packages/revision/test/golden-go/', import.meta.url));

let cluster: ChartCluster;
let core: CoreV1Api;
let apps: AppsV1Api;
let custom: CustomObjectsApi;
let crdApi: ApiextensionsV1Api;
let admission: AdmissionregistrationV1Api;
let openKruise: OpenKruiseState;
/** Every pod of OpenKruise's workloads and of kruise-daemon before the switch. */
let podsBefore: readonly V1Pod[] = [];
let install: HelmResult | undefined;

// ---------------------------------------------------------------------------------------------------
// OpenKruise 1.9's objects

interface Kind {
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
  readonly versions: readonly string[];
  readonly scale?: boolean;
  /** Converted by OpenKruise's Service; the versions' schemas differ by these spec fields. */
  readonly webhook?: { readonly v1alpha1: string; readonly v1beta1: string };
}

const CLONESET: Kind = { kind: 'CloneSet', plural: 'clonesets', namespaced: true, versions: ['v1alpha1'], scale: true };
const STATEFULSET: Kind = {
  kind: 'StatefulSet',
  plural: 'statefulsets',
  namespaced: true,
  versions: ['v1alpha1', 'v1beta1'],
  scale: true,
  webhook: { v1alpha1: 'reserveOrdinals', v1beta1: 'ordinals' },
};
const SIDECARSET: Kind = {
  kind: 'SidecarSet',
  plural: 'sidecarsets',
  namespaced: false,
  versions: ['v1alpha1', 'v1beta1'],
  webhook: { v1alpha1: 'namespace', v1beta1: 'customVersion' },
};
const BROADCASTJOB: Kind = {
  kind: 'BroadcastJob',
  plural: 'broadcastjobs',
  namespaced: true,
  versions: ['v1alpha1', 'v1beta1'],
};
const KINDS = [CLONESET, STATEFULSET, SIDECARSET, BROADCASTJOB];

/** A schema that keeps every field (OpenKruise's prune nothing of what this test writes), with a field of its own per version. */
function versionSchema(kind: Kind, version: string): V1JSONSchemaProps {
  const own =
    kind.webhook === undefined ? undefined : version === 'v1alpha1' ? kind.webhook.v1alpha1 : kind.webhook.v1beta1;
  const spec: V1JSONSchemaProps = {
    type: 'object',
    x_kubernetes_preserve_unknown_fields: true,
    ...(own === undefined ? {} : { properties: { [own]: { x_kubernetes_preserve_unknown_fields: true } } }),
  };
  return {
    type: 'object',
    x_kubernetes_preserve_unknown_fields: true,
    properties: { spec, status: { type: 'object', x_kubernetes_preserve_unknown_fields: true } },
  };
}

/** The CRD as OpenKruise 1.9's chart renders it: a template of its release `kruise`. */
function openKruiseCrd(kind: Kind): V1CustomResourceDefinition {
  const storage = kind.versions[kind.versions.length - 1];
  const scale =
    kind.scale === true
      ? {
          scale: {
            specReplicasPath: '.spec.replicas',
            statusReplicasPath: '.status.replicas',
            labelSelectorPath: '.status.labelSelector',
          },
        }
      : {};
  const service = { namespace: SYSTEM, name: 'kruise-webhook-service', path: '/convert', port: 443 };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${kind.plural}.${GROUP}`,
      labels: { 'app.kubernetes.io/managed-by': 'Helm' },
      annotations: {
        'controller-gen.kubebuilder.io/version': 'v0.16.5',
        'meta.helm.sh/release-name': 'kruise',
        'meta.helm.sh/release-namespace': SYSTEM,
      },
    },
    spec: {
      group: GROUP,
      names: { kind: kind.kind, listKind: `${kind.kind}List`, plural: kind.plural, singular: kind.kind.toLowerCase() },
      scope: kind.namespaced ? 'Namespaced' : 'Cluster',
      versions: kind.versions.map((name) => ({
        name,
        served: true,
        storage: name === storage,
        schema: { openAPIV3Schema: versionSchema(kind, name) },
        subresources: { status: {}, ...scale },
      })),
      conversion:
        kind.webhook === undefined
          ? { strategy: 'None' }
          : {
              strategy: 'Webhook',
              webhook: { conversionReviewVersions: ['v1', 'v1beta1'], clientConfig: { service } },
            },
    },
  };
}

/** A container as OpenKruise's defaulting webhook stores it (Kubernetes' SetDefaults_Container). */
function defaultedContainer(name: string, image: string, more: Partial<V1Container> = {}): Container {
  return {
    name,
    image,
    ...more,
    imagePullPolicy: 'IfNotPresent',
    resources: {},
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
  };
}

/** A pod spec as OpenKruise's defaulting webhook stores a template's (Kubernetes' SetDefaults_PodSpec). */
function defaultedPodSpec(containers: readonly Container[], more: Partial<V1PodSpec> = {}): PodSpec {
  return {
    containers: [...containers],
    dnsPolicy: 'ClusterFirst',
    restartPolicy: 'Always',
    schedulerName: 'default-scheduler',
    securityContext: {},
    terminationGracePeriodSeconds: 30,
    ...more,
  };
}

const WEB_TEMPLATE = {
  metadata: { labels: { app: 'web' } },
  spec: defaultedPodSpec([defaultedContainer('main', 'nginx:1.27')]),
};
const DB_TEMPLATE = {
  metadata: { labels: { app: 'db' } },
  spec: defaultedPodSpec([defaultedContainer('main', 'postgres:16')]),
};
const SIDECAR = defaultedContainer('log-agent', 'busybox:1.36', { command: ['sleep', '999999'] });
const JOB_TEMPLATE = {
  metadata: { labels: { app: 'agents' }, annotations: simulatedJobRunAnnotations({ runMs: JOB_RUN_MS }) },
  spec: defaultedPodSpec([defaultedContainer('agent', 'busybox:1.36', { command: ['sh', '-c', 'sleep 45'] })], {
    restartPolicy: 'Never',
  }),
};

function cloneSetManifest(): Json {
  return {
    apiVersion: `${GROUP}/v1alpha1`,
    kind: 'CloneSet',
    metadata: { name: 'web', namespace: APPS },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: WEB_TEMPLATE,
      updateStrategy: { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 },
      revisionHistoryLimit: 10,
    },
  };
}

function statefulSetManifest(): Json {
  return {
    apiVersion: `${GROUP}/v1beta1`,
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: APPS },
    spec: {
      replicas: 2,
      serviceName: 'db',
      podManagementPolicy: 'OrderedReady',
      selector: { matchLabels: { app: 'db' } },
      template: DB_TEMPLATE,
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate' },
      },
      revisionHistoryLimit: 10,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    },
  };
}

function sidecarSetManifest(): Json {
  return {
    apiVersion: `${GROUP}/v1beta1`,
    kind: 'SidecarSet',
    metadata: { name: 'log-agent' },
    spec: {
      selector: { matchLabels: { sidecar: 'log-agent' } },
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': APPS } },
      containers: [
        {
          ...SIDECAR,
          podInjectPolicy: 'BeforeAppContainer',
          shareVolumePolicy: { type: 'disabled' },
          upgradeStrategy: { upgradeType: 'ColdUpgrade' },
        },
      ],
      updateStrategy: { type: 'RollingUpdate', partition: 0, maxUnavailable: 1 },
      revisionHistoryLimit: 10,
    },
  };
}

function broadcastJobManifest(): Json {
  return {
    apiVersion: `${GROUP}/v1beta1`,
    kind: 'BroadcastJob',
    metadata: { name: 'agents', namespace: APPS },
    spec: { template: JOB_TEMPLATE, completionPolicy: { type: 'Always' }, failurePolicy: { type: 'FailFast' } },
  };
}

function metadataOf(object: unknown): {
  name: string;
  uid: string;
  generation: number;
  annotations: Record<string, string>;
} {
  const metadata = fieldOf(object, 'metadata') as
    { name?: string; uid?: string; generation?: number; annotations?: Record<string, string> } | undefined;
  return {
    name: metadata?.name ?? '',
    uid: metadata?.uid ?? '',
    generation: metadata?.generation ?? 0,
    annotations: metadata?.annotations ?? {},
  };
}

function fieldOf(object: unknown, ...keys: string[]): unknown {
  let value: unknown = object;
  for (const key of keys) {
    value = typeof value === 'object' && value !== null ? (value as Json)[key] : undefined;
  }
  return value;
}

function ownerReference(owner: unknown, apiVersion: string): V1OwnerReference {
  const { name, uid } = metadataOf(owner);
  return { apiVersion, kind: String(fieldOf(owner, 'kind')), name, uid, controller: true, blockOwnerDeletion: true };
}

/** Kubernetes' rand.String alphabet, as OpenKruise names its pods and instance ids. */
function randomSuffix(): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  return Array.from({ length: 5 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
}

interface GoVector {
  readonly raw?: string;
  readonly hashes?: readonly [string, string];
  readonly hash?: string;
  readonly hashWithoutImage?: string;
  readonly error?: string;
}

/** OpenKruise v1.9.0's revision data and hashes, and SidecarSet hashes, from its own Go code. */
async function openKruiseVectors(mode: string, inputs: readonly unknown[]): Promise<GoVector[]> {
  const binary = await buildGoProgram({
    name: 'revision-golden-go',
    moduleDir: GOLDEN_GO_DIRECTORY,
    binary: 'golden-go',
    logPrefix: 'revision',
  });
  const vectors = JSON.parse(
    await runGoProgram(binary, JSON.stringify(inputs), mode === '' ? [] : [mode]),
  ) as GoVector[];
  for (const vector of vectors) {
    expect(vector.error, `golden-go ${mode}`).toBeUndefined();
  }
  return vectors;
}

interface Revision {
  readonly name: string;
  readonly hash: string;
  readonly raw: string;
}

function revisionOf(owner: string, vector: GoVector | undefined): Revision {
  const hash = vector?.hashes?.[0] ?? '';
  return { name: `${owner}-${hash}`, hash, raw: vector?.raw ?? '' };
}

/** The ControllerRevision OpenKruise's history control writes (history.NewControllerRevision). */
async function createControllerRevision(
  owner: unknown,
  input: { readonly revision: Revision; readonly apiVersion: string; readonly labels: Record<string, string> },
): Promise<void> {
  await apps.createNamespacedControllerRevision({
    namespace: APPS,
    body: {
      metadata: {
        name: input.revision.name,
        namespace: APPS,
        labels: { ...input.labels, 'controller.kubernetes.io/hash': input.revision.hash },
        ownerReferences: [ownerReference(owner, input.apiVersion)],
      },
      data: JSON.parse(input.revision.raw) as object,
      revision: 1,
    },
  });
}

function cloneSetPod(owner: unknown, revision: Revision): V1Pod {
  const id = randomSuffix();
  return {
    metadata: {
      name: `web-${id}`,
      namespace: APPS,
      labels: {
        app: 'web',
        'controller-revision-hash': revision.name,
        'pod-template-hash': revision.hash,
        'apps.kruise.io/cloneset-instance-id': id,
        'lifecycle.apps.kruise.io/state': 'Normal',
      },
      annotations: { 'lifecycle.apps.kruise.io/timestamp': MADE_AT },
      ownerReferences: [ownerReference(owner, `${GROUP}/v1alpha1`)],
    },
    spec: { ...WEB_TEMPLATE.spec, readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] },
  };
}

function statefulSetPod(owner: unknown, input: { readonly revision: Revision; readonly ordinal: number }): V1Pod {
  const name = `db-${String(input.ordinal)}`;
  return {
    metadata: {
      name,
      namespace: APPS,
      labels: {
        app: 'db',
        'controller-revision-hash': input.revision.name,
        'statefulset.kubernetes.io/pod-name': name,
        'apps.kubernetes.io/pod-index': String(input.ordinal),
        'lifecycle.apps.kruise.io/state': 'Normal',
      },
      annotations: { 'lifecycle.apps.kruise.io/timestamp': MADE_AT },
      ownerReferences: [ownerReference(owner, `${GROUP}/v1beta1`)],
    },
    spec: { ...DB_TEMPLATE.spec, hostname: name, subdomain: 'db' },
  };
}

function broadcastJobPod(owner: unknown, node: string): V1Pod {
  const { name, uid } = metadataOf(owner);
  const nodeAffinity = {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
    },
  };
  return {
    metadata: {
      name: `${name}-${randomSuffix()}`,
      namespace: APPS,
      labels: { app: 'agents', 'broadcastjob-name': name, 'broadcastjob-controller-uid': uid },
      annotations: JOB_TEMPLATE.metadata.annotations,
      ownerReferences: [ownerReference(owner, `${GROUP}/v1alpha1`)],
    },
    spec: { ...JOB_TEMPLATE.spec, affinity: { nodeAffinity } },
  };
}

/** OpenKruise's record of a SidecarSet on a pod it injected (SidecarSetUpgradeSpec). */
function sidecarRecord(hash: string): string {
  return JSON.stringify({
    'log-agent': { updateTimestamp: MADE_AT, hash, sidecarSetName: 'log-agent', sidecarList: ['log-agent'] },
  });
}

function injectedPod(hashes: GoVector | undefined): V1Pod {
  return {
    metadata: {
      name: 'logged',
      namespace: APPS,
      labels: { sidecar: 'log-agent' },
      annotations: {
        'kruise.io/sidecarset-hash': sidecarRecord(hashes?.hash ?? ''),
        'kruise.io/sidecarset-hash-without-image': sidecarRecord(hashes?.hashWithoutImage ?? ''),
        'kruise.io/sidecarset-injected-list': 'log-agent',
      },
    },
    spec: defaultedPodSpec([
      { ...SIDECAR, env: [{ name: 'IS_INJECTED', value: 'true' }] },
      defaultedContainer('app', 'nginx:1.27'),
    ]),
  };
}

/** The manager as OpenKruise 1.9's chart makes it; nodeSelector added so that its pods never run here. */
function managerDeployment(): Json {
  const labels = { 'control-plane': 'controller-manager' };
  const args = [
    '--enable-leader-election',
    '--metrics-addr=:8080',
    '--health-probe-addr=:8000',
    '--logtostderr=true',
    `--leader-election-namespace=${SYSTEM}`,
    '--v=4',
    `--feature-gates=${OPENKRUISE_GATES}`,
    '--sync-period=0',
  ];
  return {
    metadata: { name: MANAGER, namespace: SYSTEM, labels },
    spec: {
      replicas: 2,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: 'manager',
              image: 'openkruise/kruise-manager:v1.9.0',
              command: ['/manager'],
              args,
              ports: [{ containerPort: 9876, name: 'webhook-server' }],
            },
          ],
          nodeSelector: { 'kruise-ts.io/openkruise-stand-in': 'no-such-node' },
        },
      },
    },
  };
}

/** kruise-daemon, OpenKruise's node agent: the migration leaves it running. */
function daemonSet(): Json {
  const labels = { 'control-plane': 'daemon' };
  return {
    metadata: { name: 'kruise-daemon', namespace: SYSTEM, labels },
    spec: {
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [{ name: 'daemon', image: 'openkruise/kruise-daemon:v1.9.0' }],
          nodeSelector: { type: 'kwok' },
        },
      },
    },
  };
}

type WebhookRule = readonly [name: string, resource: string, path: string];

const OUR_KINDS_EXCEPT_SYSTEM = {
  matchExpressions: [
    { key: 'control-plane', operator: 'NotIn', values: ['openkruise'] },
    { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] },
  ],
};

function webhook(rule: WebhookRule): V1MutatingWebhook & V1ValidatingWebhook {
  const [name, resource, webhookPath] = rule;
  const group = resource === 'pods' ? '' : GROUP;
  const versions = resource === 'pods' ? ['v1'] : resource === 'clonesets' ? ['v1alpha1'] : ['v1alpha1', 'v1beta1'];
  return {
    name,
    admissionReviewVersions: ['v1', 'v1beta1'],
    sideEffects: 'None',
    failurePolicy: 'Fail',
    clientConfig: { service: { namespace: SYSTEM, name: 'kruise-webhook-service', path: webhookPath, port: 443 } },
    rules: [
      {
        apiGroups: [group],
        apiVersions: versions,
        operations: resource === 'pods' ? ['CREATE'] : ['CREATE', 'UPDATE'],
        resources: [resource],
      },
    ],
    ...(resource === 'pods' ? { namespaceSelector: OUR_KINDS_EXCEPT_SYSTEM } : {}),
  };
}

const MUTATING_WEBHOOKS: readonly WebhookRule[] = [
  ['mpod.kb.io', 'pods', '/mutate-pod'],
  ['mcloneset.kb.io', 'clonesets', '/mutate-apps-kruise-io-v1alpha1-cloneset'],
  ['mstatefulset.kb.io', 'statefulsets', '/mutate-apps-kruise-io-statefulset'],
  ['msidecarset.kb.io', 'sidecarsets', '/mutate-apps-kruise-io-v1alpha1-sidecarset'],
  ['mbroadcastjob.kb.io', 'broadcastjobs', '/mutate-apps-kruise-io-v1alpha1-broadcastjob'],
];
const VALIDATING_WEBHOOKS: readonly WebhookRule[] = [
  ['vcloneset.kb.io', 'clonesets', '/validate-apps-kruise-io-v1alpha1-cloneset'],
  ['vstatefulset.kb.io', 'statefulsets', '/validate-apps-kruise-io-statefulset'],
  ['vsidecarset.kb.io', 'sidecarsets', '/validate-apps-kruise-io-v1alpha1-sidecarset'],
  ['vbroadcastjob.kb.io', 'broadcastjobs', '/validate-apps-kruise-io-v1alpha1-broadcastjob'],
];

// ---------------------------------------------------------------------------------------------------
// Reads and writes, as kubectl would make them

function api(kind: Kind, version: string): { group: string; version: string; plural: string } {
  return { group: GROUP, version, plural: kind.plural };
}

async function getObject(kind: Kind, input: { readonly version: string; readonly name: string }): Promise<Json> {
  const request = { ...api(kind, input.version), name: input.name };
  const object: unknown = kind.namespaced
    ? await custom.getNamespacedCustomObject({ ...request, namespace: APPS })
    : await custom.getClusterCustomObject(request);
  return object as Json;
}

async function createObject(kind: Kind, body: Json): Promise<Json> {
  const version = String(body['apiVersion']).split('/')[1] ?? '';
  const created: unknown = kind.namespaced
    ? await custom.createNamespacedCustomObject({ ...api(kind, version), namespace: APPS, body })
    : await custom.createClusterCustomObject({ ...api(kind, version), body });
  return created as Json;
}

function mergePatch(): ReturnType<typeof setHeaderOptions> {
  return setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
}

/** What OpenKruise's manager wrote into an object's status. */
async function writeStatus(kind: Kind, input: { readonly object: Json; readonly status: Json }): Promise<void> {
  const version = String(input.object['apiVersion']).split('/')[1] ?? '';
  const request = { ...api(kind, version), name: metadataOf(input.object).name, body: { status: input.status } };
  await (kind.namespaced
    ? custom.patchNamespacedCustomObjectStatus({ ...request, namespace: APPS }, mergePatch())
    : custom.patchClusterCustomObjectStatus(request, mergePatch()));
}

function run(command: string, args: readonly string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd: REPOSITORY_ROOT,
        env: { ...process.env, KUBECONFIG: cluster.kubeconfigPath },
        maxBuffer: 32 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
          output: `${stdout}${stderr}`,
        });
      },
    );
  });
}

/** `kruise-ts <args>`: the CLI from this checkout's sources (what bin/kruise-ts.mjs runs when there is no bundle). */
function kruiseTs(...args: string[]): Promise<{ code: number; output: string }> {
  return run(process.execPath, [
    '--conditions=@kruise-ts/source',
    path.join(REPOSITORY_ROOT, 'apps/cli/src/main.ts'),
    ...args,
  ]);
}

async function kubectl(...args: string[]): Promise<{ code: number; output: string }> {
  return run(path.join(path.dirname(await toolBinary('kube')), 'kubectl'), args);
}

async function workloadPods(): Promise<V1Pod[]> {
  return (await core.listNamespacedPod({ namespace: APPS })).items;
}

/** Why the API server refuses a pod create in the workloads' namespace (a dry run calls the webhooks too), or undefined. */
async function podCreateRefusal(): Promise<string | undefined> {
  const body: V1Pod = { metadata: { name: 'probe' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } };
  try {
    await core.createNamespacedPod({ namespace: APPS, body, dryRun: 'All' });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : JSON.stringify(error);
  }
}

function isReady(pod: V1Pod): boolean {
  return (
    pod.status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') === true
  );
}

function podSummary(pod: V1Pod): string {
  const container = pod.status?.containerStatuses?.[0];
  const state = Object.keys(container?.state ?? {}).join('') || '-';
  return `${pod.metadata?.name ?? ''} uid=${pod.metadata?.uid ?? ''} phase=${pod.status?.phase ?? '-'} ready=${String(isReady(pod))} state=${state} restarts=${String(container?.restartCount ?? '-')}${pod.metadata?.deletionTimestamp === undefined ? '' : ' terminating'}`;
}

// ---------------------------------------------------------------------------------------------------
// The cluster OpenKruise 1.9 leaves

interface OpenKruiseState {
  readonly cloneSetRevision: Revision;
  readonly statefulSetRevision: Revision;
  readonly sidecarHashes: GoVector;
  readonly uids: Record<string, string>;
}

async function installOpenKruiseCrds(): Promise<void> {
  for (const kind of KINDS) {
    await crdApi.createCustomResourceDefinition({ body: openKruiseCrd(kind) });
  }
  await waitFor(
    async () => {
      const crds = await Promise.all(
        KINDS.map((kind) => crdApi.readCustomResourceDefinition({ name: `${kind.plural}.${GROUP}` })),
      );
      return crds.every(
        (crd) =>
          crd.status?.conditions?.some(
            (condition) => condition.type === 'Established' && condition.status === 'True',
          ) === true,
      );
    },
    { description: "OpenKruise's CRDs Established" },
  );
}

/** Runs the pods, as kwok's kubelet does, and sets InPlaceUpdateReady on the CloneSet's, as OpenKruise's manager does. */
async function runPods(pods: readonly V1Pod[]): Promise<void> {
  for (const pod of pods) {
    await core.createNamespacedPod({ namespace: APPS, body: pod });
  }
  const gated = pods.filter((pod) => pod.spec?.readinessGates !== undefined).map((pod) => pod.metadata?.name ?? '');
  await waitFor(
    async () =>
      (await workloadPods()).filter(
        (pod) => gated.includes(pod.metadata?.name ?? '') && pod.status?.phase === 'Running',
      ).length === gated.length,
    { description: 'the CloneSet pods running' },
  );
  const condition = { type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: new Date(MADE_AT) };
  for (const name of gated) {
    await core.patchNamespacedPodStatus(
      { namespace: APPS, name, body: { status: { conditions: [condition] } } },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
  }
  await waitFor(
    async () => {
      const current = await workloadPods();
      return current.length === pods.length &&
        current.every((pod) => isReady(pod) || pod.metadata?.labels?.['broadcastjob-name'] !== undefined)
        ? current
        : false;
    },
    {
      description: "OpenKruise's pods ready",
      timeoutMs: 60_000,
      state: async () => (await workloadPods()).map(podSummary),
    },
  );
}

async function openKruiseWorkloads(): Promise<OpenKruiseState> {
  const cloneSet = await createObject(CLONESET, cloneSetManifest());
  const statefulSet = await createObject(STATEFULSET, statefulSetManifest());
  const sidecarSet = await createObject(SIDECARSET, sidecarSetManifest());
  const job = await createObject(BROADCASTJOB, broadcastJobManifest());
  const [cloneSetVector] = await openKruiseVectors('', [fieldOf(cloneSet, 'spec', 'template')]);
  const [statefulSetVector] = await openKruiseVectors('sts', [statefulSet]);
  const [sidecarHashes = {}] = await openKruiseVectors('sidecarset', [sidecarSet]);
  const cloneSetRevision = revisionOf('web', cloneSetVector);
  const statefulSetRevision = revisionOf('db', statefulSetVector);
  // OpenKruise's SidecarSet webhook annotates the set with its hashes.
  const hashAnnotations = {
    'kruise.io/sidecarset-hash': sidecarHashes.hash ?? '',
    'kruise.io/sidecarset-hash-without-image': sidecarHashes.hashWithoutImage ?? '',
  };
  await custom.patchClusterCustomObject(
    { ...api(SIDECARSET, 'v1beta1'), name: 'log-agent', body: { metadata: { annotations: hashAnnotations } } },
    mergePatch(),
  );
  await createControllerRevision(cloneSet, {
    revision: cloneSetRevision,
    apiVersion: `${GROUP}/v1alpha1`,
    labels: { app: 'web' },
  });
  await createControllerRevision(statefulSet, {
    revision: statefulSetRevision,
    apiVersion: `${GROUP}/v1beta1`,
    labels: { app: 'db' },
  });
  await runPods([
    cloneSetPod(cloneSet, cloneSetRevision),
    cloneSetPod(cloneSet, cloneSetRevision),
    statefulSetPod(statefulSet, { revision: statefulSetRevision, ordinal: 0 }),
    statefulSetPod(statefulSet, { revision: statefulSetRevision, ordinal: 1 }),
    ...KWOK_NODES.map((node) => broadcastJobPod(job, node)),
    injectedPod(sidecarHashes),
  ]);
  const counts = { replicas: 2, readyReplicas: 2, availableReplicas: 2, updatedReplicas: 2, updatedReadyReplicas: 2 };
  await writeStatus(CLONESET, {
    object: cloneSet,
    status: {
      observedGeneration: 1,
      ...counts,
      expectedUpdatedReplicas: 2,
      updateRevision: cloneSetRevision.name,
      currentRevision: cloneSetRevision.name,
      collisionCount: 0,
      labelSelector: 'app=web',
    },
  });
  await writeStatus(STATEFULSET, {
    object: statefulSet,
    status: {
      observedGeneration: 1,
      ...counts,
      currentReplicas: 2,
      updateRevision: statefulSetRevision.name,
      currentRevision: statefulSetRevision.name,
      collisionCount: 0,
      labelSelector: 'app=db',
    },
  });
  await writeStatus(SIDECARSET, {
    object: sidecarSet,
    status: { observedGeneration: 1, matchedPods: 1, updatedPods: 1, readyPods: 1, updatedReadyPods: 1 },
  });
  await writeStatus(BROADCASTJOB, {
    object: job,
    status: { active: 2, succeeded: 0, failed: 0, desired: 2, phase: 'running', startTime: MADE_AT },
  });
  const uids = Object.fromEntries(
    [cloneSet, statefulSet, sidecarSet, job].map((object) => [String(object['kind']), metadataOf(object).uid]),
  );
  return { cloneSetRevision, statefulSetRevision, sidecarHashes, uids };
}

/** The manager, its Service and webhook configurations (last: from then on they refuse pod creation), kruise-daemon. */
async function openKruiseManager(): Promise<V1Pod[]> {
  await apps.createNamespacedDaemonSet({ namespace: SYSTEM, body: daemonSet() });
  await waitFor(
    async () =>
      (await core.listNamespacedPod({ namespace: SYSTEM, labelSelector: 'control-plane=daemon' })).items.filter(isReady)
        .length === KWOK_NODES.length,
    { description: 'kruise-daemon running on the kwok nodes' },
  );
  await apps.createNamespacedDeployment({ namespace: SYSTEM, body: managerDeployment() });
  await core.createNamespacedService({
    namespace: SYSTEM,
    body: {
      metadata: { name: 'kruise-webhook-service' },
      spec: { ports: [{ port: 443, targetPort: 9876 }], selector: { 'control-plane': 'controller-manager' } },
    },
  });
  await waitFor(
    async () =>
      (await core.listNamespacedPod({ namespace: SYSTEM, labelSelector: 'control-plane=controller-manager' })).items
        .length === 2,
    { description: "the manager's 2 pods (Pending: no node matches)" },
  );
  await admission.createMutatingWebhookConfiguration({
    body: { metadata: { name: MUTATING }, webhooks: MUTATING_WEBHOOKS.map(webhook) },
  });
  await admission.createValidatingWebhookConfiguration({
    body: { metadata: { name: VALIDATING }, webhooks: VALIDATING_WEBHOOKS.map(webhook) },
  });
  // As the guide says: with the manager down, every pod create outside kube-system and kruise-system is refused.
  await waitFor(async () => (await podCreateRefusal())?.includes('mpod.kb.io'), {
    description: "pod creation refused by OpenKruise's pod webhook",
    timeoutMs: 30_000,
  });
  const daemonPods = (await core.listNamespacedPod({ namespace: SYSTEM, labelSelector: 'control-plane=daemon' })).items;
  return [...(await workloadPods()), ...daemonPods];
}

// ---------------------------------------------------------------------------------------------------
// What an install that does not finish looks like

/** The last lines of the app's log in the pod, and of its previous run when it restarted (`kubectl logs [--previous]`). */
async function tail(pod: V1Pod): Promise<string> {
  const container = pod.spec?.containers[0]?.name ?? '';
  const name = pod.metadata?.name ?? '';
  const runs = (pod.status?.containerStatuses?.[0]?.restartCount ?? 0) > 0 ? [true, false] : [false];
  const logs = await Promise.all(
    runs.map(async (previous) => {
      const log = await cluster.kubelet
        .containerLog({ namespace: SYSTEM, pod: name, container, previous })
        .catch((error: unknown) => `(no log: ${String(error)})`);
      return `--- ${name}/${container}${previous ? ' (previous run)' : ''}, last lines:\n${log.split('\n').slice(-25).join('\n')}`;
    }),
  );
  return logs.join('\n');
}

async function installDiagnostics(): Promise<string> {
  const pods = await chartPods(cluster, SYSTEM);
  const slices = await cluster.kubeConfig
    .makeApiClient(DiscoveryV1Api)
    .listNamespacedEndpointSlice({ namespace: SYSTEM });
  const sliceLines = slices.items.map(
    (slice) =>
      `${slice.metadata?.name ?? ''}: ${JSON.stringify((slice.endpoints ?? []).map((endpoint) => ({ address: endpoint.addresses[0], ready: endpoint.conditions?.ready, pod: endpoint.targetRef?.name })))}`,
  );
  const crds = await Promise.all(
    [STATEFULSET, SIDECARSET].map(
      async (kind) =>
        `${kind.plural}: ${JSON.stringify((await crdApi.readCustomResourceDefinition({ name: `${kind.plural}.${GROUP}` })).spec.conversion?.webhook?.clientConfig?.service)}`,
    ),
  );
  const logs = await Promise.all(pods.map(tail));
  const text = [
    'chart pods:',
    ...pods.map(podSummary),
    'EndpointSlices:',
    ...sliceLines,
    'CRD conversion services:',
    ...crds,
    ...logs,
  ].join('\n');
  await writeFile(path.join(cluster.runDir, 'install-diagnostics.txt'), text);
  return text;
}

// ---------------------------------------------------------------------------------------------------

beforeAll(async () => {
  cluster = await startChartCluster('migration');
  core = cluster.kubeConfig.makeApiClient(CoreV1Api);
  apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
  custom = cluster.kubeConfig.makeApiClient(CustomObjectsApi);
  crdApi = cluster.kubeConfig.makeApiClient(ApiextensionsV1Api);
  admission = cluster.kubeConfig.makeApiClient(AdmissionregistrationV1Api);
  await core.createNamespace({ body: { metadata: { name: SYSTEM, labels: { 'control-plane': 'openkruise' } } } });
  await core.createNamespace({ body: { metadata: { name: APPS } } });
  await installOpenKruiseCrds();
  openKruise = await openKruiseWorkloads();
  podsBefore = await openKruiseManager();
});

afterAll(async () => {
  await cluster.stop();
});

describe('docs/migrating-from-openkruise.md on a cluster OpenKruise 1.9 runs', () => {
  it('step 1: --dry-run lists what it found and the changes in order, and writes nothing', async () => {
    const dryRun = await kruiseTs('migrate', 'from-openkruise', '--dry-run');
    expect(dryRun.code, dryRun.output).toBe(0);
    expect(dryRun.output).toContain(`deployment.apps/${MANAGER}: 2 replicas, 2 pods`);
    expect(dryRun.output).toContain(
      [
        'changes, in this order:',
        `  1. delete mutatingwebhookconfiguration.admissionregistration.k8s.io/${MUTATING} (first, while OpenKruise's manager still answers it)`,
        `  2. delete validatingwebhookconfiguration.admissionregistration.k8s.io/${VALIDATING} (first, while OpenKruise's manager still answers it)`,
        `  3. scale deployment.apps/${MANAGER} from 2 to 0 replicas (kept for a rollback) and wait until its pods are gone`,
      ].join('\n'),
    );
    for (const kind of [STATEFULSET, SIDECARSET]) {
      expect(dryRun.output).toContain(
        `customresourcedefinition.apiextensions.k8s.io/${kind.plural}.${GROUP}: its versions differ and OpenKruise's stopped Service converts them; replace it with kruise-ts's`,
      );
    }
    expect(await statusCode(() => admission.readMutatingWebhookConfiguration({ name: MUTATING }))).toBe(200);
  });

  it('step 2: stops OpenKruise: its webhook configurations deleted, the manager at 0 with its replicas recorded, its pods gone', async () => {
    const stop = await kruiseTs('migrate', 'from-openkruise');
    expect(stop.code, stop.output).toBe(0);
    expect(stop.output).toContain(
      `deployment.apps/${MANAGER} scaled to 0 (from 2, recorded in its annotation kruise-ts.io/replicas-before-migration)\ndeployment.apps/${MANAGER}: its pods are gone`,
    );
    expect(await statusCode(() => admission.readMutatingWebhookConfiguration({ name: MUTATING }))).toBe(404);
    expect(await statusCode(() => admission.readValidatingWebhookConfiguration({ name: VALIDATING }))).toBe(404);
    const manager = await apps.readNamespacedDeployment({ namespace: SYSTEM, name: MANAGER });
    expect([manager.spec?.replicas, manager.metadata?.annotations?.['kruise-ts.io/replicas-before-migration']]).toEqual(
      [0, '2'],
    );
    expect(
      (await core.listNamespacedPod({ namespace: SYSTEM, labelSelector: 'control-plane=controller-manager' })).items,
    ).toEqual([]);
    // "Pod creation works again as soon as the first step is done" (once the API server has seen the deletions).
    await waitFor(async () => (await podCreateRefusal()) === undefined, {
      description: 'pod creation allowed again',
      timeoutMs: 30_000,
    });
    // The Service converts nothing any more: conversions fail until kruise-ts's CRDs replace OpenKruise's.
    expect(
      (await crdApi.readCustomResourceDefinition({ name: `sidecarsets.${GROUP}` })).spec.conversion?.strategy,
    ).toBe('Webhook');
  });

  it('step 3: kubectl apply --server-side --force-conflicts -f crds/ replaces the CRDs', async () => {
    const applied = await kubectl(
      'apply',
      '--server-side',
      '--force-conflicts',
      '-f',
      path.join(REPOSITORY_ROOT, 'crds'),
    );
    expect(applied.code, applied.output).toBe(0);
    for (const kind of KINDS) {
      const crd = await crdApi.readCustomResourceDefinition({ name: `${kind.plural}.${GROUP}` });
      expect(crd.status?.storedVersions, kind.plural).toEqual([kind.versions[kind.versions.length - 1]]);
    }
  });

  it("step 4: helm install --take-ownership --force-conflicts --wait with OpenKruise's feature gates finishes", async () => {
    // "Note them": the --feature-gates= argument of OpenKruise's manager.
    const manager = await apps.readNamespacedDeployment({ namespace: SYSTEM, name: MANAGER });
    const gates =
      (manager.spec?.template.spec?.containers[0]?.args ?? [])
        .find((arg) => arg.startsWith('--feature-gates='))
        ?.slice('--feature-gates='.length) ?? '';
    expect(gates).toBe(OPENKRUISE_GATES);
    // The guide's command; `-f` adds only the placement of the chart's pods on the process kubelet's node.
    install = await cluster.helm([
      'install',
      'kruise-ts',
      CHART_DIRECTORY,
      '--namespace',
      SYSTEM,
      '--take-ownership',
      '--force-conflicts',
      '--set',
      'image.repository=registry.example.com/kruise-ts',
      '--set',
      'image.tag=0.1.0',
      '--set',
      `featureGates=${gates.replaceAll(',', '\\,')}\\,SidecarSet=true\\,BroadcastJob=true`,
      '--wait',
      '-f',
      await valuesFile(cluster.kubelet.placement),
    ]);
    if (install.code !== 0) {
      expectHelmSuccess(
        install,
        `helm install (diagnostics also in ${cluster.runDir}/install-diagnostics.txt)\n${await installDiagnostics()}\n`,
      );
    }
    const crd = await crdApi.readCustomResourceDefinition({ name: `sidecarsets.${GROUP}` });
    expect(crd.metadata?.annotations).toMatchObject({
      'meta.helm.sh/release-name': 'kruise-ts',
      'helm.sh/resource-policy': 'keep',
    });
    expect(crd.spec.conversion?.webhook?.clientConfig?.service).toMatchObject({
      namespace: SYSTEM,
      name: 'kruise-ts-sidecarset-webhook',
    });
    // The chart creates no configuration of OpenKruise's names.
    expect(await statusCode(() => admission.readMutatingWebhookConfiguration({ name: MUTATING }))).toBe(404);
    expect(await statusCode(() => admission.readValidatingWebhookConfiguration({ name: VALIDATING }))).toBe(404);
  }, 420_000);

  it("step 5: every object reads in each of its versions, with its uid, through the chart's conversion Services", () =>
    requireInstall(async () => {
      const objects: readonly (readonly [Kind, string])[] = [
        [CLONESET, 'web'],
        [STATEFULSET, 'db'],
        [SIDECARSET, 'log-agent'],
        [BROADCASTJOB, 'agents'],
      ];
      for (const [kind, name] of objects) {
        for (const version of kind.versions) {
          const object = await waitFor(() => getObject(kind, { version, name }), {
            description: `${kind.kind} ${name} read in ${version}`,
            timeoutMs: 30_000,
          });
          expect(object['apiVersion'], `${kind.kind} ${version}`).toBe(`${GROUP}/${version}`);
          expect(metadataOf(object).uid, `${kind.kind} ${version}`).toBe(openKruise.uids[kind.kind]);
        }
      }
      const alpha = await getObject(SIDECARSET, { version: 'v1alpha1', name: 'log-agent' });
      expect(fieldOf(alpha, 'spec', 'containers')).toEqual([
        expect.objectContaining({ name: 'log-agent', image: 'busybox:1.36' }),
      ]);
      expect(fieldOf(await getObject(STATEFULSET, { version: 'v1alpha1', name: 'db' }), 'spec', 'replicas')).toBe(2);
    }));

  it(
    "step 5: the installed apps reconcile every workload with OpenKruise's revisions",
    () =>
      requireInstall(async () => {
        // A scale of each set: a new pod at the revision OpenKruise named, and no new revision.
        await custom.patchNamespacedCustomObject(
          { ...api(CLONESET, 'v1alpha1'), namespace: APPS, name: 'web', body: { spec: { replicas: 3 } } },
          mergePatch(),
        );
        await custom.patchNamespacedCustomObject(
          { ...api(STATEFULSET, 'v1alpha1'), namespace: APPS, name: 'db', body: { spec: { replicas: 3 } } },
          mergePatch(),
        );
        for (const [kind, name, revision] of [
          [CLONESET, 'web', openKruise.cloneSetRevision],
          [STATEFULSET, 'db', openKruise.statefulSetRevision],
        ] as const) {
          const status = await waitFor(
            async () => {
              const object = await getObject(kind, { version: kind.versions[kind.versions.length - 1] ?? '', name });
              const current = fieldOf(object, 'status') as Json | undefined;
              return current?.['observedGeneration'] === metadataOf(object).generation && current['readyReplicas'] === 3
                ? current
                : false;
            },
            {
              description: `${kind.kind} ${name}: 3 ready replicas observed`,
              timeoutMs: 90_000,
              state: async () => fieldOf(await getObject(kind, { version: kind.versions[0] ?? '', name }), 'status'),
            },
          );
          expect(status, `${kind.kind} ${name}`).toMatchObject({
            replicas: 3,
            updatedReplicas: 3,
            updateRevision: revision.name,
            currentRevision: revision.name,
          });
          const revisions = await apps.listNamespacedControllerRevision({
            namespace: APPS,
            labelSelector: `app=${name}`,
          });
          expect(
            revisions.items.map((item) => item.metadata?.name),
            `${kind.kind} ${name}`,
          ).toEqual([revision.name]);
        }
        // The guide's checks: each rollout done, and the same revisions as before.
        for (const object of ['clone/web', 'asts/db']) {
          const status = await kruiseTs('rollout', 'status', object, '-n', APPS, '--timeout', '60s');
          expect(status.code, status.output).toBe(0);
          expect(status.output, object).toContain('successfully rolled out');
          const history = await kruiseTs('rollout', 'history', object, '-n', APPS);
          expect(history.code, history.output).toBe(0);
          const lines = history.output.trim().split('\n');
          const revisions = lines
            .slice(lines.findIndex((line) => line.startsWith('REVISION')) + 1)
            .map((line) => line.split(/\s+/u)[0]);
          expect(revisions, history.output).toEqual(['1']);
        }
        const pods = await workloadPods();
        expect(
          pods
            .filter((pod) => pod.metadata?.labels?.['app'] === 'web')
            .map((pod) => pod.metadata?.labels?.['controller-revision-hash']),
        ).toEqual(Array.from({ length: 3 }, () => openKruise.cloneSetRevision.name));
        expect(pods.find((pod) => pod.metadata?.name === 'db-2')?.metadata?.labels?.['controller-revision-hash']).toBe(
          openKruise.statefulSetRevision.name,
        );
        // The BroadcastJob's pods end (OpenKruise left it with 2 active): the app counts them and completes it.
        const job = await waitFor(
          async () => {
            const status = fieldOf(await getObject(BROADCASTJOB, { version: 'v1alpha1', name: 'agents' }), 'status') as
              Json | undefined;
            return status?.['succeeded'] === 2 ? status : false;
          },
          { description: 'BroadcastJob agents: its 2 pods counted as succeeded', timeoutMs: 90_000 },
        );
        expect(job).toMatchObject({
          active: 0,
          desired: 2,
          failed: 0,
          phase: 'completed',
          conditions: expect.arrayContaining([
            expect.objectContaining({ type: 'Complete', status: 'True' }),
          ]) as unknown,
        });
        const sidecarSet = await getObject(SIDECARSET, { version: 'v1alpha1', name: 'log-agent' });
        expect(fieldOf(sidecarSet, 'status')).toMatchObject({
          observedGeneration: metadataOf(sidecarSet).generation,
          matchedPods: 1,
          updatedPods: 1,
          readyPods: 1,
        });
        expect(metadataOf(sidecarSet).annotations).toMatchObject({
          'kruise.io/sidecarset-hash': openKruise.sidecarHashes.hash,
          'kruise.io/sidecarset-hash-without-image': openKruise.sidecarHashes.hashWithoutImage,
        });
      }),
    300_000,
  );

  it("step 5: no pod of OpenKruise's was recreated, restarted or relabelled", () =>
    requireInstall(async () => {
      const now = new Map(
        [
          ...(await workloadPods()),
          ...(await core.listNamespacedPod({ namespace: SYSTEM, labelSelector: 'control-plane=daemon' })).items,
        ].map((pod) => [pod.metadata?.name ?? '', pod]),
      );
      for (const before of podsBefore) {
        const name = before.metadata?.name ?? '';
        const after = now.get(name);
        expect(after?.metadata?.uid, name).toBe(before.metadata?.uid);
        expect(after?.metadata?.deletionTimestamp, name).toBeUndefined();
        expect(after?.metadata?.labels?.['controller-revision-hash'], name).toBe(
          before.metadata?.labels?.['controller-revision-hash'],
        );
        expect(
          after?.status?.containerStatuses?.map((container) => container.restartCount),
          name,
        ).toEqual(before.status?.containerStatuses?.map(() => 0));
      }
      expect(now.get('logged')?.spec?.containers.map((container) => container.name)).toEqual(['log-agent', 'app']);
    }));

  it("step 5: a pod created in a namespace OpenKruise's webhook covered is created, with its sidecar at OpenKruise's hash", () =>
    requireInstall(async () => {
      const body: V1Pod = {
        metadata: { name: 'logged-after', labels: { sidecar: 'log-agent' } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
      };
      const pod = await core.createNamespacedPod({ namespace: APPS, body });
      expect(pod.spec?.containers.map((container) => container.name)).toEqual(['log-agent', 'app']);
      const record = JSON.parse(pod.metadata?.annotations?.['kruise.io/sidecarset-hash'] ?? '{}') as Record<
        string,
        { hash?: string }
      >;
      expect(record['log-agent']?.hash).toBe(openKruise.sidecarHashes.hash);
      await waitFor(
        async () =>
          fieldOf(await getObject(SIDECARSET, { version: 'v1beta1', name: 'log-agent' }), 'status', 'matchedPods') ===
          2,
        { description: 'SidecarSet log-agent: 2 matched pods', timeoutMs: 60_000 },
      );
    }));
});

/** Runs `check` only when the install finished: with a hung install every later step fails at once, naming why. */
async function requireInstall(check: () => Promise<void>): Promise<void> {
  if (install?.code !== 0) {
    throw new Error('helm install did not finish (see step 4)');
  }
  await check();
}
