import type { Logger } from 'pino';

import { allowedResponse, deniedResponse } from './admission-review.ts';
import type { AdmissionHandler, AdmissionRequest, AdmissionResponse } from './admission-review.ts';
import { isWebhookUnavailable, WebhookUnavailableError } from './webhook-unavailable.ts';

/**
 * What a webhook answers when its handler throws or runs out of time: `allow` lets the request
 * through with a warning (fail-open), `deny` refuses it naming the failure (fail-closed).
 */
export type FailurePolicy = 'allow' | 'deny';

export interface Invocation {
  readonly webhook: string;
  readonly handler: AdmissionHandler;
  readonly request: AdmissionRequest;
  readonly timeoutMs: number;
  readonly failurePolicy: FailurePolicy;
  /**
   * Resolves once the caches the handler reads have synced (rejects when the signal aborts first);
   * the handler runs only then. Caches not synced within the budget are no failure of the handler:
   * see {@link WebhookUnavailableError}.
   */
  readonly waitForCaches?: ((signal: AbortSignal) => Promise<void>) | undefined;
  /** Aborts when the client hangs up or the server stops. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

/** Why a handler's answer was replaced by its failure policy's. */
export type HandlerFailure = { readonly kind: 'timeout' } | { readonly kind: 'error'; readonly message: string };

/**
 * Runs a handler within its time budget, once its caches have synced. A handler past the budget has
 * its signal aborted and is no longer waited for (what it still does cannot change the answer); a
 * throw, a rejection or a timeout gets the failure policy's answer, so that the API server always
 * hears back in time. Rejects with a {@link WebhookUnavailableError} when the caches have not synced
 * within the budget or the handler throws one: the caller then answers no AdmissionReview at all.
 */
export async function invokeHandler(invocation: Invocation): Promise<AdmissionResponse> {
  const budget = new AbortController();
  const signal = AbortSignal.any([budget.signal, invocation.signal]);
  const progress = { cachesSynced: invocation.waitForCaches === undefined };
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      resolve('timeout');
    }, invocation.timeoutMs);
  });
  try {
    const answer = await Promise.race([answerWhenSynced(invocation, signal, progress), timedOut]);
    if (answer !== 'timeout') {
      return answer;
    }
    budget.abort(
      new Error(`the webhook ${invocation.webhook} did not answer within ${String(invocation.timeoutMs)} ms`),
    );
    if (!progress.cachesSynced) {
      throw new WebhookUnavailableError(
        `the webhook ${invocation.webhook} is not ready: its caches have not synced within ${String(invocation.timeoutMs)} ms`,
      );
    }
    return failureResponse(invocation, { kind: 'timeout' });
  } catch (error) {
    if (isWebhookUnavailable(error)) {
      throw error;
    }
    return failureResponse(invocation, {
      kind: 'error',
      message: error instanceof Error ? error.message : String(error),
    });
  } finally {
    clearTimeout(timer);
  }
}

async function answerWhenSynced(
  invocation: Invocation,
  signal: AbortSignal,
  progress: { cachesSynced: boolean },
): Promise<AdmissionResponse> {
  if (invocation.waitForCaches !== undefined) {
    await invocation.waitForCaches(signal);
    progress.cachesSynced = true;
  }
  return invocation.handler(invocation.request, signal);
}

/** The failure policy's answer; the failure is logged with the request it was about. */
export function failureResponse(invocation: Invocation, failure: HandlerFailure): AdmissionResponse {
  const { webhook, request, failurePolicy, timeoutMs } = invocation;
  const what =
    failure.kind === 'timeout' ? `did not answer within ${String(timeoutMs)} ms` : `failed: ${failure.message}`;
  invocation.logger.warn(
    {
      webhook,
      uid: request.uid,
      operation: request.operation,
      namespace: request.namespace,
      name: request.name,
      failurePolicy,
      failure: failure.kind,
      ...(failure.kind === 'error' ? { error: failure.message } : {}),
    },
    failurePolicy === 'allow'
      ? 'Webhook handler failed; allowing the request (failure policy allow)'
      : 'Webhook handler failed; denying the request (failure policy deny)',
  );
  if (failurePolicy === 'allow') {
    return allowedResponse({ warnings: [`webhook ${webhook} ${what}; allowed by its failure policy`] });
  }
  return failure.kind === 'timeout'
    ? deniedResponse(`webhook ${webhook} ${what} (timeout)`, { code: 504, reason: 'Timeout' })
    : deniedResponse(`webhook ${webhook} ${what}`, { code: 500, reason: 'InternalError' });
}
