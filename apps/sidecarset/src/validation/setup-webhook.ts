/**
 * The SidecarSet validation webhook. There is no controller-side check behind it (unlike CloneSet's):
 * a SidecarSet creates no pods itself, its containers are injected by the pod webhook, and a pod with
 * a broken sidecar is refused by the API server when it is created and reported by the pod webhook's
 * missed-injection reporting.
 */
import type { Manager, WebhookServer } from '@kruise-ts/controller-runtime';
import { templateValidatorFor, validationHandler } from '@kruise-ts/template-validation';
import type { ValidationWebhook } from '@kruise-ts/template-validation';

import type { SidecarSetWebhookOptions } from '../webhook/setup-webhook.ts';
import { sidecarSetValidation } from './sidecarset-validation.ts';

/** OpenKruise's path; the chart's ValidatingWebhookConfiguration uses the same values. */
export const SIDECARSET_VALIDATION_WEBHOOK: ValidationWebhook = {
  name: 'vsidecarset.kruise-ts.io',
  path: '/validate-apps-kruise-io-sidecarset',
  group: 'apps.kruise.io',
  versions: ['v1alpha1'],
  resource: 'sidecarsets',
  scope: 'Cluster',
};

/**
 * Registers the SidecarSet validation handler on the process's webhook server; the fake pods are
 * dry-run in the revision namespace (the controllers' own). Fail-open: a handler that throws or runs
 * out of time admits the SidecarSet.
 */
export function setupSidecarSetValidationWebhook(manager: Manager, server: WebhookServer, options: SidecarSetWebhookOptions): void {
  const handler = validationHandler(sidecarSetValidation({ namespace: options.revisionNamespace }), templateValidatorFor(manager));
  server.register(SIDECARSET_VALIDATION_WEBHOOK.path, handler, { failurePolicy: 'allow' });
}
