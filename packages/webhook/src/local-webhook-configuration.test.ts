import { describe, expect, it, vi } from 'vitest';

import { createLogger } from '@kruise-ts/controller-runtime';
import { Manager } from '@kruise-ts/controller-runtime';
import type { Runnable } from '@kruise-ts/controller-runtime';
import { fakeApiError, FakeClient, unreachableKubeConfig } from '@kruise-ts/controller-runtime/testing';
import { StubCertificates } from './testing/stub-certificates.ts';
import { mutatingWebhookConfigurationResource, validatingWebhookConfigurationResource } from './ca-bundle-injector.ts';
import type { WebhookConfigurationKind, WebhookConfigurationLike } from './ca-bundle-injector.ts';
import {
  addLocalWebhookConfiguration,
  LOCAL_WEBHOOK_CONFIGURATION_LABEL,
  LocalWebhookConfiguration,
} from './local-webhook-configuration.ts';
import type { LocalWebhookBuildInput } from './local-webhook-configuration.ts';
import { SelfManagedCertificates } from './self-managed-certificates.ts';
import { WebhookServer } from './webhook-server.ts';

const logger = createLogger({ level: 'silent' });
const b64 = (text: string): string => Buffer.from(text).toString('base64');

type Kind = WebhookConfigurationKind;

/** A configuration with one webhook at `/<path>` on 127.0.0.1, named otherwise than the runnable's (which wins). */
function build(kind: Kind, path = 'validate'): (input: LocalWebhookBuildInput) => WebhookConfigurationLike {
  return ({ port, caBundle }) => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name: 'from-build', labels: { team: 'apps' } },
    webhooks: [
      {
        name: 'w.example.io',
        clientConfig: {
          url: `https://127.0.0.1:${String(port)}/${path}`,
          ...(caBundle === undefined ? {} : { caBundle }),
        },
        failurePolicy: 'Fail',
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ],
  });
}

interface Running {
  readonly client: FakeClient;
  readonly certificates: StubCertificates;
  readonly port: PromiseWithResolvers<number>;
  stop(): Promise<void>;
}

interface RunOptions {
  readonly client?: FakeClient;
  readonly kind?: Kind;
  readonly caPem?: string | undefined;
  readonly path?: string;
}

