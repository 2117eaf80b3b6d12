import type { Manager } from '@kruise-ts/controller-runtime';
import type { WebhookServer } from '@kruise-ts/webhook';
import { templateValidatorFor, validationHandler } from '@kruise-ts/template-validation';
import type { ValidationWebhook } from '@kruise-ts/template-validation';

import type { StatefulSetControllerOptions } from '../controller.ts';
import { statefulSetValidation } from './statefulset-validation.ts';
import { podShapeOf } from './validation-target.ts';

/**
 * The Advanced StatefulSet validation webhook: OpenKruise's path; the chart's ValidatingWebhookConfiguration
 * uses the same values. Both served versions, so that no request needs the conversion webhook (this
 * app's) to reach the handler.
 */
export const STATEFULSET_VALIDATION_WEBHOOK: ValidationWebhook = {
  name: 'vstatefulset.kruise-ts.io',
  path: '/validate-apps-kruise-io-statefulset',
  group: 'apps.kruise.io',
  versions: ['v1alpha1', 'v1beta1'],
  resource: 'statefulsets',
  scope: 'Namespaced',
};

/**
 * Registers the Advanced StatefulSet validation handler on the process's webhook server. Fail-open:
 * a handler that throws or runs out of time admits the set, and the controller checks its template
 * before it creates pods.
 */
export function setupStatefulSetWebhook(
  manager: Manager,
  server: WebhookServer,
  options: StatefulSetControllerOptions,
): void {
  server.register(
    STATEFULSET_VALIDATION_WEBHOOK.path,
    validationHandler(statefulSetValidation(podShapeOf(options.featureGates)), templateValidatorFor(manager)),
    { failurePolicy: 'allow' },
  );
}
