import { describe, expect, it } from 'vitest';

import { createTestNamespace, testKubeConfig, waitFor } from '@kruise-ts/local-cluster/testing';

import {
  CaBundleInjector,
  mutatingWebhookConfigurationResource,
  patchResponseFromObjects,
  SecretCertificateStore,
  secretResource,
  SelfManagedCertificates,
  WebhookServer,
} from '../../src/index.ts';
import { createClient, createLogger, defineResource, Transport } from '@kruise-ts/controller-runtime';
import { splitPemCertificates } from '../../src/certificates.ts';
import type { AdmissionHandler } from '../../src/index.ts';
import type { KubeObject, LogLevel } from '@kruise-ts/controller-runtime';

interface ConfigMap extends KubeObject {
  readonly data?: Record<string, string>;
}

const configMaps = defineResource<ConfigMap>({
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
});
const kubeConfig = testKubeConfig();
const logger = createLogger({ level: (process.env['KRUISE_TS_TEST_LOG_LEVEL'] ?? 'silent') as LogLevel });
const LABEL = 'webhook.kruise-ts.io/mutated';

/** Adds the label to whatever object comes in (handlers parse objects themselves; this one needs only metadata). */
const addLabel: AdmissionHandler = (request) => {
  const object = (request.object ?? {}) as ConfigMap;
  return Promise.resolve(
    patchResponseFromObjects(object, {
      ...object,
      metadata: { ...object.metadata, labels: { ...object.metadata?.labels, [LABEL]: 'true' } },
    }),
  );
};

