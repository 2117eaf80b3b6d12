/**
 * A CRD's conversion webhook for a process next to a local control plane (`npm run controllers`, the
 * demo, the benchmark, the test runs), where no Service leads to the process: once the webhook server
 * listens, `spec.conversion` of each named CRD is pointed at `https://127.0.0.1:<port>/convert` with the
 * serving certificate's CA, and its caBundle is kept current. When the process stops, the conversion the
 * CRD had before is put back, only if the CRD still points at this process (another process may have
 * registered itself since). In a cluster the chart writes the Service into the CRD instead.
 */
import type { Logger } from 'pino';

import { CONVERSION_WEBHOOK_PATH } from '@kruise-ts/api';

import { isNotFound } from '@kruise-ts/controller-runtime';
import type { ObjectApi } from '@kruise-ts/controller-runtime';
import type { Manager } from '@kruise-ts/controller-runtime';
import type { Runnable } from '@kruise-ts/controller-runtime';
import { Backoff } from '@kruise-ts/controller-runtime';
import { CaBundleInjector, customResourceDefinitionResource } from './ca-bundle-injector.ts';
import type { CustomResourceDefinitionLike } from './ca-bundle-injector.ts';
import type { CertificateSource } from './certificate-source.ts';
import { sleepUnlessAborted, untilAborted } from './local-webhook-configuration.ts';
import type { WebhookServer } from './webhook-server.ts';

export interface LocalConversionWebhookOptions {
  readonly client: Pick<ObjectApi, 'get' | 'patch'>;
  /** The CustomResourceDefinitions (e.g. `sidecarsets.apps.kruise.io`) whose conversions this process serves. */
  readonly crds: readonly string[];
  /** Resolves with the port the webhook server listens on at 127.0.0.1. */
  readonly port: () => Promise<number>;
  readonly certificates: Pick<CertificateSource, 'current' | 'onChange'>;
  readonly logger: Logger;
}

type Conversion = NonNullable<NonNullable<CustomResourceDefinitionLike['spec']>['conversion']>;

/** Points the CRDs' conversion webhooks at this process while it runs (every replica, like the server). */
export class LocalConversionWebhook implements Runnable {
  readonly needLeaderElection = false;
  readonly #options: LocalConversionWebhookOptions;

  constructor(options: LocalConversionWebhookOptions) {
    this.#options = options;
  }

  async start(signal: AbortSignal): Promise<void> {
    const port = await untilAborted(this.#options.port(), signal);
    if (port === undefined) {
      return;
    }
    const url = `https://127.0.0.1:${String(port)}${CONVERSION_WEBHOOK_PATH}`;
    const previous = new Map<string, Conversion | undefined>();
    try {
      await Promise.all(
        this.#options.crds.map(async (name) => previous.set(name, await this.#registerUntilDone(name, url, signal))),
      );
      if (!signal.aborted) {
        const { client, certificates, logger } = this.#options;
        await new CaBundleInjector({
          client,
          certificates,
          targets: this.#options.crds.map((name) => ({
            kind: 'CustomResourceDefinition' as const,
            name,
            calls: { url },
          })),
          logger,
        }).start(signal);
      }
    } finally {
      await Promise.all([...previous].map(([name, conversion]) => this.#restore(name, url, conversion)));
    }
  }

  /** Writes the local conversion until it succeeds (the CRD may not be installed yet); the conversion it replaced. */
  async #registerUntilDone(name: string, url: string, signal: AbortSignal): Promise<Conversion | undefined> {
    const backoff = new Backoff({ initialMs: 500, maxMs: 10_000 });
    const logger = this.#options.logger.child({ crd: name });
    while (!signal.aborted) {
      try {
        const crd = await this.#options.client.get(customResourceDefinitionResource, { name });
        const caPem = this.#options.certificates.current()?.caPem;
        const clientConfig = {
          url,
          ...(caPem === undefined ? {} : { caBundle: Buffer.from(caPem).toString('base64') }),
        };
        await this.#options.client.patch(
          customResourceDefinitionResource,
          { name },
          {
            type: 'merge',
            body: {
              spec: {
                conversion: {
                  strategy: 'Webhook',
                  webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: null, ...clientConfig } },
                },
              },
            },
          },
        );
        logger.info({ url }, 'Pointed the conversion webhook of the CustomResourceDefinition at this process');
        return crd.spec?.conversion;
      } catch (error) {
        logger[isNotFound(error) ? 'debug' : 'warn'](
          { err: error },
          'Registering the local conversion webhook failed; retrying',
        );
        await sleepUnlessAborted(backoff.next(), signal);
      }
    }
    return undefined;
  }

  /** Not under the signal: puts back what the CRD had, if it still points at this process. */
  async #restore(name: string, url: string, conversion: Conversion | undefined): Promise<void> {
    try {
      const crd = await this.#options.client.get(customResourceDefinitionResource, { name });
      if (crd.spec?.conversion?.webhook?.clientConfig?.url !== url || conversion === undefined) {
        return;
      }
      await this.#options.client.patch(
        customResourceDefinitionResource,
        { name },
        {
          type: 'json',
          body: [
            { op: 'test', path: '/spec/conversion/webhook/clientConfig/url', value: url },
            { op: 'replace', path: '/spec/conversion', value: conversion },
          ],
        },
      );
    } catch (error) {
      this.#options.logger.warn(
        { err: error, crd: name },
        'Could not put back the conversion webhook of the CustomResourceDefinition',
      );
    }
  }
}

/** Adds local conversion webhooks for `crds`, served by `server` (which must serve `/convert`). */
export function addLocalConversionWebhook(manager: Manager, server: WebhookServer, crds: readonly string[]): void {
  manager.add(
    new LocalConversionWebhook({
      crds,
      client: manager.client,
      port: () => server.listening(),
      certificates: server.certificates,
      logger: manager.logger.child({ component: 'local-conversion-webhook' }),
    }),
  );
}
