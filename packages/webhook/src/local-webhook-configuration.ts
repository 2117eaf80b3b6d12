/**
 * A Mutating- or ValidatingWebhookConfiguration for a process next to a local control plane (`npm run
 * controllers`, the demo, tests, the benchmark), where no Service leads to the process: the API server
 * calls `https://127.0.0.1:<port>/...`. The process writes it once it listens (a port picked at random
 * is known only then), keeps its caBundle, and deletes it when it stops: a configuration whose URL
 * leads nowhere would cost every matching request a failed call (or a refusal under failurePolicy
 * Fail). In a cluster the chart renders the configuration instead, and no process writes one.
 */
import type { Logger } from 'pino';

import { isAlreadyExists, isConflict, isNotFound } from '@kruise-ts/controller-runtime';
import type { ObjectApi } from '@kruise-ts/controller-runtime';
import type { ResourceType } from '@kruise-ts/controller-runtime';
import type { Manager } from '@kruise-ts/controller-runtime';
import type { Runnable } from '@kruise-ts/controller-runtime';
import { Backoff } from '@kruise-ts/controller-runtime';
import type { BackoffOptions } from '@kruise-ts/controller-runtime';
import {
  CaBundleInjector,
  mutatingWebhookConfigurationResource,
  validatingWebhookConfigurationResource,
} from './ca-bundle-injector.ts';
import type { WebhookConfigurationKind, WebhookConfigurationLike } from './ca-bundle-injector.ts';
import type { CertificateSource } from './certificate-source.ts';
import type { WebhookServer } from './webhook-server.ts';

/** Marks the configurations a local process wrote for itself (`kubectl get mutatingwebhookconfigurations -l ...`). */
export const LOCAL_WEBHOOK_CONFIGURATION_LABEL = 'kruise-ts.io/local-webhook-configuration';

/** What a configuration is built from once the server listens. */
export interface LocalWebhookBuildInput {
  /** The port the webhook server listens on at 127.0.0.1. */
  readonly port: number;
  /** The CA of the serving certificate, base64-encoded as `clientConfig.caBundle` wants it; undefined when the certificates name none. */
  readonly caBundle: string | undefined;
}

export interface LocalWebhookConfigurationOptions {
  readonly client: Pick<ObjectApi, 'get' | 'create' | 'update' | 'patch' | 'delete'>;
  readonly kind: WebhookConfigurationKind;
  /** The configuration's name; it overrides whatever name `build` gives. */
  readonly name: string;
  /** Resolves with the port the webhook server listens on at 127.0.0.1 (`WebhookServer.listening`). */
  readonly port: () => Promise<number>;
  /** The server's certificate source: its CA is the configuration's caBundle. */
  readonly certificates: Pick<CertificateSource, 'current' | 'onChange'>;
  /** The configuration's webhooks, with `input.caBundle` in their clientConfig when defined; the name and the local label are added to it. */
  readonly build: (input: LocalWebhookBuildInput) => WebhookConfigurationLike;
  readonly logger: Logger;
  /** Between failed writes (default 500 ms up to 30 s). */
  readonly backoff?: BackoffOptions | undefined;
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
  readonly #resource: ResourceType<WebhookConfigurationLike>;
  readonly #logger: Logger;

  constructor(options: LocalWebhookConfigurationOptions) {
    this.#options = options;
    this.#resource =
      options.kind === 'MutatingWebhookConfiguration'
        ? mutatingWebhookConfigurationResource
        : validatingWebhookConfigurationResource;
    this.#logger = options.logger.child({ kind: options.kind, name: options.name });
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
        const { client, certificates, kind, name, logger } = this.#options;
        // The parent logger: the injector names the target's kind and name itself.
        await new CaBundleInjector({ client, certificates, targets: [{ kind, name }], logger }).start(signal);
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
        this.#logger.info(
          { url: written.webhooks?.[0]?.clientConfig?.url },
          `Registered the local ${this.#options.kind} with the API server`,
        );
        return written.metadata?.uid ?? '';
      } catch (error) {
        this.#logger.warn({ err: error }, `Writing the local ${this.#options.kind} failed; retrying`);
        await sleepUnlessAborted(backoff.next(), signal);
      }
    }
    return undefined;
  }

  /** Not under the signal: a write cancelled half-way could leave an object this process no longer knows of. */
  async #write(port: number): Promise<WebhookConfigurationLike> {
    const { client, name } = this.#options;
    const desired = this.#desired(port);
    try {
      return await client.create(this.#resource, desired);
    } catch (error) {
      if (!isAlreadyExists(error)) {
        throw error;
      }
    }
    const current = await client.get(this.#resource, { name });
    return client.update(this.#resource, {
      ...desired,
      metadata: { ...desired.metadata, resourceVersion: current.metadata?.resourceVersion ?? '' },
    });
  }

  #desired(port: number): WebhookConfigurationLike {
    const { certificates, name, build } = this.#options;
    const caPem = certificates.current()?.caPem;
    // Written with the CA at once: a configuration without it would fail every call until the injector's first pass.
    const built = build({ port, caBundle: caPem === undefined ? undefined : Buffer.from(caPem).toString('base64') });
    return {
      ...built,
      metadata: {
        ...built.metadata,
        name,
        labels: { ...built.metadata?.labels, [LOCAL_WEBHOOK_CONFIGURATION_LABEL]: 'true' },
      },
    };
  }

  async #delete(uid: string): Promise<void> {
    const { client, name, kind } = this.#options;
    try {
      await client.delete(this.#resource, { name }, uid === '' ? {} : { preconditions: { uid } });
      this.#logger.info(`Deleted the local ${kind}`);
    } catch (error) {
      // Gone already, or replaced by another process's (a precondition failure is a Conflict): not ours to delete.
      if (!isNotFound(error) && !isConflict(error)) {
        this.#logger.warn(
          { err: error },
          `Could not delete the local ${kind}; the API server keeps calling a webhook that is gone`,
        );
      }
    }
  }
}

/** What an app registers for its webhooks on a process's server next to a local control plane. */
export type LocalWebhookRegistration = Pick<LocalWebhookConfigurationOptions, 'kind' | 'name' | 'build'>;

/** Adds a local configuration for webhooks of `server` to the manager (runs on every replica, like the server). */
export function addLocalWebhookConfiguration(
  manager: Manager,
  server: WebhookServer,
  options: LocalWebhookRegistration,
): void {
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
export async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
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

/** Waits `ms`, or less when the signal aborts. */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return untilAborted(new Promise<void>((resolve) => setTimeout(resolve, ms).unref()), signal).then(() => undefined);
}
