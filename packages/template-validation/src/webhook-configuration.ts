/**
 * The ValidatingWebhookConfiguration of a workload kind's validation webhook: CREATE and UPDATE of
 * the workload resource only (never pods, never status or scale), `timeoutSeconds` at most 5, and
 * fail-open by default: a webhook that is down lets the workload through, and its controller checks
 * the template before it creates the first pod. The chart renders the same fields; the launcher, the
 * tests and the benchmark build it here.
 */
import type { LabelSelector } from '@kruise-ts/api';
import type { WebhookConfigurationLike } from '@kruise-ts/webhook';

/** One workload kind's validation webhook. */
export interface ValidationWebhook {
  /** The webhook's name in the configuration, e.g. `vcloneset.kruise-ts.io`. */
  readonly name: string;
  /** The path on the app's webhook server, OpenKruise's: `/validate-apps-kruise-io-cloneset`. */
  readonly path: string;
  readonly group: string;
  /**
   * The versions the webhook is registered for: with a CRD whose conversion is a webhook, every version
   * it serves (the handler converts into the one the app reads), so that the API server never needs the
   * conversion webhook to call this one; else the one the handler reads (matchPolicy Equivalent).
   */
  readonly versions: readonly string[];
  /** The resource, e.g. `clonesets`. */
  readonly resource: string;
  readonly scope: 'Namespaced' | 'Cluster';
}

export interface ValidatingConfigurationOptions {
  readonly name: string;
  readonly webhooks: readonly ValidationWebhook[];
  /** `url` (the local control plane: https://127.0.0.1:<port>, the path is appended) or a Service (in a cluster). */
  readonly clientConfig:
    | { readonly baseUrl: string }
    | { readonly service: { readonly namespace: string; readonly name: string; readonly port?: number } };
  /** Ignore (default): a down webhook never blocks a workload; the controller checks before it creates pods. */
  readonly failurePolicy?: 'Ignore' | 'Fail' | undefined;
  readonly timeoutSeconds?: number | undefined;
  readonly caBundle?: string | undefined;
  /** Only objects of these namespaces go to the webhook (tests sharing a control plane); every namespace when absent. */
  readonly namespaceSelector?: LabelSelector | undefined;
  /** Only objects with these labels go to the webhook (tests of cluster-scoped kinds); every object when absent. */
  readonly objectSelector?: LabelSelector | undefined;
}

/** The configuration; its caBundle is kept by the app's CaBundleInjector (or given). */
export function validatingWebhookConfiguration(options: ValidatingConfigurationOptions): WebhookConfigurationLike {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: options.name },
    webhooks: options.webhooks.map((webhook) => ({
      name: webhook.name,
      clientConfig: {
        ...('baseUrl' in options.clientConfig
          ? { url: `${options.clientConfig.baseUrl}${webhook.path}` }
          : { service: { ...options.clientConfig.service, path: webhook.path } }),
        ...(options.caBundle === undefined ? {} : { caBundle: options.caBundle }),
      },
      ...(options.namespaceSelector === undefined ? {} : { namespaceSelector: options.namespaceSelector }),
      ...(options.objectSelector === undefined ? {} : { objectSelector: options.objectSelector }),
      rules: [
        {
          operations: ['CREATE', 'UPDATE'],
          apiGroups: [webhook.group],
          apiVersions: [...webhook.versions],
          resources: [webhook.resource],
          scope: webhook.scope,
        },
      ],
      failurePolicy: options.failurePolicy ?? 'Ignore',
      timeoutSeconds: Math.max(1, Math.min(options.timeoutSeconds ?? 5, 5)),
      sideEffects: 'None',
      matchPolicy: 'Equivalent',
      admissionReviewVersions: ['v1'],
    })),
  };
}
