/**
 * The pod webhook of an integration test, registered with the run's real API server through the same
 * LocalWebhookConfiguration the launcher uses: an HTTPS server on 127.0.0.1 (a free port) with
 * certificates made for it, and a configuration for the test's namespace only (test files share one
 * control plane), Fail by default so that no pod of the test escapes the webhook.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { createRuntimeMetrics, mutatingWebhookConfigurationResource, SelfManagedCertificates, WebhookServer } from '@kruise-ts/controller-runtime';
import type { Client, Manager } from '@kruise-ts/controller-runtime';
import { startTestManager } from '@kruise-ts/controller-runtime/testing';
import type { TestManager } from '@kruise-ts/controller-runtime/testing';
import { podResource } from '@kruise-ts/workload';
import type { Logger } from 'pino';

import { setupSidecarSetController } from '../controller.ts';
import { LocalWebhookConfiguration, webhookNamespaceSelector } from '../webhook/local-webhook-configuration.ts';
import { POD_WEBHOOK_PATH, setupSidecarSetWebhook } from '../webhook/setup-webhook.ts';

export interface TestPodWebhookOptions {
  readonly client: Client;
  /** The only namespace whose pods go to the webhook. */
  readonly namespace: string;
  readonly logger: Logger;
  /** Fail (default): no pod of the namespace is created without the webhook's answer. Ignore: a fail-open test. */
  readonly failurePolicy?: 'Fail' | 'Ignore' | undefined;
  /** How long `start` waits for the API server to call the webhook (30 s). */
  readonly timeoutMs?: number | undefined;
}

const POLL_MS = 200;
const PROBE_LABEL = 'kruise-ts.io/webhook-probe';

/**
 * `startManager` (or a test manager of the test's own whose setup registers the handler on `server`),
 * then `start()`: it serves, writes the configuration and returns once the API server calls the
 * webhook (a configuration reaches the API server's own cache a moment after it is written, and until
 * then pods are created without it). `stop()` deletes the configuration, then stops the server.
 */
export class TestPodWebhook implements AsyncDisposable {
  readonly server: WebhookServer;
  /** The MutatingWebhookConfiguration's name (`kruise-ts-test-<namespace>`). */
  readonly configurationName: string;
  readonly #options: TestPodWebhookOptions;
  readonly #certificates: SelfManagedCertificates;
  // The server's own registry, not a manager's: the test's manager is made after the server it registers on.
  readonly #metrics = createRuntimeMetrics().registry;
  readonly #stopServing = new AbortController();
  readonly #stopRegistration = new AbortController();
  #serving: Promise<void> | undefined;
  #registration: Promise<void> | undefined;

  constructor(options: TestPodWebhookOptions) {
    this.#options = options;
    this.configurationName = `kruise-ts-test-${options.namespace}`;
    this.#certificates = new SelfManagedCertificates({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], logger: options.logger });
    this.server = new WebhookServer({ certificates: this.#certificates, logger: options.logger, host: '127.0.0.1', port: 0, registry: this.#metrics });
  }

  /**
   * A test manager for the namespace with the SidecarSet controller (revisions in the namespace) and
   * this server's pod handler; `setup` registers more (a workload controller next to it).
   */
  startManager(kubeConfig: KubeConfig, setup?: (manager: Manager) => void): TestManager {
    const { namespace } = this.#options;
    return startTestManager({
      kubeConfig,
      namespace,
      setup: (manager) => {
        setup?.(manager);
        setupSidecarSetController(manager, { workers: 2, excludedNamespaces: ['kube-system'], namespace, revisionNamespace: namespace });
        setupSidecarSetWebhook(manager, this.server, { revisionNamespace: namespace });
      },
    });
  }

  /** Serves, writes the configuration, and waits until the caBundle is in it and the API server calls the webhook. */
  async start(): Promise<void> {
    const { client, namespace, logger } = this.#options;
    this.#serving = this.server.start(this.#stopServing.signal);
    await this.server.listening();
    this.#registration = new LocalWebhookConfiguration({
      client,
      name: this.configurationName,
      port: () => this.server.listening(),
      certificates: this.#certificates,
      failurePolicy: this.#options.failurePolicy ?? 'Fail',
      namespaceSelector: webhookNamespaceSelector({ excluded: [], namespace }),
      logger,
      backoff: { initialMs: 200, maxMs: 2_000 },
    }).start(this.#stopRegistration.signal);
    const deadline = performance.now() + (this.#options.timeoutMs ?? 30_000);
    await this.#poll(deadline, 'the caBundle in the webhook configuration', () => this.#hasCaBundle());
    await this.#poll(deadline, 'the API server calling the webhook', () => this.#probeCalled());
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

  async #poll(deadline: number, description: string, probe: () => Promise<boolean>): Promise<void> {
    while (!(await probe())) {
      if (performance.now() > deadline) {
        throw new Error(`timed out waiting for ${description} (${this.configurationName})`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  async #hasCaBundle(): Promise<boolean> {
    const { client } = this.#options;
    const configuration = await client.get(mutatingWebhookConfigurationResource, { name: this.configurationName }).catch(() => undefined);
    return (configuration?.webhooks?.[0]?.clientConfig?.caBundle ?? '') !== '';
  }

  /** Creates (and deletes) a probe pod that no SidecarSet selects; true when the webhook answered for it. */
  async #probeCalled(): Promise<boolean> {
    const { client, namespace } = this.#options;
    const before = await this.#answered();
    const probe = await client
      .create(podResource, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { generateName: 'webhook-probe-', namespace, labels: { [PROBE_LABEL]: 'true' } },
        spec: { containers: [{ name: 'probe', image: 'busybox:1.36' }], terminationGracePeriodSeconds: 0 },
      })
      .catch(() => undefined);
    if (probe === undefined) {
      return false;
    }
    await client.delete(podResource, { namespace, name: probe.metadata?.name ?? '' }, { gracePeriodSeconds: 0 }).catch(() => undefined);
    return (await this.#answered()) > before;
  }

  /** Requests the pod webhook answered with 200, from the server's `controller_runtime_webhook_requests_total`. */
  async #answered(): Promise<number> {
    const metric = await this.#metrics.getSingleMetric('controller_runtime_webhook_requests_total')?.get();
    return (metric?.values ?? []).filter((value) => value.labels['webhook'] === POD_WEBHOOK_PATH && value.labels['code'] === '200').reduce((sum, value) => sum + value.value, 0);
  }
}
