/**
 * Webhooks of an integration test, registered with the run's real API server through the same
 * LocalWebhookConfiguration the launcher uses: an HTTPS server on 127.0.0.1 (a free port) with
 * certificates made for it, and a Mutating- or ValidatingWebhookConfiguration the test builds (for its
 * own namespace or labels only: test files share one control plane). The test registers its handlers
 * on `server`, then `start`s with a probe.
 */
import type { Registry } from 'prom-client';
import type { Logger } from 'pino';

import type { Client } from '@kruise-ts/controller-runtime';
import { createRuntimeMetrics } from '@kruise-ts/controller-runtime';
import { mutatingWebhookConfigurationResource, validatingWebhookConfigurationResource } from '../ca-bundle-injector.ts';
import type { WebhookConfigurationKind, WebhookConfigurationLike } from '../ca-bundle-injector.ts';
import { LocalWebhookConfiguration } from '../local-webhook-configuration.ts';
import type { LocalWebhookBuildInput } from '../local-webhook-configuration.ts';
import { SelfManagedCertificates } from '../self-managed-certificates.ts';
import { WebhookServer } from '../webhook-server.ts';

export interface TestWebhookRegistrationOptions {
  readonly client: Client;
  readonly kind: WebhookConfigurationKind;
  /** The configuration's name. */
  readonly name: string;
  /** The configuration's webhooks once the server listens, with `input.caBundle` in their clientConfig. */
  readonly build: (input: LocalWebhookBuildInput) => WebhookConfigurationLike;
  /** The paths of the webhooks whose answers `answered` counts. */
  readonly paths: readonly string[];
  readonly logger: Logger;
  /** How long `start` waits for the API server to call the webhooks (30 s). */
  readonly timeoutMs?: number | undefined;
  /** Serve from an admission thread, as the apps do by default (`--webhook-thread`). */
  readonly admissionThread?: boolean | undefined;
}

const POLL_MS = 200;

/**
 * `start(probe)` serves, writes the configuration and returns once the API server calls the webhooks
 * (a configuration reaches the API server's own cache a moment after it is written, and until then
 * requests are admitted without it). `stop()` deletes the configuration, then stops the server.
 */
export class TestWebhookRegistration implements AsyncDisposable {
  readonly server: WebhookServer;
  readonly configurationName: string;
  readonly #options: TestWebhookRegistrationOptions;
  readonly #certificates: SelfManagedCertificates;
  // The server's own registry, not a manager's: the test's manager is made after the server it registers on.
  readonly #metrics = createRuntimeMetrics().registry;
  readonly #stopServing = new AbortController();
  readonly #stopRegistration = new AbortController();
  #serving: Promise<void> | undefined;
  #registration: Promise<void> | undefined;

  constructor(options: TestWebhookRegistrationOptions) {
    this.#options = options;
    this.configurationName = options.name;
    this.#certificates = new SelfManagedCertificates({
      dnsNames: ['localhost'],
      ipAddresses: ['127.0.0.1'],
      logger: options.logger,
    });
    this.server = new WebhookServer({
      certificates: this.#certificates,
      logger: options.logger,
      host: '127.0.0.1',
      port: 0,
      registry: this.#metrics,
      admissionThread: options.admissionThread,
    });
  }

  /**
   * Serves, writes the configuration, and returns once the caBundle is in it and the API server calls
   * the webhooks: `probe` sends a request that must reach them (e.g. a dry-run create of a valid
   * object), again until one does.
   */
  async start(probe: () => Promise<unknown>): Promise<void> {
    const { client, kind, build, logger } = this.#options;
    this.#serving = this.server.start(this.#stopServing.signal);
    await this.server.listening();
    this.#registration = new LocalWebhookConfiguration({
      client,
      kind,
      name: this.configurationName,
      port: () => this.server.listening(),
      certificates: this.#certificates,
      build,
      logger,
      backoff: { initialMs: 200, maxMs: 2_000 },
    }).start(this.#stopRegistration.signal);
    const deadline = performance.now() + (this.#options.timeoutMs ?? 30_000);
    await this.#poll(deadline, 'the caBundle in the webhook configuration', () => this.#hasCaBundle());
    await this.#poll(deadline, 'the API server calling the webhook', async () => {
      const before = await this.answered();
      await probe().catch(() => undefined);
      return (await this.answered()) > before;
    });
  }

  /** Stops the server and keeps the configuration: the API server's calls fail (a fail-open test). */
  async stopServing(): Promise<void> {
    this.#stopServing.abort();
    await this.#serving;
  }

  /** Deletes the configuration, then stops the server; again is a no-op. */
  async stop(): Promise<void> {
    this.#stopRegistration.abort();
    await this.#registration;
    await this.stopServing();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }

  /** Requests the webhooks answered with 200, from the server's `controller_runtime_webhook_requests_total`. */
  async answered(): Promise<number> {
    const paths = new Set(this.#options.paths);
    const metric = await this.#metrics.getSingleMetric('controller_runtime_webhook_requests_total')?.get();
    return (metric?.values ?? [])
      .filter((value) => paths.has(String(value.labels['webhook'])) && value.labels['code'] === '200')
      .reduce((sum, value) => sum + value.value, 0);
  }

  /** The server's metrics registry (the webhook latency histogram). */
  get metrics(): Registry {
    return this.#metrics;
  }

  async #poll(deadline: number, description: string, probe: () => Promise<boolean>): Promise<void> {
    while (!(await probe())) {
      if (performance.now() > deadline) {
        throw new Error(`timed out waiting for ${description} (${this.configurationName})`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  async #hasCaBundle(): Promise<boolean> {
    const resource =
      this.#options.kind === 'MutatingWebhookConfiguration'
        ? mutatingWebhookConfigurationResource
        : validatingWebhookConfigurationResource;
    const configuration = await this.#options.client
      .get(resource, { name: this.configurationName })
      .catch(() => undefined);
    const webhooks = configuration?.webhooks ?? [];
    return webhooks.length > 0 && webhooks.every((webhook) => (webhook.clientConfig?.caBundle ?? '') !== '');
  }
}
