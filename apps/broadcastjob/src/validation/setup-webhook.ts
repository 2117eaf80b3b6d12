import type { Manager } from '@kruise-ts/controller-runtime';
import type { WebhookServer } from '@kruise-ts/webhook';
import { templateValidatorFor, validationHandler } from '@kruise-ts/template-validation';
import type { ValidationWebhook } from '@kruise-ts/template-validation';

import type { BroadcastJobControllerOptions } from '../controller.ts';
import { broadcastJobValidation } from './broadcastjob-validation.ts';

/** The BroadcastJob validation webhook: OpenKruise's path; the chart's ValidatingWebhookConfiguration uses the same values. */
export const BROADCASTJOB_VALIDATION_WEBHOOK: ValidationWebhook = {
  name: 'vbroadcastjob.kruise-ts.io',
  path: '/validate-apps-kruise-io-broadcastjob',
  group: 'apps.kruise.io',
  versions: ['v1alpha1'],
  resource: 'broadcastjobs',
  scope: 'Namespaced',
};

/**
 * Registers the BroadcastJob validation handler on the process's webhook server. Fail-open: a
 * handler that throws or runs out of time admits the job, and the controller checks its template
 * before it creates pods.
 */
export function setupBroadcastJobWebhook(
  manager: Manager,
  server: WebhookServer,
  options: BroadcastJobControllerOptions,
): void {
  const validation = broadcastJobValidation({ assignPodsByScheduler: options.assignPodsByScheduler });
  server.register(BROADCASTJOB_VALIDATION_WEBHOOK.path, validationHandler(validation, templateValidatorFor(manager)), {
    failurePolicy: 'allow',
  });
}
