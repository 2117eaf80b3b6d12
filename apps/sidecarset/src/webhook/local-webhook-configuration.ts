/**
 * The pod webhook's MutatingWebhookConfiguration for a process next to a local control plane (`npm run
 * controllers`, the demo, tests, the benchmark), where no Service leads to the process: the API server
 * calls `https://127.0.0.1:<port>/mutate-pod`. The process writes it once it listens (a port picked at
 * random is known only then), keeps its caBundle, and deletes it when it stops: a configuration whose
 * URL leads nowhere would cost every pod creation a failed call (fail-open, but not free). In a
 * cluster the chart renders the configuration instead, and no process writes one.
 */
import { Backoff, CaBundleInjector, isAlreadyExists, isConflict, isNotFound, mutatingWebhookConfigurationResource } from '@kruise-ts/controller-runtime';
import type { LabelSelector } from '@kruise-ts/api';
import type { BackoffOptions, CertificateSource, Manager, ObjectApi, Runnable, WebhookConfigurationLike, WebhookServer } from '@kruise-ts/controller-runtime';
import type { Logger } from 'pino';

import { POD_WEBHOOK_PATH } from './setup-webhook.ts';
import { podWebhookConfiguration } from './webhook-configuration.ts';

/** Marks the configurations a local process wrote for itself (`kubectl get mutatingwebhookconfigurations -l ...`). */
export const LOCAL_WEBHOOK_CONFIGURATION_LABEL = 'kruise-ts.io/local-webhook-configuration';

export interface LocalWebhookConfigurationOptions {
  readonly client: Pick<ObjectApi, 'get' | 'create' | 'update' | 'patch' | 'delete'>;
  readonly name: string;
  /** Resolves with the port the webhook server listens on at 127.0.0.1 (`WebhookServer.listening`). */
  readonly port: () => Promise<number>;
  /** The server's certificate source: its CA is the configuration's caBundle. */
  readonly certificates: Pick<CertificateSource, 'current' | 'onChange'>;
  /** Ignore (default, as in production) or Fail (tests, so that no pod escapes the webhook). */
  readonly failurePolicy?: 'Ignore' | 'Fail' | undefined;
  /** Which namespaces' pods go to the webhook (the builder's default when undefined). */
  readonly namespaceSelector?: LabelSelector | undefined;
  readonly logger: Logger;
  /** Between failed writes (default 500 ms up to 30 s). */
  readonly backoff?: BackoffOptions | undefined;
}

/**
 * The namespaces whose pods go to the webhook: every one but `excluded`, and only `namespace` when
 * given (a manager restricted with --namespace caches no other namespace's pods and SidecarSets).
 */
export function webhookNamespaceSelector(options: { readonly excluded: readonly string[]; readonly namespace?: string | undefined }): LabelSelector {
  const key = 'kubernetes.io/metadata.name';
  const only = options.namespace === undefined || options.namespace === '' ? [] : [{ key, operator: 'In' as const, values: [options.namespace] }];
  const except = options.excluded.length === 0 ? [] : [{ key, operator: 'NotIn' as const, values: [...options.excluded] }];
  const matchExpressions = [...only, ...except];
  return matchExpressions.length === 0 ? {} : { matchExpressions };
}

/** The configuration for a server on 127.0.0.1:`port`, with `caPem` as its caBundle when known. */
export function localPodWebhookConfiguration(options: Pick<LocalWebhookConfigurationOptions, 'name' | 'failurePolicy' | 'namespaceSelector'> & { readonly port: number; readonly caPem: string | undefined }): WebhookConfigurationLike {
  const built = podWebhookConfiguration({
    name: options.name,
    clientConfig: { url: `https://127.0.0.1:${String(options.port)}${POD_WEBHOOK_PATH}` },
    ...(options.failurePolicy === undefined ? {} : { failurePolicy: options.failurePolicy }),
    ...(options.namespaceSelector === undefined ? {} : { namespaceSelector: options.namespaceSelector }),
  });
  const caBundle = options.caPem === undefined ? undefined : Buffer.from(options.caPem).toString('base64');
  return {
    ...built,
    metadata: { ...built.metadata, labels: { [LOCAL_WEBHOOK_CONFIGURATION_LABEL]: 'true' } },
    // Written with the CA at once: a configuration without it would fail every call until the injector's first pass.
    webhooks: (built.webhooks ?? []).map((webhook) => (caBundle === undefined ? webhook : { ...webhook, clientConfig: { ...webhook.clientConfig, caBundle } })),
  };
}

