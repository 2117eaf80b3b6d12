import { mkdtemp, readFile, rm } from 'node:fs/promises';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';

import {
  AdmissionregistrationV1Api,
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  RbacAuthorizationV1Api,
  VersionApi,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createCertificateAuthority,
  createServingCertificate,
  KUBERNETES_VERSION,
  ZONE_LABEL,
} from '../../src/index.ts';
import {
  createFakeNodes,
  createTestNamespace,
  TEST_NODE_TAINT,
  TEST_NODE_TOLERATION,
  testKubeConfig,
  waitFor,
} from '../../src/testing/index.ts';

const kubeConfig = testKubeConfig();
const core = kubeConfig.makeApiClient(CoreV1Api);

function statusCode(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'number'
    ? error.code
    : undefined;
}

async function apiError(call: Promise<unknown>): Promise<{ code: number | undefined; message: string }> {
  try {
    await call;
  } catch (error) {
    return { code: statusCode(error), message: error instanceof Error ? error.message : String(error) };
  }
  throw new Error('expected the API call to fail');
}

describe('the local control plane', () => {
  it('reports the Kubernetes version it was built from on /version', async () => {
    const version = await kubeConfig.makeApiClient(VersionApi).getCode();
    expect(version.gitVersion).toBe(KUBERNETES_VERSION);
    expect(`${version.major}.${version.minor}`).toBe(KUBERNETES_VERSION.replace(/^v(\d+)\.(\d+)\..*$/, '$1.$2'));
  });

  it('has Ready fake nodes spread over zones, each with its own pod CIDR', async () => {
    // The cluster's own nodes: not those other test files are making for themselves right now.
    const nodes = (await core.listNode()).items.filter(
      (node) => !(node.spec?.taints ?? []).some((taint) => taint.key === TEST_NODE_TAINT.key),
    );
    expect(nodes.length).toBeGreaterThanOrEqual(3);
    const zones = new Set(nodes.map((n) => n.metadata?.labels?.[ZONE_LABEL]));
    expect(zones.size).toBeGreaterThanOrEqual(3);
    expect(new Set(nodes.map((n) => n.spec?.podCIDR)).size).toBe(nodes.length);
    for (const node of nodes) {
      expect(node.spec?.podCIDR).toMatch(/\/20$/);
      expect(node.spec?.taints ?? []).toEqual([]);
      expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    }
  });

  it("keeps other tests' pods off a test's own fake nodes (their taint), and lets the test's tolerating pods on", async () => {
    await using ns = await createTestNamespace(kubeConfig, 'test-nodes');
    await using nodes = await createFakeNodes(kubeConfig, {
      prefix: 'own',
      count: 1,
      labels: { 'own.kruise-ts.io/test': ns.name },
    });
    const [name = ''] = nodes.names;
    expect((await core.readNode({ name })).spec?.taints).toEqual([TEST_NODE_TAINT]);
    const pod = (podName: string, tolerate: boolean) => ({
      metadata: { name: podName },
      spec: {
        containers: [{ name: 'main', image: 'busybox:1.36' }],
        nodeSelector: { 'own.kruise-ts.io/test': ns.name },
        ...(tolerate ? { tolerations: [{ ...TEST_NODE_TOLERATION }] } : {}),
      },
    });
    await core.createNamespacedPod({ namespace: ns.name, body: pod('intruder', false) });
    await core.createNamespacedPod({ namespace: ns.name, body: pod('owner', true) });
    const running = await waitFor(
      async () => {
        const owner = await core.readNamespacedPod({ namespace: ns.name, name: 'owner' });
        return owner.status?.phase === 'Running' ? owner : undefined;
      },
      { description: 'the tolerating pod running on the test node' },
    );
    expect(running.spec?.nodeName).toBe(name);
    const refused = await waitFor(
      async () => {
        const intruder = await core.readNamespacedPod({ namespace: ns.name, name: 'intruder' });
        return intruder.status?.conditions?.find(
          (condition) => condition.type === 'PodScheduled' && condition.reason === 'Unschedulable',
        );
      },
      { description: 'the scheduler refusing the pod without the toleration' },
    );
    // Other test files' own nodes may exist meanwhile (tainted as well): the count is theirs and ours.
    expect(refused.message).toMatch(/\b[1-9]\d* node\(s\) had untolerated taint\(s\)/);
    expect((await core.readNamespacedPod({ namespace: ns.name, name: 'intruder' })).spec?.nodeName).toBeUndefined();
  });

  it('deletes a pod whose node was deleted (the pod garbage collector), as a real cluster does', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'pod-gc');
    await using nodes = await createFakeNodes(kubeConfig, {
      prefix: 'gone',
      count: 1,
      labels: { 'gone.kruise-ts.io/test': ns.name },
    });
    const [name = ''] = nodes.names;
    await core.createNamespacedPod({
      namespace: ns.name,
      body: {
        metadata: { name: 'stranded' },
        spec: {
          containers: [{ name: 'main', image: 'busybox:1.36' }],
          nodeSelector: { 'gone.kruise-ts.io/test': ns.name },
          tolerations: [{ ...TEST_NODE_TOLERATION }],
        },
      },
    });
    await waitFor(
      async () => (await core.readNamespacedPod({ namespace: ns.name, name: 'stranded' })).status?.phase === 'Running',
      { description: 'the pod running on the test node' },
    );
    await core.deleteNode({ name });
    // The collector's quarantine is 40 s and it looks every 20 s.
    const gone = await waitFor(async () => (await core.listNamespacedPod({ namespace: ns.name })).items.length === 0, {
      description: 'the stranded pod deleted',
      timeoutMs: 100_000,
    });
    expect(gone).toBe(true);
  }, 150_000);

  it('authorizes with RBAC: a ServiceAccount can do only what its Role grants', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'rbac');
    const rbac = kubeConfig.makeApiClient(RbacAuthorizationV1Api);
    await core.createNamespacedServiceAccount({ namespace: ns.name, body: { metadata: { name: 'reader' } } });
    const { status } = await core.createNamespacedServiceAccountToken({
      name: 'reader',
      namespace: ns.name,
      body: { spec: { audiences: [] } },
    });
    const asReader = new KubeConfig();
    const cluster = kubeConfig.getCurrentCluster();
    asReader.loadFromOptions({
      clusters: cluster === null ? [] : [cluster],
      users: [{ name: 'reader', token: status?.token ?? '' }],
      contexts: [{ name: 'reader', cluster: cluster?.name ?? '', user: 'reader' }],
      currentContext: 'reader',
    });
    const readerCore = asReader.makeApiClient(CoreV1Api);

    expect((await apiError(readerCore.listNamespacedConfigMap({ namespace: ns.name }))).code).toBe(403);
    await rbac.createNamespacedRole({
      namespace: ns.name,
      body: {
        metadata: { name: 'read-configmaps' },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }],
      },
    });
    await rbac.createNamespacedRoleBinding({
      namespace: ns.name,
      body: {
        metadata: { name: 'reader' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'read-configmaps' },
        subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: ns.name }],
      },
    });
    await waitFor(async () => (await readerCore.listNamespacedConfigMap({ namespace: ns.name })).items, {
      description: 'the RoleBinding to take effect',
    });
    expect((await apiError(readerCore.listNamespacedSecret({ namespace: ns.name }))).code).toBe(403);
  });

  it('garbage-collects dependents of a deleted owner', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'gc');
    const owner = await core.createNamespacedConfigMap({ namespace: ns.name, body: { metadata: { name: 'owner' } } });
    await core.createNamespacedConfigMap({
      namespace: ns.name,
      body: {
        metadata: {
          name: 'dependent',
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata?.uid ?? '' }],
        },
      },
    });
    await core.deleteNamespacedConfigMap({ name: 'owner', namespace: ns.name });
    await waitFor(
      async () =>
        !(await core.listNamespacedConfigMap({ namespace: ns.name })).items.some(
          (c) => c.metadata?.name === 'dependent',
        ),
      { description: 'the dependent ConfigMap to be garbage-collected', timeoutMs: 60_000 },
    );
  });

  it('finishes deleting a namespace', async () => {
    const ns = await createTestNamespace(kubeConfig, 'ns-delete');
    await core.createNamespacedConfigMap({ namespace: ns.name, body: { metadata: { name: 'content' } } });
    await ns[Symbol.asyncDispose]();
    await waitFor(async () => (await apiError(core.readNamespace({ name: ns.name }))).code === 404, {
      description: `namespace ${ns.name} to be gone`,
      timeoutMs: 60_000,
    });
  });

  it('rolls out a Deployment to Available (controller manager, scheduler and fake kubelets together)', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'deployment');
    const apps = kubeConfig.makeApiClient(AppsV1Api);
    await apps.createNamespacedDeployment({
      namespace: ns.name,
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
          },
        },
      },
    });
    const deployment = await waitFor(
      async () => {
        const current = await apps.readNamespacedDeployment({ name: 'web', namespace: ns.name });
        return current.status?.availableReplicas === 3 ? current : undefined;
      },
      { description: 'deployment web to have 3 available replicas', timeoutMs: 60_000 },
    );
    expect(deployment.status?.conditions?.find((c) => c.type === 'Available')?.status).toBe('True');
  });
});

