import { describe, expect, it } from 'vitest';

import { podWebhookConfiguration } from './webhook-configuration.ts';

describe('podWebhookConfiguration', () => {
  it('is fail-open, pods CREATE only, at most 5 s, and never sees kube-system by default', () => {
    const [webhook] =
      podWebhookConfiguration({
        name: 'c',
        clientConfig: { service: { namespace: 'kruise-system', name: 'kruise-ts-webhook' } },
        timeoutSeconds: 30,
      }).webhooks ?? [];
    expect(webhook).toMatchObject({
      name: 'mpod.kruise-ts.io',
      clientConfig: { service: { namespace: 'kruise-system', name: 'kruise-ts-webhook', path: '/mutate-pod' } },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      namespaceSelector: {
        matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }],
      },
      failurePolicy: 'Ignore',
      timeoutSeconds: 5,
      sideEffects: 'None',
    });
  });

  it('takes a URL for local use and another failure policy when asked', () => {
    const [webhook] =
      podWebhookConfiguration({
        name: 'c',
        clientConfig: { url: 'https://127.0.0.1:9876/mutate-pod' },
        failurePolicy: 'Fail',
      }).webhooks ?? [];
    expect(webhook?.clientConfig).toEqual({ url: 'https://127.0.0.1:9876/mutate-pod' });
    expect(webhook?.['failurePolicy']).toBe('Fail');
  });
});