/**
 * Writes the configuration once the server listens (created, or updated over one left behind by a
 * process that was killed), runs a CaBundleInjector for it (certificates rotate), and deletes it when
 * the signal aborts, only if it is still the object this process wrote (its uid). Runs on every
 * replica, like the webhook server it points at.
 */
export class LocalWebhookConfiguration implements Runnable {
  readonly needLeaderElection = false;
  readonly #options: LocalWebhookConfigurationOptions;

  constructor(options: LocalWebhookConfigurationOptions) {
    this.#options = options;
  }

  async start(signal: AbortSignal): Promise<void> {
    const port = await untilAborted(this.#options.port(), signal);
    if (port === undefined) {
      return;
    }
    let uid: string | undefined;
    try {
      uid = await this.#writeUntilDone(port, signal);
      if (uid !== undefined && !signal.aborted) {
        const target = { kind: 'MutatingWebhookConfiguration' as const, name: this.#options.name };
        await new CaBundleInjector({ client: this.#options.client, certificates: this.#options.certificates, targets: [target], logger: this.#options.logger }).start(signal);
      }
    } finally {
      if (uid !== undefined) {
        await this.#delete(uid);
      }
    }
  }

  /** Writes until it succeeds; the written object's uid, or undefined when the signal aborted first. */
  async #writeUntilDone(port: number, signal: AbortSignal): Promise<string | undefined> {
    const backoff = new Backoff(this.#options.backoff ?? { initialMs: 500, maxMs: 30_000 });
    while (!signal.aborted) {
      try {
        const written = await this.#write(port);
        this.#options.logger.info({ name: this.#options.name, url: written.webhooks?.[0]?.clientConfig?.url }, 'Registered the pod webhook with the API server');
        return written.metadata?.uid ?? '';
      } catch (error) {
        this.#options.logger.warn({ err: error, name: this.#options.name }, 'Writing the local webhook configuration failed; retrying');
        await sleepUnlessAborted(backoff.next(), signal);
      }
    }
    return undefined;
  }

  /** Not under the signal: a write cancelled half-way could leave an object this process no longer knows of. */
  async #write(port: number): Promise<WebhookConfigurationLike> {
    const { client, certificates } = this.#options;
    const desired = localPodWebhookConfiguration({ ...this.#options, port, caPem: certificates.current()?.caPem });
    try {
      return await client.create(mutatingWebhookConfigurationResource, desired);
    } catch (error) {
      if (!isAlreadyExists(error)) {
        throw error;
      }
    }
    const current = await client.get(mutatingWebhookConfigurationResource, { name: desired.metadata?.name ?? '' });
    return client.update(mutatingWebhookConfigurationResource, { ...desired, metadata: { ...desired.metadata, resourceVersion: current.metadata?.resourceVersion ?? '' } });
  }

  async #delete(uid: string): Promise<void> {
    const { client, name, logger } = this.#options;
    try {
      await client.delete(mutatingWebhookConfigurationResource, { name }, uid === '' ? {} : { preconditions: { uid } });
      logger.info({ name }, 'Deleted the local webhook configuration');
    } catch (error) {
      // Gone already, or replaced by another process's (a precondition failure is a Conflict): not ours to delete.
      if (!isNotFound(error) && !isConflict(error)) {
        logger.warn({ err: error, name }, 'Could not delete the local webhook configuration; the API server keeps calling a webhook that is gone (fail-open)');
      }
    }
  }
}

/** What a process that serves the pod webhook next to a local control plane registers (launcher, benchmark). */
export interface LocalPodWebhookOptions {
  readonly name: string;
  readonly namespaceSelector: LabelSelector;
  readonly failurePolicy?: 'Ignore' | 'Fail' | undefined;
}

/** Adds the local configuration of `server`'s pod webhook to the manager (runs on every replica, like the server). */
export function addLocalWebhookConfiguration(manager: Manager, server: WebhookServer, options: LocalPodWebhookOptions): void {
  manager.add(
    new LocalWebhookConfiguration({
      ...options,
      client: manager.client,
      port: () => server.listening(),
      certificates: server.certificates,
      logger: manager.logger.child({ component: 'local-webhook-configuration' }),
    }),
  );
}

/** The promise's value, or undefined once the signal aborts first. */
async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) {
    return undefined;
  }
  const aborted = Promise.withResolvers<undefined>();
  const onAbort = (): void => {
    aborted.resolve(undefined);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await Promise.race([promise, aborted.promise]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return untilAborted(new Promise<void>((resolve) => setTimeout(resolve, ms).unref()), signal).then(() => undefined);
}
