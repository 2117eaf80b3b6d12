import type { Logger } from 'pino';

import type { JsonPatchOperation } from '@kruise-ts/controller-runtime';
import type { KubeObject } from '@kruise-ts/controller-runtime';
import type { ObjectApi } from '@kruise-ts/controller-runtime';
import { defineResource } from '@kruise-ts/controller-runtime';
import type { ResourceType } from '@kruise-ts/controller-runtime';
import type { Runnable } from '@kruise-ts/controller-runtime';
import { Backoff } from '@kruise-ts/controller-runtime';
import type { BackoffOptions } from '@kruise-ts/controller-runtime';
import { realClock } from '@kruise-ts/controller-runtime';
import type { Clock, TimerHandle } from '@kruise-ts/controller-runtime';
import type { CertificateSource } from './certificate-source.ts';

/** The parts of a Mutating- or ValidatingWebhookConfiguration the injector reads. */
export interface WebhookConfigurationLike extends KubeObject {
  readonly webhooks?: readonly {
    readonly name: string;
    readonly clientConfig?: { readonly caBundle?: string; readonly url?: string; readonly service?: unknown };
    readonly [field: string]: unknown;
  }[];
}

export const mutatingWebhookConfigurationResource = defineResource<WebhookConfigurationLike>({
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  plural: 'mutatingwebhookconfigurations',
  kind: 'MutatingWebhookConfiguration',
  namespaced: false,
});

export const validatingWebhookConfigurationResource = defineResource<WebhookConfigurationLike>({
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  plural: 'validatingwebhookconfigurations',
  kind: 'ValidatingWebhookConfiguration',
  namespaced: false,
});

/** The parts of a CustomResourceDefinition the injector reads: its conversion webhook. */
export interface CustomResourceDefinitionLike extends KubeObject {
  readonly spec?: {
    readonly conversion?: {
      readonly strategy?: string;
      readonly webhook?: {
        readonly clientConfig?: { readonly caBundle?: string; readonly url?: string; readonly service?: unknown };
      };
    };
    readonly [field: string]: unknown;
  };
}

export const customResourceDefinitionResource = defineResource<CustomResourceDefinitionLike>({
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  namespaced: false,
});

/** The kinds of webhook configuration whose webhooks get a CA bundle. */
export type WebhookConfigurationKind = 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration';

/**
 * One webhook configuration whose webhooks get the CA bundle, or a CustomResourceDefinition whose
 * conversion webhook does (`spec.conversion.webhook.clientConfig.caBundle`).
 */
export type CaBundleTarget =
  | {
      readonly kind: WebhookConfigurationKind;
      readonly name: string;
      /** The webhooks (by `name`) to keep; every webhook of the configuration when absent. */
      readonly webhooks?: readonly string[] | undefined;
    }
  | {
      readonly kind: 'CustomResourceDefinition';
      readonly name: string;
      /**
       * Whose conversion webhook this is: the CA goes in only while the CRD calls this Service or URL,
       * never into a CRD someone pointed at another server (which would then fail every conversion).
       */
      readonly calls:
        { readonly service: { readonly name: string; readonly namespace: string } } | { readonly url: string };
    };

export interface CaBundleInjectorOptions {
  readonly client: Pick<ObjectApi, 'get' | 'patch'>;
  /** Where the CA comes from: its `current().caPem`, again after each change. */
  readonly certificates: Pick<CertificateSource, 'current' | 'onChange'>;
  readonly targets: readonly CaBundleTarget[];
  readonly logger: Logger;
  readonly clock?: Clock | undefined;
  /** How often the configurations are checked again even without a rotation (1 minute). */
  readonly resyncIntervalMs?: number | undefined;
  readonly backoff?: BackoffOptions | undefined;
}

const DEFAULT_RESYNC_MS = 60_000;

/**
 * Keeps `clientConfig.caBundle` of the named webhooks equal to the CA of the serving certificate, as
 * OpenKruise's webhook controller does: at start, after each rotation, and every `resyncIntervalMs`
 * (a `helm upgrade` puts back the chart's empty caBundle). Only that field is written, with a JSON
 * patch that first tests each webhook's name at its index, so a concurrent edit of the list fails the
 * patch instead of writing a CA into the wrong webhook. Failures are retried with backoff. It runs on
 * every replica: replicas share one CA (through the certificate store), so their writes agree.
 */
