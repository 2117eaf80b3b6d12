/**
 * A workload this controller cannot act on (its schema refuses the cached object, its template cannot
 * be decoded or the API server refuses it), reported the same way for every kind: a Warning Event once
 * per new problem, the problem's condition, zero counts where the status has none yet, and
 * `observedGeneration` moved to this generation. Nothing else is written, no pod is touched, and the
 * reconcile ends with a TerminalError: retrying cannot help, the user's next edit reconciles it again.
 */
import { objectReference, TerminalError } from '@kruise-ts/controller-runtime';
import type { DeepReadonly, ReconcileContext } from '@kruise-ts/controller-runtime';

import { setCondition } from './conditions.ts';
import type { WorkloadCondition } from './conditions.ts';
import type { ReportedProblem } from './reported-problem.ts';
import { warnOnce } from './reported-problem.ts';
import type { UnusableSpecReporter, WorkloadClients, WorkloadObject } from './reconcile-steps.ts';
import { writeWorkloadStatus } from './workload-status-write.ts';

/** The kind's clients and its way of reporting. */
export interface UnusableSpecSteps<W extends WorkloadObject> extends UnusableSpecReporter {
  readonly clients: WorkloadClients<W>;
}

function problemCondition(
  conditions: readonly WorkloadCondition[],
  problem: ReportedProblem,
  now: number,
): WorkloadCondition[] {
  return setCondition(
    conditions,
    { type: problem.type, status: 'True', reason: problem.reason, message: problem.message },
    { now },
  );
}

/** The status that reports `problem`: the cached one (or zero counts) with the problem's condition. */
export function unusableStatus<W extends WorkloadObject>(
  steps: UnusableSpecReporter,
  input: { readonly workload: DeepReadonly<W>; readonly problem: ReportedProblem; readonly now: number },
): Record<string, unknown> {
  const { workload, problem } = input;
  const current = workload.status?.conditions ?? [];
  const conditions = (steps.setProblemCondition ?? problemCondition)(current, problem, input.now);
  const generation = workload.metadata.generation;
  const observed = steps.observesGeneration && generation !== undefined ? { observedGeneration: generation } : {};
  return { ...steps.zeroCounts, ...structuredClone(workload.status), ...observed, conditions };
}

/** Reports the workload (see the file's comment); a workload deleted meanwhile ends quietly (undefined). */
export async function reportUnusableSpec<W extends WorkloadObject>(
  steps: UnusableSpecSteps<W>,
  context: Pick<ReconcileContext, 'signal' | 'logger'>,
  input: { readonly workload: DeepReadonly<W>; readonly problem: ReportedProblem },
): Promise<undefined> {
  const { clients } = steps;
  const { workload, problem } = input;
  const ref = objectReference(clients.resource, workload);
  warnOnce(clients.recorder, { ref, conditions: workload.status?.conditions, problem });
  const status = unusableStatus(steps, { workload, problem, now: clients.clock.now() });
  const written = await writeWorkloadStatus(clients, context, { workload, status });
  if (!written) {
    return undefined;
  }
  throw new TerminalError(problem.message);
}
