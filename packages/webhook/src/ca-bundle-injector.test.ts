import { describe, expect, it, vi } from 'vitest';

import { createLogger } from '@kruise-ts/controller-runtime';
import { FakeClient } from '@kruise-ts/controller-runtime/testing';
import { FakeClock } from '@kruise-ts/controller-runtime/testing';
import { StubCertificates } from './testing/stub-certificates.ts';
import {
  caBundlePatch,
  CaBundleInjector,
  conversionCaBundlePatch,
  mutatingWebhookConfigurationResource,
  validatingWebhookConfigurationResource,
} from './ca-bundle-injector.ts';
import type { CaBundleTarget, CustomResourceDefinitionLike, WebhookConfigurationLike } from './ca-bundle-injector.ts';

const logger = createLogger({ level: 'silent' });
const b64 = (text: string): string => Buffer.from(text).toString('base64');

function configuration(name: string, webhooks: readonly string[]): WebhookConfigurationLike {
  return {
    metadata: { name },
    webhooks: webhooks.map((webhook) => ({
      name: webhook,
      clientConfig: { url: `https://127.0.0.1/${webhook}` },
      sideEffects: 'None',
    })),
  };
}

function bundles(
  client: FakeClient,
  resource = mutatingWebhookConfigurationResource,
): Record<string, string | undefined> {
  const [stored] = client.objects(resource);
  return Object.fromEntries((stored?.webhooks ?? []).map((webhook) => [webhook.name, webhook.clientConfig?.caBundle]));
}