/** Starts the runnable over a fake API server; the test resolves `port` when "the server listens". */
function run(options: RunOptions = {}): Running {
  const client = options.client ?? new FakeClient();
  const kind = options.kind ?? 'MutatingWebhookConfiguration';
  const certificates = new StubCertificates('caPem' in options ? options.caPem : 'CA-1');
  const port = Promise.withResolvers<number>();
  const stopper = new AbortController();
  const runnable = new LocalWebhookConfiguration({
    client,
    kind,
    name: 'local',
    port: () => port.promise,
    certificates,
    build: build(kind, options.path),
    logger,
    backoff: { initialMs: 5, maxMs: 5 },
  });
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

const stored = (client: FakeClient, kind: Kind = 'MutatingWebhookConfiguration'): WebhookConfigurationLike[] =>
  client.objects(
    kind === 'MutatingWebhookConfiguration'
      ? mutatingWebhookConfigurationResource
      : validatingWebhookConfigurationResource,
  );

describe('LocalWebhookConfiguration', () => {
  it('writes nothing until the server listens, then creates the configuration with the CA, and deletes it when stopped', async () => {
    const running = run();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(running.client.writes()).toEqual([]);
    running.port.resolve(40123);
    await expect.poll(() => stored(running.client).length).toBe(1);
    const [created] = stored(running.client);
    expect(created?.metadata).toMatchObject({
      name: 'local',
      labels: { team: 'apps', [LOCAL_WEBHOOK_CONFIGURATION_LABEL]: 'true' },
    });
    expect(created?.webhooks?.[0]).toMatchObject({
      clientConfig: { url: 'https://127.0.0.1:40123/validate', caBundle: b64('CA-1') },
      failurePolicy: 'Fail',
    });
    await running.stop();
    expect(stored(running.client)).toEqual([]);
    expect(running.client.writes().at(-1)).toMatchObject({
      verb: 'delete',
      resource: 'mutatingwebhookconfigurations',
      name: 'local',
      body: { uid: created?.metadata?.uid },
    });
  });

  it('creates a ValidatingWebhookConfiguration, keeps its caBundle, and deletes it when stopped', async () => {
    const running = run({ kind: 'ValidatingWebhookConfiguration' });
    running.port.resolve(40124);
    await expect.poll(() => stored(running.client, 'ValidatingWebhookConfiguration').length).toBe(1);
    expect(stored(running.client)).toEqual([]);
    const [created] = stored(running.client, 'ValidatingWebhookConfiguration');
    expect(created?.metadata?.labels).toEqual({ team: 'apps', [LOCAL_WEBHOOK_CONFIGURATION_LABEL]: 'true' });
    expect(created?.webhooks?.[0]?.clientConfig).toEqual({
      url: 'https://127.0.0.1:40124/validate',
      caBundle: b64('CA-1'),
    });
    running.certificates.rotate('CA-2');
    await expect
      .poll(() => stored(running.client, 'ValidatingWebhookConfiguration')[0]?.webhooks?.[0]?.clientConfig?.caBundle)
      .toBe(b64('CA-2'));
    await running.stop();
    expect(stored(running.client, 'ValidatingWebhookConfiguration')).toEqual([]);
    expect(running.client.writes().at(-1)).toMatchObject({
      verb: 'delete',
      resource: 'validatingwebhookconfigurations',
      name: 'local',
      body: { uid: created?.metadata?.uid },
    });
  });

  it('gives build no caBundle when the certificates name no CA', async () => {
    const running = run({ caPem: undefined });
    running.port.resolve(1);
    await expect.poll(() => stored(running.client).length).toBe(1);
    expect(stored(running.client)[0]?.webhooks?.[0]?.clientConfig).toEqual({ url: 'https://127.0.0.1:1/validate' });
    await running.stop();
  });

  it('takes over a configuration a killed process left behind (new port), and deletes it when stopped', async () => {
    const client = new FakeClient();
    client.seed(mutatingWebhookConfigurationResource, [
      {
        ...build('MutatingWebhookConfiguration')({ port: 1111, caBundle: b64('old CA') }),
        metadata: { name: 'local' },
      },
    ]);
    const running = run({ client });
    running.port.resolve(2222);
    await expect
      .poll(() => stored(client)[0]?.webhooks?.[0]?.clientConfig?.url)
      .toBe('https://127.0.0.1:2222/validate');
    expect(stored(client)[0]?.webhooks?.[0]).toMatchObject({ clientConfig: { caBundle: b64('CA-1') } });
    expect(stored(client)[0]?.metadata?.labels).toMatchObject({ [LOCAL_WEBHOOK_CONFIGURATION_LABEL]: 'true' });
    await running.stop();
    expect(stored(client)).toEqual([]);
  });

  it('retries a failed write', async () => {
    const client = new FakeClient();
    let failures = 2;
    client.prependReactor({ verb: 'create' }, () => {
      if (failures-- > 0) {
        throw fakeApiError({ code: 503, reason: 'ServiceUnavailable' });
      }
      return undefined;
    });
    const running = run({ client });
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
    await running.client.create(mutatingWebhookConfigurationResource, {
      ...build('MutatingWebhookConfiguration')({ port: 6666, caBundle: b64('theirs') }),
      metadata: { name: 'local' },
    });
    await running.stop();
    expect(stored(running.client).map((object) => object.webhooks?.[0]?.clientConfig?.url)).toEqual([
      'https://127.0.0.1:6666/validate',
    ]);
  });

  it('writes nothing when stopped before the server listens', async () => {
    const running = run();
    await running.stop();
    running.port.resolve(7777);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(running.client.writes()).toEqual([]);
  });
});

describe('addLocalWebhookConfiguration', () => {
  it('adds a runnable for every replica to the manager', () => {
    const kubeConfig = unreachableKubeConfig();
    const manager = new Manager({ kubeConfig, logger });
    const added: Runnable[] = [];
    vi.spyOn(manager, 'add').mockImplementation((runnable) => {
      added.push(runnable);
    });
    const server = new WebhookServer({
      certificates: new SelfManagedCertificates({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], logger }),
      logger,
      host: '127.0.0.1',
      port: 0,
    });
    addLocalWebhookConfiguration(manager, server, {
      kind: 'ValidatingWebhookConfiguration',
      name: 'local',
      build: build('ValidatingWebhookConfiguration'),
    });
    expect(added).toHaveLength(1);
    expect(added[0]).toBeInstanceOf(LocalWebhookConfiguration);
    expect(added[0]?.needLeaderElection).toBe(false);
  });
});
