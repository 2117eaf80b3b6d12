/**
 * The reconcile every workload controller runs (controller-runtime's `Reconcile`, OpenKruise's
 * `doReconcile` where all four controllers agree), with the app's steps plugged in:
 *
 * 1. read the cached workload (gone: forget what was kept for it), after the cache shows our last
 *    write to it — everything below reads its cached status;
 * 2. parse it, and validate what the parse cannot (a template the API server refuses); a spec the
 *    controller cannot act on is reported and ends the reconcile with a TerminalError;
 * 3. wait while the cache does not show our creations, deletions and writes;
 * 4. sync (the app's steps), then write the status it computed, whatever the sync did: a workload
 *    deleted meanwhile ends quietly (its delete event ends the work), a failed sync is thrown only
 *    once the status says so (the queue's backoff retries it).
 */
import { requestKey } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, ReconcileContext, Request, Result } from '@kruise-ts/controller-runtime';

import { ownWriteRequeue } from './own-writes.ts';
import type { WorkloadReconcileSteps, WorkloadObject } from './reconcile-steps.ts';
import type { Synced, SyncOutcome, WaitingForCache } from './sync-outcome.ts';
import { sooner } from './sync-outcome.ts';
import { reportUnusableSpec } from './unusable-spec.ts';
import { writeWorkloadStatus } from './workload-status-write.ts';

type Steps<W extends WorkloadObject, S extends object> = WorkloadReconcileSteps<W, S>;

/** Runs one reconcile of the request's workload through `steps` (see the file's comment). */
export async function reconcileWorkload<W extends WorkloadObject, S extends object>(
  steps: Steps<W, S>,
  context: ReconcileContext,
  request: Request,
): Promise<Result | undefined> {
  const cached = steps.get(request);
  if (cached === undefined) {
    steps.forget(requestKey(request));
    return undefined;
  }
  const ownWrite = ownWriteRequeue(steps.clients.resourceVersionExpectations, cached);
  if (ownWrite !== undefined) {
    return ownWrite;
  }
  const parsed = steps.parse(cached);
  if (parsed.kind === 'invalid') {
    return reportUnusableSpec(steps, context, { workload: cached, problem: steps.unreadable(parsed.message) });
  }
  const workload = parsed.object;
  const invalid = await steps.validate?.(context, workload);
  if (invalid !== undefined) {
    return reportUnusableSpec(steps, context, { workload, problem: invalid });
  }
  const waiting = steps.waitForCache?.(context, workload);
  if (waiting !== undefined) {
    return waitFor(context, waiting);
  }
  return finish(steps, context, { workload, outcome: await steps.sync(context, workload) });
}

function waitFor(context: ReconcileContext, waiting: WaitingForCache): Result {
  context.logger.debug({ reason: waiting.reason }, 'Waiting for the cache');
  return { requeueAfterMs: waiting.delayMs };
}

/** What follows the sync: wait, report, or write the status and then what comes after it. */
function finish<W extends WorkloadObject, S extends object>(
  steps: Steps<W, S>,
  context: ReconcileContext,
  input: { readonly workload: DeepReadonly<W>; readonly outcome: SyncOutcome<S> },
): Promise<Result | undefined> {
  const { workload, outcome } = input;
  switch (outcome.kind) {
    case 'waiting':
      return Promise.resolve(waitFor(context, outcome));
    case 'unusable':
      return reportUnusableSpec(steps, context, { workload, problem: outcome.problem });
    case 'synced':
      return writeStatusAndAfter(steps, context, { workload, synced: outcome });
  }
}

async function writeStatusAndAfter<W extends WorkloadObject, S extends object>(
  steps: Steps<W, S>,
  context: ReconcileContext,
  input: { readonly workload: DeepReadonly<W>; readonly synced: Synced<S> },
): Promise<Result | undefined> {
  const { synced } = input;
  if (
    synced.status !== undefined &&
    !(await writeWorkloadStatus(steps.clients, context, { workload: input.workload, status: synced.status }))
  ) {
    return undefined;
  }
  const after = await synced.afterStatus?.();
  if (synced.failure !== undefined) {
    throw synced.failure;
  }
  return sooner(synced.result, after);
}
