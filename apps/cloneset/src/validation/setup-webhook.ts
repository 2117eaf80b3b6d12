import type { Manager } from '@kruise-ts/controller-runtime';
import type { WebhookServer } from '@kruise-ts/webhook';
import { templateValidatorFor, validationHandler } from '@kruise-ts/template-validation';
import type { ValidationWebhook } from '@kruise-ts/template-validation';

import type { CloneSetControllerOptions } from '../controller.ts';
import { cloneSetValidation } from './cloneset-validation.ts';

/** The CloneSet validation webhook: OpenKruise's path; the chart's ValidatingWebhookConfiguration uses the same values. */
export const CLONESET_VALIDATION_WEBHOOK: ValidationWebhook = {
  name: 'vcloneset.kruise-ts.io',
  path: '/validate-apps-kruise-io-cloneset',
  group: 'apps.kruise.io',
  versions: ['v1alpha1'],
  resource: 'clonesets',
  scope: 'Namespaced',
};

/**
 * Registers the CloneSet validation handler on the process's webhook server. Fail-open: a handler
 * that throws or runs out of time admits the CloneSet, and the controller checks its template before
 * it creates the first pod.
 */
export function setupCloneSetWebhook(
  manager: Manager,
  server: WebhookServer,
  options: CloneSetControllerOptions,
): void {
  const shape = {
    shortHash: options.featureGates.enabled('CloneSetShortHash'),
    reCreateWithoutReadinessGates: options.reCreateWithoutReadinessGates ?? false,
  };
  server.register(
    CLONESET_VALIDATION_WEBHOOK.path,
    validationHandler(cloneSetValidation(shape), templateValidatorFor(manager)),
    { failurePolicy: 'allow' },
  );
}
