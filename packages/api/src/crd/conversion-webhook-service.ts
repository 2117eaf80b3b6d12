/**
 * Where the CRDs in `crds/` send conversion requests: the path every app serves conversions at
 * (OpenKruise's and controller-runtime's `/convert`) and the Service named by the apps' default webhook
 * flags (`--webhook-service-name`, `--webhook-service-namespace`). The chart rewrites the Service to
 * the app's own in the release namespace; the launcher and the test runs to a local URL.
 */

/** The conversion webhook path. */
export const CONVERSION_WEBHOOK_PATH = '/convert';

/** The Service the CRDs in `crds/` name (the apps' default webhook Service). */
export const DEFAULT_CONVERSION_SERVICE = {
  name: 'kruise-ts-webhook',
  namespace: 'kruise-system',
  path: CONVERSION_WEBHOOK_PATH,
} as const;
