/**
 * Failures of a reconcile step, in one place: the conversion of whatever was thrown into an Error (the
 * work queue and the logs want one), and the log line that says a step failed — which a shutdown must
 * not produce: an aborted request fails every write in flight, and those are not failures of the
 * workload (the controller logs the cancelled reconcile once, at info).
 */
import type { ReconcileContext } from '@kruise-ts/controller-runtime';

import { errorMessage } from './failure-message.ts';

/** `error` as an Error: itself when it is one, else an Error carrying its text. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(errorMessage(error));
}

/** Logs a failed step at error level, unless the reconcile was aborted (shutdown): that is not a failure. */
export function logFailure(
  context: Pick<ReconcileContext, 'logger' | 'signal'>,
  error: unknown,
  message: string,
): void {
  if (!context.signal.aborted) {
    context.logger.error({ err: error }, message);
  }
}