describe('conversionCaBundlePatch', () => {
  const crd = (conversion: unknown): CustomResourceDefinitionLike =>
    ({ spec: { conversion } }) as CustomResourceDefinitionLike;

  const service = { service: { name: 'svc', namespace: 'ns' } };

  it('sets the bundle of a conversion webhook that calls our Service, testing that it still does', () => {
    expect(
      conversionCaBundlePatch(crd({ strategy: 'Webhook', webhook: { clientConfig: service } }), service, b64('CA')),
    ).toEqual([
      { op: 'test', path: '/spec/conversion/webhook/clientConfig/service/name', value: 'svc' },
      { op: 'test', path: '/spec/conversion/webhook/clientConfig/service/namespace', value: 'ns' },
      { op: 'add', path: '/spec/conversion/webhook/clientConfig/caBundle', value: b64('CA') },
    ]);
  });

  it('sets the bundle of a local conversion webhook (a URL)', () => {
    const calls = { url: 'https://127.0.0.1:1/convert' };
    expect(
      conversionCaBundlePatch(crd({ strategy: 'Webhook', webhook: { clientConfig: calls } }), calls, b64('CA')),
    ).toEqual([
      { op: 'test', path: '/spec/conversion/webhook/clientConfig/url', value: calls.url },
      { op: 'add', path: '/spec/conversion/webhook/clientConfig/caBundle', value: b64('CA') },
    ]);
  });

  it('writes nothing where the bundle is current', () => {
    expect(
      conversionCaBundlePatch(
        crd({ strategy: 'Webhook', webhook: { clientConfig: { ...service, caBundle: b64('CA') } } }),
        service,
        b64('CA'),
      ),
    ).toEqual([]);
  });

  it.each([
    ['converts with None', { strategy: 'None' }],
    [
      'calls another Service',
      { strategy: 'Webhook', webhook: { clientConfig: { service: { name: 'other', namespace: 'ns' } } } },
    ],
    ['calls a URL', { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://127.0.0.1:9/convert' } } }],
  ])('leaves the CRD alone when it %s', (_case, conversion) => {
    expect(conversionCaBundlePatch(crd(conversion), service, b64('CA'))).toBeUndefined();
  });
});

describe('caBundlePatch', () => {
  it.each([
    { name: 'named webhooks only', target: { webhooks: ['b'] }, current: {}, expected: [1], missing: [] },
    { name: 'every webhook when none are named', target: {}, current: {}, expected: [0, 1], missing: [] },
    { name: 'nothing where the bundle is already right', target: {}, current: { a: 'CA' }, expected: [1], missing: [] },
    {
      name: 'reports names the configuration lacks',
      target: { webhooks: ['a', 'z'] },
      current: {},
      expected: [0],
      missing: ['z'],
    },
  ])('$name', ({ target, current, expected, missing }) => {
    const config: WebhookConfigurationLike = {
      webhooks: ['a', 'b'].map((name) => ({
        name,
        clientConfig: {
          ...(name in current ? { caBundle: b64((current as Record<string, string>)[name] ?? '') } : {}),
        },
      })),
    };
    const patch = caBundlePatch(config, target, b64('CA'));
    expect(patch.missing).toEqual(missing);
    expect(patch.operations).toEqual(
      expected.flatMap((index) => [
        { op: 'test', path: `/webhooks/${String(index)}/name`, value: ['a', 'b'][index] },
        { op: 'add', path: `/webhooks/${String(index)}/clientConfig/caBundle`, value: b64('CA') },
      ]),
    );
  });
});

describe('CaBundleInjector', () => {
  const targets: readonly CaBundleTarget[] = [
    { kind: 'MutatingWebhookConfiguration', name: 'kruise-ts-mutating', webhooks: ['mpod.kruise.io'] },
    { kind: 'ValidatingWebhookConfiguration', name: 'kruise-ts-validating' },
  ];

  it('injects at start, after a rotation and after someone reset the field, writing only when it differs', async () => {
    const client = new FakeClient();
    client.seed(mutatingWebhookConfigurationResource, [
      configuration('kruise-ts-mutating', ['mpod.kruise.io', 'other.example.com']),
    ]);
    client.seed(validatingWebhookConfigurationResource, [
      configuration('kruise-ts-validating', ['v1.kruise.io', 'v2.kruise.io']),
    ]);
    const clock = new FakeClock();
    const source = new StubCertificates('CA-1');
    const stop = new AbortController();
    const running = new CaBundleInjector({
      client,
      certificates: source,
      targets,
      logger,
      clock,
      resyncIntervalMs: 60_000,
    }).start(stop.signal);

    await vi.waitFor(() => {
      expect(bundles(client)).toEqual({ 'mpod.kruise.io': b64('CA-1'), 'other.example.com': undefined });
      expect(bundles(client, validatingWebhookConfigurationResource)).toEqual({
        'v1.kruise.io': b64('CA-1'),
        'v2.kruise.io': b64('CA-1'),
      });
    });
    expect(client.writes().map((write) => write.patchType)).toEqual(['json', 'json']);

    await vi.waitFor(() => {
      expect(clock.pendingTimers()).toBe(1);
    });
    clock.advance(60_000);
    await vi.waitFor(() => {
      expect(client.actions.filter((action) => action.verb === 'get')).toHaveLength(4);
      expect(clock.pendingTimers()).toBe(1);
    });
    expect(client.writes()).toHaveLength(2);

    source.rotate('CA-2');
    await vi.waitFor(() => {
      expect(bundles(client)['mpod.kruise.io']).toBe(b64('CA-2'));
      expect(bundles(client, validatingWebhookConfigurationResource)['v2.kruise.io']).toBe(b64('CA-2'));
    });

    // `helm upgrade` puts back the chart's configuration, without a caBundle.
    await vi.waitFor(() => {
      expect(clock.pendingTimers()).toBe(1);
    });
    client.seed(mutatingWebhookConfigurationResource, [
      configuration('kruise-ts-mutating', ['mpod.kruise.io', 'other.example.com']),
    ]);
    clock.advance(60_000);
    await vi.waitFor(() => {
      expect(bundles(client)['mpod.kruise.io']).toBe(b64('CA-2'));
    });
    stop.abort();
    await running;
  });

  it('retries with backoff until the configuration exists', async () => {
    const client = new FakeClient();
    const clock = new FakeClock();
    const stop = new AbortController();
    const target: CaBundleTarget = { kind: 'MutatingWebhookConfiguration', name: 'late' };
    const running = new CaBundleInjector({
      client,
      certificates: new StubCertificates('CA'),
      targets: [target],
      logger,
      clock,
      backoff: { initialMs: 100, maxMs: 400, jitter: 0 },
    }).start(stop.signal);
    const gets = (): number => client.actions.filter((action) => action.verb === 'get').length;
    for (const [delay, expected] of [
      [0, 1],
      [100, 2],
      [200, 3],
      [400, 4],
      [400, 5],
    ] as const) {
      clock.advance(delay);
      await vi.waitFor(() => {
        expect(gets()).toBe(expected);
        expect(clock.pendingTimers()).toBe(1);
      });
    }
    client.seed(mutatingWebhookConfigurationResource, [configuration('late', ['w'])]);
    clock.advance(400);
    await vi.waitFor(() => {
      expect(bundles(client)).toEqual({ w: b64('CA') });
    });
    stop.abort();
    await running;
  });

  it('waits for a CA while the source has none', async () => {
    const client = new FakeClient();
    client.seed(mutatingWebhookConfigurationResource, [configuration('c', ['w'])]);
    const source = new StubCertificates(undefined);
    const stop = new AbortController();
    const running = new CaBundleInjector({
      client,
      certificates: source,
      targets: [{ kind: 'MutatingWebhookConfiguration', name: 'c' }],
      logger,
      clock: new FakeClock(),
    }).start(stop.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.actions).toEqual([]);
    source.rotate('CA');
    await vi.waitFor(() => {
      expect(bundles(client)).toEqual({ w: b64('CA') });
    });
    stop.abort();
    await running;
  });
});
