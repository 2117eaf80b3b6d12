/**
 * A replica that cannot answer an admission request correctly yet (its caches have not synced) must
 * not answer it at all: the chart's webhook Services publish not-ready addresses (so that CRD
 * conversion reaches a replica whose caches wait for that very conversion), and the API server may
 * call a replica that just started. An answer made from an empty cache would be wrong (a pod admitted
 * without its sidecars although a SidecarSet selects it), and so would the handler's own failure policy
 * (it covers handlers that fail, not replicas that are not ready). The server answers 503 instead,
 * and the API server then does what the webhook configuration's `failurePolicy` says, exactly as when
 * no replica could be reached.
 */

/** Marks the error across bundles and threads, where `instanceof` may see another copy of the class. */
const UNAVAILABLE = Symbol.for('kruise-ts.webhook-unavailable');

export class WebhookUnavailableError extends Error {
  readonly [UNAVAILABLE] = true;

  constructor(message: string) {
    super(message);
    this.name = 'WebhookUnavailableError';
  }
}

/** Whether `error` says the replica cannot answer yet (a {@link WebhookUnavailableError}, from any copy of this module). */
export function isWebhookUnavailable(error: unknown): error is WebhookUnavailableError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Partial<Record<typeof UNAVAILABLE, unknown>>)[UNAVAILABLE] === true
  );
}
