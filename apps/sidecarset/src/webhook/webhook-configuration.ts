/**
 * The MutatingWebhookConfiguration of the pod webhook: pods CREATE only, `timeoutSeconds` at most 5,
 * fail-open by default, and namespaces excluded by a namespaceSelector (kube-system and the
 * controllers' own by default), so that the webhook can never keep the cluster's own pods from
 * starting. The chart renders the same fields; the launcher and the tests build it here.
 */
import type { LabelSelector } from '@kruise-ts/api';
import type { WebhookConfigurationLike } from '@kruise-ts/webhook';

import { POD_WEBHOOK_PATH } from './setup-webhook.ts';

/** The webhook's name in the configuration (OpenKruise's is `mpod.kb.io`). */
export const POD_WEBHOOK_NAME = 'mpod.kruise-ts.io';

export interface PodWebhookConfigurationOptions {
  readonly name: string;
  /** Where the API server sends reviews: `url` (local use) or a Service (in a cluster); the path is the pod webhook's. */
  readonly clientConfig:
    | { readonly url: string }
    | { readonly service: { readonly namespace: string; readonly name: string; readonly port?: number } };
  /** Ignore (default): a down webhook never blocks pods; the controller reports what it missed. */
  readonly failurePolicy?: 'Ignore' | 'Fail';
  readonly timeoutSeconds?: number;
  /** Which namespaces' pods go to the webhook; default: all but kube-system. */
  readonly namespaceSelector?: LabelSelector;
}

/** The configuration (its caBundle is kept by the app's CaBundleInjector). */
export function podWebhookConfiguration(options: PodWebhookConfigurationOptions): WebhookConfigurationLike {
  const clientConfig =
    'url' in options.clientConfig
      ? { url: options.clientConfig.url }
      : { service: { ...options.clientConfig.service, path: POD_WEBHOOK_PATH } };
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: options.name },
    webhooks: [
      {
        name: POD_WEBHOOK_NAME,
        clientConfig,
        rules: [
          { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Namespaced' },
        ],
        namespaceSelector: options.namespaceSelector ?? {
          matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }],
        },
        failurePolicy: options.failurePolicy ?? 'Ignore',
        timeoutSeconds: Math.min(options.timeoutSeconds ?? 5, 5),
        sideEffects: 'None',
        reinvocationPolicy: 'Never',
        admissionReviewVersions: ['v1'],
      },
    ],
  };
}