export class CaBundleInjector implements Runnable {
  readonly needLeaderElection = false;
  readonly #options: CaBundleInjectorOptions;
  readonly #clock: Clock;
  readonly #backoff: Backoff;
  #wake: (() => void) | undefined;
  #changed = false;

  constructor(options: CaBundleInjectorOptions) {
    this.#options = options;
    this.#clock = options.clock ?? realClock;
    this.#backoff = new Backoff(options.backoff ?? { initialMs: 500, maxMs: 60_000 });
  }

  async start(signal: AbortSignal): Promise<void> {
    const unsubscribe = this.#options.certificates.onChange(() => {
      this.#changed = true;
      this.#wake?.();
    });
    try {
      while (!signal.aborted) {
        this.#changed = false;
        const delayMs = (await this.#syncAll(signal)) ? this.#resetBackoff() : this.#backoff.next();
        await this.#sleep(delayMs, signal);
      }
    } finally {
      unsubscribe();
    }
  }

  /** Brings every target up to date; false when one failed (and is to be retried). */
  async #syncAll(signal: AbortSignal): Promise<boolean> {
    const caPem = this.#options.certificates.current()?.caPem;
    if (caPem === undefined) {
      this.#options.logger.debug('No CA bundle to inject yet');
      return true;
    }
    const caBundle = Buffer.from(caPem).toString('base64');
    const results = await Promise.all(this.#options.targets.map((target) => this.#sync(target, caBundle, signal)));
    return results.every(Boolean);
  }

  async #sync(target: CaBundleTarget, caBundle: string, signal: AbortSignal): Promise<boolean> {
    const resource = resourceOf(target);
    const logger = this.#options.logger.child({ kind: target.kind, name: target.name });
    try {
      if (target.kind === 'CustomResourceDefinition') {
        return await this.#syncConversion({ target, caBundle, logger }, signal);
      }
      const configuration = await this.#options.client.get(resource, { name: target.name }, signal);
      const { operations, missing } = caBundlePatch(configuration, target, caBundle);
      if (operations.length > 0) {
        await this.#options.client.patch(resource, { name: target.name }, { type: 'json', body: operations, signal });
        logger.info({ webhooks: operations.length / 2 }, 'Injected the CA bundle into the webhook configuration');
      }
      if (missing.length > 0) {
        logger.warn(
          { missing },
          'The webhook configuration has no webhooks of these names; cannot inject the CA bundle into them',
        );
      }
      return missing.length === 0;
    } catch (error) {
      if (!signal.aborted) {
        logger.warn({ err: error }, 'Injecting the CA bundle failed; retrying');
      }
      return false;
    }
  }

  async #syncConversion(
    input: {
      readonly target: Extract<CaBundleTarget, { kind: 'CustomResourceDefinition' }>;
      readonly caBundle: string;
      readonly logger: Logger;
    },
    signal: AbortSignal,
  ): Promise<boolean> {
    const { target, caBundle, logger } = input;
    const name = target.name;
    const crd = await this.#options.client.get(customResourceDefinitionResource, { name }, signal);
    const operations = conversionCaBundlePatch(crd, target.calls, caBundle);
    if (operations === undefined) {
      // Not an error to retry: the CRD converts with None, or someone pointed it at another server.
      logger.debug('The CustomResourceDefinition does not call this conversion webhook; its caBundle is left alone');
      return true;
    }
    if (operations.length > 0) {
      await this.#options.client.patch(
        customResourceDefinitionResource,
        { name },
        { type: 'json', body: operations, signal },
      );
      logger.info('Injected the CA bundle into the conversion webhook of the CustomResourceDefinition');
    }
    return true;
  }

  #resetBackoff(): number {
    this.#backoff.reset();
    return this.#options.resyncIntervalMs ?? DEFAULT_RESYNC_MS;
  }

  /** Waits `ms`, or less when the certificate changes or the signal aborts. */
  async #sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (this.#changed || signal.aborted) {
      return;
    }
    let timer: TimerHandle | undefined;
    let onAbort: (() => void) | undefined;
    await new Promise<void>((resolve) => {
      this.#wake = resolve;
      onAbort = resolve;
      timer = this.#clock.setTimeout(resolve, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    this.#wake = undefined;
    // Removed each time: one listener per wait would pile up on the signal over a long run.
    if (onAbort !== undefined) {
      signal.removeEventListener('abort', onAbort);
    }
    if (timer !== undefined) {
      this.#clock.clearTimeout(timer);
    }
  }
}