/** The configuration that sends this namespace's ConfigMap creates to the labelling webhook. */
function labelWebhookConfiguration(options: {
  name: string;
  port: number;
  namespace: string;
  failurePolicy: 'Ignore' | 'Fail';
  objectSelector?: { matchLabels: Record<string, string> };
}) {
  return {
    metadata: { name: options.name },
    webhooks: [
      {
        name: 'label.webhook.kruise-ts.io',
        clientConfig: { url: `https://127.0.0.1:${String(options.port)}/mutate-configmap` },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': options.namespace } },
        ...(options.objectSelector === undefined ? {} : { objectSelector: options.objectSelector }),
        failurePolicy: options.failurePolicy,
        timeoutSeconds: 5,
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ],
  };
}

describe('admission webhook server', () => {
  it('mutates ConfigMaps created through the API server, with the injected CA, and fails open once stopped', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'webhook');
    const client = createClient(new Transport({ kubeConfig, qps: 50, burst: 100, userAgent: 'kruise-ts-test' }));
    const certificates = new SelfManagedCertificates({
      dnsNames: ['localhost'],
      ipAddresses: ['127.0.0.1'],
      logger,
      store: new SecretCertificateStore({ client, namespace: ns.name, name: 'webhook-certs' }),
    });
    const server = new WebhookServer({ certificates, logger, host: '127.0.0.1', port: 0 });
    server.register('/mutate-configmap', addLabel, { failurePolicy: 'allow' });
    const stopServer = new AbortController();
    const stopInjector = new AbortController();
    const serving = server.start(stopServer.signal);
    const port = await server.listening();
    const name = `kruise-ts-test-${ns.name}`;
    let injecting: Promise<void> | undefined;
    try {
      await client.create(
        mutatingWebhookConfigurationResource,
        labelWebhookConfiguration({ name, port, namespace: ns.name, failurePolicy: 'Ignore' }),
      );
      injecting = new CaBundleInjector({
        client,
        certificates,
        targets: [{ kind: 'MutatingWebhookConfiguration', name }],
        logger,
      }).start(stopInjector.signal);
      const configuration = await waitFor(
        async () => {
          const current = await client.get(mutatingWebhookConfigurationResource, { name });
          return current.webhooks?.[0]?.clientConfig?.caBundle === undefined ? undefined : current;
        },
        { description: 'the CA bundle in the webhook configuration' },
      );
      expect(Buffer.from(configuration.webhooks?.[0]?.clientConfig?.caBundle ?? '', 'base64').toString()).toBe(
        certificates.caBundle(),
      );
      const secret = await client.get(secretResource, { namespace: ns.name, name: 'webhook-certs' });
      expect(Object.keys(secret.data ?? {}).sort()).toEqual(['ca.crt', 'ca.key', 'tls.crt', 'tls.key']);

      // The API server picks up webhook configurations from its own cache: create until one is mutated.
      const mutated = await waitFor(
        async () => {
          const created = await client.create(configMaps, {
            metadata: { generateName: 'mutated-', namespace: ns.name },
            data: { k: 'v' },
          });
          return created.metadata?.labels?.[LABEL] === 'true' ? created : undefined;
        },
        { description: 'a ConfigMap labelled by the webhook', intervalMs: 250 },
      );
      expect(mutated.data).toEqual({ k: 'v' });

      stopServer.abort();
      await serving;
      const created = await client.create(configMaps, { metadata: { name: 'server-gone', namespace: ns.name } });
      expect(created.metadata?.labels?.[LABEL]).toBeUndefined();
    } finally {
      stopServer.abort();
      stopInjector.abort();
      await Promise.all([serving, injecting]);
      await client.delete(mutatingWebhookConfigurationResource, { name }).catch(() => undefined);
      client.transport.close();
    }
  });

  it('rotates serving certificates and the CA under traffic without a failed admission (failurePolicy Fail)', async () => {
    await using ns = await createTestNamespace(kubeConfig, 'webhook-rotation');
    const client = createClient(new Transport({ kubeConfig, qps: 100, burst: 100, userAgent: 'kruise-ts-test' }));
    // Short lifetimes: a serving certificate every 4 s (a third of 12 s), a new CA once it cannot outlive one (after 18 s),
    // trusted 3 s before it signs. Real time: the API server checks these certificates against its own clock.
    const certificates = new SelfManagedCertificates({
      dnsNames: ['localhost'],
      ipAddresses: ['127.0.0.1'],
      logger,
      servingValidityMs: 12_000,
      caValidityMs: 30_000,
      caPropagationMs: 3_000,
    });
    const served = new Set<string>();
    const authorities = new Set<string>();
    certificates.onChange((certificate) => {
      served.add(certificate.certPem);
      authorities.add(splitPemCertificates(certificate.caPem ?? '')[0] ?? '');
    });
    const server = new WebhookServer({ certificates, logger, host: '127.0.0.1', port: 0 });
    server.register('/mutate-configmap', addLabel, { failurePolicy: 'allow' });
    const stop = new AbortController();
    const serving = server.start(stop.signal);
    const port = await server.listening();
    const name = `kruise-ts-rotation-${ns.name}`;
    let injecting: Promise<void> | undefined;
    try {
      await client.create(
        mutatingWebhookConfigurationResource,
        labelWebhookConfiguration({
          name,
          port,
          namespace: ns.name,
          failurePolicy: 'Fail',
          objectSelector: { matchLabels: { traffic: 'rotation' } },
        }),
      );
      injecting = new CaBundleInjector({
        client,
        certificates,
        targets: [{ kind: 'MutatingWebhookConfiguration', name }],
        logger,
      }).start(stop.signal);
      const create = () =>
        client.create(configMaps, {
          metadata: { generateName: 'rotation-', namespace: ns.name, labels: { traffic: 'rotation' } },
        });
      // Until the API server has the configuration, ConfigMaps pass without the label.
      await waitFor(async () => ((await create()).metadata?.labels?.[LABEL] === 'true' ? true : undefined), {
        description: 'the first mutated ConfigMap',
        intervalMs: 250,
      });
      const firstAuthority = splitPemCertificates(certificates.caBundle() ?? '')[0];
      const failures: string[] = [];
      let mutated = 0;
      const deadline = Date.now() + 26_000;
      const createOne = async (): Promise<string | undefined> => {
        try {
          const created = await create();
          return created.metadata?.labels?.[LABEL] === 'true'
            ? undefined
            : `${created.metadata?.name ?? ''} not mutated`;
        } catch (error) {
          return error instanceof Error ? error.message : String(error);
        }
      };
      // Several clients at once, so that requests are in flight at every rotation (new connections each time).
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          while (Date.now() < deadline) {
            const failure = await createOne();
            if (failure === undefined) {
              mutated++;
            } else {
              failures.push(failure);
            }
          }
        }),
      );
      expect(failures).toEqual([]);
      expect(mutated).toBeGreaterThan(200);
      expect(served.size).toBeGreaterThanOrEqual(4);
      expect([...authorities].some((authority) => authority !== firstAuthority)).toBe(true);
    } finally {
      stop.abort();
      await Promise.all([serving, injecting]);
      await client.delete(mutatingWebhookConfigurationResource, { name }).catch(() => undefined);
      client.transport.close();
    }
  }, 60_000);
});
