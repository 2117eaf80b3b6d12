import { describe, expect, it } from 'vitest';

import { createLogger, mutatingWebhookConfigurationResource } from '@kruise-ts/controller-runtime';
import type { CertificateSource, ServingCertificate, WebhookConfigurationLike } from '@kruise-ts/controller-runtime';
import { fakeApiError, FakeClient } from '@kruise-ts/controller-runtime/testing';

import { LocalWebhookConfiguration, localPodWebhookConfiguration, webhookNamespaceSelector } from './local-webhook-configuration.ts';

const logger = createLogger({ level: 'silent' });
const b64 = (text: string): string => Buffer.from(text).toString('base64');

class StubCertificates implements Pick<CertificateSource, 'current' | 'onChange'> {
  readonly #listeners = new Set<(certificate: ServingCertificate) => void>();
  #current: ServingCertificate = { certPem: 'c', keyPem: 'k', caPem: 'CA-1' };

  current(): ServingCertificate {
    return this.#current;
  }

  onChange(listener: (certificate: ServingCertificate) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  rotate(caPem: string): void {
    this.#current = { certPem: 'c2', keyPem: 'k2', caPem };
    for (const listener of this.#listeners) listener(this.#current);
  }
}

interface Running {
  readonly client: FakeClient;
  readonly certificates: StubCertificates;
  readonly port: PromiseWithResolvers<number>;
  stop(): Promise<void>;
}

/** Starts the runnable over a fake API server; the test resolves `port` when "the server listens". */
function run(client = new FakeClient(), options: { failurePolicy?: 'Fail' } = {}): Running {
  const certificates = new StubCertificates();
  const port = Promise.withResolvers<number>();
  const stopper = new AbortController();
  const runnable = new LocalWebhookConfiguration({ client, name: 'local', port: () => port.promise, certificates, namespaceSelector: webhookNamespaceSelector({ excluded: ['kube-system'] }), logger, backoff: { initialMs: 5, maxMs: 5 }, ...options });
  const done = runnable.start(stopper.signal);
  return {
    client,
    certificates,
    port,
    stop: async () => {
      stopper.abort();
      await done;
    },
  };
}

const stored = (client: FakeClient): WebhookConfigurationLike[] => client.objects(mutatingWebhookConfigurationResource);

describe('localPodWebhookConfiguration', () => {
  it('points at the pod webhook on 127.0.0.1 with the CA, fail-open, and is labelled as local', () => {
    const built = localPodWebhookConfiguration({ name: 'local', port: 40123, caPem: 'CA', namespaceSelector: webhookNamespaceSelector({ excluded: [], namespace: 'ns' }) });
    expect(built.metadata?.labels).toEqual({ 'kruise-ts.io/local-webhook-configuration': 'true' });
    expect(built.webhooks).toMatchObject([
      { name: 'mpod.kruise-ts.io', clientConfig: { url: 'https://127.0.0.1:40123/mutate-pod', caBundle: b64('CA') }, failurePolicy: 'Ignore', namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['ns'] }] } },
    ]);
  });

  it('leaves caBundle out when the certificates name no CA (the injector has nothing to add either)', () => {
    const [webhook] = localPodWebhookConfiguration({ name: 'local', port: 1, caPem: undefined }).webhooks ?? [];
    expect(webhook?.clientConfig).toEqual({ url: 'https://127.0.0.1:1/mutate-pod' });
  });
});

describe('webhookNamespaceSelector', () => {
  it('excludes the named namespaces (none: every namespace), and keeps to one namespace when given', () => {
    const key = 'kubernetes.io/metadata.name';
    expect(webhookNamespaceSelector({ excluded: ['kube-system', 'kruise-system'] })).toEqual({ matchExpressions: [{ key, operator: 'NotIn', values: ['kube-system', 'kruise-system'] }] });
    expect(webhookNamespaceSelector({ excluded: [] })).toEqual({});
    expect(webhookNamespaceSelector({ excluded: ['kube-system'], namespace: 'web' })).toEqual({
      matchExpressions: [
        { key, operator: 'In', values: ['web'] },
        { key, operator: 'NotIn', values: ['kube-system'] },
      ],
    });
  });
});

describe('LocalWebhookConfiguration', () => {
  it('writes nothing until the server listens, then creates the configuration with the CA, and deletes it when stopped', async () => {
    const running = run();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(running.client.writes()).toEqual([]);
    running.port.resolve(40123);
    await expect.poll(() => stored(running.client).length).toBe(1);
    const [created] = stored(running.client);
    expect(created?.webhooks?.[0]).toMatchObject({ clientConfig: { url: 'https://127.0.0.1:40123/mutate-pod', caBundle: b64('CA-1') }, failurePolicy: 'Ignore', namespaceSelector: webhookNamespaceSelector({ excluded: ['kube-system'] }) });
    await running.stop();
    expect(stored(running.client)).toEqual([]);
    expect(running.client.writes().at(-1)).toMatchObject({ verb: 'delete', name: 'local', body: { uid: created?.metadata?.uid } });
  });

  it('takes over a configuration a killed process left behind (new port), and deletes it when stopped', async () => {
    const client = new FakeClient();
    client.seed(mutatingWebhookConfigurationResource, [localPodWebhookConfiguration({ name: 'local', port: 1111, caPem: 'old CA' })]);
    const running = run(client, { failurePolicy: 'Fail' });
    running.port.resolve(2222);
    await expect.poll(() => stored(client)[0]?.webhooks?.[0]?.clientConfig?.url).toBe('https://127.0.0.1:2222/mutate-pod');
    expect(stored(client)[0]?.webhooks?.[0]).toMatchObject({ clientConfig: { caBundle: b64('CA-1') }, failurePolicy: 'Fail' });
    await running.stop();
    expect(stored(client)).toEqual([]);
  });

  it('retries a failed write', async () => {
    const client = new FakeClient();
    let failures = 2;
    client.prependReactor({ verb: 'create' }, () => {
      if (failures-- > 0) throw fakeApiError({ code: 503, reason: 'ServiceUnavailable' });
      return undefined;
    });
    const running = run(client);
    running.port.resolve(3333);
    await expect.poll(() => stored(client).length).toBe(1);
    expect(client.writes().filter((action) => action.verb === 'create')).toHaveLength(3);
    await running.stop();
  });

  it('keeps the caBundle current when the certificates rotate', async () => {
    const running = run();
    running.port.resolve(4444);
    await expect.poll(() => stored(running.client).length).toBe(1);
    running.certificates.rotate('CA-2');
    await expect.poll(() => stored(running.client)[0]?.webhooks?.[0]?.clientConfig?.caBundle).toBe(b64('CA-2'));
    await running.stop();
  });

  it('leaves alone a configuration of the same name that another process wrote since', async () => {
    const running = run();
    running.port.resolve(5555);
    await expect.poll(() => stored(running.client).length).toBe(1);
    await running.client.delete(mutatingWebhookConfigurationResource, { name: 'local' });
    await running.client.create(mutatingWebhookConfigurationResource, localPodWebhookConfiguration({ name: 'local', port: 6666, caPem: 'theirs' }));
    await running.stop();
    expect(stored(running.client).map((object) => object.webhooks?.[0]?.clientConfig?.url)).toEqual(['https://127.0.0.1:6666/mutate-pod']);
  });

  it('writes nothing when stopped before the server listens', async () => {
    const running = run();
    await running.stop();
    running.port.resolve(7777);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(running.client.writes()).toEqual([]);
  });
});