describe('admission webhooks', () => {
  let dir = '';
  let server: https.Server | undefined;
  const reviewed: string[] = [];
  let caBundle = '';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-ts-webhook-'));
    const ca = await createCertificateAuthority(dir, 'webhook-test-ca');
    const cert = await createServingCertificate({
      ca,
      dir,
      name: 'webhook',
      commonName: 'webhook',
      hosts: ['127.0.0.1'],
    });
    server = https.createServer(
      { cert: await readFile(cert.certFile), key: await readFile(cert.keyFile) },
      (request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          const review = JSON.parse(body) as { request: { uid: string; name: string } };
          reviewed.push(review.request.name);
          const allowed = !review.request.name.startsWith('forbidden');
          response.setHeader('Content-Type', 'application/json');
          response.end(
            JSON.stringify({
              apiVersion: 'admission.k8s.io/v1',
              kind: 'AdmissionReview',
              response: {
                uid: review.request.uid,
                allowed,
                status: allowed ? undefined : { code: 403, message: 'names starting with forbidden are denied' },
              },
            }),
          );
        });
      },
    );
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    caBundle = Buffer.from(cert.caPem).toString('base64');
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('calls a ValidatingWebhookConfiguration served on 127.0.0.1 and enforces its verdict', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'webhook');
    const admission = kubeConfig.makeApiClient(AdmissionregistrationV1Api);
    const address = server?.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const name = `${ns.name}.kruise-ts.io`;
    await admission.createValidatingWebhookConfiguration({
      body: {
        metadata: { name },
        webhooks: [
          {
            name,
            admissionReviewVersions: ['v1'],
            sideEffects: 'None',
            failurePolicy: 'Fail',
            timeoutSeconds: 5,
            clientConfig: { url: `https://127.0.0.1:${String(port)}/validate`, caBundle },
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns.name } },
            rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
          },
        ],
      },
    });
    try {
      // The webhook configuration reaches the apiserver's admission chain asynchronously.
      const denied = await waitFor(
        async () => {
          const outcome = await apiError(
            core.createNamespacedConfigMap({
              namespace: ns.name,
              body: { metadata: { name: `forbidden-${String(Date.now())}` } },
            }),
          ).catch(() => undefined);
          return outcome?.message.includes('names starting with forbidden are denied') === true ? outcome : undefined;
        },
        { description: 'the webhook to deny a ConfigMap' },
      );
      expect(denied.code).toBe(403);
      await core.createNamespacedConfigMap({ namespace: ns.name, body: { metadata: { name: 'allowed' } } });
      expect(reviewed).toContain('allowed');
    } finally {
      await admission.deleteValidatingWebhookConfiguration({ name });
    }
  });
});
