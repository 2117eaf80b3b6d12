/**
 * The steps of a migration. Each step first scales the CloneSet up (at most `maxSurge` pods more than
 * the target run at any time) and, once those pods are available, scales the Deployment down by as
 * many. The Deployment never loses a pod before its replacement is available, so the two together
 * never have fewer available pods than the Deployment had.
 */

/** Replicas of the two workloads: where a migration stands, or where a step takes it. */
export interface Replicas {
  readonly cloneSet: number;
  readonly deployment: number;
}

export interface PlanInput {
  /** The pods that move: the Deployment's replicas when the migration began. */
  readonly target: number;
  /** Where the two workloads stand now: (0, target) at the start, anything between on a re-run. */
  readonly current: Replicas;
  /** The most pods the CloneSet gains in one step, at least 1. */
  readonly maxSurge: number;
}

/**
 * The steps from `current` to (target, 0). A re-run after an interruption between the two halves of
 * a step (the CloneSet scaled up, the Deployment not yet down) first finishes that step.
 */
export function planSteps(input: PlanInput): Replicas[] {
  const { target, maxSurge } = input;
  if (!Number.isInteger(maxSurge) || maxSurge < 1) {
    throw new RangeError(`maxSurge must be a positive integer, got ${String(maxSurge)}`);
  }
  if (input.current.cloneSet > target || input.current.cloneSet < 0 || input.current.deployment < 0) {
    throw new RangeError(`no plan from ${JSON.stringify(input.current)} to ${String(target)} pods`);
  }
  const steps: Replicas[] = [];
  let { cloneSet, deployment } = input.current;
  while (cloneSet < target || deployment > 0) {
    cloneSet = cloneSet + deployment > target ? cloneSet : Math.min(target, cloneSet + maxSurge);
    deployment = Math.min(deployment, target - cloneSet);
    steps.push({ cloneSet, deployment });
  }
  return steps;
}

/** `--max-surge`: a count, or a percentage of the pods that move (rounded up, as a Deployment rounds its maxSurge). */
export type MaxSurge = { readonly count: number } | { readonly percent: number };

export function resolveMaxSurge(maxSurge: MaxSurge, target: number): number {
  const count = 'count' in maxSurge ? maxSurge.count : Math.ceil((target * maxSurge.percent) / 100);
  return Math.max(1, count);
}
