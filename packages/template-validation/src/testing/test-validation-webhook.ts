/**
 * Validation webhooks of an integration test, registered with the run's real API server through the
 * same LocalWebhookConfiguration the launcher uses: an HTTPS server on 127.0.0.1 (a free port) with
 * certificates made for it, and a ValidatingWebhookConfiguration for the test's namespace only (test
 * files share one control plane). The test registers its handlers on `server` (a manager of its own
 * does the dry runs), then `start`s.
 */
import type { Client } from '@kruise-ts/controller-runtime';
import { TestWebhookRegistration } from '@kruise-ts/webhook/testing';
import type { TestWebhookRegistrationOptions } from '@kruise-ts/webhook/testing';
import type { Logger } from 'pino';

import { validatingWebhookConfiguration } from '../webhook-configuration.ts';
import type { ValidationWebhook } from '../webhook-configuration.ts';

export interface TestValidationWebhookOptions {
  readonly client: Client;
  /** The only namespace whose objects go to the webhooks; cluster-scoped kinds when undefined. */
  readonly namespace?: string | undefined;
  /** Only objects with these labels go to the webhooks (cluster-scoped kinds, which no namespace selects). */
  readonly objectLabels?: Readonly<Record<string, string>> | undefined;
  /** Names the configuration (`kruise-ts-test-validation-<id>`). */
  readonly id: string;
  readonly webhooks: readonly ValidationWebhook[];
  readonly logger: Logger;
  /** Fail (default): nothing is admitted without the webhook's answer. Ignore: a fail-open test. */
  readonly failurePolicy?: 'Fail' | 'Ignore' | undefined;
  /** How long `start` waits for the API server to call the webhooks (30 s). */
  readonly timeoutMs?: number | undefined;
}

/**
 * `start(probe)`: `probe` sends a request that must reach the webhooks (e.g. a dry-run create of a
 * valid object); `answered()` counts the requests they answered.
 */
export class TestValidationWebhook extends TestWebhookRegistration {
  constructor(options: TestValidationWebhookOptions) {
    super(registrationOptions(options));
  }
}

function registrationOptions(options: TestValidationWebhookOptions): TestWebhookRegistrationOptions {
  const { namespace, objectLabels, webhooks } = options;
  const name = `kruise-ts-test-validation-${options.id}`;
  const namespaceSelector =
    namespace === undefined
      ? undefined
      : { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In' as const, values: [namespace] }] };
  const objectSelector = objectLabels === undefined ? undefined : { matchLabels: { ...objectLabels } };
  const failurePolicy = options.failurePolicy ?? 'Fail';
  return {
    client: options.client,
    kind: 'ValidatingWebhookConfiguration',
    name,
    build: ({ port, caBundle }) =>
      validatingWebhookConfiguration({
        name,
        webhooks,
        clientConfig: { baseUrl: `https://127.0.0.1:${String(port)}` },
        caBundle,
        namespaceSelector,
        objectSelector,
        failurePolicy,
      }),
    paths: webhooks.map((webhook) => webhook.path),
    logger: options.logger,
    timeoutMs: options.timeoutMs,
  };
}
