/**
 * The pod webhook of an integration test, registered with the run's real API server through the same
 * LocalWebhookConfiguration the launcher uses: an HTTPS server on 127.0.0.1 (a free port) with
 * certificates made for it, and a configuration for the test's namespace only (test files share one
 * control plane), Fail by default so that no pod of the test escapes the webhook.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Client, Manager } from '@kruise-ts/controller-runtime';
import type { WebhookServer } from '@kruise-ts/webhook';
import { startTestManager } from '@kruise-ts/controller-runtime/testing';
import { TestWebhookRegistration } from '@kruise-ts/webhook/testing';
import type { TestManager } from '@kruise-ts/controller-runtime/testing';
import { podResource } from '@kruise-ts/workload';
import type { Logger } from 'pino';

import { setupSidecarSetController } from '../controller.ts';
import { localPodWebhookConfiguration, webhookNamespaceSelector } from '../webhook/local-webhook-configuration.ts';
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
  /** Serve from an admission thread, as the app does by default (`--webhook-thread`); on the test's main thread otherwise. */
  readonly admissionThread?: boolean | undefined;
}

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
  readonly #registration: TestWebhookRegistration;

  constructor(options: TestPodWebhookOptions) {
    this.#options = options;
    this.configurationName = `kruise-ts-test-${options.namespace}`;
    const pod = {
      name: this.configurationName,
      failurePolicy: options.failurePolicy ?? 'Fail',
      namespaceSelector: webhookNamespaceSelector({ excluded: [], namespace: options.namespace }),
    };
    this.#registration = new TestWebhookRegistration({
      client: options.client,
      kind: 'MutatingWebhookConfiguration',
      name: this.configurationName,
      build: (input) => localPodWebhookConfiguration({ ...pod, ...input }),
      paths: [POD_WEBHOOK_PATH],
      logger: options.logger,
      timeoutMs: options.timeoutMs,
      admissionThread: options.admissionThread,
    });
    this.server = this.#registration.server;
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
        setupSidecarSetController(manager, {
          workers: 2,
          excludedNamespaces: ['kube-system'],
          namespace,
          revisionNamespace: namespace,
        });
        setupSidecarSetWebhook(manager, this.server, { revisionNamespace: namespace });
      },
    });
  }

  /** Serves, writes the configuration, and waits until the caBundle is in it and the API server calls the webhook. */
  start(): Promise<void> {
    return this.#registration.start(() => this.#createProbePod());
  }

  /** Stops the server and keeps the configuration: the API server's calls fail (a fail-open test). */
  stopServing(): Promise<void> {
    return this.#registration.stopServing();
  }

  /** Deletes the configuration, then stops the server; again is a no-op. */
  stop(): Promise<void> {
    return this.#registration.stop();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }

  /** Creates (and deletes) a probe pod that no SidecarSet selects: the webhook is called for its create. */
  async #createProbePod(): Promise<void> {
    const { client, namespace } = this.#options;
    const probe = await client.create(podResource, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { generateName: 'webhook-probe-', namespace, labels: { [PROBE_LABEL]: 'true' } },
      spec: { containers: [{ name: 'probe', image: 'busybox:1.36' }], terminationGracePeriodSeconds: 0 },
    });
    await client
      .delete(podResource, { namespace, name: probe.metadata?.name ?? '' }, { gracePeriodSeconds: 0 })
      .catch(() => undefined);
  }
}
