import { describe, expect, it } from 'vitest';

import { createLogger } from '@kruise-ts/controller-runtime';
import {
  LOCAL_WEBHOOK_CONFIGURATION_LABEL,
  LocalWebhookConfiguration,
  mutatingWebhookConfigurationResource,
} from '@kruise-ts/webhook';
import type { ServingCertificate } from '@kruise-ts/webhook';
import { FakeClient } from '@kruise-ts/controller-runtime/testing';

import { localPodWebhookConfiguration, webhookNamespaceSelector } from './local-webhook-configuration.ts';

const logger = createLogger({ level: 'silent' });
const b64 = (text: string): string => Buffer.from(text).toString('base64');

describe('localPodWebhookConfiguration', () => {
  it('points at the pod webhook on 127.0.0.1 with the CA, fail-open', () => {
    const built = localPodWebhookConfiguration({
      name: 'local',
      port: 40123,
      caBundle: b64('CA'),
      namespaceSelector: webhookNamespaceSelector({ excluded: [], namespace: 'ns' }),
    });
    expect(built.metadata?.name).toBe('local');
    expect(built.webhooks).toMatchObject([
      {
        name: 'mpod.kruise-ts.io',
        clientConfig: { url: 'https://127.0.0.1:40123/mutate-pod', caBundle: b64('CA') },
        failurePolicy: 'Ignore',
        namespaceSelector: {
          matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['ns'] }],
        },
      },
    ]);
  });

  it('leaves caBundle out when the certificates name no CA (the injector has nothing to add either)', () => {
    const [webhook] = localPodWebhookConfiguration({ name: 'local', port: 1, caBundle: undefined }).webhooks ?? [];
    expect(webhook?.clientConfig).toEqual({ url: 'https://127.0.0.1:1/mutate-pod' });
  });
});

describe('webhookNamespaceSelector', () => {
  it('excludes the named namespaces (none: every namespace), and keeps to one namespace when given', () => {
    const key = 'kubernetes.io/metadata.name';
    expect(webhookNamespaceSelector({ excluded: ['kube-system', 'kruise-system'] })).toEqual({
      matchExpressions: [{ key, operator: 'NotIn', values: ['kube-system', 'kruise-system'] }],
    });
    expect(webhookNamespaceSelector({ excluded: [] })).toEqual({});
    expect(webhookNamespaceSelector({ excluded: ['kube-system'], namespace: 'web' })).toEqual({
      matchExpressions: [
        { key, operator: 'In', values: ['web'] },
        { key, operator: 'NotIn', values: ['kube-system'] },
      ],
    });
  });
});

describe('localPodWebhookConfiguration as the build of a LocalWebhookConfiguration', () => {
  it('registers the pod webhook labelled as local, with the CA, and deletes it when stopped', async () => {
    const client = new FakeClient();
    const certificate: ServingCertificate = { certPem: 'c', keyPem: 'k', caPem: 'CA-1' };
    const namespaceSelector = webhookNamespaceSelector({ excluded: ['kube-system'] });
    const stopper = new AbortController();
    const done = new LocalWebhookConfiguration({
      client,
      kind: 'MutatingWebhookConfiguration',
      name: 'local',
      port: () => Promise.resolve(40123),
      certificates: { current: () => certificate, onChange: () => () => undefined },
      build: (input) => localPodWebhookConfiguration({ name: 'local', namespaceSelector, ...input }),
      logger,
    }).start(stopper.signal);
    await expect.poll(() => client.objects(mutatingWebhookConfigurationResource).length).toBe(1);
    const [created] = client.objects(mutatingWebhookConfigurationResource);
    expect(created?.metadata?.labels).toEqual({ [LOCAL_WEBHOOK_CONFIGURATION_LABEL]: 'true' });
    expect(created?.webhooks?.[0]).toMatchObject({
      name: 'mpod.kruise-ts.io',
      clientConfig: { url: 'https://127.0.0.1:40123/mutate-pod', caBundle: b64('CA-1') },
      failurePolicy: 'Ignore',
      namespaceSelector,
    });
    stopper.abort();
    await done;
    expect(client.objects(mutatingWebhookConfigurationResource)).toEqual([]);
  });
});
