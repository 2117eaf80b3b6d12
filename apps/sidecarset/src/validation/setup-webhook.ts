/**
 * The SidecarSet validation webhook. There is no controller-side check behind it (unlike CloneSet's):
 * a SidecarSet creates no pods itself, its containers are injected by the pod webhook, and a pod with
 * a broken sidecar is refused by the API server when it is created and reported by the pod webhook's
 * missed-injection reporting.
 */
import { defineResource, isNotFound } from '@kruise-ts/controller-runtime';
import type { KubeObject, Manager } from '@kruise-ts/controller-runtime';
import type { WebhookServer } from '@kruise-ts/webhook';
import { templateValidatorFor, validationHandler } from '@kruise-ts/template-validation';
import type { ValidationWebhook } from '@kruise-ts/template-validation';

import type { SidecarSetWebhookOptions } from '../webhook/setup-webhook.ts';
import { KRUISE_CONFIGURATION_NAME } from './patch-metadata-whitelist.ts';
import type { KruiseConfiguration } from './patch-metadata-whitelist.ts';
import { sidecarSetValidation } from './sidecarset-validation.ts';
import { withPatchMetadataWhitelist } from './whitelist-handler.ts';

const configMapResource = defineResource<KubeObject & { readonly data?: Record<string, string> }>({
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
});

/**
 * OpenKruise's path; the chart's ValidatingWebhookConfiguration uses the same values. Both served
 * versions: a v1beta1 request (the stored version) registered as v1alpha1 would need the conversion
 * webhook, this app's, to reach the handler, and failed whatever the failurePolicy while the app was down.
 */
export const SIDECARSET_VALIDATION_WEBHOOK: ValidationWebhook = {
  name: 'vsidecarset.kruise-ts.io',
  path: '/validate-apps-kruise-io-sidecarset',
  group: 'apps.kruise.io',
  versions: ['v1alpha1', 'v1beta1'],
  resource: 'sidecarsets',
  scope: 'Cluster',
};

/**
 * Registers the SidecarSet validation handler on the process's webhook server: the patchPodMetadata
 * whitelist (the `kruise-configuration` ConfigMap of the revision namespace, read when a SidecarSet
 * patches pod metadata), then the dry run of the fake pods in the revision namespace (the controllers'
 * own). Fail-open: a handler that throws or runs out of time admits the SidecarSet.
 */
export function setupSidecarSetValidationWebhook(
  manager: Manager,
  server: WebhookServer,
  options: SidecarSetWebhookOptions,
): void {
  const validation = sidecarSetValidation({ namespace: options.revisionNamespace });
  const configuration = async (signal: AbortSignal): Promise<KruiseConfiguration> => {
    try {
      return (
        (
          await manager.client.get(
            configMapResource,
            { namespace: options.revisionNamespace, name: KRUISE_CONFIGURATION_NAME },
            signal,
          )
        ).data ?? {}
      );
    } catch (error) {
      if (isNotFound(error)) {
        return undefined;
      }
      throw error;
    }
  };
  const handler = withPatchMetadataWhitelist(validationHandler(validation, templateValidatorFor(manager)), {
    parse: validation.parse,
    configuration,
    defaultsAllowed: options.patchPodMetadataDefaultsAllowed === true,
  });
  server.register(SIDECARSET_VALIDATION_WEBHOOK.path, handler, { failurePolicy: 'allow' });
}
