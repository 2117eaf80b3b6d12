/**
 * The pod webhook's MutatingWebhookConfiguration for a process next to a local control plane (`npm run
 * controllers`, the demo, tests, the benchmark): the API server calls `https://127.0.0.1:<port>/mutate-pod`.
 * The controller runtime's LocalWebhookConfiguration writes, keeps and deletes it; this builds it.
 */
import { addLocalWebhookConfiguration } from '@kruise-ts/webhook';
import type { LabelSelector } from '@kruise-ts/api';
import type { LocalWebhookBuildInput, WebhookConfigurationLike, WebhookServer } from '@kruise-ts/webhook';
import type { Manager } from '@kruise-ts/controller-runtime';

import { POD_WEBHOOK_PATH } from './setup-webhook.ts';
import { podWebhookConfiguration } from './webhook-configuration.ts';

/** What a process that serves the pod webhook next to a local control plane registers (launcher, benchmark, tests). */
export interface LocalPodWebhookOptions {
  readonly name: string;
  /** Which namespaces' pods go to the webhook (the builder's default when undefined). */
  readonly namespaceSelector?: LabelSelector | undefined;
  /** Ignore (default, as in production) or Fail (tests, so that no pod escapes the webhook). */
  readonly failurePolicy?: 'Ignore' | 'Fail' | undefined;
}

/**
 * The namespaces whose pods go to the webhook: every one but `excluded`, and only `namespace` when
 * given (a manager restricted with --namespace caches no other namespace's pods and SidecarSets).
 */
export function webhookNamespaceSelector(options: {
  readonly excluded: readonly string[];
  readonly namespace?: string | undefined;
}): LabelSelector {
  const key = 'kubernetes.io/metadata.name';
  const only =
    options.namespace === undefined || options.namespace === ''
      ? []
      : [{ key, operator: 'In' as const, values: [options.namespace] }];
  const except =
    options.excluded.length === 0 ? [] : [{ key, operator: 'NotIn' as const, values: [...options.excluded] }];
  const matchExpressions = [...only, ...except];
  return matchExpressions.length === 0 ? {} : { matchExpressions };
}

/** The configuration for a server on 127.0.0.1:`port`, with `caBundle` (base64) when known: a LocalWebhookConfiguration's `build`. */
export function localPodWebhookConfiguration(
  options: LocalPodWebhookOptions & LocalWebhookBuildInput,
): WebhookConfigurationLike {
  const built = podWebhookConfiguration({
    name: options.name,
    clientConfig: { url: `https://127.0.0.1:${String(options.port)}${POD_WEBHOOK_PATH}` },
    ...(options.failurePolicy === undefined ? {} : { failurePolicy: options.failurePolicy }),
    ...(options.namespaceSelector === undefined ? {} : { namespaceSelector: options.namespaceSelector }),
  });
  const { caBundle } = options;
  return {
    ...built,
    webhooks: (built.webhooks ?? []).map((webhook) =>
      caBundle === undefined ? webhook : { ...webhook, clientConfig: { ...webhook.clientConfig, caBundle } },
    ),
  };
}

/**
 * Adds the local configuration of `server`'s pod webhook to the manager (runs on every replica, like
 * the server). None when the server has no pod handler (PodWebhook=false): the API server must not
 * call a path that answers 404.
 */
export function addLocalPodWebhookConfiguration(
  manager: Manager,
  server: WebhookServer,
  options: LocalPodWebhookOptions,
): void {
  if (!server.paths().includes(POD_WEBHOOK_PATH)) {
    return;
  }
  addLocalWebhookConfiguration(manager, server, {
    kind: 'MutatingWebhookConfiguration',
    name: options.name,
    build: (input) => localPodWebhookConfiguration({ ...options, ...input }),
  });
}