function resourceOf(
  target: CaBundleTarget,
): ResourceType<WebhookConfigurationLike> | ResourceType<CustomResourceDefinitionLike> {
  if (target.kind === 'CustomResourceDefinition') {
    return customResourceDefinitionResource;
  }
  return target.kind === 'MutatingWebhookConfiguration'
    ? mutatingWebhookConfigurationResource
    : validatingWebhookConfigurationResource;
}

/**
 * The JSON patch setting caBundle on the target's webhooks where it differs (a `test` of the name and
 * an `add` of the field per webhook), and the named webhooks the configuration lacks.
 */
export function caBundlePatch(
  configuration: WebhookConfigurationLike,
  target: { readonly webhooks?: readonly string[] | undefined },
  caBundle: string,
): { operations: JsonPatchOperation[]; missing: string[] } {
  const webhooks = configuration.webhooks ?? [];
  const wanted = target.webhooks ?? webhooks.map((webhook) => webhook.name);
  const operations: JsonPatchOperation[] = [];
  webhooks.forEach((webhook, index) => {
    if (wanted.includes(webhook.name) && webhook.clientConfig?.caBundle !== caBundle) {
      operations.push({ op: 'test', path: `/webhooks/${String(index)}/name`, value: webhook.name });
      operations.push({ op: 'add', path: `/webhooks/${String(index)}/clientConfig/caBundle`, value: caBundle });
    }
  });
  const present = new Set(webhooks.map((webhook) => webhook.name));
  return { operations, missing: wanted.filter((name) => !present.has(name)) };
}

/**
 * The JSON patch setting the conversion webhook's caBundle of a CRD where it differs (empty when it is
 * current), with `test`s that it still calls this server; undefined when the CRD has no conversion
 * webhook or calls another server (nothing of ours to keep current).
 */
export function conversionCaBundlePatch(
  crd: CustomResourceDefinitionLike,
  calls: ConversionCaller,
  caBundle: string,
): JsonPatchOperation[] | undefined {
  const conversion = crd.spec?.conversion;
  const clientConfig = conversion?.webhook?.clientConfig;
  if (conversion?.strategy !== 'Webhook' || clientConfig === undefined || !callsUs(clientConfig, calls)) {
    return undefined;
  }
  if (clientConfig.caBundle === caBundle) {
    return [];
  }
  const test: JsonPatchOperation[] =
    'url' in calls
      ? [{ op: 'test', path: '/spec/conversion/webhook/clientConfig/url', value: calls.url }]
      : [
          { op: 'test', path: '/spec/conversion/webhook/clientConfig/service/name', value: calls.service.name },
          {
            op: 'test',
            path: '/spec/conversion/webhook/clientConfig/service/namespace',
            value: calls.service.namespace,
          },
        ];
  return [...test, { op: 'add', path: '/spec/conversion/webhook/clientConfig/caBundle', value: caBundle }];
}

/** Whose conversion webhook a CRD target is. */
type ConversionCaller = Extract<CaBundleTarget, { kind: 'CustomResourceDefinition' }>['calls'];

function callsUs(
  clientConfig: { readonly url?: string; readonly service?: unknown },
  calls: ConversionCaller,
): boolean {
  if ('url' in calls) {
    return clientConfig.url === calls.url;
  }
  const service = clientConfig.service as { readonly name?: unknown; readonly namespace?: unknown } | undefined;
  return service?.name === calls.service.name && service.namespace === calls.service.namespace;
}
